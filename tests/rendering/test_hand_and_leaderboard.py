"""The hand picture and the leaderboard card."""

from __future__ import annotations

import io

from PIL import Image

from bot.engine import Match
from rendering import LeaderboardRow, describe_hand, render_hand, render_leaderboard
from rendering.leaderboard import MARGIN, NAME_X, ROW, SCORE_X
from rendering.palette import BACKGROUND, PLAYABLE_EDGE
from tests.rendering.scenes import NAMES


def looks_like(pixel: tuple[int, int, int], colour: tuple[int, int, int]) -> bool:
    """Near enough: the PNG's 64-colour palette may move a colour a few steps."""
    return sum(abs(a - b) for a, b in zip(pixel, colour, strict=True)) < 40


def mixed_hand(game: str, players: int) -> dict:
    """A private view, on its owner's turn, holding both tiles that fit and tiles that do
    not, one of them fitting more than one end."""
    for seed in range(200):
        match = Match(game, players, seed=seed)
        for _ in range(3):
            match.play(match.legal_moves()[0])
        view = match.private_view(match.turn)
        fits: dict[str, set[str]] = {}
        for move in view["legal"]:
            if " " in move:
                tile, end = move.split()
                fits.setdefault(tile, set()).add(end)
        if 0 < len(fits) < len(view["hand"]) and any(len(e) > 1 for e in fits.values()):
            return view
    raise AssertionError(f"no {game} hand with tiles that fit and tiles that do not")


def test_hand_shows_every_tile_in_a_stable_order_and_says_where_each_playable_one_goes() -> None:
    view = mixed_hand("cross", 3)
    image = render_hand(view, NAMES[:3])
    shown = [tile for tile, _ in image.tiles]
    assert sorted(shown) == sorted(view["hand"])
    assert shown == sorted(shown, key=lambda t: (-int(t[0]), -int(t[2])))
    assert render_hand(dict(view, hand=view["hand"][::-1]), NAMES[:3]).png == image.png
    assert Image.open(io.BytesIO(image.png)).size == (image.width, image.height)
    text = describe_hand(view)
    assert "Your hand, " + f"{len(shown)} tiles: " + ", ".join(shown) in text
    for move in view["legal"]:
        tile, end = move.split()
        ends = [m.split()[1] for m in view["legal"] if m.startswith(tile + " ")]
        assert f"{tile} on {' or '.join(ends)}" in text and end in ends


def test_hand_picture_frames_exactly_the_playable_tiles() -> None:
    view = mixed_hand("milo", 4)
    image = render_hand(view, NAMES)
    picture = Image.open(io.BytesIO(image.png)).convert("RGB")
    playable = {m.split()[0] for m in view["legal"]}
    framed = {
        tile
        for tile, rect in image.tiles
        if looks_like(picture.getpixel((rect.x0 - 2, rect.y0 + 10)), PLAYABLE_EDGE)
    }
    assert framed == playable


def test_hand_of_a_seat_waiting_its_turn_frames_nothing() -> None:
    match = Match("merry-go-round", 2, seed=4)
    match.play(match.legal_moves()[0])
    seat = 1 - match.turn
    view = match.private_view(seat)
    image = render_hand(view, NAMES[:2])
    picture = Image.open(io.BytesIO(image.png)).convert("RGB")
    assert all(
        looks_like(picture.getpixel((r.x0 - 2, r.y0 + 10)), BACKGROUND) for _, r in image.tiles
    )
    assert "Playable" not in describe_hand(view)


def test_leaderboard_card_lists_at_most_ten_rows() -> None:
    rows = [LeaderboardRow(i, f"Player {i}", f"{30 - i:.1f}", 10 + i) for i in range(1, 15)]
    png = render_leaderboard("Cross — this server", rows)
    few = render_leaderboard("Cross — this server", rows[:3])
    assert Image.open(io.BytesIO(png)).height > Image.open(io.BytesIO(few)).height
    assert (
        Image.open(io.BytesIO(png)).height
        == Image.open(io.BytesIO(render_leaderboard("x", rows[:10]))).height
    )


def test_a_long_name_is_cut_before_it_runs_into_the_score() -> None:
    rows = [LeaderboardRow(1, "W" * 60, "1234 points", 999), LeaderboardRow(2, "Zoë", "9", 1)]
    card = Image.open(io.BytesIO(render_leaderboard("Cross — every server", rows)))
    picture = card.convert("RGB")
    first_row = range(MARGIN + 44 + ROW, MARGIN + 44 + 2 * ROW)
    gutter = [picture.getpixel((x, y)) for x in range(SCORE_X - 12, SCORE_X - 1) for y in first_row]
    assert all(looks_like(pixel, BACKGROUND) for pixel in gutter)
    name = [picture.getpixel((x, y)) for x in range(NAME_X, SCORE_X - 12) for y in first_row]
    assert not all(looks_like(pixel, BACKGROUND) for pixel in name)
