"""Results and standings: placement points, points difference, Buchholz, head-to-head,
byes, a withdrawal, shared places, adjustments, the sums that must hold, and refusals."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    Adjustment,
    BadResult,
    Bye,
    Entrant,
    NoSuchTable,
    NotTheSameTable,
    Result,
    SeatedTwice,
    Seating,
    Standing,
    UnknownEntrant,
    adjusted,
    match_points,
    round_robin,
    round_robin_standings,
    swiss,
    swiss_standings,
)
from tests.tournaments.play import entrants, played


def duel(round_: int, table: int, winner: int, loser: int, score: tuple[int, int]) -> Result:
    return Result(round_, table, ((winner,), (loser,)), (1, 2), score)


# -- placement points and differences -------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ((1, 2, 3, 4), (6, 4, 2, 0)),
        ((4, 3, 2, 1), (0, 2, 4, 6)),
        ((1, 1, 3, 4), (5, 5, 2, 0)),
        ((1, 2, 2, 4), (6, 3, 3, 0)),
        ((1, 2, 2, 3), (6, 3, 3, 0)),
        ((1, 1, 1, 1), (3, 3, 3, 3)),
        ((1, 2, 3), (4, 2, 0)),
        ((2, 1, 2), (1, 4, 1)),
        ((1, 2), (2, 0)),
        ((1, 1), (1, 1)),
    ],
)
def test_placement_points_are_board_game_arenas(
    places: tuple[int, ...], points: tuple[int, ...]
) -> None:
    sides = tuple((entrant,) for entrant in range(1, len(places) + 1))
    assert Result(1, 0, sides, places, (0,) * len(places)).placement_points() == points


def test_the_points_difference_is_against_the_mean_of_the_others() -> None:
    result = Result(1, 0, ((1,), (2,), (3,)), (3, 2, 1), (10, 20, 30))
    assert result.differences() == (Fraction(-15), Fraction(0), Fraction(15))
    assert duel(1, 0, 1, 2, (61, 40)).differences() == (Fraction(21), Fraction(-21))


def test_partners_earn_their_sides_points() -> None:
    result = Result(1, 0, ((1, 3), (2, 4)), (1, 2), (7, 3))
    assert match_points([result]) == {1: 2, 3: 2, 2: 0, 4: 0}


@pytest.mark.parametrize(
    ("sides", "places", "points", "problem"),
    [
        (((1,),), (1,), (0,), "two sides"),
        (((1,), (2,)), (1,), (0, 0), "differ in number"),
        (((1,), ()), (1, 2), (0, 0), "nobody"),
        (((1,), (1,)), (1, 2), (0, 0), "twice"),
        (((1,), (2,)), (0, 1), (0, 0), "start at 1"),
    ],
)
def test_a_result_that_does_not_hold_together_is_refused(
    sides: tuple[tuple[int, ...], ...],
    places: tuple[int, ...],
    points: tuple[int, ...],
    problem: str,
) -> None:
    with pytest.raises(BadResult) as refused:
        Result(3, 2, sides, places, points)
    assert (refused.value.round, refused.value.table) == (3, 2)
    assert problem in refused.value.problem


# -- Swiss -----------------------------------------------------------------------------------


def test_swiss_ties_are_broken_by_buchholz_then_the_points_difference() -> None:
    record = [
        duel(1, 0, 1, 2, (10, 5)),
        duel(1, 1, 3, 4, (8, 2)),
        duel(2, 0, 1, 3, (7, 6)),
        duel(2, 1, 4, 2, (9, 1)),
    ]
    assert swiss_standings(entrants(4), record) == (
        Standing(1, 1, 4, 2, 0, Fraction(2), None, Fraction(6)),
        Standing(2, 3, 2, 2, 0, Fraction(6), None, Fraction(5)),
        Standing(3, 4, 2, 2, 0, Fraction(2), None, Fraction(2)),
        Standing(4, 2, 0, 2, 0, Fraction(6), None, Fraction(-13)),
    )


def test_buchholz_takes_the_mean_of_a_rounds_opponents() -> None:
    # 1 sat with 2 and 3 at a table of three, then with 4 alone.
    record = [
        Result(1, 0, ((1,), (2,), (3,)), (1, 2, 3), (0, 0, 0)),
        Result(1, 1, ((4,), (5,)), (1, 2), (0, 0)),
        Result(2, 0, ((1,), (4,)), (2, 1), (0, 0)),
    ]
    points = match_points(record)
    assert points == {1: 4, 2: 2, 3: 0, 4: 4, 5: 0}
    standings = {line.entrant: line for line in swiss_standings(entrants(5), record)}
    assert standings[1].buchholz == Fraction(2 + 0, 2) + 4
    assert standings[3].buchholz == Fraction(4 + 2, 2)


def test_a_bye_scores_its_points_and_adds_no_buchholz() -> None:
    record: list[Result | Bye] = [duel(1, 0, 1, 2, (5, 0)), Bye(1, 3, 2)]
    lines = {line.entrant: line for line in swiss_standings(entrants(3), record)}
    third = lines[3]
    assert (third.points, third.byes, third.played, third.buchholz) == (2, 1, 0, Fraction(0))
    assert [line.entrant for line in swiss_standings(entrants(3), record)] == [1, 3, 2]


def test_a_withdrawn_entrant_stays_in_the_standings_and_in_their_opponents_buchholz() -> None:
    people = entrants(4)
    record: list[Result | Bye] = [duel(1, 0, 4, 1, (9, 3)), duel(1, 1, 2, 3, (9, 3))]
    # 4 withdraws after round one: round two pairs the other three (one bye).
    remaining = [entrant for entrant in people if entrant.id != 4]
    second = swiss(remaining, record, Seating(2), 2)
    assert 4 not in second.entrants
    record += [*played(second, random.Random(2), ties=False), *second.byes]
    lines = {line.entrant: line for line in swiss_standings(people, record)}
    assert (lines[4].points, lines[4].played) == (2, 1), "the later round adds nothing"
    assert lines[1].buchholz is not None and lines[1].buchholz >= 2, "4's win still counts"


def test_full_ties_share_a_place_listed_by_seed() -> None:
    record = [duel(1, 0, 2, 4, (5, 0)), duel(1, 1, 1, 3, (5, 0))]
    lines = swiss_standings(entrants(4), record)
    assert [(line.place, line.entrant) for line in lines] == [(1, 1), (1, 2), (3, 3), (3, 4)]


# -- round robin -----------------------------------------------------------------------------


def test_round_robin_ties_go_head_to_head_before_the_points_difference() -> None:
    record = [
        duel(1, 0, 1, 2, (5, 4)),  # A beats B narrowly
        duel(1, 1, 4, 3, (1, 0)),  # D beats C
        duel(2, 0, 3, 1, (50, 0)),  # C crushes A
        duel(2, 1, 2, 4, (30, 0)),
        duel(3, 0, 1, 4, (5, 4)),
        duel(3, 1, 2, 3, (30, 0)),
    ]
    lines = round_robin_standings(entrants(4), record)
    assert [(line.entrant, line.points, line.head_to_head) for line in lines] == [
        (1, 4, 2),  # level with B, beat B: ahead despite B's far better difference
        (2, 4, 0),
        (4, 2, 2),
        (3, 2, 0),
    ]
    assert lines[1].difference > lines[0].difference
    assert all(line.buchholz is None for line in lines)


def test_head_to_head_counts_meetings_at_bigger_tables_pair_by_pair() -> None:
    # 1, 2 and 3 all finish level, each ahead of the other two once: still level.
    record = [
        Result(1, 0, ((1,), (2,), (3,), (4,)), (1, 2, 3, 4), (0, 0, 0, 0)),
        Result(2, 0, ((2,), (3,), (1,), (4,)), (1, 2, 3, 4), (0, 0, 0, 0)),
        Result(3, 0, ((3,), (1,), (2,), (4,)), (1, 2, 3, 4), (0, 0, 0, 0)),
    ]
    lines = round_robin_standings(entrants(4), record)
    assert [line.points for line in lines] == [12, 12, 12, 0]
    assert {line.entrant: line.head_to_head for line in lines} == {1: 6, 2: 6, 3: 6, 4: 0}
    assert [line.place for line in lines] == [1, 1, 1, 4]


# -- adjustments and refusals -----------------------------------------------------------------


def test_an_adjusted_result_changes_the_standings_worked_out_again() -> None:
    record: list[Result | Bye] = [duel(1, 0, 1, 2, (5, 3)), duel(1, 1, 3, 4, (5, 3))]
    fixed = Result(1, 0, ((1,), (2,)), (2, 1), (3, 5))
    after = adjusted(record, Adjustment(fixed, "scores were swapped"))
    assert after == (fixed, record[1])
    assert [line.entrant for line in swiss_standings(entrants(4), after)][:2] == [2, 3]
    with pytest.raises(NoSuchTable):
        adjusted(record, Adjustment(Result(2, 0, ((1,), (2,)), (1, 2), (0, 0)), "no such"))
    with pytest.raises(NotTheSameTable):
        adjusted(record, Adjustment(Result(1, 0, ((1,), (3,)), (1, 2), (0, 0)), "others"))


def test_standings_refuse_a_stranger_and_a_double_seat() -> None:
    with pytest.raises(UnknownEntrant) as stranger:
        swiss_standings(entrants(2), [duel(1, 0, 1, 9, (1, 0))])
    assert stranger.value.entrant == 9
    with pytest.raises(SeatedTwice) as twice:
        swiss_standings(entrants(3), [duel(1, 0, 1, 2, (1, 0)), Bye(1, 1, 2)])
    assert (twice.value.round, twice.value.entrant) == (1, 1)


# -- the sums that must hold -----------------------------------------------------------------


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[Entrant], list[Result | Bye]]:
    """A played Swiss, or the first rounds of a round robin: entrants and record."""
    seating = draw(
        st.sampled_from(
            [Seating(2), Seating(3, (2,)), Seating(4, (3,)), Seating(4, drawn_partners=True)]
        )
    )
    rng = random.Random(draw(st.integers(0, 2**32)))
    record: list[Result | Bye] = []
    if draw(st.booleans()):
        people = entrants(draw(st.integers(2, 20)), rng)
        for number in range(1, draw(st.integers(1, 5)) + 1):
            pairings = swiss(people, record, seating, number)
            record += [*played(pairings, rng), *pairings.byes]
    else:
        people = entrants(draw(st.integers(2, 10)), rng)
        for pairings in round_robin(people, seating)[:4]:
            record += [*played(pairings, rng), *pairings.byes]
    return people, record


@given(tournaments(), st.randoms(use_true_random=False))
@settings(max_examples=30, deadline=None)
def test_standings_sum_to_what_the_tables_handed_out(
    tournament: tuple[list[Entrant], list[Result | Bye]], rng: random.Random
) -> None:
    people, record = tournament
    handed_out = 0
    for item in record:
        if isinstance(item, Bye):
            handed_out += item.points
            continue
        sides = len(item.sides)
        assert sum(item.placement_points()) == sides * (sides - 1)
        assert sum(item.differences()) == 0
        handed_out += sum(
            points * len(side)
            for side, points in zip(item.sides, item.placement_points(), strict=True)
        )
    for standings in (swiss_standings(people, record), round_robin_standings(people, record)):
        assert sum(line.points for line in standings) == handed_out
        assert sum(line.difference for line in standings) == 0
        assert sorted(line.entrant for line in standings) == sorted(e.id for e in people)
        assert [line.place for line in standings] == sorted(line.place for line in standings)
        points = [line.points for line in standings]
        assert points == sorted(points, reverse=True)
    # A pure function of the record: its order does not matter.
    shuffled = list(record)
    rng.shuffle(shuffled)
    assert swiss_standings(people, shuffled) == swiss_standings(people, record)
    assert round_robin_standings(people, shuffled) == round_robin_standings(people, record)
