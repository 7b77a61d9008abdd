"""Tiles drawn with real pips. Each tile (and each half-face) is drawn once per look and
pasted after, which keeps a full layout's picture well inside its time budget."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.geometry import SHORT
from rendering.palette import BORDER, DEAD, FACE, HIGHLIGHT, PIP, PLAYABLE, canvas

PIP_SPOTS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.25, 0.5), (0.25, 0.78), (0.75, 0.22), (0.75, 0.5), (0.75, 0.78)],
}
LOOKS = {"plain": FACE, "last": HIGHLIGHT, "playable": PLAYABLE, "dead": DEAD}


@lru_cache(maxsize=64)
def half(value: int, look: str) -> Image.Image:
    """One square half of a tile showing ``value`` pips."""
    image = canvas((SHORT, SHORT))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, SHORT - 1, SHORT - 1), fill=LOOKS[look])
    radius = SHORT * 0.09
    for fx, fy in PIP_SPOTS[value]:
        x, y = fx * SHORT, fy * SHORT
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=PIP)
    return image


def paste_tile(
    canvas: Image.Image,
    box: tuple[int, int, int, int],
    first: int,
    second: int,
    look: str = "plain",
    frame: tuple[int, int, int] | None = None,
    frame_width: int = 2,
) -> None:
    """Draw a tile into ``box`` (``LONG`` by ``SHORT``, either way round): ``first`` on
    the top or left half, ``second`` on the other (a box wider than tall lies across,
    else it stands). ``frame`` rings it just outside its edge, so a mark survives
    whatever its face colour says (the last tile played on an arm that has since died
    is grey and still framed in gold)."""
    x0, y0, x1, y1 = box
    across = (x1 - x0) > (y1 - y0)
    ring = frame_width if frame is not None else 0
    canvas.paste(tile_face(first, second, look, across, frame, ring), (x0 - ring, y0 - ring))


@lru_cache(maxsize=1024)
def tile_face(
    first: int, second: int, look: str, across: bool, frame: tuple[int, int, int] | None, ring: int
) -> Image.Image:
    """A whole tile, its frame included, drawn once per look and pasted after: one paste
    instead of two halves, an edge, a line between them and a frame, for every tile of
    every picture (a full layout pastes some 25 tiles, a hand up to a dozen)."""
    width, height = (2 * SHORT, SHORT) if across else (SHORT, 2 * SHORT)
    image = canvas((width + 2 * ring, height + 2 * ring))
    x0, y0, x1, y1 = ring, ring, ring + width, ring + height
    image.paste(half(first, look), (x0, y0))
    image.paste(half(second, look), (x0 + SHORT, y0) if across else (x0, y0 + SHORT))
    draw = ImageDraw.Draw(image)
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=BORDER, width=2)
    if across:
        draw.line((x0 + SHORT, y0 + 4, x0 + SHORT, y1 - 5), fill=BORDER, width=1)
    else:
        draw.line((x0 + 4, y0 + SHORT, x1 - 5, y0 + SHORT), fill=BORDER, width=1)
    if frame is not None:
        draw.rectangle((0, 0, x1 - 1 + ring, y1 - 1 + ring), outline=frame, width=ring)
    return image
