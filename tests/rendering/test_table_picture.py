"""The table picture: structure over thousands of layouts, a few golden pictures, and
words drawn only as the caller gives them. (What the words say, and the alt text, are
tested with the ``words`` package in ``tests/cogs/test_picture_words.py``.)"""

from __future__ import annotations

import dataclasses
import io
import os
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.engine import GAMES, LineLayout, Match, Options, PublicView, Tile
from rendering import TableText, render_table
from rendering.geometry import LABEL_GAP, Rect, place
from rendering.palette import HIGHLIGHT
from rendering.table import label_size
from tests.rendering.scenes import NAMES, positions, table_tiles
from words import i18n
from words.pictures import table_text

GOLDEN = Path(__file__).parent / "golden"
MAX_SIDE = 1600
SPANISH = TableText(
    ("Cruz maltesa · ronda 1 · a 100", "Puntos: Ana 0 · Beto 0", "Le toca: Ana"),
    before_lead="Esperando la salida.",
    dead="muerto",
)
"""Words in another language, longer than the bot's English where it matters (the dead
arm's label), to see that the picture makes room for whatever words it is given."""


def open_numbers(view: PublicView) -> dict[str, int]:
    """What each live end needs, read off the tiles themselves (not the engine's
    ``open_ends``), so a label that shows the wrong number fails."""
    layout = view.layout
    assert layout is not None
    if isinstance(layout, LineLayout):
        return {"L": layout.tiles[0].left, "R": layout.tiles[-1].right}
    return {
        arm.name: arm.tiles[-1].far if arm.tiles else layout.spinner.high
        for arm in layout.arms
        if not arm.dead
    }


def dead_arms(view: PublicView) -> set[str]:
    layout = view.layout
    if layout is None or isinstance(layout, LineLayout):
        return set()
    return {arm.name for arm in layout.arms if arm.dead}


def last_tile(view: PublicView) -> Tile | None:
    return next((move.tile for _, move in reversed(view.history) if move.tile is not None), None)


def gap(a: Rect, b: Rect) -> int:
    """Pixels of clear space between two rectangles (0 when they touch or overlap)."""
    return max(b.x0 - a.x1, a.x0 - b.x1, b.y0 - a.y1, a.y0 - b.y1, 0)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_layout_places_each_tile_once_without_overlap_and_labels_the_open_ends(
    game: str,
) -> None:
    """Thousands of seeded self-played positions, every move of 400 rounds."""
    width, height = label_size("dead")
    checked = 0
    for view in positions(game, rounds=400):
        layout = place(view, (width, height))
        if layout is None:
            continue
        assert sorted(t.tile for t in layout.tiles) == sorted(table_tiles(view))
        for a, b in combinations(layout.tiles, 2):
            assert not a.rect.overlaps(b.rect), (a, b)
        shown = {label.end: label.value for label in layout.labels if label.value is not None}
        assert shown == open_numbers(view) == view.open_ends
        assert {label.end for label in layout.labels if label.value is None} == dead_arms(view)
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


@pytest.mark.parametrize("game", ["cross", "maltese-cross", "merry-go-round"])
def test_a_dead_arms_label_wider_than_the_margin_stays_inside_the_picture(game: str) -> None:
    """A label is placed by its centre: a dead arm's words longer than the margin
    leaves beside the layout (Spanish "O: muerto" already is, a language may say more)
    get room for half their width, at whichever side the arm ends."""
    text = dataclasses.replace(SPANISH, dead="completamente muerto")
    for view in positions(game, rounds=12, every=3):
        image = render_table(view, text)
        for _, words, _, rect in image.labels:
            assert rect.x0 >= 0 and rect.x1 <= image.width, (words, rect, image.width)


@pytest.mark.parametrize("language", ["bot", "spanish"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_rendered_pictures_hold_every_tile_and_label_inside_and_stay_within_1600(
    game: str, language: str
) -> None:
    """In the bot's words and in words of another length: each label says its end and
    the number it needs, or the word given for a dead arm, clear of every tile."""
    for view in positions(game, rounds=12, every=6):
        text = table_text(view, NAMES[: view.players]) if language == "bot" else SPANISH
        image = render_table(view, text)
        picture = Image.open(io.BytesIO(image.png))
        assert picture.format == "PNG" and picture.size == (image.width, image.height)
        assert image.width <= MAX_SIDE and image.height <= MAX_SIDE
        for _, rect in image.tiles:
            assert 0 <= rect.x0 < rect.x1 <= image.width and 0 <= rect.y0 < rect.y1 <= image.height
        assert sorted(tile for tile, _ in image.tiles) == sorted(table_tiles(view))
        for end, words, value, rect in image.labels:
            assert rect.x0 >= 0 and rect.x1 <= image.width and rect.y1 <= image.height
            assert words == f"{end}: {text.dead if value is None else value}"
            assert not any(rect.overlaps(tile) for _, tile in image.tiles), words


def test_the_last_tile_is_framed_in_gold_even_on_an_arm_that_has_died() -> None:
    """R-MC-5 can kill the arm the last tile went on (the draw that leaves two in the
    boneyard comes after it); the player must still see which tile was played last."""
    found = 0
    for view in positions("maltese-cross", rounds=60):
        last = last_tile(view)
        if last is None or not dead_arms(view):
            continue
        image = render_table(view, table_text(view, NAMES[: view.players]))
        picture = Image.open(io.BytesIO(image.png)).convert("RGB")
        rect = next(r for tile, r in image.tiles if tile == last)
        assert picture.getpixel((rect.x0 - 1, (rect.y0 + rect.y1) // 2)) == HIGHLIGHT
        assert view.layout is not None and not isinstance(view.layout, LineLayout)
        on_dead = [t.tile for arm in view.layout.arms if arm.dead for t in arm.tiles]
        found += last in on_dead
    assert found


def test_a_short_layout_gives_a_compact_picture() -> None:
    match = Match("cross", 2, seed=1)
    match.play(match.legal_moves()[0])
    view = match.view()
    image = render_table(view, table_text(view, NAMES[:2]))
    assert image.width < 700 and image.height < 450


def test_every_header_line_is_drawn_and_a_longer_one_widens_the_picture() -> None:
    """Rendering sets no words of its own: the header is the caller's lines, all of
    them, however many and however long a translation makes them."""
    view = golden_view("cross")
    text = table_text(view, NAMES[: view.players])
    image = render_table(view, text)
    more = dataclasses.replace(text, header=(*text.header, "·"))
    assert render_table(view, more).height == image.height + 24
    wide = dataclasses.replace(text, header=(text.header[0] + " —" * 80, *text.header[1:]))
    assert render_table(view, wide).width > image.width


def test_before_the_lead_the_picture_shows_the_words_given_for_it() -> None:
    view = Match("milo", 4, seed=2).view()
    assert view.layout is None
    image = render_table(view, dataclasses.replace(SPANISH, header=()))
    picture = Image.open(io.BytesIO(image.png)).convert("RGB")
    assert image.tiles == [] and image.labels == []
    assert len(picture.getcolors(1 << 16) or []) > 1  # the words, on the felt


def golden_view(game: str) -> PublicView:
    """A fixed mid-round position per game."""
    return next(v for i, v in enumerate(positions(game, rounds=1)) if i == 14)


GOLDEN_PICTURES = [
    *(("en-US", game) for game in sorted(GAMES)),
    ("es-ES", "merry-go-round"),
    ("pt-BR", "merry-go-round"),
]
"""Every game in English, and a table in each other language (its header's words)."""


@pytest.mark.parametrize(("language", "game"), GOLDEN_PICTURES)
def test_golden_pictures(language: str, game: str) -> None:
    view = golden_view(game)
    with i18n.speaking(i18n.for_locale(language)):
        png = render_table(view, table_text(view, NAMES[: view.players])).png
    path = GOLDEN / (f"{game}.png" if language == "en-US" else f"{game}.{language}.png")
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(png)
    expected = Image.open(path).convert("RGB")
    actual = Image.open(io.BytesIO(png)).convert("RGB")
    assert actual.size == expected.size
    difference = ImageStat.Stat(ImageChops.difference(actual, expected)).mean
    assert max(difference) < 2.0, f"{game} looks different; UPDATE_GOLDEN=1 pytest to accept"


def test_same_state_same_picture() -> None:
    view = golden_view("milo")
    text = table_text(view, NAMES)
    assert render_table(view, text).png == render_table(view, text).png


def test_a_milo_match_header_has_a_line_for_the_games_won() -> None:
    """R-MI-7: in a match of several games the picture shows the games won as well."""
    options = Options.for_game(GAMES["milo"], 4, match_games=3)
    match_view = Match("milo", 4, options, seed=5).view()
    single = dataclasses.replace(match_view, options=Options.for_game(GAMES["milo"], 4))
    taller = render_table(match_view, table_text(match_view, NAMES)).height
    assert taller == render_table(single, table_text(single, NAMES)).height + 24


def test_four_longest_display_names_still_fit_within_1600() -> None:
    """Discord display names run to 32 characters; the header cuts them, not the picture."""
    names = ["W" * 32, "M" * 32, "Ж" * 32, "Ш" * 32]
    options = Options.for_game(GAMES["milo"], 4, match_games=3)
    for view in (Match("milo", 4, options, seed=1).view(), Match("cross", 4, seed=1).view()):
        image = render_table(view, table_text(view, names))
        assert image.width <= MAX_SIDE
        assert image.width < render_table(view, table_text(view, NAMES)).width + 700
