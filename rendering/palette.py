"""Colours and fonts, in one place. The font ships in ``rendering/fonts`` with its
licence, never from the host: Pillow's own default font draws no accented letters, no
Greek or Cyrillic and no dash, so names like "Zoë" and the leaderboard title came out
as boxes."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageFont

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


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of a picture. The pictures use a handful of flat colours, so a 64-colour
    palette loses nothing visible and encodes about twice as fast and small as RGB."""
    buffer = io.BytesIO()
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(
        buffer, "PNG", compress_level=3
    )
    return buffer.getvalue()
