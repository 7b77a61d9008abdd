"""Swiss pairing speed: a simulated Swiss of 256 players at tables of four, random results,
the pairing's time each round (median and worst; the goal is 100 ms a round), the repeats
it made, the standings' time, and the memory pairing used.

    python benchmarks/tournament_pairing.py [--players 256] [--seats 4] [--rounds 8]
                                            [--partners] [--seed 1]

Times are this process's CPU time, not the wall clock (on a shared machine the wall clock
mostly measures the neighbours). Results are random, with the better rated more likely
to finish ahead, so that score groups keep meeting as in a real event. Memory is what
Python allocated at most during one pairing (tracemalloc, in a second run of the same
rounds, as tracing slows the code down) and the process's peak resident size.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

from bot.tournaments import Bye, Entrant, Pairings, Record, Result, Seating, swiss, swiss_standings

Pairer = Callable[[list[Entrant], list[Result | Bye], Seating, int], Pairings]
"""Pairs a round: the entrants, the record so far, the seating, the round's number."""


def entrants(players: int, rng: random.Random) -> list[Entrant]:
    """Members with ratings around 1500; every tenth a computer (a negative id)."""
    return [
        Entrant(-number if number % 10 == 0 else number, rng.gauss(1500.0, 200.0))
        for number in range(1, players + 1)
    ]


def results(pairings: Pairings, ratings: dict[int, float], rng: random.Random) -> list[Result]:
    """Each table's places by rating plus noise; game points at random."""
    played = []
    for index, table in enumerate(pairings.tables):
        form = [
            max(ratings[entrant] for entrant in side) + rng.gauss(0.0, 300.0)
            for side in table.sides
        ]
        ranked = sorted(range(len(form)), key=lambda side: -form[side])
        places = [0] * len(form)
        for place, side in enumerate(ranked, 1):
            places[side] = place
        points = tuple(rng.randrange(0, 150) for _ in table.sides)
        played.append(Result(pairings.round, index, table.sides, tuple(places), points))
    return played


def repeats(pairings: Pairings, record: Record) -> int:
    """Pairs seated together this round who had sat together before."""
    met = {
        frozenset(pair)
        for item in record
        if isinstance(item, Result)
        for pair in combinations(item.entrants, 2)
    }
    return sum(
        1
        for table in pairings.tables
        for pair in combinations(table.entrants, 2)
        if frozenset(pair) in met
    )


def tournament(
    people: list[Entrant], seating: Seating, rounds: int, seed: int, pair: Pairer
) -> list[Pairings]:
    """Plays the rounds with ``pair`` as the pairing, the results drawn from ``seed``."""
    rng = random.Random(seed)
    ratings = {entrant.id: entrant.rating for entrant in people}
    record: list[Result | Bye] = []
    made = []
    for number in range(1, rounds + 1):
        pairings = pair(people, record, seating, number)
        made.append(pairings)
        record += [*results(pairings, ratings, rng), *pairings.byes]
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--partners", action="store_true", help="Milo alone: partners drawn")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    if arguments.partners:
        seating = Seating(4, drawn_partners=True)
    else:
        seating = Seating(arguments.seats, tuple(range(2, arguments.seats)))
    people = entrants(arguments.players, random.Random(arguments.seed))

    timings: list[float] = []
    standing_times: list[float] = []
    made_repeats: list[int] = []

    def timed(
        people: list[Entrant], so_far: list[Result | Bye], seating: Seating, number: int
    ) -> Pairings:
        started = time.process_time()
        pairings = swiss(people, so_far, seating, number)
        timings.append(time.process_time() - started)
        started = time.process_time()
        swiss_standings(people, so_far)
        standing_times.append(time.process_time() - started)
        made_repeats.append(repeats(pairings, so_far))
        return pairings

    rounds = tournament(people, seating, arguments.rounds, arguments.seed, timed)
    tables = len(rounds[0].tables)
    print(
        f"Swiss of {arguments.players} at tables of {seating.size}"
        f"{' (partners drawn)' if seating.drawn_partners else ''}: {tables} tables a round,"
        f" {arguments.rounds} rounds"
    )
    print(f"{'round':>5}{'pairing ms':>12}{'repeats':>9}{'standings ms':>14}")
    for number, (spent, made, standing) in enumerate(
        zip(timings, made_repeats, standing_times, strict=True), 1
    ):
        print(f"{number:>5}{spent * 1000:>12.1f}{made:>9}{standing * 1000:>14.1f}")
    median, worst = statistics.median(timings) * 1000, max(timings) * 1000
    verdict = "within" if worst <= 100 else "OVER"
    print(f"pairing: p50 {median:.1f} ms, max {worst:.1f} ms ({verdict} the 100 ms goal)")

    peaks: list[int] = []

    def traced(
        people: list[Entrant], so_far: list[Result | Bye], seating: Seating, number: int
    ) -> Pairings:
        tracemalloc.start()
        pairings = swiss(people, so_far, seating, number)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        return pairings

    tournament(people, seating, arguments.rounds, arguments.seed, traced)
    resident = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"memory: pairing allocates at most {max(peaks) / 1024:.0f} KiB a round;"
        f" process peak resident {resident:.0f} MiB"
    )


if __name__ == "__main__":
    main()
