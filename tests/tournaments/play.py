"""What the tournament tests share: entrants, random results for a round's tables, the
meetings a record holds, and every seating of a small round (to judge the search by)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from bot.tournaments import Entrant, Pairings, Record, Result

Pair = frozenset[int]


def entrants(count: int, rng: random.Random | None = None) -> list[Entrant]:
    """Entrants 1..count; by rating in that order unless ``rng`` shuffles the ratings
    (a few computers among them: negative ids)."""
    if rng is None:
        return [Entrant(number, 2000.0 - number) for number in range(1, count + 1)]
    return [
        Entrant(number if number % 5 else -number, round(rng.gauss(1500, 200), 1))
        for number in range(1, count + 1)
    ]


def played(pairings: Pairings, rng: random.Random, ties: bool = True) -> list[Result]:
    """A random result for each table of ``pairings`` (ties now and then)."""
    results = []
    for index, table in enumerate(pairings.tables):
        sides = len(table.sides)
        places = [rng.randint(1, sides) for _ in range(sides)] if ties else []
        if not ties or rng.random() < 0.7:
            order = list(range(1, sides + 1))
            rng.shuffle(order)
            places = order
        points = tuple(rng.randrange(0, 150) for _ in range(sides))
        results.append(Result(pairings.round, index, table.sides, tuple(places), points))
    return results


def meetings(record: Record) -> Counter[Pair]:
    """How many times each pair has sat at one table."""
    met: Counter[Pair] = Counter()
    for item in record:
        if isinstance(item, Result):
            for one, other in combinations(item.entrants, 2):
                met[frozenset((one, other))] += 1
    return met


def partnerships(record: Record) -> Counter[Pair]:
    """How many times each pair has been partners."""
    partnered: Counter[Pair] = Counter()
    for item in record:
        if isinstance(item, Result):
            for side in item.sides:
                for one, other in combinations(side, 2):
                    partnered[frozenset((one, other))] += 1
    return partnered


def seatings(people: Sequence[int], sizes: Counter[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat ``people`` at tables of ``sizes`` (each set of tables once)."""
    if not people:
        yield []
        return
    head, rest = people[0], people[1:]
    for size in [size for size, left in sizes.items() if left]:
        sizes[size] -= 1
        for mates in combinations(rest, size - 1):
            remaining = [person for person in rest if person not in mates]
            for tail in seatings(remaining, sizes):
                yield [(head, *mates), *tail]
        sizes[size] += 1


def repeats(tables: Sequence[Sequence[int]], met: Counter[Pair]) -> int:
    """The pairs seated together who had met before."""
    return sum(
        1
        for table in tables
        for one, other in combinations(table, 2)
        if met[frozenset((one, other))]
    )


def fewest_partner_repeats(table: Sequence[int], partnered: Counter[Pair]) -> int:
    """Of a table of four's three splits into two pairs, the fewest repeated partnerships."""
    a, b, c, d = table
    return min(
        sum(1 for one, other in split if partnered[frozenset((one, other))])
        for split in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
    )
