"""The table picture: structure over thousands of layouts, a few golden pictures, alt text."""

from __future__ import annotations

import io
import os
import re
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.engine import GAMES, TILES, Match
from rendering import describe_table, render_table
from rendering.geometry import place
from tests.rendering.scenes import NAMES, positions, table_tiles

GOLDEN = Path(__file__).parent / "golden"
MAX_SIDE = 1600


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_layout_places_each_tile_once_without_overlap_and_labels_the_open_ends(
    game: str,
) -> None:
    checked = 0
    for view in positions(game, rounds=400):
        layout = place(view)
        if layout is None:
            continue
        assert sorted(t.tile for t in layout.tiles) == sorted(table_tiles(view))
        for a, b in combinations(layout.tiles, 2):
            assert not a.rect.overlaps(b.rect), (a, b)
        shown = {label.end: label.value for label in layout.labels if label.value is not None}
        assert shown == view["open_ends"]
        dead = {end for end, is_dead in (view["layout"].get("dead") or {}).items() if is_dead}
        assert {label.end for label in layout.labels if label.value is None} == dead
        bounds = layout.bounds()
        assert bounds.x1 - bounds.x0 <= MAX_SIDE - 200 and bounds.y1 - bounds.y0 <= MAX_SIDE - 250
        checked += 1
    assert checked > 5000


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rendered_pictures_hold_every_tile_inside_and_stay_within_1600(game: str) -> None:
    for view in positions(game, rounds=12, every=6):
        names = NAMES[: view["players"]]
        image = render_table(view, names)
        picture = Image.open(io.BytesIO(image.png))
        assert picture.format == "PNG" and picture.size == (image.width, image.height)
        assert image.width <= MAX_SIDE and image.height <= MAX_SIDE
        for _, rect in image.tiles:
            assert 0 <= rect.x0 < rect.x1 <= image.width and 0 <= rect.y0 < rect.y1 <= image.height
        for _, _, _, rect in image.labels:
            assert rect.x0 >= 0 and rect.x1 <= image.width and rect.y1 <= image.height
        assert len(image.tiles) == len(table_tiles(view))


def test_a_short_layout_gives_a_compact_picture() -> None:
    match = Match("cross", 2, seed=1)
    match.play(match.legal_moves()[0])
    image = render_table(match.public_view(), NAMES[:2])
    assert image.width < 700 and image.height < 450


def golden_view(game: str) -> dict:
    """A fixed mid-round position per game."""
    return next(v for i, v in enumerate(positions(game, rounds=1)) if i == 14)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_golden_pictures(game: str) -> None:
    view = golden_view(game)
    png = render_table(view, NAMES[: view["players"]]).png
    path = GOLDEN / f"{game}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(png)
    expected = Image.open(path).convert("RGB")
    actual = Image.open(io.BytesIO(png)).convert("RGB")
    assert actual.size == expected.size
    difference = ImageStat.Stat(ImageChops.difference(actual, expected)).mean
    assert max(difference) < 2.0, f"{game} looks different; UPDATE_GOLDEN=1 pytest to accept"


def test_same_state_same_picture() -> None:
    view = golden_view("milo")
    assert render_table(view, NAMES).png == render_table(view, NAMES).png


@pytest.mark.parametrize("game", sorted(GAMES))
def test_alt_text_says_every_open_end_and_never_a_hidden_tile(game: str) -> None:
    variant = GAMES[game]
    for seed in range(40):
        match = Match(game, variant.player_counts[-1], seed=seed)
        for _ in range(seed % 25):
            if match.outcome():
                break
            match.play(match.legal_moves()[seed % len(match.legal_moves())])
        view = match.public_view()
        text = describe_table(view, NAMES[: match.players])
        assert len(text) <= 1024
        for end, value in view["open_ends"].items():
            assert f"{end} {value}" in text
        hidden = {str(t) for s in range(match.players) for t in match.round.hand(s)}
        hidden |= {str(TILES[i]) for i in match.round.boneyard}
        assert not hidden & set(re.findall(r"\b\d-\d\b", text))
        assert f"{NAMES[match.turn]} to play" in text
