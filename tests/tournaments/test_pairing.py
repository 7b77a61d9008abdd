"""Swiss and round-robin pairings: how rounds split, the first round's slide, repeats
avoided while avoidable (judged against every seating of small rounds), byes, partners,
whole tournaments, and the round robin's guarantees."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    BadSeating,
    Bye,
    DuplicateEntrant,
    Entrant,
    Pairings,
    Result,
    Seating,
    by_seed,
    least_rounds,
    match_points,
    round_robin,
    swiss,
    table_sizes,
)
from tests.tournaments.play import (
    entrants,
    fewest_partner_repeats,
    meetings,
    partnerships,
    played,
    repeats,
    seatings,
)

SHAPES = [
    Seating(2),
    Seating(3),
    Seating(3, (2,)),
    Seating(4),
    Seating(4, (3,)),
    Seating(4, (2, 3)),
    Seating(4, drawn_partners=True),
]

QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tables_of(pairings: Pairings) -> list[tuple[int, ...]]:
    return [table.entrants for table in pairings.tables]


# -- how a round splits ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "seating", "sizes", "byes"),
    [
        (10, Seating(4, (3,)), (4, 3, 3), 0),
        (10, Seating(4, (2, 3)), (4, 3, 3), 0),
        (10, Seating(4), (4, 4), 2),
        (5, Seating(4, (2, 3)), (3, 2), 0),
        (5, Seating(4, (3,)), (4,), 1),
        (6, Seating(4, (2, 3)), (3, 3), 0),
        (9, Seating(2), (2, 2, 2, 2), 1),
        (1, Seating(2), (), 1),
        (3, Seating(4), (), 3),
    ],
)
def test_a_round_splits_into_as_few_smaller_tables_as_it_can(
    count: int, seating: Seating, sizes: tuple[int, ...], byes: int
) -> None:
    assert table_sizes(count, seating) == (sizes, byes)


@given(st.integers(0, 60), st.sampled_from(SHAPES))
@QUICK
def test_a_split_seats_everyone_at_allowed_tables_with_the_fewest_byes(
    count: int, seating: Seating
) -> None:
    sizes, byes = table_sizes(count, seating)
    assert sum(sizes) + byes == count
    assert all(size in seating.counts for size in sizes)
    assert list(sizes) == sorted(sizes, reverse=True)
    # No split of more entrants exists: each count between is out of reach of the sizes.
    reachable = {0}
    for _ in range(count):
        reachable |= {total + size for total in reachable for size in seating.counts}
    assert all(seated not in reachable for seated in range(count - byes + 1, count + 1))


def test_a_seating_no_game_has_is_refused() -> None:
    for size, smaller, partners in [
        (5, (), False),
        (4, (4,), False),
        (2, (), True),
        (3, (1,), False),
    ]:
        with pytest.raises(BadSeating) as refused:
            Seating(size, smaller, partners)
        assert refused.value.size == size


# -- round one -----------------------------------------------------------------------------


def test_round_one_slides_the_top_half_against_the_bottom_half() -> None:
    first = swiss(entrants(8), [], Seating(2), 1)
    assert tables_of(first) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert first.byes == ()


def test_round_one_deals_the_seeds_across_tables_of_four_and_three() -> None:
    first = swiss(entrants(10), [], Seating(4, (3,)), 1)
    assert tables_of(first) == [(1, 4, 7, 10), (2, 5, 8), (3, 6, 9)]


def test_round_one_gives_the_bye_to_the_lowest_seed() -> None:
    first = swiss(entrants(9), [], Seating(2), 1)
    assert first.byes == (Bye(1, 9, 2),)
    assert tables_of(first) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_drawn_partners_pair_the_best_and_worst_seed_against_the_middle_two() -> None:
    first = swiss(entrants(8), [], Seating(4, drawn_partners=True), 1)
    assert [table.sides for table in first.tables] == [((1, 7), (3, 5)), ((2, 8), (4, 6))]
    assert first.tables[0].seats == (1, 3, 7, 5), "partners sit across: seats 0 and 2"


def test_seeding_refuses_an_entrant_named_twice() -> None:
    with pytest.raises(DuplicateEntrant):
        swiss([Entrant(1, 1500.0), Entrant(1, 1400.0)], [], Seating(2), 1)


# -- later rounds ----------------------------------------------------------------------------


def test_later_rounds_seat_the_leaders_together() -> None:
    people = entrants(8)
    first = swiss(people, [], Seating(2), 1)
    record: list[Result | Bye] = [
        Result(1, index, table.sides, (1, 2), (60, 10)) for index, table in enumerate(first.tables)
    ]
    # Winners 1 2 3 4 lead; their next round is among themselves, nearest first.
    assert tables_of(swiss(people, record, Seating(2), 2)) == [(1, 2), (3, 4), (5, 6), (7, 8)]


def test_a_repeat_is_made_only_when_none_can_be_avoided() -> None:
    people = entrants(4)
    record: list[Result | Bye] = [
        Result(1, 0, ((1,), (2,)), (1, 2), (1, 0)),
        Result(1, 1, ((3,), (4,)), (1, 2), (1, 0)),
        Result(2, 0, ((1,), (3,)), (1, 2), (1, 0)),
        Result(2, 1, ((2,), (4,)), (1, 2), (1, 0)),
        Result(3, 0, ((1,), (4,)), (1, 2), (1, 0)),
        Result(3, 1, ((2,), (3,)), (1, 2), (1, 0)),
    ]
    # Everyone has met everyone: the fourth round must repeat, and repeats only as it must.
    fourth = swiss(people, record, Seating(2), 4)
    assert sorted(map(sorted, tables_of(fourth))) == [[1, 2], [3, 4]]


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Entrant], Seating, list[Result | Bye], int]:
    """A few entrants, a seating, and a random record of earlier rounds (dense enough
    that repeats are sometimes unavoidable)."""
    seating = draw(st.sampled_from(SHAPES))
    most = 8 if seating.drawn_partners else 12 if seating.size == 4 else 10
    count = draw(st.integers(seating.size, most))
    rounds = draw(st.integers(1, 6))
    rng = random.Random(draw(st.integers(0, 2**32)))
    people = entrants(count, rng)
    record: list[Result | Bye] = []
    ids = [entrant.id for entrant in people]
    for number in range(1, rounds + 1):
        rng.shuffle(ids)
        sizes, byes = table_sizes(count, seating)
        seated = iter(ids[byes:])
        for index, size in enumerate(sizes):
            table = [next(seated) for _ in range(size)]
            if seating.drawn_partners:
                sides: tuple[tuple[int, ...], ...] = ((table[0], table[1]), (table[2], table[3]))
            else:
                sides = tuple((entrant,) for entrant in table)
            places = tuple(rng.sample(range(1, len(sides) + 1), len(sides)))
            record.append(Result(number, index, sides, places, (0,) * len(sides)))
        record.extend(Bye(number, entrant, seating.most_points) for entrant in ids[:byes])
    return people, seating, record, rounds + 1


@given(histories())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_repeat_while_one_is_avoidable(
    history: tuple[list[Entrant], Seating, list[Result | Bye], int],
) -> None:
    """The round seats everyone once (or gives a bye), at the split's tables, with no
    more repeats than the best of every possible seating of the same players — and with
    drawn partners, no more repeated partnerships first."""
    people, seating, record, number = history
    pairings = swiss(people, record, seating, number)
    everyone = sorted(entrant.id for entrant in people)
    assert sorted(pairings.entrants) == everyone
    sizes, byes = table_sizes(len(people), seating)
    assert sorted(len(table) for table in tables_of(pairings)) == sorted(sizes)
    assert len(pairings.byes) == byes
    met, partnered = meetings(record), partnerships(record)
    playing = [entrant for entrant in everyone if entrant not in {b.entrant for b in pairings.byes}]

    def cost(tables: list[tuple[int, ...]]) -> tuple[int, int]:
        partners = (
            sum(fewest_partner_repeats(table, partnered) for table in tables)
            if seating.drawn_partners
            else 0
        )
        return partners, repeats(tables, met)

    best = min(cost(tables) for tables in seatings(playing, Counter(sizes)))
    made = tables_of(pairings)
    partners_made = sum(
        1
        for table in pairings.tables
        for side in table.sides
        for one, other in combinations(side, 2)
        if partnered[frozenset((one, other))]
    )
    assert (partners_made, repeats(made, met)) == best


@given(histories())
@QUICK
def test_byes_go_to_the_lowest_placed_who_have_had_the_fewest(
    history: tuple[list[Entrant], Seating, list[Result | Bye], int],
) -> None:
    people, seating, record, number = history
    pairings = swiss(people, record, seating, number)
    had = Counter(item.entrant for item in record if isinstance(item, Bye))
    points = match_points(record)
    seed = {entrant.id: rank for rank, entrant in enumerate(by_seed(people))}
    given_now = {bye.entrant for bye in pairings.byes}
    for sitting in set(pairings.entrants) - given_now:
        for out in given_now:
            assert had[out] <= had[sitting], "a second bye while someone has had fewer"
            if had[out] == had[sitting]:
                assert (-points.get(sitting, 0), seed[sitting]) < (-points.get(out, 0), seed[out])
    assert all(bye.points == seating.most_points for bye in pairings.byes)


def test_the_same_inputs_give_the_same_pairings() -> None:
    rng = random.Random(4)
    people = entrants(40, rng)
    record: list[Result | Bye] = []
    for number in range(1, 5):
        pairings = swiss(people, record, Seating(4, (3,)), number)
        assert pairings == swiss(list(reversed(people)), record, Seating(4, (3,)), number)
        record += [*played(pairings, rng), *pairings.byes]


# -- whole tournaments ----------------------------------------------------------------------


@pytest.mark.parametrize("seating", SHAPES, ids=repr)
@pytest.mark.parametrize("count", [9, 24])
def test_a_whole_swiss_seats_everyone_once_a_round_repeating_only_as_it_must(
    seating: Seating, count: int
) -> None:
    """As many rounds as leave each entrant half the field still to meet, one entrant
    withdrawing after round one: every round seats each entrant still in once or gives
    a bye, nobody has a second bye, and no round repeats more meetings than the best
    seating of its players (checked against every seating of nine; twenty-four never
    need to repeat)."""
    rng = random.Random(count * 10 + seating.size)
    people = entrants(count, rng)
    record: list[Result | Bye] = []
    rounds = max(3, (count - 1) // (2 * (seating.size - 1)))
    for number in range(1, rounds + 1):
        if number == 2:
            people = people[1:]  # withdraws: stays in the record, is paired no more
        pairings = swiss(people, record, seating, number)
        assert sorted(pairings.entrants) == sorted(entrant.id for entrant in people)
        met = meetings(record)
        made = repeats(tables_of(pairings), met)
        if count > 9:
            assert made == 0
        else:
            sizes = Counter(len(table.entrants) for table in pairings.tables)
            seated = sorted(entrant for table in tables_of(pairings) for entrant in table)
            assert made == min(repeats(tables, met) for tables in seatings(seated, sizes))
        record += [*played(pairings, rng), *pairings.byes]
    byes = Counter(item.entrant for item in record if isinstance(item, Bye))
    assert max(byes.values(), default=0) <= 1


def test_partners_are_never_drawn_twice_in_a_swiss_of_sixteen() -> None:
    """Eight rounds: meetings must repeat (each round meets three of fifteen), and
    partnerships never do."""
    rng = random.Random(16)
    people = entrants(16, rng)
    record: list[Result | Bye] = []
    for number in range(1, 9):
        pairings = swiss(people, record, Seating(4, drawn_partners=True), number)
        record += played(pairings, rng)
    assert max(partnerships(record).values()) == 1


# -- round robin ----------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 13))
def test_a_round_robin_at_tables_of_two_meets_everyone_exactly_once(count: int) -> None:
    rounds = round_robin(entrants(count), Seating(2))
    assert len(rounds) == (count if count % 2 else count - 1)
    met = Counter(frozenset(table.entrants) for pairings in rounds for table in pairings.tables)
    assert set(met.values()) == {1}
    assert len(met) == count * (count - 1) // 2
    byes = Counter(bye.entrant for pairings in rounds for bye in pairings.byes)
    assert set(byes.values()) <= {1}
    assert len(byes) == (count if count % 2 else 0)
    for pairings in rounds:
        assert sorted(pairings.entrants) == list(range(1, count + 1))


@pytest.mark.parametrize(
    ("seating", "counts", "extra"),
    [
        (Seating(4, (2, 3)), range(3, 25), 3),
        (Seating(3, (2,)), range(3, 25), 3),
        (Seating(4, drawn_partners=True), range(4, 17), 4),
    ],
    ids=["fours", "threes", "partners"],
)
def test_a_round_robin_at_bigger_tables_meets_everyone_and_spreads_repeats(
    seating: Seating, counts: range, extra: int
) -> None:
    """The module's guarantee: every pair meets; at most ``extra`` rounds beyond the
    least; no pair meets more than 4 times."""
    for count in counts:
        rounds = round_robin(entrants(count), seating)
        met: Counter[frozenset[int]] = Counter()
        for pairings in rounds:
            assert sorted(pairings.entrants) == list(range(1, count + 1))
            for table in pairings.tables:
                met.update(frozenset(pair) for pair in combinations(table.entrants, 2))
        assert len(met) == count * (count - 1) // 2, f"{count}: a pair never meets"
        assert len(rounds) <= least_rounds(count, seating) + extra, count
        assert max(met.values()) <= 4, count


def test_a_round_robin_of_nine_at_tables_of_three_is_a_perfect_schedule() -> None:
    """Nine at tables of three can meet each other exactly once in four rounds (a
    Kirkman schedule), and the schedule finds it."""
    rounds = round_robin(entrants(9), Seating(3))
    met = Counter(
        frozenset(pair)
        for pairings in rounds
        for table in pairings.tables
        for pair in combinations(table.entrants, 2)
    )
    assert len(rounds) == 4
    assert set(met.values()) == {1}


def test_too_few_for_a_table_make_no_round_robin() -> None:
    assert round_robin(entrants(3), Seating(4)) == ()
