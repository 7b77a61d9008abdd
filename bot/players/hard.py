"""Hard: reason about the hidden tiles. Sample deals consistent with everything the seat
has seen (a pass or a draw shows which numbers a player lacks), play each candidate move
out to the end of the round in every sample with a fast greedy policy, and pick the move
with the best average result for the seat's side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import MerryGoRound, Move, Reason, Round
from bot.players.base import legal, rng_for
from bot.players.knowledge import infer
from bot.players.simulate import rebuild, sample_deal

TARGET_BONUS = 100.0
"""Merry-Go-Round: reaching exactly 61 wins the game outright (R-MG-7)."""


def rollout_move(round_: Round) -> tuple[Move, int]:
    """The playout policy: the heaviest tile that fits (sheds weight fast), else the
    forced draw or pass. In Merry-Go-Round a play that scores comes first: without it the
    playouts would not see that fives are most of that game's points (R-MG-4). Also
    returns the moves tried on copies to find it, which cost as much as moves made."""
    moves = round_.legal_moves()
    if len(moves) == 1:
        return moves[0], 0
    if isinstance(round_, MerryGoRound):
        return max(moves, key=lambda m: (play_points(round_, m), weight(m))), len(moves)
    return max(moves, key=weight), 0


def weight(move: Move) -> int:
    return move.tile.value if move.tile else -1


def play_points(round_: Round, move: Move) -> int:
    """What ``move`` adds to the mover's score at once (0 if it would bust)."""
    trial = round_.copy()
    side = trial.side_of(trial.turn)
    trial.play(move)
    return trial.scores[side] - round_.scores[side]


def playout_value(round_: Round, side: int) -> tuple[float, int]:
    """Play greedily to the end of the round: the side's gain against the best other,
    and the work it took (moves made and tried)."""
    work = 0
    while round_.outcome() is None:
        move, tried = rollout_move(round_)
        round_.play(move)
        work += 1 + tried
    outcome = round_.outcome()
    assert outcome is not None
    points = list(outcome.points)
    mine = points.pop(side)
    value = float(mine - max(points, default=0))
    if outcome.reason is Reason.TARGET:
        value += TARGET_BONUS if outcome.winner == side else -TARGET_BONUS
    return value, work


@dataclass(frozen=True, slots=True)
class HardPlayer:
    seed: int = 0
    work: int = 8000
    """Moves per decision, made or tried in the playouts: sampling stops once this many
    are done. A count, not a clock, so the choice never depends on how busy the machine
    is (replays stay exact); counted in moves rather than playouts so that long playouts
    early in a round cost no more time than short ones late (p95 ≤ 300 ms)."""
    min_samples: int = 8
    max_samples: int = 120

    def choose(self, view: dict[str, Any]) -> Move:
        moves = legal(view)
        if len(moves) == 1:
            return moves[0]
        rng = rng_for(self.seed, view)
        knowledge = infer(view)
        seat = view["seat"]
        totals = [0.0] * len(moves)
        done = 0
        for sample in range(1, self.max_samples + 1):
            hands, boneyard = sample_deal(view, knowledge, rng)
            base = rebuild(view, hands, boneyard)
            side = base.side_of(seat)
            for index, move in enumerate(moves):
                trial = base.copy()
                trial.play(move)
                value, work = playout_value(trial, side)
                totals[index] += value
                done += work
            if sample >= self.min_samples and done >= self.work:
                break
        best = max(totals)
        return rng.choice([m for m, t in zip(moves, totals, strict=True) if t == best])
