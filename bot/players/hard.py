"""Hard: reason about the hidden tiles. Sample deals consistent with everything the seat
has seen (a pass or a draw shows which numbers a player lacks), play each candidate move
out to the end of the round in every sample with a fast greedy policy, and pick the move
with the best average result for the seat's side."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from bot.engine import Move, Reason, Round
from bot.players.base import legal, rng_for
from bot.players.knowledge import infer
from bot.players.simulate import rebuild, sample_deal

TARGET_BONUS = 100.0
"""Merry-Go-Round: reaching exactly 61 wins the game outright (R-MG-7)."""


def rollout_move(round_: Round) -> Move:
    """The playout policy: the heaviest tile that fits (sheds weight fast), else the
    forced draw or pass."""
    moves = round_.legal_moves()
    if len(moves) == 1:
        return moves[0]
    return max(moves, key=lambda m: m.tile.value if m.tile else -1)


def playout_value(round_: Round, side: int) -> float:
    """Play greedily to the end of the round; the side's gain against the best other."""
    while round_.outcome() is None:
        round_.play(rollout_move(round_))
    outcome = round_.outcome()
    assert outcome is not None
    points = list(outcome.points)
    mine = points.pop(side)
    value = mine - max(points, default=0)
    if outcome.reason is Reason.TARGET:
        value += TARGET_BONUS if outcome.winner == side else -TARGET_BONUS
    return value


@dataclass(frozen=True, slots=True)
class HardPlayer:
    seed: int = 0
    samples: int = 48
    budget_seconds: float = 0.2
    """Stop sampling once this much time is spent (the 300 ms decision budget)."""

    def choose(self, view: dict[str, Any]) -> Move:
        moves = legal(view)
        if len(moves) == 1:
            return moves[0]
        rng = rng_for(self.seed, view)
        knowledge = infer(view)
        seat = view["seat"]
        totals = [0.0] * len(moves)
        deadline = time.perf_counter() + self.budget_seconds
        for done in range(1, self.samples + 1):
            hands, boneyard = sample_deal(view, knowledge, rng)
            base = rebuild(view, hands, boneyard)
            side = base.side_of(seat)
            for index, move in enumerate(moves):
                trial = base.copy()
                trial.play(move)
                totals[index] += playout_value(trial, side)
            if done >= 8 and time.perf_counter() > deadline:
                break
        best = max(totals)
        return rng.choice([m for m, t in zip(moves, totals, strict=True) if t == best])
