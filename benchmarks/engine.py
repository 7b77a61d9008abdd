"""Engine speed: random self-play rounds per second for each game, the ``dominoes``
package's random self-play games per second on the same machine in the same run (with
the Milo ratio), and the time to list the legal moves of one position.

    python benchmarks/engine.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.engine import GAMES, Options, Round


def self_play_rate(game: str, players: int, seconds: float) -> float:
    """Rounds per second: deal, then random legal moves until the round ends."""
    variant = GAMES[game]
    options = Options.for_game(variant, players)
    rng = random.Random(0)
    choice = rng.choice
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        round_ = variant.deal(players, rng, options=options)
        while round_.outcome() is None:
            round_.play(choice(round_.legal_moves()))
        done += 1
    return done / (time.perf_counter() - start)


def dominoes_rate(seconds: float) -> float:
    """The ``dominoes`` package: random self-play games (one hand each) per second."""
    import dominoes

    rng = random.Random(0)
    six_six = dominoes.Domino(6, 6)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = dominoes.Game.new(starting_domino=six_six)
        while game.result is None:
            game.make_move(*rng.choice(game.valid_moves))
        done += 1
    return done / (time.perf_counter() - start)


def legal_moves_time(game: str, players: int, positions: int = 2000) -> tuple[float, float]:
    """Mean and 95th percentile, in µs, of listing one position's legal moves afresh."""
    variant = GAMES[game]
    rng = random.Random(1)
    sample: list[Round] = []
    while len(sample) < positions:
        round_ = variant.deal(players, rng)
        while round_.outcome() is None:
            if rng.random() < 0.2:
                sample.append(round_.copy())
            round_.play(rng.choice(round_.legal_moves()))
    times = []
    for round_ in sample:
        start = time.perf_counter_ns()
        for _ in range(20):
            round_._legal = None  # list them afresh, not from the cache
            round_.legal_moves()
        times.append((time.perf_counter_ns() - start) / 20 / 1000)
    times.sort()
    return statistics.fmean(times), times[int(len(times) * 0.95)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args()
    print(f"{'game':<16}{'players':>8}{'rounds/s':>12}{'legal µs mean':>16}{'p95':>8}")
    rates = {}
    for game in sorted(GAMES):
        players = 4
        rates[game] = self_play_rate(game, players, args.seconds)
        mean, p95 = legal_moves_time(game, players)
        print(f"{game:<16}{players:>8}{rates[game]:>12,.0f}{mean:>16.2f}{p95:>8.2f}")
    theirs = dominoes_rate(args.seconds)
    print(f"{'dominoes (PyPI)':<16}{4:>8}{theirs:>12,.0f}   games/s, random self-play")
    print(f"Milo / dominoes: {rates['milo'] / theirs:.2f}x")


if __name__ == "__main__":
    main()
