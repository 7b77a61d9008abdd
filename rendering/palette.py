"""Colours and fonts, in one place. The font ships in ``rendering/fonts`` with its
licence, never from the host: Pillow's own default font draws no accented letters, no
Greek or Cyrillic and no dash, so names like "Zoë" and the leaderboard title came out
as boxes."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

BACKGROUND = (22, 92, 52)
"""Table felt."""
FACE = (250, 247, 238)
PIP = (25, 25, 25)
BORDER = (40, 40, 40)
HIGHLIGHT = (255, 214, 90)
"""The last tile played."""
PLAYABLE = (214, 245, 214)
"""The face of a tile the player can play now (with a ``PLAYABLE_EDGE`` frame)."""
PLAYABLE_EDGE = (120, 230, 120)
DEAD = (170, 160, 160)
TEXT = (245, 245, 235)
MUTED = (200, 215, 200)
ALERT = (255, 120, 110)


FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSans.ttf"


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` px, laid out by Pillow's basic engine so the same text
    gives the same pixels whether or not the host has libraqm."""
    return ImageFont.truetype(FONT_FILE, size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def _lettering(text: str, size: int, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """``text``'s coverage (0–255 a pixel) and where it sits from its anchor point.
    Labels, captions and most header lines recur from picture to picture, and laying
    out a line of text was a third of a picture's time: each is laid out once."""
    measure = font(size)
    left, top, right, bottom = measure.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=measure, anchor=anchor)
    return mask, (int(left), int(top))


def write(
    image: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    ink: tuple[int, int, int],
    anchor: str = "la",
) -> tuple[int, int, int, int]:
    """Draw ``text`` at ``xy`` (whole pixels) in DejaVu Sans of ``size`` px, as
    ``ImageDraw.text`` would, pixel for pixel, from a laid-out copy kept for reuse.
    Where it landed: (left, top, right, bottom), as ``ImageDraw.textbbox`` says."""
    mask, (dx, dy) = _lettering(text, size, anchor)
    left, top = xy[0] + dx, xy[1] + dy
    image.paste(ink, (left, top), mask)
    return left, top, left + mask.width, top + mask.height


def fit(text: str, room: float, measure: ImageFont.FreeTypeFont) -> str:
    """``text``, cut with an ellipsis to fit ``room`` pixels: display names run to 32
    characters, which would push a column or a picture's edge away. Measured, since
    letters differ in width."""
    if measure.getlength(text) <= room:
        return text
    while text and measure.getlength(text + "…") > room:
        text = text[:-1]
    return text.rstrip() + "…"


INKS = (TEXT, MUTED, ALERT, HIGHLIGHT, PLAYABLE_EDGE)
"""Colours text is written in, always on the felt; its smoothed edges are blends of the
two, and the only colours a picture holds besides the flat ones above."""
BLEND_STEPS = 16


def _fixed_palette() -> Image.Image:
    flat = [BACKGROUND, FACE, PIP, BORDER, HIGHLIGHT, PLAYABLE, PLAYABLE_EDGE, DEAD, *INKS]
    blends = [
        tuple(round(b + (i - b) * step / BLEND_STEPS) for b, i in zip(BACKGROUND, ink, strict=True))
        for ink in INKS
        for step in range(1, BLEND_STEPS)
    ]
    colours = list(dict.fromkeys(flat + blends))
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in colours for value in colour])
    return palette


PALETTE = _fixed_palette()


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of a picture, in a fixed palette of every colour the pictures use and
    the blends of smoothed text. Mapping onto a known palette costs a fraction of
    searching one out per picture (which was most of a full layout's time), and an
    8-bit palette PNG is a third the size of RGB."""
    buffer = io.BytesIO()
    image.quantize(palette=PALETTE, dither=Image.Dither.NONE).save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()
