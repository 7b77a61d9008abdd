"""Easy: any legal move, at random."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Move, SeatView
from bot.players.base import rng_for


@dataclass(frozen=True, slots=True)
class EasyPlayer:
    seed: int = 0

    def choose(self, view: SeatView) -> Move:
        return rng_for(self.seed, view).choice(view.legal)
