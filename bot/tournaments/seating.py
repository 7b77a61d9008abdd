"""Who sits where in a round: entrants, the shape of a table, a round's tables and byes.

These are the values every format shares (Swiss, round robin, knockout). An entrant is
an ``int`` id — a Discord member's id, or a negative id for a computer or a guest, or a
fixed pair of Milo partners that signed up together (the service knows its two members;
here it is one entrant, and a table of fixed pairs is a table of two sides). When
partners are drawn instead, a table of four holds two sides of two, and the partners
are chosen again each round.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.tournaments.errors import BadSeating, DuplicateEntrant


@dataclass(frozen=True, slots=True)
class Entrant:
    """One who plays: ``id`` (see the module) and the ``rating`` that seeds them (the
    higher, the better seed; equal ratings are seeded by id, so that seeding is the same
    on every run)."""

    id: int
    rating: float


def by_seed(entrants: Iterable[Entrant]) -> tuple[Entrant, ...]:
    """Best seed first: rating, highest first, then id; refuses an id named twice."""
    ordered = tuple(sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.id)))
    seen: set[int] = set()
    for entrant in ordered:
        if entrant.id in seen:
            raise DuplicateEntrant(entrant.id)
        seen.add(entrant.id)
    return ordered


@dataclass(frozen=True, slots=True)
class Seating:
    """The tables a round is split into: ``size`` entrants a table (2–4, the organiser's
    choice among the game's player counts), or, when the entrants do not divide into
    tables of ``size``, tables of the ``smaller`` sizes the game also allows. With
    ``drawn_partners`` (Milo played individually) each table of four is two sides of two
    partners drawn for the round; no smaller table can be made of partners."""

    size: int
    smaller: tuple[int, ...] = ()
    drawn_partners: bool = False

    def __post_init__(self) -> None:
        fits = 2 <= self.size <= 4 and all(2 <= count < self.size for count in self.smaller)
        if self.drawn_partners and (self.size != 4 or self.smaller):
            fits = False
        if not fits or len(set(self.smaller)) != len(self.smaller):
            raise BadSeating(self.size, self.smaller, self.drawn_partners)

    @property
    def counts(self) -> tuple[int, ...]:
        """Every table size allowed, largest first."""
        return tuple(sorted({self.size, *self.smaller}, reverse=True))

    @property
    def sides(self) -> int:
        """The sides of a full table: its entrants, or its two teams."""
        return 2 if self.drawn_partners else self.size

    @property
    def most_points(self) -> int:
        """The placement points a full table's winner earns (see ``results``): what a bye
        is worth, as Board Game Arena gives a skipped player "the maximum points a player
        would gain in a full game"."""
        return 2 * (self.sides - 1)


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: its ``sides``, each the entrants who score together (one, or
    two partners). For a table of single entrants ``seats`` is ``entrants``; for partners
    it seats each side's two across from each other (seats 0 and 2 against 1 and 3, as
    the engine's Milo pairs them)."""

    sides: tuple[tuple[int, ...], ...]

    @property
    def entrants(self) -> tuple[int, ...]:
        """Everyone at the table, side by side."""
        return tuple(entrant for side in self.sides for entrant in side)

    @property
    def seats(self) -> tuple[int, ...]:
        """Who sits in each seat, 0 first."""
        if all(len(side) == 1 for side in self.sides):
            return self.entrants
        first, second = self.sides
        return (first[0], second[0], first[1], second[1])


@dataclass(frozen=True, slots=True)
class Bye:
    """``entrant`` sits out round ``round`` and is credited ``points`` placement points.
    Byes are part of a tournament's record beside its results (``results.Record``)."""

    round: int
    entrant: int
    points: int


@dataclass(frozen=True, slots=True)
class Pairings:
    """Round ``round`` as the pairing made it: its tables, in order (the first holds the
    best placed), and its byes."""

    round: int
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...]

    @property
    def entrants(self) -> tuple[int, ...]:
        """Everyone in the round: seated, then given a bye."""
        seated = tuple(entrant for table in self.tables for entrant in table.entrants)
        return seated + tuple(bye.entrant for bye in self.byes)


def table_sizes(entrants: int, seating: Seating) -> tuple[tuple[int, ...], int]:
    """How ``entrants`` split into tables: the tables' sizes (largest first) and the
    number of byes.

    Byes come last: as few as the allowed sizes permit (none whenever the smaller sizes
    can take up the remainder). Then as few tables as possible, then tables as even as
    possible (the smallest table as large as can be): 10 entrants at tables of 4 with 3
    allowed sit 4+3+3, not 4+4+2; with only 4 allowed, 4+4 and two byes.
    """
    counts = seating.counts
    least = counts[-1]
    for byes in range(entrants + 1):
        seated = entrants - byes
        if seated == 0:
            return (), byes
        for tables in range(-(-seated // seating.size), seated // least + 1):
            for smallest in (count for count in counts if count * tables <= seated):
                sizes = _compose(seated, tuple(c for c in counts if c >= smallest), tables)
                if sizes is not None:
                    return sizes, byes
    raise AssertionError("zero entrants always split")  # pragma: no cover


def _compose(total: int, parts: tuple[int, ...], count: int) -> tuple[int, ...] | None:
    """``count`` numbers from ``parts`` (largest first) summing to ``total``, the largest
    such list first, or None. Parts are at most three sizes, so trying how many of the
    largest to take, most first, and recurring on the rest is quick."""
    if not parts:
        return () if total == 0 and count == 0 else None
    largest, rest = parts[0], parts[1:]
    for many in range(min(count, total // largest), -1, -1):
        tail = _compose(total - many * largest, rest, count - many)
        if tail is not None:
            return (largest,) * many + tail
    return None
