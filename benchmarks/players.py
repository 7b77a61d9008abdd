"""Tournaments between computer players on duplicate deals: every deal is played twice,
with the sides swapped, so luck of the deal cancels out. A "game" here is one round.

    python benchmarks/players.py [--games 2000] [--only cross] [--pairing hard:normal]

Prints, per pairing, A's share of rounds won (a tied round counts half) and A's mean
points per round minus B's, each with a 95% interval, and the hard level's decision time.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

from benchmarks import dominoes_bridge as bridge
from bot.engine import GAMES, Move, Options, Round
from bot.players import computer_player

Chooser = Callable[[Round, int], Move]
PAIRINGS = [("hard", "normal"), ("normal", "easy")]
PACKAGE = ["bota_gorda", "probabilistic_alphabeta"]


def chooser(name: str, seed: int) -> Chooser:
    if name in ("easy", "normal", "hard"):
        player = computer_player(name, seed)
        return lambda round_, seat: player.choose(round_.private_view(seat))
    package = bridge.bota_gorda if name == "bota_gorda" else bridge.probabilistic_alphabeta()
    rng = random.Random(seed)
    return lambda round_, seat: bridge.package_move(package, round_, rng)  # type: ignore[arg-type]


def play_deal(args: tuple[str, str, str, int]) -> list[tuple[float, float, list[float]]]:
    """One deal, twice: (A's round share, A's points − B's, hard decision times) per side."""
    game, a, b, seed = args
    variant = GAMES[game]
    players = 4 if variant.teams else 2
    options = Options.for_game(variant, players)
    results = []
    for a_side in (0, 1):
        random.seed(seed)  # the dominoes package samples with the global generator
        round_ = variant.deal(players, random.Random(seed), options=options)
        names = [a if (seat % 2 == a_side) else b for seat in range(players)]
        choosers = [chooser(name, seed * 10 + seat) for seat, name in enumerate(names)]
        times = []
        while round_.outcome() is None:
            seat = round_.turn
            start = time.perf_counter()
            move = choosers[seat](round_, seat)
            if names[seat] == "hard":
                times.append(time.perf_counter() - start)
            round_.play(move)
        outcome = round_.outcome()
        assert outcome is not None
        a_sides, b_sides = [a_side], [1 - a_side]  # A sits at seats a_side, a_side + 2
        share = 0.5 if outcome.winner is None else float(outcome.winner in a_sides)
        margin = sum(outcome.points[s] for s in a_sides) - sum(outcome.points[s] for s in b_sides)
        results.append((share, float(margin), times))
    return results


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def run(game: str, a: str, b: str, games: int, pool: multiprocessing.pool.Pool) -> list[float]:
    deals = [(game, a, b, seed) for seed in range(games // 2)]
    shares, margins, times = [], [], []
    for pair in pool.imap_unordered(play_deal, deals, chunksize=4):
        for share, margin, hard_times in pair:
            shares.append(share)
            margins.append(margin)
            times += hard_times
    win, win_half = interval(shares)
    mean, mean_half = interval(margins)
    verdict = "above 50%" if win - win_half > 0.5 else "NOT above 50%"
    print(
        f"{game:<15} {a:>23} vs {b:<23} rounds {len(shares):>5}  "
        f"A wins {win:6.1%} ± {win_half:5.1%} ({verdict})  "
        f"A − B points/round {mean:+6.2f} ± {mean_half:5.2f}",
        flush=True,
    )
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="rounds per pairing")
    parser.add_argument("--only", help="one game")
    parser.add_argument("--skip-package", action="store_true")
    parser.add_argument(
        "--pairing",
        choices=[f"{a}:{b}" for a, b in PAIRINGS],
        help="one level pairing (a rerun after changing one level)",
    )
    args = parser.parse_args()
    pairings = [tuple(args.pairing.split(":"))] if args.pairing else PAIRINGS
    hard_times: list[float] = []
    with multiprocessing.Pool(2) as pool:
        for game in [args.only] if args.only else sorted(GAMES):
            for a, b in pairings:
                times = run(game, a, b, args.games, pool)
                hard_times += times
        if not args.skip_package and args.only in (None, "milo"):
            for package in PACKAGE:
                hard_times += run("milo", "hard", package, args.games, pool)
    if hard_times:
        hard_times.sort()
        p50 = hard_times[len(hard_times) // 2] * 1000
        p95 = hard_times[int(len(hard_times) * 0.95)] * 1000
        count = len(hard_times)
        print(f"hard decision time: p50 {p50:.0f} ms, p95 {p95:.0f} ms over {count} decisions")


if __name__ == "__main__":
    main()
