"""Standings of a Swiss or a round robin: a pure function of the entrants and the record.

Each entrant's match points are the placement points of their tables and byes
(``results``). Ties are broken, in order:

Swiss (:func:`swiss_standings`)
    1. match points;
    2. Buchholz, not cut: for each round played, the mean of that round's opponents' match
       points (the opponents' own total, at a table of two; the mean keeps a table of
       three from counting less than a table of four), summed over the rounds. A bye
       adds nothing. Partners are not opponents.
    3. points difference: for each table, one's game points less the mean of the other
       sides', summed.

Round robin (:func:`round_robin_standings`)
    1. match points;
    2. head-to-head among those level on match points: 2 for each time one finished
       ahead of another of them at a table, 1 for a tie (the placement points of their
       meetings alone; applied once to the whole level group, not again within it);
    3. points difference, as above.

Entrants still level on all of these share a place (1, 2, 2, 4), listed by seed.

A withdrawn or dropped entrant keeps their place in the standings with what they earned
before leaving: their later rounds are not played, so they add nothing to them (neither
win nor loss), and their opponents' Buchholz counts their match points as they stand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.tournaments.errors import UnknownEntrant
from bot.tournaments.results import Record, Result, match_points
from bot.tournaments.seating import Bye, Entrant, by_seed


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's line: ``place`` (shared on a full tie), match ``points``, tables
    ``played`` and ``byes``, the tie-breaks — ``buchholz`` in a Swiss, ``head_to_head``
    in a round robin (None in the other) — and the points ``difference``."""

    place: int
    entrant: int
    points: int
    played: int
    byes: int
    buchholz: Fraction | None
    head_to_head: int | None
    difference: Fraction


def swiss_standings(entrants: Sequence[Entrant], record: Record) -> tuple[Standing, ...]:
    """The Swiss standings, best first (see the module)."""
    tally = _Tally(entrants, record)
    buchholz: dict[int, Fraction] = defaultdict(Fraction)
    for result in tally.results:
        for side in result.sides:
            opponents = [other for rival in result.sides if rival is not side for other in rival]
            strength = Fraction(sum(tally.points[other] for other in opponents), len(opponents))
            for entrant in side:
                buchholz[entrant] += strength
    return tally.ranked(
        lambda entrant: (buchholz[entrant],), buchholz=lambda entrant: buchholz[entrant]
    )


def round_robin_standings(entrants: Sequence[Entrant], record: Record) -> tuple[Standing, ...]:
    """The round-robin standings, best first (see the module)."""
    tally = _Tally(entrants, record)
    level: dict[int, set[int]] = defaultdict(set)
    for entrant in tally.seeds:
        level[tally.points[entrant]].add(entrant)
    head_to_head: dict[int, int] = defaultdict(int)
    for result in tally.results:
        for side, place in zip(result.sides, result.places, strict=True):
            for rival, rival_place in zip(result.sides, result.places, strict=True):
                if rival is side:
                    continue
                for entrant in side:
                    group = level[tally.points[entrant]]
                    met = sum(1 for other in rival if other in group)
                    earned = 2 if place < rival_place else 1 if place == rival_place else 0
                    head_to_head[entrant] += met * earned
    return tally.ranked(
        lambda entrant: (head_to_head[entrant],),
        head_to_head=lambda entrant: head_to_head[entrant],
    )


class _Tally:
    """What both systems count: match points, tables played, byes, points difference."""

    def __init__(self, entrants: Sequence[Entrant], record: Record) -> None:
        self.seeds = [entrant.id for entrant in by_seed(entrants)]
        known = set(self.seeds)
        self.results = [item for item in record if isinstance(item, Result)]
        for item in record:
            for entrant in (item.entrant,) if isinstance(item, Bye) else item.entrants:
                if entrant not in known:
                    raise UnknownEntrant(entrant)
        earned = match_points(record)
        self.points = {entrant: earned.get(entrant, 0) for entrant in self.seeds}
        self.played: dict[int, int] = defaultdict(int)
        self.byes: dict[int, int] = defaultdict(int)
        self.difference: dict[int, Fraction] = defaultdict(Fraction)
        for item in record:
            if isinstance(item, Bye):
                self.byes[item.entrant] += 1
                continue
            for side, difference in zip(item.sides, item.differences(), strict=True):
                for entrant in side:
                    self.played[entrant] += 1
                    self.difference[entrant] += difference

    def ranked(
        self,
        tie_break: Callable[[int], tuple[int | Fraction, ...]],
        buchholz: Callable[[int], Fraction] | None = None,
        head_to_head: Callable[[int], int] | None = None,
    ) -> tuple[Standing, ...]:
        """The entrants by match points, ``tie_break``, points difference (then seed, for
        the listing only), with shared places."""

        def key(entrant: int) -> tuple[int | Fraction, ...]:
            return (self.points[entrant], *tie_break(entrant), self.difference[entrant])

        order = sorted(self.seeds, key=key, reverse=True)  # stable: seed order within ties
        standings: list[Standing] = []
        for index, entrant in enumerate(order):
            tied = index > 0 and key(order[index - 1]) == key(entrant)
            standings.append(
                Standing(
                    standings[-1].place if tied else index + 1,
                    entrant,
                    self.points[entrant],
                    self.played[entrant],
                    self.byes[entrant],
                    buchholz(entrant) if buchholz else None,
                    head_to_head(entrant) if head_to_head else None,
                    self.difference[entrant],
                )
            )
        return tuple(standings)
