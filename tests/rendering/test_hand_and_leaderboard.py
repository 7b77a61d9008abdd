"""The hand picture and the leaderboard card."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import pytest
from PIL import Image

import rendering.hand
import rendering.leaderboard
from bot.engine import Match, SeatView, Tile
from rendering import LeaderboardRow, LeaderboardText, render_hand, render_leaderboard
from rendering.leaderboard import MARGIN, NAME_X, ROW, VALUE_X
from rendering.palette import BACKGROUND, PLAYABLE_EDGE, font
from tests.rendering.scenes import NAMES
from words.pictures import hand_text, leaderboard_text


def looks_like(pixel: tuple[int, int, int], colour: tuple[int, int, int]) -> bool:
    """Near enough: the PNG's 64-colour palette may move a colour a few steps."""
    return sum(abs(a - b) for a, b in zip(pixel, colour, strict=True)) < 40


def rgb(picture: Image.Image, at: tuple[int, int]) -> tuple[int, int, int]:
    """The colour of one pixel of an RGB picture."""
    pixel = picture.getpixel(at)
    assert isinstance(pixel, tuple) and len(pixel) == 3, pixel
    return pixel


def mixed_hand(game: str, players: int) -> SeatView:
    """A seat's view, on its owner's turn, holding both tiles that fit and tiles that do
    not, one of them fitting more than one end."""
    for seed in range(200):
        match = Match(game, players, seed=seed)
        for _ in range(3):
            match.play(match.legal_moves()[0])
        assert match.turn is not None
        view = match.seat_view(match.turn)
        fits: dict[Tile, set[str | None]] = {}
        for move in view.legal:
            if move.tile is not None:
                fits.setdefault(move.tile, set()).add(move.end_name)
        if 0 < len(fits) < len(view.hand) and any(len(e) > 1 for e in fits.values()):
            return view
    raise AssertionError(f"no {game} hand with tiles that fit and tiles that do not")


def test_hand_shows_every_tile_in_a_stable_order() -> None:
    view = mixed_hand("cross", 3)
    image = render_hand(view, hand_text(view, NAMES[:3]))
    shown = [tile for tile, _ in image.tiles]
    assert sorted(shown) == sorted(view.hand)
    assert shown == sorted(shown, key=lambda t: (-t.high, -t.low))
    reordered = dataclasses.replace(view, hand=view.hand[::-1])
    assert render_hand(reordered, hand_text(reordered, NAMES[:3])).png == image.png
    assert Image.open(io.BytesIO(image.png)).size == (image.width, image.height)


def test_each_playable_tile_is_captioned_with_the_ends_letters_it_is_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under each tile that fits, its ends as the buttons name them: the letters the
    words give (``O`` for West in Spanish), else the engine's names."""
    written: list[str] = []

    def write(image: Any, at: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        written.append(text)

    monkeypatch.setattr(rendering.hand, "write", write)
    view = mixed_hand("cross", 3)
    fits: dict[Tile, list[str]] = {}
    for move in view.legal:
        if move.tile is not None and move.end_name is not None:
            fits.setdefault(move.tile, []).append(move.end_name)
    letters = {"N": "1", "E": "2", "S": "3", "W": "4"}
    render_hand(view, dataclasses.replace(hand_text(view, NAMES[:3]), ends=letters))
    assert {" ".join(letters[end] for end in ends) for ends in fits.values()} <= set(written)
    written.clear()
    render_hand(view, dataclasses.replace(hand_text(view, NAMES[:3]), ends={}))
    assert {" ".join(ends) for ends in fits.values()} <= set(written)


def test_hand_picture_frames_exactly_the_playable_tiles() -> None:
    view = mixed_hand("milo", 4)
    image = render_hand(view, hand_text(view, NAMES))
    picture = Image.open(io.BytesIO(image.png)).convert("RGB")
    playable = {move.tile for move in view.legal if move.tile is not None}
    framed = {
        tile
        for tile, rect in image.tiles
        if looks_like(rgb(picture, (rect.x0 - 2, rect.y0 + 10)), PLAYABLE_EDGE)
    }
    assert framed == playable


def test_hand_of_a_seat_waiting_its_turn_frames_nothing() -> None:
    match = Match("merry-go-round", 2, seed=4)
    match.play(match.legal_moves()[0])
    assert match.turn is not None
    view = match.seat_view(1 - match.turn)
    image = render_hand(view, hand_text(view, NAMES[:2]))
    picture = Image.open(io.BytesIO(image.png)).convert("RGB")
    assert all(looks_like(rgb(picture, (r.x0 - 2, r.y0 + 10)), BACKGROUND) for _, r in image.tiles)


def test_a_longer_status_line_widens_the_hand_picture() -> None:
    """The words are the caller's, in any language: a longer line is never cut off."""
    view = mixed_hand("cross", 3)
    text = hand_text(view, NAMES[:3])
    image = render_hand(view, text)
    longer = render_hand(view, dataclasses.replace(text, status=text.status + " —" * 60))
    assert longer.width > image.width


def test_leaderboard_card_lists_at_most_ten_rows() -> None:
    rows = [LeaderboardRow(i, f"Player {i}", f"{30 - i:.1f}", 10 + i) for i in range(1, 15)]
    text = leaderboard_text("Cross — this server")
    png = render_leaderboard(rows, text)
    few = render_leaderboard(rows[:3], text)
    assert Image.open(io.BytesIO(png)).height > Image.open(io.BytesIO(few)).height
    assert (
        Image.open(io.BytesIO(png)).height
        == Image.open(io.BytesIO(render_leaderboard(rows[:10], leaderboard_text("x")))).height
    )


def gutter_before_the_score(card: bytes, row: int) -> list[tuple[int, int, int]]:
    """The pixels between the name column and the score column, on row ``row`` (0: the
    headings)."""
    picture = Image.open(io.BytesIO(card)).convert("RGB")
    rows = range(MARGIN + 44 + row * ROW, MARGIN + 44 + (row + 1) * ROW)
    return [rgb(picture, (x, y)) for x in range(VALUE_X - 12, VALUE_X - 1) for y in rows]


def test_a_long_name_is_cut_before_it_runs_into_the_score() -> None:
    rows = [LeaderboardRow(1, "W" * 60, "1234 points", 999), LeaderboardRow(2, "Zoë", "9", 1)]
    card = render_leaderboard(rows, leaderboard_text("Cross — every server"))
    assert all(looks_like(pixel, BACKGROUND) for pixel in gutter_before_the_score(card, 1))
    picture = Image.open(io.BytesIO(card)).convert("RGB")
    first_row = range(MARGIN + 44 + ROW, MARGIN + 44 + 2 * ROW)
    name = [rgb(picture, (x, y)) for x in range(NAME_X, VALUE_X - 12) for y in first_row]
    assert not all(looks_like(pixel, BACKGROUND) for pixel in name)


def test_a_long_heading_is_cut_before_it_runs_into_the_next_column() -> None:
    """A translated heading may be longer than the English one."""
    text = LeaderboardText("Dominó", rank="#", player="W" * 40, value="Victorias", games="Partidas")
    card = render_leaderboard([LeaderboardRow(1, "Ana", "9", 1)], text)
    assert all(looks_like(pixel, BACKGROUND) for pixel in gutter_before_the_score(card, 0))


def test_a_five_figure_rank_and_a_long_value_get_their_room_from_the_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board's last page ends at rank 10,000, and a translated value runs longer
    than the English one ("12345 victorias" where "12345 wins"): each is written whole,
    clear of the name beside it, the name cut shorter instead."""
    written: list[tuple[int, str]] = []

    def draw_text(draw: Any, xy: tuple[int, int], text: str, *args: Any) -> None:
        written.append((xy[0], text))

    monkeypatch.setattr(rendering.leaderboard, "draw_text", draw_text)
    rows = [LeaderboardRow(9991 + i, "W" * 32, f"{12345 - i} victorias", 123456) for i in range(10)]
    render_leaderboard(rows, LeaderboardText("Cruz", "#", "Jugador", "Victorias", "Partidas"))
    body = font(17)
    cells = written[5:]  # after the title and the four headings: four a row
    for index, row in enumerate(rows):
        (rank_x, rank), (name_x, name), (value_x, value), _ = cells[4 * index : 4 * index + 4]
        assert (rank, value) == (str(row.rank), row.value)
        assert rank_x + body.getlength(rank) + 6 <= name_x
        assert name.endswith("…") and name_x + body.getlength(name) + 6 <= value_x
