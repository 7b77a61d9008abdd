"""The hand picture and the leaderboard card."""

from __future__ import annotations

import io

from PIL import Image

from bot.engine import Match
from rendering import LeaderboardRow, describe_hand, render_hand, render_leaderboard
from tests.rendering.scenes import NAMES


def test_hand_shows_every_tile_sorted_labelled_and_playable_ones_marked() -> None:
    match = Match("cross", 3, seed=8)
    match.play(match.legal_moves()[0])
    seat = match.turn
    view = match.private_view(seat)
    image = render_hand(view, NAMES[:3])
    shown = [tile for tile, _ in image.tiles]
    assert sorted(shown) == sorted(view["hand"])
    assert shown == sorted(shown, key=lambda t: (-int(t[0]), -int(t[2])))
    assert Image.open(io.BytesIO(image.png)).size == (image.width, image.height)
    playable = {m.split()[0] for m in view["legal"] if " " in m}
    text = describe_hand(view)
    for tile in view["hand"]:
        assert tile in text
    if playable:
        assert "Playable now: " + ", ".join(sorted(playable)) in text


def test_hand_picture_marks_playable_tiles_by_colour() -> None:
    match = Match("milo", 4, seed=2)
    match.play(match.legal_moves()[0])
    view = match.private_view(match.turn)
    image = render_hand(view, NAMES)
    picture = Image.open(io.BytesIO(image.png)).convert("RGB")
    playable = {m.split()[0] for m in view["legal"] if " " in m}
    colours = {tile: picture.getpixel((rect.x0 + 3, rect.y0 + 3)) for tile, rect in image.tiles}
    if playable and len(playable) < len(view["hand"]):
        assert {colours[t] for t in playable}.isdisjoint(
            {colours[t] for t in view["hand"] if t not in playable}
        )


def test_leaderboard_card_lists_at_most_ten_rows() -> None:
    rows = [LeaderboardRow(i, f"Player {i}", f"{30 - i:.1f}", 10 + i) for i in range(1, 15)]
    png = render_leaderboard("Cross — this server", rows)
    few = render_leaderboard("Cross — this server", rows[:3])
    assert Image.open(io.BytesIO(png)).height > Image.open(io.BytesIO(few)).height
    assert (
        Image.open(io.BytesIO(png)).height
        == Image.open(io.BytesIO(render_leaderboard("x", rows[:10]))).height
    )
