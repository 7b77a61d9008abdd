"""The one place the expert reads a seat's view itself: what it uses, as engine values.

Views are about to become typed (``SeatView``); then this module changes, with
:mod:`bot.players.knowledge` and :mod:`bot.players.simulate`, which every level hands
the view to, and :mod:`bot.players.base`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Move, Options, Round, find_variant


@dataclass(frozen=True, slots=True)
class Seen:
    seat: int
    variant: type[Round]
    options: Options
    legal: tuple[Move, ...]
    history: tuple[tuple[int, Move], ...]
    leader: int
    named_leader: bool
    start_scores: tuple[int, ...]

    @classmethod
    def of(cls, view: dict[str, Any]) -> Seen:
        return cls(
            seat=view["seat"],
            variant=find_variant(view["game"]),
            options=Options(**view["options"]),
            legal=tuple(Move.parse(text) for text in view["legal"]),
            history=tuple((seat, Move.parse(text)) for seat, text in view["history"]),
            leader=view["leader"],
            named_leader=view["named_leader"],
            start_scores=tuple(view["start_scores"]),
        )
