"""Engine speed: random self-play rounds per second for each game and player count, the
``dominoes`` package's random self-play games per second on the same machine in the same
run (with the Milo ratio), and the time to list the legal moves of one position.

    python benchmarks/engine.py [--seconds 3] [--bursts 5]

Times are this process's CPU time, not the wall clock: on a shared machine the wall clock
mostly measures the neighbours. Each rate is the best of several short bursts, and
Milo's and the package's bursts alternate, so both see the same conditions and their
ratio stays fair even when the machine is busy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

import dominoes

from bot.engine import GAMES, Milo, Options, Round

Burst = Callable[[float], float]
"""Runs for about the given seconds; returns what it did per second."""


def self_play(game: str, players: int, seed: int = 0) -> Burst:
    """Rounds per CPU second: deal, then random legal moves until the round ends."""
    variant = GAMES[game]
    options = Options.for_game(variant, players)
    rng = random.Random(seed)
    choice = rng.choice

    def burst(seconds: float) -> float:
        done, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            round_ = variant.deal(players, rng, options=options)
            while round_.outcome() is None:
                round_.play(choice(round_.legal_moves()))
            done += 1
        return done / (time.process_time() - start)

    return burst


def dominoes_self_play(seed: int = 0) -> Burst:
    """The ``dominoes`` package: random self-play games (one hand each, dealt afresh and
    led with 6-6 as in Milo's first round) per CPU second."""
    rng = random.Random(seed)
    six_six = dominoes.Domino(6, 6)

    def burst(seconds: float) -> float:
        done, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            game = dominoes.Game.new(starting_domino=six_six)
            while game.result is None:
                game.make_move(*rng.choice(game.valid_moves))
            done += 1
        return done / (time.process_time() - start)

    return burst


def best(bursts: list[Burst], seconds: float, repeats: int) -> list[float]:
    """The best rate of each burst over ``repeats`` rounds, the bursts taking turns."""
    rates = [0.0] * len(bursts)
    for _ in range(repeats):
        for i, burst in enumerate(bursts):
            rates[i] = max(rates[i], burst(seconds / repeats))
    return rates


def legal_moves_time(game: str, players: int, positions: int = 2000) -> tuple[float, float]:
    """Median and 95th percentile, in µs, of listing one position's legal moves from its
    state: where tiles fit is worked out again from the layout, then the moves listed.
    (The median, not the mean: one preempted sample on a busy machine skews a mean.)"""
    variant = GAMES[game]
    rng = random.Random(1)
    sample: list[Round] = []
    while len(sample) < positions:
        round_ = variant.deal(players, rng)
        while round_.outcome() is None:
            if round_.led and rng.random() < 0.2:
                sample.append(round_.copy())
            round_.play(rng.choice(round_.legal_moves()))
    times = []
    for round_ in sample:
        start = time.process_time_ns()
        for _ in range(20):
            round_._refresh_fits()  # forget what the last move worked out
            round_.legal_moves()
        times.append((time.process_time_ns() - start) / 20 / 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--bursts", type=int, default=5, help="bursts per measurement")
    args = parser.parse_args()
    print(f"{'game':<16}{'players':>8}{'rounds/s':>12}{'legal µs median':>18}{'p95':>8}")
    for game in sorted(GAMES):
        if game == Milo.game:
            continue  # measured below, in turn with the dominoes package
        for players in GAMES[game].player_counts:
            (rate,) = best([self_play(game, players)], args.seconds, args.bursts)
            median, p95 = legal_moves_time(game, players)
            print(f"{game:<16}{players:>8}{rate:>12,.0f}{median:>18.2f}{p95:>8.2f}")
    ours, theirs = best([self_play(Milo.game, 4), dominoes_self_play()], args.seconds, args.bursts)
    median, p95 = legal_moves_time(Milo.game, 4)
    print(f"{Milo.game:<16}{4:>8}{ours:>12,.0f}{median:>18.2f}{p95:>8.2f}")
    print(f"{'dominoes (PyPI)':<16}{4:>8}{theirs:>12,.0f}   games/s, random self-play")
    print(f"Milo / dominoes: {ours / theirs:.2f}x")
    print("(rates per CPU second of this process, best of alternating bursts)")


if __name__ == "__main__":
    main()
