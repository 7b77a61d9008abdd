"""The table picture: structure over thousands of layouts, a few golden pictures, alt text."""

from __future__ import annotations

import io
import os
import random
import re
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.engine import GAMES, TILES, Match, Options
from rendering import describe_table, render_table
from rendering.geometry import LABEL_GAP, Rect, place
from rendering.palette import HIGHLIGHT
from rendering.table import header_lines, label_size, last_played
from tests.rendering.scenes import NAMES, positions, table_tiles

GOLDEN = Path(__file__).parent / "golden"
MAX_SIDE = 1600


def open_numbers(layout: dict) -> dict[str, int]:
    """What each live end needs, read off the tiles themselves (not the engine's
    ``open_ends``), so a label that shows the wrong number fails."""
    if layout["kind"] == "line":
        return {"L": layout["tiles"][0]["left"], "R": layout["tiles"][-1]["right"]}
    spinner = int(layout["spinner"][0])
    return {
        end: tiles[-1]["far"] if tiles else spinner
        for end, tiles in layout["arms"].items()
        if not layout["dead"][end]
    }


def gap(a: Rect, b: Rect) -> int:
    """Pixels of clear space between two rectangles (0 when they touch or overlap)."""
    return max(b.x0 - a.x1, a.x0 - b.x1, b.y0 - a.y1, a.y0 - b.y1, 0)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_layout_places_each_tile_once_without_overlap_and_labels_the_open_ends(
    game: str,
) -> None:
    """Thousands of seeded self-played positions, every move of 400 rounds."""
    width, height = label_size()
    checked = 0
    for view in positions(game, rounds=400):
        layout = place(view, (width, height))
        if layout is None:
            continue
        assert sorted(t.tile for t in layout.tiles) == sorted(table_tiles(view))
        for a, b in combinations(layout.tiles, 2):
            assert not a.rect.overlaps(b.rect), (a, b)
        shown = {label.end: label.value for label in layout.labels if label.value is not None}
        assert shown == open_numbers(view["layout"]) == view["open_ends"]
        dead = {end for end, is_dead in (view["layout"].get("dead") or {}).items() if is_dead}
        assert {label.end for label in layout.labels if label.value is None} == dead
        boxes = []
        for label in layout.labels:
            x, y = label.anchor
            box = Rect(x - width // 2, y - height // 2, x + width // 2, y + height // 2)
            own = [t for t in layout.tiles if t.end == label.end]
            open_tile = (own or layout.tiles[:1])[-1]
            assert not any(box.overlaps(t.rect) for t in layout.tiles), label
            assert gap(box, open_tile.rect) <= LABEL_GAP + 1, label
            assert all(gap(box, open_tile.rect) < gap(box, t.rect) for t in layout.tiles
                       if t is not open_tile), label  # fmt: skip
            boxes.append(box)
        assert not any(a.overlaps(b) for a, b in combinations(boxes, 2))
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
        for end, text, value, rect in image.labels:
            assert rect.x0 >= 0 and rect.x1 <= image.width and rect.y1 <= image.height
            assert text == f"{end}: {'dead' if value is None else value}"
            assert not any(rect.overlaps(tile) for _, tile in image.tiles), text
        assert len(image.tiles) == len(table_tiles(view))


def test_the_last_tile_is_framed_in_gold_even_on_an_arm_that_has_died() -> None:
    """R-MC-5 can kill the arm the last tile went on (the draw that leaves two in the
    boneyard comes after it); the player must still see which tile was played last."""
    found = 0
    for view in positions("maltese-cross", rounds=60):
        last = last_played(view)
        layout = view["layout"]
        if last is None or not any(layout["dead"].values()):
            continue
        image = render_table(view, NAMES[: view["players"]])
        picture = Image.open(io.BytesIO(image.png)).convert("RGB")
        rect = next(r for tile, r in image.tiles if tile == last)
        assert picture.getpixel((rect.x0 - 1, (rect.y0 + rect.y1) // 2)) == HIGHLIGHT
        on_dead = [t["tile"] for end, arm in layout["arms"].items() if layout["dead"][end]
                   for t in arm]  # fmt: skip
        found += last in on_dead
    assert found


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


def test_a_milo_match_says_the_game_and_the_games_each_team_has_won() -> None:
    """R-MI-7: in a match of several games the teams need the games won, not just the
    points of the game under way."""
    match = Match("milo", 4, Options.for_game(GAMES["milo"], 4, match_games=3), seed=5)
    picker = random.Random(5)
    while match.game_number == 1:
        match.play(picker.choice(match.legal_moves()))
    view = match.public_view()
    won = view["games_won"]
    assert sorted(won) == [0, 1]
    text = describe_table(view, NAMES)
    assert "of game 2, to 5." in text
    assert f"Games won, first to 3: Ann & Cat {won[0]}, Bob & Dan {won[1]}." in text
    single = Match("milo", 4, seed=5).public_view()
    assert "Games won" not in describe_table(single, NAMES)
    lines = header_lines(view, NAMES)
    assert lines[0].startswith("Milo · round 1 of game 2 · to 5")
    assert f"Games won (first to 3): Ann & Cat {won[0]} · Bob & Dan {won[1]}" in lines
    taller = render_table(view, NAMES).height
    assert taller > render_table(dict(view, options=single["options"]), NAMES).height


def test_four_longest_display_names_still_fit_within_1600() -> None:
    """Discord display names run to 32 characters; the header cuts them, not the picture."""
    names = ["W" * 32, "M" * 32, "Ж" * 32, "Ш" * 32]
    options = Options.for_game(GAMES["milo"], 4, match_games=3)
    for view in (
        Match("milo", 4, options, seed=1).public_view(),
        Match("cross", 4, seed=1).public_view(),
    ):
        image = render_table(view, names)
        assert image.width <= MAX_SIDE
        assert image.width < render_table(view, NAMES).width + 700
