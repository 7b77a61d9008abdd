"""The PNG encoding: a fixed palette must hold every colour a picture draws, or some of
it would come out in the wrong colour."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw

from rendering.faces import LOOKS, paste_tile
from rendering.palette import BACKGROUND, INKS, PLAYABLE_EDGE, encode_png, font


def test_every_look_and_every_ink_survives_the_png() -> None:
    canvas = Image.new("RGB", (120 + 80 * len(LOOKS), 80 + 30 * len(INKS)), BACKGROUND)
    for index, look in enumerate(LOOKS):
        x = 20 + 80 * index
        paste_tile(canvas, (x, 10, x + 64, 42), 6, 5, look, frame=PLAYABLE_EDGE, frame_width=3)
    draw = ImageDraw.Draw(canvas)
    for index, ink in enumerate(INKS):
        draw.text((20, 60 + 30 * index), "N: 6 · Zoë — W: dead", font=font(16), fill=ink)
    back = Image.open(io.BytesIO(encode_png(canvas))).convert("RGB")
    worst = max(high for _, high in ImageChops.difference(canvas, back).getextrema())
    assert worst <= 12
