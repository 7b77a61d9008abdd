"""Knockout brackets for 2 to 256 entrants at tables of 2, 3 or 4 sides.

Each table sends its best ``advance`` on (1 of 2, 3 or 4; or 2 of 4), so that the
tables of one round feed each table of the next whole: ``size // advance`` of them. The
bracket is a tree drawn before play, as data: rounds of :class:`Match` values whose
seats hold entrants in round one and :class:`From` (who finishes where at an earlier
match) after it. The final is one table, and its winner the champion.

Seeding: the entrants by rating (``seating.by_seed``). Round one has as many seats as
the tree needs, ``size × (size // advance) ** (rounds - 1)``; the seats left over are
byes, and they go to the top seeds: the best seeded tables hold fewest entrants — at
tables of two, seeds 1 to ``b`` advance without playing, exactly as in a tennis draw.
A table that holds no more entrants than advance is a walkover (its entrants go on
without a game); every other round-one table holds a number of players the game allows
(the seating's sizes). Only round one has byes.

The seeds are dealt to round one's tables like cards, snaking (table 1 takes seed 1,
table ``T`` seed ``T``, then seed ``T + 1`` goes to table ``T``…, skipping full tables),
so each table's seeds add up alike; and the tables are placed in the tree so that the
best seeded tables meet as late as possible (at tables of two: seeds 1 and 2 can meet
only in the final, 1 to 4 only in the semi-finals — the usual draw of sixteen, 1 v 16,
8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11).

A table's finishing order is its result's places, a tie broken by the points scored,
then by seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.tournaments.errors import BadAdvance, BadResult, NoBracket, NotForKnockout, TooFewEntrants
from bot.tournaments.results import Result, checked
from bot.tournaments.seating import Entrant, Seating, by_seed


@dataclass(frozen=True, slots=True)
class From:
    """A seat filled by whoever finishes ``place`` (1 is first) at match ``match``."""

    match: int
    place: int


Slot = int | From
"""A seat of a match: an entrant (round one), or who comes from an earlier match."""


@dataclass(frozen=True, slots=True)
class Match:
    """One table of the bracket: its ``number`` (from 1, round by round, each round in
    the order drawn), its ``round`` (from 1) and ``table`` (its index in the round, as
    its :class:`Result` names it), its ``slots``, and how many of its players go on
    (``advance``; the final's one is the champion). Round one's tables may hold fewer
    than ``size`` entrants: the rest of the seats are byes."""

    number: int
    round: int
    table: int
    slots: tuple[Slot, ...]
    size: int
    advance: int

    @property
    def byes(self) -> int:
        """Seats nobody fills."""
        return self.size - len(self.slots)

    @property
    def walkover(self) -> bool:
        """No game: the entrants are no more than advance, and all go on."""
        return len(self.slots) <= self.advance


@dataclass(frozen=True, slots=True)
class Bracket:
    """The whole draw: ``rounds`` of matches (the last holds the final alone), and the
    entrants by seed, best first."""

    rounds: tuple[tuple[Match, ...], ...]
    seeds: tuple[int, ...]

    @property
    def final(self) -> Match:
        return self.rounds[-1][0]

    @property
    def matches(self) -> tuple[Match, ...]:
        """Every match, by number."""
        return tuple(match for matches in self.rounds for match in matches)


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a bracket stands, from the results so far.

    ``seated``: for each match (by number), who sits in each of its seats, None where it
    is not yet known. ``finished``: for each decided match, its entrants in finishing
    order (a walkover's by seed); the first ``advance`` of them go on. ``champion``: the
    final's winner, once it is played.
    """

    seated: dict[int, tuple[int | None, ...]]
    finished: dict[int, tuple[int, ...]]
    champion: int | None

    def ready(self, bracket: Bracket) -> tuple[Match, ...]:
        """The matches to be played now: every seat known, no result yet."""
        return tuple(
            match
            for match in bracket.matches
            if match.number not in self.finished and None not in self.seated[match.number]
        )


def knockout(entrants: Sequence[Entrant], seating: Seating, advance: int = 1) -> Bracket:
    """The bracket for ``entrants`` at tables of ``seating.size`` sides, ``advance`` of
    each going on (see the module). Refuses drawn partners (a knockout's sides are
    fixed: pairs are entrants), fewer than two entrants, an ``advance`` that does not
    divide the table, and a count of entrants the game's table sizes cannot seat."""
    if seating.drawn_partners:
        raise NotForKnockout()
    size = seating.size
    if not 1 <= advance < size or size % advance:
        raise BadAdvance(size, advance)
    seeds = tuple(entrant.id for entrant in by_seed(entrants))
    if len(seeds) < 2:
        raise TooFewEntrants(len(seeds), 2)
    fan = size // advance
    rounds, seats = 1, size
    while seats < len(seeds):
        rounds, seats = rounds + 1, seats * fan
    first = _first_round(seeds, seats // size, rounds, seating, advance)
    order = _drawn(len(first), fan)
    matches = [
        Match(position + 1, 1, position, first[rank], size, advance if rounds > 1 else 1)
        for position, rank in enumerate(order)
    ]
    drawn = [tuple(matches)]
    for round_ in range(2, rounds + 1):
        earlier = drawn[-1]
        later = []
        for table in range(len(earlier) // fan):
            feeders = earlier[table * fan : (table + 1) * fan]
            slots = tuple(
                From(feeder.number, place)
                for feeder in feeders
                for place in range(1, feeder.advance + 1)
            )
            number = earlier[-1].number + table + 1
            later.append(
                Match(number, round_, table, slots, size, advance if round_ < rounds else 1)
            )
        drawn.append(tuple(later))
    return Bracket(tuple(drawn), seeds)


def _first_round(
    seeds: tuple[int, ...], tables: int, rounds: int, seating: Seating, advance: int
) -> list[tuple[Slot, ...]]:
    """Round one's tables, best seeded first: how many each holds (the fewest for the
    best seeded tables), then the seeds dealt to them snaking."""
    if rounds == 1:
        allowed = sorted(count for count in seating.counts if count <= len(seeds))
    else:
        allowed = sorted({advance, *(count for count in seating.counts if count > advance)})
    # reachable[m]: the numbers of entrants m tables can hold.
    reachable = [{0}]
    for _ in range(tables):
        reachable.append({held + count for held in reachable[-1] for count in allowed})
    if len(seeds) not in reachable[tables]:
        raise NoBracket(len(seeds), seating.size, allowed)
    holds, left = [], len(seeds)
    for table in range(tables):
        count = next(c for c in allowed if left - c in reachable[tables - table - 1])
        holds.append(count)
        left -= count
    dealt: list[list[Slot]] = [[] for _ in range(tables)]
    deck = iter(seeds)
    for row in range(max(holds)):
        ranks = range(tables) if row % 2 == 0 else range(tables - 1, -1, -1)
        for rank in ranks:
            if holds[rank] > row:
                dealt[rank].append(next(deck))
    return [tuple(table) for table in dealt]


def _drawn(tables: int, fan: int) -> list[int]:
    """Round one's tables (by rank, best seeded 0) in the order drawn, so that the best
    ranked meet as late as possible: each table of a later round is fed by ``fan``
    tables whose ranks snake as the seeds did (rank ``x`` of ``m`` with ``2m - 1 - x``,
    ``2m + x`` …)."""
    order, feeding = [0], 1
    while feeding < tables:
        order = [
            step * feeding + rank if step % 2 == 0 else (step + 1) * feeding - 1 - rank
            for rank in order
            for step in range(fan)
        ]
        feeding *= fan
    return order


def progress(bracket: Bracket, results: Sequence[Result]) -> Progress:
    """Who sits where and who went on, from ``results`` (each naming its match by round
    and table). Refuses a result for a match that is not there, whose seats are not all
    known yet, or that seats other entrants than the bracket does (or an entrant twice in
    a round)."""
    checked(results)
    by_table = {(result.round, result.table): result for result in results}
    known = {(match.round, match.table) for match in bracket.matches}
    for round_, table in by_table:
        if (round_, table) not in known:
            raise BadResult(round_, table, "the bracket has no such match")
    seed_rank = {entrant: rank for rank, entrant in enumerate(bracket.seeds)}
    seated: dict[int, tuple[int | None, ...]] = {}
    finished: dict[int, tuple[int, ...]] = {}
    for match in bracket.matches:
        sitting = tuple(_filled(slot, finished) for slot in match.slots)
        seated[match.number] = sitting
        result = by_table.get((match.round, match.table))
        if match.walkover:
            finished[match.number] = tuple(entrant for entrant in sitting if entrant is not None)
        elif result is not None:
            if None in sitting:
                raise BadResult(match.round, match.table, "the match's seats are not all known")
            if sorted(result.entrants) != sorted(e for e in sitting if e is not None):
                raise BadResult(
                    match.round, match.table, "it seats other entrants than the bracket"
                )
            finished[match.number] = _finishing(result, seed_rank)
    final = finished.get(bracket.final.number)
    return Progress(seated, finished, final[0] if final else None)


def _filled(slot: Slot, finished: dict[int, tuple[int, ...]]) -> int | None:
    if isinstance(slot, From):
        order = finished.get(slot.match)
        return order[slot.place - 1] if order else None
    return slot


def _finishing(result: Result, seed_rank: dict[int, int]) -> tuple[int, ...]:
    """A knockout table's entrants in finishing order: place, then points, then seed."""
    ranked = sorted(
        zip(result.sides, result.places, result.points, strict=True),
        key=lambda side: (side[1], -side[2], seed_rank[side[0][0]]),
    )
    return tuple(side[0][0] for side in ranked)


def placings(bracket: Bracket, results: Sequence[Result]) -> tuple[tuple[int, int], ...]:
    """The final order of those whose run has ended, as ``(place, entrant)`` best first:
    the later the round they went out in the better, then the better their finish at
    that table; entrants who went out alike share a place (at tables of two, the losing
    semi-finalists are both third). The champion is first once the final is played."""
    done = progress(bracket, results).finished
    out: list[tuple[int, int, int]] = []
    for match in bracket.matches:
        order = done.get(match.number)
        if order is None or match.walkover:
            continue
        stays = 0 if match is bracket.final else match.advance
        out.extend(
            (-match.round, rank, entrant) for rank, entrant in enumerate(order) if rank >= stays
        )
    out.sort()
    placed: list[tuple[int, int]] = []
    for index, (round_, rank, entrant) in enumerate(out):
        tied = index > 0 and out[index - 1][:2] == (round_, rank)
        placed.append((placed[-1][0] if tied else index + 1, entrant))
    return tuple(placed)
