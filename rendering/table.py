"""The table picture posted after every move: a header, then the layout."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image

from bot.engine import END_NAMES, LineLayout, PublicView, SpinnerLayout, Tile
from rendering.faces import paste_tile
from rendering.geometry import Layout, Rect, halves, last_played, place
from rendering.palette import (
    ALERT,
    HIGHLIGHT,
    MUTED,
    TEXT,
    encode_sheet,
    fit,
    font,
    length,
    sheet,
    write,
)

MARGIN = 24
HEADER_FONT, LABEL_FONT = 18, 16
LINE_HEIGHT = 24
NAME_ROOM = 130
"""Pixels a player's name may take in a list in the header (about 14 letters)."""
NAMES_KEPT = 4096
"""Names kept cut to their room (a few dozen bytes each): some 3,250 players sit at
1,000 tables."""


@dataclass(frozen=True, slots=True)
class TableText:
    """Every word a table picture shows, written by the caller (the ``words`` package):
    rendering draws words but chooses none, so a picture reads in any language."""

    header: tuple[str, ...]
    """The lines above the layout (game, scores, counts, whose turn); the first is drawn
    brighter. Cut names to fit with :func:`fit_name`."""
    before_lead: str
    """Shown where the layout will be, until the round is led."""
    dead: str
    """Written after a dead arm's name on its label, in place of a number (R-MC-5)."""
    ends: Mapping[str, str] = field(default_factory=dict)
    """Each end's letter on its label, by the engine's name (``W`` → ``O``); an end not
    given is labelled with the engine's name."""

    def letter(self, end: str) -> str:
        """The letter ``end`` (the engine's name) is labelled with."""
        return self.ends.get(end, end)

    def __reduce__(self) -> tuple[type[TableText], tuple[Any, ...]]:
        """Pickled as its class and fields, like the scene it goes to the drawing process
        with (a slotted dataclass's own way reads ``dataclasses.fields`` both ways)."""
        return TableText, (self.header, self.before_lead, self.dead, self.ends)


@dataclass(frozen=True, slots=True)
class RenderedImage:
    """PNG bytes, with where each tile and label landed (for tests, and nothing else)."""

    png: bytes
    width: int
    height: int
    tiles: list[tuple[Tile, Rect]] = field(default_factory=list)
    labels: list[tuple[str, str, int | None, Rect]] = field(default_factory=list)
    """(end, text, open number or None when dead, where)."""


@dataclass(frozen=True, slots=True)
class TableScene:
    """What a table's picture shows of its public view: the layout, its open ends and
    the last tile played. The drawing process is sent this, not the view, which also
    holds the round's whole history, its scores and its options: several times as much
    to pickle and unpickle with every table's picture."""

    layout: SpinnerLayout | LineLayout | None
    open_ends: dict[str, int]
    last: Tile | None

    @classmethod
    def of(cls, view: PublicView) -> TableScene:
        return cls(view.layout, dict(view.open_ends), last_played(view))

    def __reduce__(self) -> tuple[type[TableScene], tuple[Any, ...]]:
        return TableScene, (self.layout, self.open_ends, self.last)


@lru_cache(maxsize=NAMES_KEPT)
def fit_name(name: str, *, wide: bool = False) -> str:
    """``name`` cut to the room the header gives it: names listed side by side get about
    14 letters each, so that four of Discord's 32-character names still fit in the
    picture; a name on a line of its own (``wide``: the player to move) gets three times
    that. Kept, as every picture of a table measures the same names again."""
    return fit(name, (3 if wide else 1) * NAME_ROOM, font(HEADER_FONT))


@lru_cache(maxsize=8)
def label_size(dead: str, letters: tuple[str, ...] = ("W",)) -> tuple[int, int]:
    """The room every open-end label is given: the widest and tallest any layout shows,
    a dead arm's (``W: dead``) or a number's, whatever language ``dead`` and the ends'
    ``letters`` are in."""
    label_font = font(LABEL_FONT)
    boxes = [label_font.getbbox(f"{letter}: {word}") for letter in letters for word in (dead, 6)]
    return (
        max(int(right - left) for left, _, right, _ in boxes),
        max(int(bottom - top) for _, top, _, bottom in boxes),
    )


def label_text(end: str, value: int | None, dead: str) -> str:
    return f"{end}: {dead if value is None else value}"


def render_table(view: PublicView, text: TableText) -> RenderedImage:
    """The picture of a table from its public view (never a hand, never the boneyard),
    worded by ``text``."""
    return draw_table(TableScene.of(view), text)


def draw_table(scene: TableScene, text: TableText) -> RenderedImage:
    """The picture of what ``scene`` shows, worded by ``text``."""
    labels_size = label_size(text.dead, tuple(text.letter(end) for end in END_NAMES))
    layout = place(scene, labels_size)
    lines = text.header
    header_width = max((int(length(line, HEADER_FONT)) for line in lines), default=0)
    header_width += 2 * MARGIN
    header_height = MARGIN + LINE_HEIGHT * len(lines)
    if layout is None:
        width = max(header_width, int(length(text.before_lead, HEADER_FONT)) + 2 * MARGIN)
        height = header_height + MARGIN + LINE_HEIGHT
        offset = (0, 0)
    else:
        bounds = layout.bounds()  # a label counts by its centre: room for half of it
        side = max(MARGIN + LABEL_FONT, labels_size[0] // 2 + 4)
        content_width = bounds.x1 - bounds.x0 + 2 * side
        width = max(header_width, content_width)
        height = header_height + bounds.y1 - bounds.y0 + 2 * MARGIN + LABEL_FONT
        offset = (
            (width - (bounds.x1 - bounds.x0)) // 2 - bounds.x0,
            header_height + MARGIN - bounds.y0 + LABEL_FONT // 2,
        )
    image = sheet((width, height))
    for index, line in enumerate(lines):
        at = (MARGIN, MARGIN // 2 + index * LINE_HEIGHT)
        write(image, at, line, HEADER_FONT, TEXT if index == 0 else MUTED)
    tiles: list[tuple[Tile, Rect]] = []
    labels: list[tuple[str, str, int | None, Rect]] = []
    if layout is None:
        write(image, (MARGIN, header_height), text.before_lead, HEADER_FONT, MUTED)
    else:
        tiles, labels = _draw_layout(image, layout, offset, scene.last, text)
    return RenderedImage(encode_sheet(image), width, height, tiles, labels)


def _draw_layout(
    image: Image.Image,
    layout: Layout,
    offset: tuple[int, int],
    last: Tile | None,
    text: TableText,
) -> tuple[list[tuple[Tile, Rect]], list[tuple[str, str, int | None, Rect]]]:
    dx, dy = offset
    dead = {label.end for label in layout.labels if label.value is None}
    tiles = []
    for placed in layout.tiles:
        rect = placed.rect.shifted(dx, dy)
        is_last = placed.tile == last
        look = "dead" if placed.end in dead else "last" if is_last else "plain"
        first, second = halves(placed)
        paste_tile(image, (rect.x0, rect.y0, rect.x1, rect.y1), first, second, look,
                   frame=HIGHLIGHT if is_last else None)  # fmt: skip
        tiles.append((placed.tile, rect))
    labels = []
    for label in layout.labels:
        x, y = label.anchor[0] + dx, label.anchor[1] + dy
        words = label_text(text.letter(label.end), label.value, text.dead)
        ink = ALERT if label.value is None else TEXT
        box = write(image, (x, y), words, LABEL_FONT, ink, anchor="mm")
        labels.append((label.end, words, label.value, Rect(*box)))
    return tiles, labels
