"""Colours and fonts, in one place. The font ships in ``rendering/fonts`` with its
licence, never from the host: Pillow's own default font draws no accented letters, no
Greek or Cyrillic and no dash, so names like "Zoë" and the leaderboard title came out
as boxes."""

from __future__ import annotations

import io
from functools import cache, lru_cache
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

TEXT_KEPT = 512
"""Lines of text kept laid out and inked. Labels, captions, titles and most header
lines recur from picture to picture, and laying out a line was a third of a picture's
time; a header line that names the scores rarely does. Over 6,863 pictures of 300
games, 512 lines kept find 88% of lines ready and grow the drawing process by 22 MB;
4,096 found no more and grew it by 157 MB (two bytes a pixel a line)."""


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` px, laid out by Pillow's basic engine so the same text
    gives the same pixels whether or not the host has libraqm."""
    return ImageFont.truetype(FONT_FILE, size, layout_engine=ImageFont.Layout.BASIC)


def write(
    image: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    ink: tuple[int, int, int],
    anchor: str = "la",
) -> tuple[int, int, int, int]:
    """Draw ``text`` at ``xy`` (whole pixels) on a :func:`canvas`, in DejaVu Sans of
    ``size`` px, as ``ImageDraw.text`` would draw it on the felt and the palette would
    map it, pixel for pixel, from an inked copy kept for reuse. Where it landed: (left,
    top, right, bottom), as ``ImageDraw.textbbox`` says."""
    inked, covered, (dx, dy) = _inked(text, size, anchor, ink)
    left, top = xy[0] + dx, xy[1] + dy
    image.paste(inked, (left, top), covered)
    return left, top, left + inked.width, top + inked.height


@lru_cache(maxsize=TEXT_KEPT)
def _inked(
    text: str, size: int, anchor: str, ink: tuple[int, int, int]
) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """``text`` in ``ink`` on the felt, already in the palette; the pixels it covers
    (only those are pasted, so whatever lies under the rest of its box stays); and
    where it sits from its anchor point."""
    measure = font(size)
    left, top, right, bottom = measure.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=measure, anchor=anchor)
    inked = mask.point(_shades(ink))
    inked.putpalette(_PALETTE_DATA)  # the coverage, now as indices into the palette
    return inked, mask.point(_COVERED), (int(left), int(top))


_COVERED = [0] + [255] * 255
"""Coverage to paste mask: every pixel the text touches at all."""


@cache
def _shades(ink: tuple[int, int, int]) -> list[int]:
    """The palette index of ``ink`` over the felt at each of the 256 coverages: what
    pasting ``ink`` through the text's mask and mapping the result onto the palette
    would give each pixel, worked out once per ink instead of once per pixel (a
    quarter less time for each line of text drawn anew)."""
    coverage = Image.new("L", (256, 1))
    coverage.putdata(range(256))
    blended = Image.new("RGB", coverage.size, BACKGROUND)
    blended.paste(ink, (0, 0), coverage)
    return list(_to_palette(blended).tobytes())


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


def canvas(size: tuple[int, int]) -> Image.Image:
    """A picture of ``size`` covered in felt, drawn straight in the fixed palette.
    Every shape is drawn in a flat colour of the palette and text is pasted already
    mapped (:func:`write`), so no picture is mapped onto the palette as a whole: that
    mapping was a quarter of a table picture's time, and one byte a pixel is also
    cheaper to fill and paste than three."""
    image = Image.new("P", size, _INDEX[BACKGROUND])
    image.putpalette(_PALETTE_DATA)
    return image


def _to_palette(image: Image.Image) -> Image.Image:
    return image.quantize(palette=PALETTE, dither=Image.Dither.NONE)


_PALETTE_DATA = PALETTE.getpalette() or []
_INDEX = {tuple(_PALETTE_DATA[i : i + 3]): i // 3 for i in range(0, len(_PALETTE_DATA), 3)}


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of a picture, in a fixed palette of every colour the pictures use and
    the blends of smoothed text: an 8-bit palette PNG is a third the size of RGB. A
    :func:`canvas` is already in it; a picture drawn in RGB (the leaderboard's, whose
    text ``ImageDraw`` smooths on its own) is mapped onto it, which costs a fraction
    of searching a palette out per picture."""
    buffer = io.BytesIO()
    image = image if image.mode == "P" else _to_palette(image)
    image.save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()
