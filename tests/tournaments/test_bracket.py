"""Knockout brackets: the draw of sixteen, byes to the top seeds, valid brackets for every
count from 2 to 256 at every table shape, played through to one champion, and the
refusals."""

from __future__ import annotations

import random
from collections import Counter
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    BadAdvance,
    BadResult,
    Bracket,
    From,
    NoBracket,
    NotForKnockout,
    Result,
    Seating,
    TooFewEntrants,
    knockout,
    placings,
    progress,
)
from tests.tournaments.play import entrants

SHAPES = [
    (Seating(2), 1),
    (Seating(3, (2,)), 1),
    (Seating(4, (2, 3)), 1),
    (Seating(4, (2, 3)), 2),
    (Seating(4, (3,)), 2),
]


def play_out(bracket: Bracket, rng: random.Random, favourites: bool = False) -> list[Result]:
    """Results for every match, round by round: random places (or the best seed first)."""
    results: list[Result] = []
    seed = {entrant: rank for rank, entrant in enumerate(bracket.seeds)}
    for _ in bracket.rounds:
        for match in progress(bracket, results).ready(bracket):
            sitting = [entrant for entrant in progress(bracket, results).seated[match.number]]
            assert None not in sitting
            players = [entrant for entrant in sitting if entrant is not None]
            if favourites:
                places = tuple(sorted(seed[p] for p in players).index(seed[p]) + 1 for p in players)
            else:
                places = tuple(rng.sample(range(1, len(players) + 1), len(players)))
            sides = tuple((player,) for player in players)
            points = tuple(rng.randrange(100) for _ in players)
            results.append(Result(match.round, match.table, sides, places, points))
    return results


def test_sixteen_at_tables_of_two_is_the_usual_draw() -> None:
    bracket = knockout(entrants(16), Seating(2))
    assert [match.slots for match in bracket.rounds[0]] == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)
    ]  # fmt: skip
    assert bracket.rounds[1][0].slots == (From(1, 1), From(2, 1))
    assert len(bracket.rounds) == 4


def test_thirteen_at_tables_of_two_give_the_top_three_seeds_byes() -> None:
    first = knockout(entrants(13), Seating(2)).rounds[0]
    assert [match.slots for match in first] == [
        (1,), (8, 9), (4, 13), (5, 12), (2,), (7, 10), (3,), (6, 11)
    ]  # fmt: skip
    assert [match.byes for match in first if match.walkover] == [1, 1, 1]


def test_seeds_one_and_two_meet_only_in_the_final_when_favourites_win() -> None:
    for count in (2, 5, 13, 16, 100):
        bracket = knockout(entrants(count), Seating(2))
        results = play_out(bracket, random.Random(count), favourites=True)
        final = progress(bracket, results).seated[bracket.final.number]
        assert sorted(entrant for entrant in final if entrant is not None) == [1, 2]
        assert progress(bracket, results).champion == 1
        assert placings(bracket, results)[:2] == ((1, 1), (2, 2))


def test_byes_only_go_to_the_top_seeds_at_bigger_tables() -> None:
    bracket = knockout(entrants(10), Seating(4, (2, 3)))
    first = bracket.rounds[0]
    assert [match.slots for match in first] == [(1,), (2,), (3, 6, 7, 10), (4, 5, 8, 9)]
    assert bracket.final.slots == tuple(From(number, 1) for number in (1, 2, 3, 4))


@pytest.mark.parametrize(("seating", "advance"), SHAPES, ids=repr)
def test_every_count_from_2_to_256_makes_a_valid_bracket(seating: Seating, advance: int) -> None:
    """Every entrant placed once, in round one; byes only in round one, and to the top
    seeds; each later match fed whole by the matches before it; round one's tables the
    game's sizes (or walkovers); one final; as few rounds as the table size allows."""
    fan = seating.size // advance
    for count in range(2, 257):
        if count < min(seating.counts):  # too few for the smallest table the game has
            with pytest.raises(NoBracket):
                knockout(entrants(count), seating, advance)
            continue
        bracket = knockout(entrants(count), seating, advance)
        first, later = bracket.rounds[0], bracket.rounds[1:]
        placed = [slot for match in first for slot in match.slots]
        assert all(isinstance(slot, int) for slot in placed)
        seeds = cast(list[int], placed)  # entrants' numbers only, as just checked
        assert sorted(seeds) == list(range(1, count + 1)), count
        assert len(bracket.rounds[-1]) == 1
        seats = seating.size * fan ** (len(bracket.rounds) - 1)
        assert seats >= count > seats // fan or len(bracket.rounds) == 1
        for match in first:
            if len(bracket.rounds) == 1:
                assert len(match.slots) in seating.counts
            else:
                assert match.walkover or len(match.slots) in seating.counts
                assert len(match.slots) >= match.advance
        # The best seeded tables hold the fewest: byes go to the top seeds.
        by_top_seed = sorted(
            first, key=lambda match: min(slot for slot in match.slots if isinstance(slot, int))
        )
        holds = [len(match.slots) for match in by_top_seed]
        assert holds == sorted(holds), count
        fed: Counter[tuple[int, int]] = Counter()
        for earlier, matches in zip(bracket.rounds, later, strict=False):
            numbers = {match.number for match in earlier}
            assert len(matches) * fan == len(earlier)
            for match in matches:
                assert match.byes == 0 and len(match.slots) == seating.size
                assert all(isinstance(slot, From) and slot.match in numbers for slot in match.slots)
                fed.update(
                    (slot.match, slot.place) for slot in match.slots if isinstance(slot, From)
                )
        expected = {
            (match.number, place)
            for earlier in bracket.rounds[:-1]
            for match in earlier
            for place in range(1, match.advance + 1)
        }
        assert set(fed) == expected and set(fed.values()) <= {1}, count


@given(st.sampled_from(SHAPES), st.integers(2, 256), st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_a_bracket_played_through_has_one_champion_and_places_everyone(
    shape: tuple[Seating, int], count: int, seed: int
) -> None:
    seating, advance = shape
    count = max(count, min(seating.counts))
    rng = random.Random(seed)
    people = entrants(count, rng)
    bracket = knockout(people, seating, advance)
    results = play_out(bracket, rng)
    state = progress(bracket, results)
    assert state.champion in {entrant.id for entrant in people}
    assert not state.ready(bracket)
    placed = placings(bracket, results)
    assert sorted(entrant for _, entrant in placed) == sorted(entrant.id for entrant in people)
    assert placed[0] == (1, state.champion)
    assert [place for place, _ in placed] == sorted(place for place, _ in placed)


def test_a_tie_at_the_cut_goes_to_the_points_then_the_seed() -> None:
    bracket = knockout(entrants(4), Seating(2))
    # 1 v 4 and 2 v 3 in round one; both tied, one on points and one level on points.
    results = [
        Result(1, 0, ((1,), (4,)), (1, 1), (10, 30)),
        Result(1, 1, ((2,), (3,)), (1, 1), (20, 20)),
    ]
    assert progress(bracket, results).seated[bracket.final.number] == (4, 2)


def test_placings_share_the_places_of_those_out_in_the_same_round() -> None:
    bracket = knockout(entrants(4), Seating(2))
    results = [
        Result(1, 0, ((1,), (4,)), (1, 2), (10, 3)),
        Result(1, 1, ((2,), (3,)), (2, 1), (1, 9)),
        Result(2, 0, ((1,), (3,)), (2, 1), (5, 6)),
    ]
    assert placings(bracket, results) == ((1, 3), (2, 1), (3, 2), (3, 4))


def test_a_final_of_four_places_all_four() -> None:
    bracket = knockout(entrants(4), Seating(4))
    assert len(bracket.rounds) == 1 and not bracket.final.walkover
    results = [Result(1, 0, ((1,), (2,), (3,), (4,)), (3, 1, 4, 2), (0, 0, 0, 0))]
    assert placings(bracket, results) == ((1, 2), (2, 4), (3, 1), (4, 3))


def test_results_that_do_not_fit_the_bracket_are_refused() -> None:
    bracket = knockout(entrants(4), Seating(2))
    with pytest.raises(BadResult):  # the final before its players are known
        progress(bracket, [Result(2, 0, ((1,), (2,)), (1, 2), (0, 0))])
    with pytest.raises(BadResult):  # other entrants than the draw's
        progress(bracket, [Result(1, 0, ((1,), (2,)), (1, 2), (0, 0))])
    with pytest.raises(BadResult):  # no such match
        progress(bracket, [Result(1, 5, ((1,), (4,)), (1, 2), (0, 0))])


def test_brackets_that_cannot_be_are_refused() -> None:
    with pytest.raises(BadAdvance):
        knockout(entrants(8), Seating(3), advance=2)
    with pytest.raises(BadAdvance):
        knockout(entrants(8), Seating(2), advance=2)
    with pytest.raises(NotForKnockout):
        knockout(entrants(8), Seating(4, drawn_partners=True))
    with pytest.raises(TooFewEntrants):
        knockout(entrants(1), Seating(2))
    with pytest.raises(NoBracket) as refused:  # only tables of four: five cannot split
        knockout(entrants(5), Seating(4))
    assert refused.value.entrants == 5
