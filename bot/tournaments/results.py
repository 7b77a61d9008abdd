"""How tables ended, and the placement points they hand out.

A tournament's record is the list of its results and byes (:data:`Record`); standings
are a pure function of it, so an organiser's correction is a new :class:`Result` put in
place of the old one (:func:`adjusted`) and everything is worked out again from the list.

Placement points are Board Game Arena's default for its Swiss tournaments ("…, +6, +4,
+2, 0" from the last place up): a side earns 2 for each side it finished ahead of and 1
for each side it tied with. At a table of four that is 6, 4, 2, 0; of three 4, 2, 0; of
two a win 2, a draw 1 each, a loss 0 — integers even when places tie (two sides sharing
first at a table of four earn 5 each). Every pair of sides at a table shares 2 points,
so a table of ``k`` sides hands out ``k × (k − 1)`` points in all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.tournaments.errors import BadResult, NoSuchTable, NotTheSameTable, SeatedTwice
from bot.tournaments.seating import Bye


@dataclass(frozen=True, slots=True)
class Result:
    """How table ``table`` (its index in the round's pairings, or its match's in the
    round of a knockout) of round ``round`` ended.

    ``sides`` are the entrants at the table as they scored (one each, or two partners);
    ``places`` each side's finishing place (1 is first; equal places tie, and only their
    order counts: 1, 2, 2, 4 and 1, 2, 2, 3 say the same); ``points`` the game points each
    side scored, for the points difference. A seat forfeited by an absentee is placed as
    the service decides (last, usually): the result says how the table ended, not why.
    """

    round: int
    table: int
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    points: tuple[int, ...]

    def __post_init__(self) -> None:
        problem = None
        entrants = [entrant for side in self.sides for entrant in side]
        if len(self.sides) < 2:
            problem = "a table has two sides or more"
        elif not len(self.sides) == len(self.places) == len(self.points):
            problem = "sides, places and points differ in number"
        elif any(not side for side in self.sides):
            problem = "a side has nobody"
        elif len(set(entrants)) != len(entrants):
            problem = "an entrant sits twice"
        elif any(place < 1 for place in self.places):
            problem = "places start at 1"
        if problem is not None:
            raise BadResult(self.round, self.table, problem)

    @property
    def entrants(self) -> tuple[int, ...]:
        """Everyone at the table."""
        return tuple(entrant for side in self.sides for entrant in side)

    def placement_points(self) -> tuple[int, ...]:
        """Each side's placement points (see the module): 2 for each side behind it, 1 for
        each other side level with it."""
        return tuple(
            sum(2 if mine < theirs else 1 if mine == theirs else 0 for theirs in self.places) - 1
            for mine in self.places
        )

    def differences(self) -> tuple[Fraction, ...]:
        """Each side's game points less the mean of the other sides': the points
        difference, comparable between tables of different sizes, and summing to zero at
        every table."""
        total = sum(self.points)
        others = len(self.points) - 1
        return tuple(Fraction(mine) - Fraction(total - mine, others) for mine in self.points)


Record = Sequence[Result | Bye]
"""A tournament's results and byes, in any order."""


@dataclass(frozen=True, slots=True)
class Adjustment:
    """An organiser's correction: ``result`` replaces the result of the same round and
    table, for ``reason`` (the organiser's own words, kept by the service in its log)."""

    result: Result
    reason: str


def adjusted(record: Record, adjustment: Adjustment) -> tuple[Result | Bye, ...]:
    """The record with ``adjustment`` made: the same list, that one result replaced.
    Refuses a table without a result, and a replacement that seats other entrants."""
    new = adjustment.result
    for index, item in enumerate(record):
        if isinstance(item, Result) and (item.round, item.table) == (new.round, new.table):
            if sorted(map(sorted, item.sides)) != sorted(map(sorted, new.sides)):
                raise NotTheSameTable(new.round, new.table)
            return (*record[:index], new, *record[index + 1 :])
    raise NoSuchTable(new.round, new.table)


def match_points(record: Record) -> dict[int, int]:
    """Each entrant's placement points over the record (byes included); an entrant who
    has neither played nor had a bye is absent. Every member of a side earns the side's
    points. Refuses an entrant seated twice in one round."""
    checked(record)
    points: dict[int, int] = defaultdict(int)
    for item in record:
        if isinstance(item, Bye):
            points[item.entrant] += item.points
            continue
        for side, earned in zip(item.sides, item.placement_points(), strict=True):
            for entrant in side:
                points[entrant] += earned
    return dict(points)


def checked(record: Iterable[Result | Bye]) -> None:
    """Refuses a record that seats an entrant twice in one round (two results, or a
    result and a bye)."""
    seen: set[tuple[int, int]] = set()
    for item in record:
        entrants = (item.entrant,) if isinstance(item, Bye) else item.entrants
        for entrant in entrants:
            if (item.round, entrant) in seen:
                raise SeatedTwice(item.round, entrant)
            seen.add((item.round, entrant))
