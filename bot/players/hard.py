"""Hard: reason about the hidden tiles. Sample deals consistent with everything the seat
has seen (a pass or a draw shows which numbers a player lacks), play each candidate move
out to the end of the round in every sample with a fast greedy policy, and pick the move
with the best average result for the seat's side."""

from __future__ import annotations

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
    playouts: int = 240
    """Playouts per decision, shared among the candidate moves: a fixed amount of work,
    not a clock, so the choice never depends on how busy the machine is (replays stay
    exact) while the decision stays within its time budget (300 ms at the 95th
    percentile)."""
    min_samples: int = 12
    max_samples: int = 48

    def choose(self, view: dict[str, Any]) -> Move:
        moves = legal(view)
        if len(moves) == 1:
            return moves[0]
        rng = rng_for(self.seed, view)
        knowledge = infer(view)
        seat = view["seat"]
        totals = [0.0] * len(moves)
        samples = max(self.min_samples, min(self.max_samples, self.playouts // len(moves)))
        for _ in range(samples):
            hands, boneyard = sample_deal(view, knowledge, rng)
            base = rebuild(view, hands, boneyard)
            side = base.side_of(seat)
            for index, move in enumerate(moves):
                trial = base.copy()
                trial.play(move)
                totals[index] += playout_value(trial, side)
        best = max(totals)
        return rng.choice([m for m, t in zip(moves, totals, strict=True) if t == best])
