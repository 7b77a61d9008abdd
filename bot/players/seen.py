"""The one place the expert reads a seat's view: everything it uses, as engine values.

Views are about to become typed (``SeatView``); when they do, only this module changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Move, Options, Round, Tile, find_variant


@dataclass(frozen=True, slots=True)
class Seen:
    seat: int
    players: int
    variant: type[Round]
    options: Options
    legal: tuple[Move, ...]
    hand: tuple[Tile, ...]
    history: tuple[tuple[int, Move], ...]
    leader: int
    named_leader: bool
    start_scores: tuple[int, ...]

    @classmethod
    def of(cls, view: dict[str, Any]) -> Seen:
        return cls(
            seat=view["seat"],
            players=view["players"],
            variant=find_variant(view["game"]),
            options=Options(**view["options"]),
            legal=tuple(Move.parse(text) for text in view["legal"]),
            hand=tuple(Tile.parse(text) for text in view["hand"]),
            history=tuple((seat, Move.parse(text)) for seat, text in view["history"]),
            leader=view["leader"],
            named_leader=view["named_leader"],
            start_scores=tuple(view["start_scores"]),
        )
