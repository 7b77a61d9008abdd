"""A player's hand, sent only to them: every tile standing, playable ones highlighted,
each labelled with the text its button carries."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from rendering.faces import paste_tile
from rendering.geometry import LONG, SHORT, Rect
from rendering.palette import BACKGROUND, MUTED, TEXT, encode_png, font
from rendering.table import RenderedImage

GAP, MARGIN, CAPTION = 14, 16, 22


def render_hand(view: dict[str, Any], names: list[str]) -> RenderedImage:
    """``view``: the seat's private view. Tiles sorted high first, so the order is stable."""
    hand = sorted(view["hand"], key=lambda t: (-int(t[0]), -int(t[2])))
    playable = {move.split()[0] for move in view["legal"] if move not in ("draw", "pass")}
    title = f"{names[view['seat']]}'s hand · {len(hand)} tiles"
    title_font = font(18)
    width = max(
        MARGIN * 2 + len(hand) * (SHORT + GAP) - GAP, int(title_font.getlength(title)) + 2 * MARGIN
    )
    height = MARGIN + 28 + LONG + CAPTION + MARGIN
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN // 2), title, font=title_font, fill=TEXT)
    tiles = []
    caption = font(14)
    for index, tile in enumerate(hand):
        x = MARGIN + index * (SHORT + GAP)
        y = MARGIN + 28
        high, low = int(tile[0]), int(tile[2])
        paste_tile(
            image,
            (x, y, x + SHORT, y + LONG),
            high,
            low,
            "playable" if tile in playable else "plain",
        )
        draw.text((x + SHORT // 2, y + LONG + 12), tile, font=caption, anchor="mm",
                  fill=TEXT if tile in playable else MUTED)  # fmt: skip
        tiles.append((tile, Rect(x, y, x + SHORT, y + LONG)))
    return RenderedImage(encode_png(image), width, height, tiles)
