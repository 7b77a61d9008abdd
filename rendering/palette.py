"""Colours and fonts, in one place. Fonts come from Pillow itself, never the host."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageFont

BACKGROUND = (22, 92, 52)
"""Table felt."""
FACE = (250, 247, 238)
PIP = (25, 25, 25)
BORDER = (40, 40, 40)
HIGHLIGHT = (255, 214, 90)
"""The last tile played."""
PLAYABLE = (214, 245, 214)
DEAD = (170, 160, 160)
TEXT = (245, 245, 235)
MUTED = (200, 215, 200)
ALERT = (255, 120, 110)


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of a picture. The pictures use a handful of flat colours, so a 64-colour
    palette loses nothing visible and encodes about twice as fast and small as RGB."""
    buffer = io.BytesIO()
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(
        buffer, "PNG", compress_level=3
    )
    return buffer.getvalue()
