"""How good the expert's guesses are: the share of the other seats' tiles its weighed
guesses put in the right hand, beside what the same guesses give unweighed.

Seeing every tile, the expert's search wins nine rounds of Milo in ten against
ISMCTS-400; with its guesses, 55% (``docs/PLAYERS.md``, "the expert seeing every tile").
So Milo's gap lies in the guesses, and a change to them (the model of the other seats'
habits in :mod:`bot.players.beliefs`, what passes rule out in
:mod:`bot.players.knowledge`) can be judged here in minutes, on the same deals, before
a tournament of hours judges its play.

Rounds are played by one level at every seat; at each decision with a choice, while
the round can be replayed from its deal (:func:`bot.players.beliefs.can_replay`), the
seat to move draws the expert's pool of guesses and weighs them as the expert does
(:func:`bot.players.beliefs.weighed_deals`). Its base pool: Milo's expert draws four
times as many in a round's early decisions, which moves neither share in expectation.

    python benchmarks/guesses.py --deals 200 --only milo
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

from benchmarks.players import interval, tournament_deal
from bot.engine import GAMES, Round, Tile
from bot.levels import LEVELS
from bot.players import computer_player
from bot.players.beliefs import can_replay, weighed_deals
from bot.players.expert import TEAM_WINS, ExpertPlayer

Hands = Sequence[Sequence[Tile]]

LATE = TEAM_WINS.exact_below
"""Decisions with at most this many tiles left (in hands and boneyard) are reported
apart: from there Milo's expert searches each guess exactly."""


def placement_share(
    truth: Hands, guesses: Sequence[Hands], weights: Sequence[float], seat: int
) -> float | None:
    """The share of the other seats' tiles (as ``truth`` deals them) that the guesses,
    in proportion to ``weights``, put in the hand that holds them; None when no other
    seat holds a tile or no guess has weight."""
    total = sum(weights)
    hidden = sum(len(hand) for other, hand in enumerate(truth) if other != seat)
    if total <= 0 or hidden == 0:
        return None
    placed = 0.0
    for guess, weight in zip(guesses, weights, strict=True):
        right = sum(
            len(set(hand) & set(guess[other])) for other, hand in enumerate(truth) if other != seat
        )
        placed += weight * right
    return placed / (total * hidden)


def effective_share(weights: Sequence[float]) -> float:
    """Kish's effective sample size of ``weights``, as a share of their number: how many
    of the guesses the weighing leaves doing the work (1: all alike)."""
    total = sum(weights)
    squares = sum(w * w for w in weights)
    return total * total / (squares * len(weights)) if squares > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Sample:
    """One decision's guesses: the tiles left then (hands and boneyard), the shares
    placed right weighed and unweighed, and the weights' effective share."""

    tiles_left: int
    weighed: float
    unweighed: float
    effective: float


def judge(round_: Round, pool: int, rng: random.Random) -> Sample | None:
    """The guesses of the seat to move in ``round_``, weighed and not (None when they
    cannot be weighed, or nothing is hidden)."""
    seat = round_.turn
    view = round_.seat_view(seat)
    if not can_replay(view):
        return None
    deals, weights, _ = weighed_deals(view, rng, pool, weigh=True)
    guesses = [hands for hands, _ in deals]
    truth = [round_.hand(s) for s in range(round_.n)]
    weighed = placement_share(truth, guesses, weights, seat)
    unweighed = placement_share(truth, guesses, [1.0] * len(guesses), seat)
    if weighed is None or unweighed is None:
        return None
    left = sum(view.public.hand_sizes) + view.public.boneyard_count
    return Sample(left, weighed, unweighed, effective_share(weights))


def play(game: str, level: str, deal: int, pool: int) -> list[Sample]:
    """One round of deal number ``deal``, every seat ``level``; the samples of its
    decisions with a choice."""
    round_ = tournament_deal(GAMES[game], deal)
    bots = [computer_player(level, deal * 10 + seat) for seat in range(round_.n)]
    rng = random.Random(deal)
    samples = []
    while not round_.is_over:
        if len(round_.legal_moves()) > 1:
            sample = judge(round_, pool, rng)
            if sample is not None:
                samples.append(sample)
        round_.play(bots[round_.turn].choose(round_.seat_view(round_.turn)))
    return samples


def percent(values: list[float]) -> str:
    """Mean ± the 95% interval's half-width, in percent (decisions of a round are not
    independent, so read the half-width as a floor)."""
    mean, half = interval(values)
    return f"{100 * mean:5.1f}% ± {100 * half:3.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed-base", type=int, default=0, help="the first deal's number")
    parser.add_argument("--only", choices=sorted(GAMES), default="milo")
    parser.add_argument("--level", choices=LEVELS, default="hard", help="who plays the rounds")
    parser.add_argument("--pool", type=int, default=ExpertPlayer().pool, help="guesses weighed")
    args = parser.parse_args()
    by_phase: dict[str, list[Sample]] = defaultdict(list)
    for deal in range(args.seed_base, args.seed_base + args.deals):
        for sample in play(args.only, args.level, deal, args.pool):
            phase = "at most" if sample.tiles_left <= LATE else "more than"
            by_phase[phase].append(sample)
    print(f"{args.only}, {args.level} at every seat, deals {args.seed_base}–"
          f"{args.seed_base + args.deals - 1}, {args.pool} guesses a decision")  # fmt: skip
    for phase, samples in sorted(by_phase.items()):
        weighed = percent([s.weighed for s in samples])
        unweighed = percent([s.unweighed for s in samples])
        effective = statistics.fmean(s.effective for s in samples)
        print(
            f"  {phase:>9} {LATE} tiles left: {len(samples):5} decisions; tiles placed right,"
            f" weighed {weighed}, unweighed {unweighed}; effective guesses {100 * effective:.0f}%"
        )


if __name__ == "__main__":
    main()
