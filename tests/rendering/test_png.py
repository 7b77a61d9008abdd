"""The PNG encoding: a fixed palette must hold every colour a picture draws, or some of
it would come out in the wrong colour; and a picture drawn in the palette comes back
from its PNG exactly, whatever its size."""

from __future__ import annotations

import io
from typing import cast

from PIL import Image, ImageChops, ImageDraw

from rendering.faces import LOOKS, paste_tile
from rendering.palette import (
    BACKGROUND,
    INKS,
    PLAYABLE_EDGE,
    canvas,
    encode_png,
    encode_sheet,
    font,
    sheet,
)


def test_every_look_and_every_ink_survives_the_png() -> None:
    canvas = Image.new("RGB", (120 + 80 * len(LOOKS), 80 + 30 * len(INKS)), BACKGROUND)
    for index, look in enumerate(LOOKS):
        x = 20 + 80 * index
        paste_tile(canvas, (x, 10, x + 64, 42), 6, 5, look, frame=PLAYABLE_EDGE, frame_width=3)
    draw = ImageDraw.Draw(canvas)
    for index, ink in enumerate(INKS):
        draw.text((20, 60 + 30 * index), "N: 6 · Zoë — W: dead", font=font(16), fill=ink)
    back = Image.open(io.BytesIO(encode_png(canvas))).convert("RGB")
    # An RGB picture's extrema: a (low, high) pair for each band.
    bands = cast(tuple[tuple[int, int], ...], ImageChops.difference(canvas, back).getextrema())
    worst = max(high for _, high in bands)
    assert worst <= 12


def test_a_picture_in_the_palette_comes_back_from_its_png_exactly() -> None:
    for size in ((1, 1), (7, 3), (300, 200), (1601, 9)):
        picture = canvas(size)
        colours = len(picture.getpalette() or []) // 3
        width, height = size
        picture.putdata([(x * 7 + y * 13) % colours for y in range(height) for x in range(width)])
        png = encode_png(picture)
        Image.open(io.BytesIO(png)).verify()  # every chunk's CRC
        back = Image.open(io.BytesIO(png))
        assert (back.format, back.mode, back.size) == ("PNG", "P", size)
        assert back.tobytes() == picture.tobytes()
        assert back.getpalette() == picture.getpalette()


def test_a_sheet_gives_the_png_its_picture_would_whatever_is_drawn_past_its_edge() -> None:
    """A sheet's extra column is outside the picture: ink drawn into it is not shown,
    and the PNG is byte for byte that of the same picture drawn on a canvas."""
    for size in ((1, 1), (7, 3), (300, 200), (1601, 9)):
        width, height = size
        drawn, plain = sheet(size), canvas(size)
        colours = len(plain.getpalette() or []) // 3
        pixels = [(x * 7 + y * 13) % colours for y in range(height) for x in range(width + 1)]
        drawn.putdata(pixels)  # the extra column too, as text running past the edge would
        plain.putdata([p for i, p in enumerate(pixels) if i % (width + 1) != width])
        png = encode_sheet(drawn)
        assert png == encode_png(plain)
        back = Image.open(io.BytesIO(png))
        assert back.size == size and back.tobytes() == plain.tobytes()
