"""Easy: any legal move, at random."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Move
from bot.players.base import legal, rng_for


@dataclass(frozen=True, slots=True)
class EasyPlayer:
    seed: int = 0

    def choose(self, view: dict[str, Any]) -> Move:
        return rng_for(self.seed, view).choice(legal(view))
