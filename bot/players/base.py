"""The computer player interface and the factory the table service calls."""

from __future__ import annotations

import hashlib
import random
from typing import Protocol

from bot.engine import Move, SeatView


class ComputerPlayer(Protocol):
    def choose(self, view: SeatView) -> Move:
        """A legal move for the seat whose view this is. The view is all a player ever
        sees: its hand, the public layout, the counts and the history."""


def players_seed(deal_seed: int, *parts: int) -> int:
    """The seed of a computer's own draws at a game dealt from ``deal_seed`` (and
    ``parts``: the table's version, say), taken from it one way (SHA-256): the game
    replays the same, yet no player can work the deal (every hidden hand, the
    boneyard's order) out of the seed it is given, as it could from the deal's own."""
    digest = hashlib.sha256(repr(("players", deal_seed, *parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def rng_for(seed: int, view: SeatView) -> random.Random:
    """A generator fixed by the seed and the position (the seat, the moves made so far
    and the scores), so a player's choice depends on nothing but what it sees: games
    with computer seats replay exactly."""
    public = view.public
    return random.Random(f"{seed}:{view.seat}:{len(public.history)}:{list(public.scores)}")
