"""Swiss and round-robin pairings for tables of 2–4 entrants, with drawn partners or not.

Swiss (:func:`swiss`)
    Round one deals the seeds by *slide*: with ``T`` tables, table 1 takes seeds 1,
    T + 1, 2T + 1 …, table 2 seeds 2, T + 2 … (1 v 5, 2 v 6 … for eight at tables of
    two: the top half meets the bottom half, as the Dutch system's first round does).
    Later rounds list the entrants by match points, then by seed, and seat them from
    that list top-down, as Board Game Arena seats its multiplayer Swiss rounds: the
    leaders at table 1, the next at table 2. Two entrants who have sat at one table
    before (as opponents, or as partners) are kept apart while any seating allows it,
    and otherwise the fewest such repeats are made (``search``). With drawn partners a
    repeated partnership is worse than any number of repeated meetings, and each table
    of four sets its best and worst placed against the two between them when that
    repeats no partnership. A withdrawn or dropped entrant is simply left out of the
    entrants: the record keeps what they played.

    Byes, when the entrants do not fill the tables (``seating.table_sizes``), go to the
    lowest placed of those who have had the fewest byes: nobody has a second bye while
    someone has had none. A bye is worth what a full table's winner earns.

Round robin (:func:`round_robin`)
    At tables of two, the circle method: everyone meets everyone else exactly once, in
    ``n - 1`` rounds (``n`` rounds and a bye each when ``n`` is odd). At tables of three
    or four (or with drawn partners) the guarantee is that every pair sits at a table
    together at least once, in as few rounds as the schedule below finds: it starts
    from the least number of rounds that could do it, seats each round to bring together
    the most pairs who have not met, then swaps entrants between tables of a round
    towards every pair meeting, then towards repeats spread evenly (several pairs
    meeting twice rather than one three times) — a steepest descent, then random swaps
    taking a worse one now and then to get out of dead ends — and adds a round only
    when the swaps cannot complete the schedule. Measured, and checked by the tests for
    every count of 3 to 24 entrants (4 to 16 with drawn partners): at most 3 rounds
    more than :func:`least_rounds` (4 with drawn partners, whose tables cannot shrink),
    and no pair meeting more than 4 times (6 entrants at tables of 3 cannot do better in 4
    rounds; most counts keep every pair to 2 or 3 meetings). Nine at tables of three
    get the perfect schedule: four rounds, every pair once.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from bot.tournaments import search
from bot.tournaments.results import Record, Result, checked, match_points
from bot.tournaments.seating import Bye, Entrant, Pairings, Seating, Table, by_seed, table_sizes

BUDGET = 100_000
"""Search steps a round's seating may take (see ``search``): about a tenth of a second at
worst on the 2-core development machine; a 256-player Swiss's rounds take a few
hundredths (``benchmarks/tournament_pairing.py``)."""

ROUND_BUDGET = 5_000
"""Round robin: search steps for each round's first seating (the swaps do the rest)."""

STEPS = 10_000
"""Round robin: the random swaps tried on a schedule before a round is added."""

HEAT, COOLING, UNCOVERED = 4.0, 0.9997, 6
"""How readily a worse swap is taken (``exp(-worse / heat)``, the heat cooling by
``COOLING`` a step), and how many repeats spread one pair who never meet is worth."""


def swiss(
    entrants: Sequence[Entrant],
    record: Record,
    seating: Seating,
    round: int,
    budget: int = BUDGET,
) -> Pairings:
    """Round ``round`` of a Swiss for ``entrants`` (those still playing), given the
    ``record`` so far (see the module)."""
    seeds = [entrant.id for entrant in by_seed(entrants)]
    checked(record)
    points = match_points(record)
    results = [item for item in record if isinstance(item, Result)]
    order = sorted(seeds, key=lambda entrant: -points.get(entrant, 0))
    sizes, bye_count = table_sizes(len(order), seating)
    had = Counter(item.entrant for item in record if isinstance(item, Bye))
    byes = _byes(order, had, bye_count)
    playing = [entrant for entrant in order if entrant not in byes]
    if not results:
        playing = _slide(playing, sizes)
    met: search.History = {}
    partnered: search.History = {}
    for result in results:
        _meet(result.sides, met, partnered)
    tables = search.seat(
        playing, sizes, seating.drawn_partners, met, partnered, search.repeats, budget
    )
    return Pairings(round, tables, tuple(Bye(round, e, seating.most_points) for e in byes))


def least_rounds(entrants: int, seating: Seating) -> int:
    """The fewest rounds in which each of ``entrants`` could meet every other: each
    round one meets at most ``size - 1`` others, and the round's tables bring together
    only so many pairs."""
    sizes, _ = table_sizes(entrants, seating)
    pairs_a_round = sum(size * (size - 1) // 2 for size in sizes)
    pairs = entrants * (entrants - 1) // 2
    return max(-(-(entrants - 1) // (seating.size - 1)), -(-pairs // max(pairs_a_round, 1)))


def round_robin(
    entrants: Sequence[Entrant], seating: Seating, budget: int = ROUND_BUDGET
) -> tuple[Pairings, ...]:
    """Every round of a round robin for ``entrants``, numbered from 1 (see the module for
    what it guarantees); none when they are too few for a table."""
    seeds = [entrant.id for entrant in by_seed(entrants)]
    if seating.size == 2:
        return _circle(seeds, seating)
    sizes, bye_count = table_sizes(len(seeds), seating)
    if not sizes:
        return ()
    schedule = _Schedule(len(seeds), sizes, bye_count, budget)
    wanted = least_rounds(len(seeds), seating)
    while True:
        while len(schedule.rounds) < wanted:
            schedule.add_round()
        schedule.polish(random.Random(len(seeds)))
        if not schedule.uncovered:
            break
        wanted += 1
    return schedule.pairings(seeds, seating)


def _circle(seeds: list[int], seating: Seating) -> tuple[Pairings, ...]:
    """The circle method: the first seed stays put, the others turn one place a round; a
    missing entrant (``None``, when the count is odd) gives its opponent the bye."""
    circle: list[int | None] = [*seeds, None] if len(seeds) % 2 else list(seeds)
    half = len(circle) // 2
    rounds = []
    for number in range(1, len(circle)):
        tables, byes = [], []
        for first, second in zip(circle[:half], reversed(circle[half:]), strict=True):
            if first is None or second is None:
                sitting = second if first is None else first
                assert sitting is not None
                byes.append(Bye(number, sitting, seating.most_points))
            else:
                tables.append(Table(((first,), (second,))))
        rounds.append(Pairings(number, tuple(tables), tuple(byes)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return tuple(rounds)


def _byes(order: list[int], had: Counter[int], count: int) -> list[int]:
    """Who sits out: of those with the fewest byes so far, the lowest in ``order``
    first."""
    lowest_first = list(reversed(order))
    return sorted(lowest_first, key=lambda entrant: had[entrant])[:count]


def _slide(seeds: list[int], sizes: tuple[int, ...]) -> list[int]:
    """The seeds dealt to the tables one row at a time (table 1 takes seeds 1, T + 1 …),
    listed table by table."""
    tables: list[list[int]] = [[] for _ in sizes]
    dealt = iter(seeds)
    for row in range(max(sizes, default=0)):
        for table, size in zip(tables, sizes, strict=True):
            if size > row:
                table.append(next(dealt))
    return [entrant for table in tables for entrant in table]


def _meet(sides: Sequence[Sequence[int]], met: search.History, partnered: search.History) -> None:
    """Counts the meetings and partnerships of a table."""
    everyone = [entrant for side in sides for entrant in side]
    for one, other in combinations(everyone, 2):
        met.setdefault(one, Counter())[other] += 1
        met.setdefault(other, Counter())[one] += 1
    for side in sides:
        for one, other in combinations(side, 2):
            partnered.setdefault(one, Counter())[other] += 1
            partnered.setdefault(other, Counter())[one] += 1


def _excess(times: int) -> int:
    """What a pair meeting ``times`` times adds to a round robin's ``spread``: nothing for
    once (or never: that is ``uncovered``), 1 for twice, 8 for three times, 27 for four —
    so seven pairs meeting twice are better than one meeting three times."""
    return (times - 1) ** 3 if times else 0


class _Schedule:
    """A round robin being built, entrants numbered by seed: each round's tables (lists
    of entrants) and byes, and how many times each pair meets, with two totals kept up
    to date — ``uncovered``, the pairs that never meet, and ``spread``, the sum of
    ``_excess`` over the pairs (zero when nobody meets twice)."""

    def __init__(self, entrants: int, sizes: tuple[int, ...], byes: int, budget: int) -> None:
        self.entrants = entrants
        self.sizes = sizes
        self.byes = byes
        self.budget = budget
        self.rounds: list[list[list[int]]] = []
        self.sat_out: list[list[int]] = []
        self.count = [[0] * entrants for _ in range(entrants)]
        self.uncovered = entrants * (entrants - 1) // 2
        self.spread = 0
        self.excess = [0]  # _excess by times met, as far as the rounds so far can reach

    def add_round(self) -> None:
        """One more round, seated to bring together the most pairs who have not met."""
        self.excess = [_excess(times) for times in range(len(self.rounds) + 3)]
        had = Counter(entrant for byes in self.sat_out for entrant in byes)
        byes = _byes(list(range(self.entrants)), had, self.byes)
        met: search.History = {
            one: Counter({other: times for other, times in enumerate(row) if times})
            for one, row in enumerate(self.count)
        }
        # Those with the most still to meet head the order: the first table then brings
        # together at least one pair who have not met, so each round brings the end nearer.
        playing = sorted(
            (entrant for entrant in range(self.entrants) if entrant not in byes),
            key=lambda entrant: len(met[entrant]),
        )
        tables = search.seat(playing, self.sizes, False, met, {}, search.spread, self.budget)
        seated = [list(table.entrants) for table in tables]
        for table in seated:
            for one, other in combinations(table, 2):
                self._change(one, other, 1)
        self.rounds.append(seated)
        self.sat_out.append(byes)

    def _change(self, one: int, other: int, by: int) -> None:
        before = self.count[one][other]
        after = before + by
        self.count[one][other] = self.count[other][one] = after
        self.uncovered += (after == 0) - (before == 0)
        self.spread += self.excess[after] - self.excess[before]

    def _gain(self, first: list[int], one: int, second: list[int], other: int) -> tuple[int, int]:
        """What swapping ``one`` (at table ``first``) and ``other`` (at ``second``) would
        change ``uncovered`` and ``spread`` by."""
        uncovered = spread = 0
        excess = self.excess
        for leaving, joining, table in ((one, other, first), (other, one, second)):
            gone, come = self.count[leaving], self.count[joining]
            for mate in table:
                if mate != leaving:
                    lost, won = gone[mate], come[mate]
                    uncovered += (lost == 1) - (won == 0)
                    spread += excess[lost - 1] - excess[lost] + excess[won + 1] - excess[won]
        return uncovered, spread

    def _swap(self, first: list[int], at: int, second: list[int], to: int) -> None:
        one, other = first[at], second[to]
        for leaving, joining, table in ((one, other, first), (other, one, second)):
            for mate in table:
                if mate != leaving:
                    self._change(leaving, mate, -1)
                    self._change(joining, mate, 1)
        first[at], second[to] = other, one

    def _descend(self) -> None:
        """Swaps that bring together more pairs who had not met, or spread the repeats
        more evenly, until none is left."""
        better = True
        while better:
            better = False
            for tables in self.rounds:
                for index, first in enumerate(tables):
                    for second in tables[index + 1 :]:
                        for at in range(len(first)):
                            for to in range(len(second)):
                                if self._gain(first, first[at], second, second[to]) < (0, 0):
                                    self._swap(first, at, second, to)
                                    better = True

    def polish(self, rng: random.Random) -> None:
        """Swaps towards every pair meeting, then towards repeats spread evenly: after
        the steepest descent, ``STEPS`` random swaps, each taken when it does not make
        things worse and otherwise now and then (less often as the steps go on, and the
        worse it is), so as to get out of dead ends; the best schedule seen is kept."""
        self._descend()
        best = (self.uncovered, self.spread)
        kept = [[list(table) for table in tables] for tables in self.rounds]
        slots = sum(
            len(table) * (len(table) - 1) // 2 for tables in self.rounds for table in tables
        )
        pairs = self.entrants * (self.entrants - 1) // 2
        least = max(0, slots - pairs) if slots <= 2 * pairs else None
        rounds = [tables for tables in self.rounds if len(tables) > 1]
        heat = HEAT
        for _ in range(STEPS if rounds else 0):
            if best[0] == 0 and best[1] == least:
                break
            tables = rounds[int(rng.random() * len(rounds))]
            first, second = rng.sample(tables, 2)
            at, to = int(rng.random() * len(first)), int(rng.random() * len(second))
            uncovered, spread = self._gain(first, first[at], second, second[to])
            worse = UNCOVERED * uncovered + spread
            heat *= COOLING
            if worse <= 0 or rng.random() < math.exp(-worse / heat):
                self._swap(first, at, second, to)
                if (self.uncovered, self.spread) < best:
                    best = (self.uncovered, self.spread)
                    kept = [[list(table) for table in tables] for tables in self.rounds]
        self._restore(kept)

    def _restore(self, rounds: list[list[list[int]]]) -> None:
        self.rounds = [[list(table) for table in tables] for tables in rounds]
        self.count = [[0] * self.entrants for _ in range(self.entrants)]
        self.uncovered = self.entrants * (self.entrants - 1) // 2
        self.spread = 0
        for tables in self.rounds:
            for table in tables:
                for one, other in combinations(table, 2):
                    self._change(one, other, 1)

    def pairings(self, seeds: list[int], seating: Seating) -> tuple[Pairings, ...]:
        """The schedule as rounds of tables of entrants, best seeded table first; with
        drawn partners each table of four split, round by round, to repeat the fewest
        partnerships (best and worst seed against the middle two when that repeats
        none)."""
        partnered: Counter[tuple[int, int]] = Counter()
        rounds = []
        for number, (tables, byes) in enumerate(zip(self.rounds, self.sat_out, strict=True), 1):
            named = []
            for table in sorted(sorted(table) for table in tables):
                if seating.drawn_partners:
                    a, b, c, d = table
                    splits = (((a, d), (b, c)), ((a, c), (b, d)), ((a, b), (c, d)))
                    pair_sides = min(
                        splits, key=lambda split: partnered[split[0]] + partnered[split[1]]
                    )
                    partnered.update(pair_sides)
                    sides: tuple[tuple[int, ...], ...] = pair_sides
                else:
                    sides = tuple((entrant,) for entrant in table)
                named.append(Table(tuple(tuple(seeds[e] for e in side) for side in sides)))
            bye_records = tuple(Bye(number, seeds[e], seating.most_points) for e in byes)
            rounds.append(Pairings(number, tuple(named), bye_records))
        return tuple(rounds)
