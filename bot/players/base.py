"""The computer player interface and the factory the table service calls."""

from __future__ import annotations

import random
from typing import Any, Protocol

from bot.engine import Move

LEVELS = ("easy", "normal", "hard", "expert")
"""Weakest first: the lobby offers them in this order."""


class ComputerPlayer(Protocol):
    def choose(self, view: dict[str, Any]) -> Move:
        """A legal move for the seat whose private view this is. The view is all a
        player ever sees: its hand, the public layout, the counts and the history."""


def rng_for(seed: int, view: dict[str, Any]) -> random.Random:
    """A generator fixed by the seed and the position, so a player's choice depends on
    nothing but what it sees: games with computer seats replay exactly."""
    return random.Random(f"{seed}:{view['seat']}:{len(view['history'])}:{view['scores']}")


def legal(view: dict[str, Any]) -> list[Move]:
    """The seat's legal moves, as the engine listed them in the view: players never
    work out legality themselves, so they cannot disagree with the referee."""
    return [Move.parse(text) for text in view["legal"]]
