"""A tournament's pictures: the standings after a round and the knockout bracket, drawn
from the tournament core's values with the words of ``words.tournaments``. Both are
deterministic, sized for any event from 2 to 256 entrants (the standings show the top
64, the bracket its rounds from the round of 16 or so on), cut long names to their room,
and draw every word they are handed and no other."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from PIL import Image

import rendering.tournament
from bot.tournaments import (
    Bracket,
    Entrant,
    Progress,
    Result,
    Seating,
    Standing,
    knockout,
    progress,
    round_robin,
    round_robin_standings,
    swiss,
    swiss_standings,
)
from bot.tournaments.model import Format
from rendering import palette
from rendering.palette import HIGHLIGHT, MUTED
from rendering.tournament import (
    STANDINGS_SHOWN,
    STANDINGS_WIDTH,
    TALLEST,
    first_drawn_round,
    render_bracket,
    render_standings,
)
from tests.tournaments.play import entrants, played
from words.tournaments import (
    bracket_text,
    standings_rows,
    standings_text,
    tournament_title,
)

LONG = "Bartholomew Maximilian Featherstonehaugh-Smythe"
"""Longer than any column or box has room for (Discord allows 32 characters; a Milo
pair's two names are longer still)."""
SHAPES = [(2, (), 1), (3, (2,), 1), (4, (3, 2), 1), (4, (3, 2), 2)]
"""Knockout tables: (size, smaller sizes allowed, how many of each go on)."""


def names_of(people: Sequence[Entrant]) -> dict[int, str]:
    names = {entrant.id: f"Player {entrant.id}" for entrant in people}
    names[people[len(people) // 2].id] = LONG
    return names


def swiss_after(count: int, rounds: int = 1) -> tuple[list[Entrant], list[Standing]]:
    """Standings of a Swiss of ``count`` at tables of four (three allowed) after
    ``rounds`` rounds of seeded results."""
    people = entrants(count)
    seating = Seating(4, (3,)) if count > 2 else Seating(2)
    rng = random.Random(count)
    record: list[Any] = []
    for number in range(1, rounds + 1):
        pairings = swiss(people, record, seating, number)
        record += [*played(pairings, rng), *pairings.byes]
    return people, list(swiss_standings(people, record))


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, tuple[int, int, int]]]]:
    """Every piece of text the pictures write, with its ink (drawn as well)."""
    calls: list[tuple[str, tuple[int, int, int]]] = []

    def spy(image: Any, at: Any, text: str, size: int, ink: Any, anchor: str = "la") -> Any:
        calls.append((text, ink))
        return palette.write(image, at, text, size, ink, anchor)

    monkeypatch.setattr(rendering.tournament, "write", spy)
    yield calls


def size_of(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


# -- standings ----------------------------------------------------------------------------


def test_the_same_standings_give_the_same_bytes() -> None:
    people, standings = swiss_after(9, rounds=2)
    names = names_of(people)
    text = standings_text(tournament_title("Cross", Format.SWISS), Format.SWISS, 2, 4, len(people))
    first = render_standings(standings_rows(standings, names, {}), text)
    again = render_standings(standings_rows(list(standings), dict(names), {}), text)
    assert first.png == again.png
    assert size_of(first.png) == (first.width, first.height)


@pytest.mark.parametrize("count", [2, 3, 9, 64, 65, 256])
def test_standings_are_as_wide_as_discord_shows_and_hold_at_most_64_rows(count: int) -> None:
    people, standings = swiss_after(count)
    text = standings_text("Cross tournament (Swiss)", Format.SWISS, 1, 5, count)
    image = render_standings(standings_rows(standings, names_of(people), {}), text)
    assert image.width == STANDINGS_WIDTH
    shown = min(count, STANDINGS_SHOWN)
    top64 = render_standings(
        standings_rows(standings[:shown], names_of(people), {}),
        standings_text("Cross tournament (Swiss)", Format.SWISS, 1, 5, shown),
    )
    assert image.height == top64.height + (26 if count > STANDINGS_SHOWN else 0)
    assert image.height <= 200 + 24 * STANDINGS_SHOWN


def test_standings_write_every_shown_name_cut_to_its_room_and_the_note(
    written: list[tuple[str, tuple[int, int, int]]],
) -> None:
    people, standings = swiss_after(80)
    names = names_of(people)
    text = standings_text("Cross tournament (Swiss)", Format.SWISS, 1, 5, len(people))
    render_standings(standings_rows(standings, names, {}), text)
    said = [words for words, _ in written]
    shown = [names[s.entrant] for s in standings[:STANDINGS_SHOWN]]
    hidden = [names[s.entrant] for s in standings[STANDINGS_SHOWN:]]
    for name in shown:
        assert name in said or (name == LONG and any(LONG.startswith(w[:-1]) for w in said))
    assert LONG not in said
    assert [w for w in said if w.endswith("…") and LONG.startswith(w[:-1].rstrip())]
    assert not set(hidden) & set(said)
    assert text.note and text.note in said


def test_the_top_three_are_gold_and_who_left_is_dimmed_and_marked(
    written: list[tuple[str, tuple[int, int, int]]],
) -> None:
    people, standings = swiss_after(8, rounds=2)
    names = {entrant.id: f"P{entrant.id}" for entrant in people}
    gone = standings[1].entrant
    rows = standings_rows(standings, names, {gone: "withdrew"})
    render_standings(rows, standings_text("Cross tournament (Swiss)", Format.SWISS, 2, 3, 8))
    inks = dict(written)
    first = names[standings[0].entrant]
    assert inks[first] == HIGHLIGHT
    assert inks[names[gone]] == MUTED
    assert "withdrew" in inks
    last = names[standings[-1].entrant]
    assert standings[-1].place > 3 and inks[last] not in (HIGHLIGHT, MUTED)


def test_round_robin_standings_head_their_tie_break_head_to_head(
    written: list[tuple[str, tuple[int, int, int]]],
) -> None:
    people = entrants(5)
    rng = random.Random(5)
    record: list[Any] = []
    for pairings in round_robin(people, Seating(2)):
        record += [*played(pairings, rng), *pairings.byes]
    standings = round_robin_standings(people, record)
    text = standings_text("Milo tournament (round robin)", Format.ROUND_ROBIN, 5, 5, 5)
    render_standings(standings_rows(standings, names_of(people), {}), text)
    said = [words for words, _ in written]
    assert "Head-to-head" in said and "Buchholz" not in said
    assert "Final standings after round 5" in said


# -- the bracket ----------------------------------------------------------------------------


def bracket_for(count: int, size: int, smaller: tuple[int, ...], advance: int) -> Bracket:
    return knockout(entrants(count), Seating(size, smaller), advance)


def played_through(bracket: Bracket, rounds: int) -> tuple[list[Result], Progress]:
    """The bracket's first ``rounds`` rounds played, the better seed winning."""
    results: list[Result] = []
    for number in range(1, rounds + 1):
        now = progress(bracket, results)
        for match in bracket.rounds[number - 1]:
            if match.walkover:
                continue
            seated = [entrant for entrant in now.seated[match.number] if entrant is not None]
            seated.sort(key=bracket.seeds.index)
            places = tuple(range(1, len(seated) + 1))
            points = tuple(100 - 10 * place for place in places)
            sides = tuple((entrant,) for entrant in seated)
            results.append(Result(number, match.table, sides, places, points))
    return results, progress(bracket, results)


def draw(bracket: Bracket, state: Progress, names: dict[int, str]) -> Any:
    title = tournament_title("Cross", Format.KNOCKOUT)
    return render_bracket(bracket, state, names, bracket_text(bracket, title))


def test_the_same_bracket_gives_the_same_bytes() -> None:
    bracket = bracket_for(13, 2, (), 1)
    _, state = played_through(bracket, 2)
    names = names_of(entrants(13))
    assert draw(bracket, state, names).png == draw(bracket, state, dict(names)).png


@pytest.mark.parametrize(("size", "smaller", "advance"), SHAPES)
def test_every_bracket_from_2_to_256_entrants_fits_a_sensible_picture(
    size: int, smaller: tuple[int, ...], advance: int
) -> None:
    counts = [*range(2, 20), 31, 32, 33, 64, 100, 128, 129, 200, 255, 256]
    for count in counts:
        bracket = bracket_for(count, size, smaller, advance)
        first = first_drawn_round(bracket)
        image = draw(bracket, progress(bracket, []), names_of(entrants(count)))
        assert size_of(image.png) == (image.width, image.height)
        assert image.height <= TALLEST + 140, (count, image.height)
        drawn = len(bracket.rounds) - first + 1
        assert image.width <= 2 * 20 + (drawn + 1) * 236 + 640, (count, image.width)
        if first > 1:  # it left out only what could not fit
            assert rendering.tournament.column_height(bracket.rounds[first - 2]) > TALLEST


def test_a_bracket_of_256_at_tables_of_two_starts_at_the_round_of_16() -> None:
    bracket = bracket_for(256, 2, (), 1)
    assert len(bracket.rounds[first_drawn_round(bracket) - 1]) == 8
    small = bracket_for(16, 2, (), 1)
    assert first_drawn_round(small) == 1


def test_bracket_seats_say_names_where_a_seat_comes_from_and_byes(
    written: list[tuple[str, tuple[int, int, int]]],
) -> None:
    bracket = bracket_for(13, 2, (), 1)
    names = names_of(entrants(13))
    draw(bracket, progress(bracket, []), names)
    said = [words for words, _ in written]
    for name in names.values():
        assert name in said or name == LONG
    assert LONG not in said and any(w.endswith("…") and LONG.startswith(w[:-1]) for w in said)
    assert said.count("bye") == 3  # 16 seats, 13 entrants: the top three seeds
    assert "Winner of match 2" in said and "Winner of match 14" in said
    assert {"Round 1", "Quarter-finals", "Semi-finals", "Final", "Champion"} <= set(said)


def test_who_went_on_is_gold_the_rest_dimmed_with_their_places_and_the_champion_last(
    written: list[tuple[str, tuple[int, int, int]]],
) -> None:
    bracket = bracket_for(12, 4, (3, 2), 2)
    names = {entrant.id: f"P{entrant.id}" for entrant in entrants(12)}
    _, state = played_through(bracket, len(bracket.rounds))
    assert state.champion == bracket.seeds[0]
    draw(bracket, state, names)
    final = [(w, ink) for w, ink in written if w in names.values()][-5:]
    champion = names[bracket.seeds[0]]
    assert final[-1] == (champion, HIGHLIGHT)  # in the champion's box
    first_round = bracket.rounds[0][0]
    order = state.finished[first_round.number]
    inks = [ink for w, ink in written if w in {names[e] for e in order}][: len(order)]
    assert inks[:2] == [HIGHLIGHT, HIGHLIGHT] and set(inks[2:]) <= {MUTED}
    assert {"1", "2", "3", "4"} <= {w for w, _ in written}
