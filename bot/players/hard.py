"""Hard: reason about the hidden tiles. Sample deals consistent with everything the seat
has seen (a pass or a draw shows which numbers a player lacks), play each candidate move
out to the end of the round in every sample with a fast greedy policy, and pick the move
with the best average result for the seat's side."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Move, Round, SeatView
from bot.players.base import rng_for
from bot.players.knowledge import infer
from bot.players.search import playout
from bot.players.simulate import sample_deal


@dataclass(frozen=True, slots=True)
class Sampling:
    """A decision and what it rested on (nothing sampled when the move was forced)."""

    move: Move
    totals: tuple[float, ...]
    """Per legal move (in the order of ``SeatView.legal``), its playouts' values added up."""
    best_in: tuple[int, ...]
    """Per legal move, the sampled deals in which it did at least as well as any other."""
    deals: int
    """How many deals were sampled."""


@dataclass(frozen=True, slots=True)
class HardPlayer:
    seed: int = 0
    work: int = 8000
    """Moves per decision, made or tried in the playouts: sampling stops once this many
    are done. A count, not a clock, so the choice never depends on how busy the machine
    is (replays stay exact); counted in moves rather than playouts so that long playouts
    early in a round cost no more time than short ones late."""
    min_samples: int = 8
    max_samples: int = 120

    def sample(self, view: SeatView) -> Sampling:
        """The move this player makes here, with the sampling that chose it."""
        moves = view.legal
        if len(moves) == 1:
            return Sampling(moves[0], (), (), 0)
        rng = rng_for(self.seed, view)
        knowledge = infer(view)
        side = view.public.variant.side_of(view.seat)
        totals = [0.0] * len(moves)
        best_in = [0] * len(moves)
        done = 0
        deals = 0
        for deals in range(1, self.max_samples + 1):
            hands, boneyard = sample_deal(view, knowledge, rng)
            base = Round.from_seat_view(view, hands, boneyard)
            values = []
            for index, move in enumerate(moves):
                trial = base.copy()
                trial.play(move)
                value, work = playout(trial, side)
                totals[index] += value
                values.append(value)
                done += work
            top = max(values)
            for index, value in enumerate(values):
                best_in[index] += value == top
            if deals >= self.min_samples and done >= self.work:
                break
        best = max(totals)
        move = rng.choice([m for m, t in zip(moves, totals, strict=True) if t == best])
        return Sampling(move, tuple(totals), tuple(best_in), deals)

    def choose(self, view: SeatView) -> Move:
        return self.sample(view).move
