"""A player's hand, sent only to them: every tile standing, playable ones framed in
green, each captioned like the button that plays it ("6-1" over "N" reads as the button
"6-1 N"; a tile that fits several ends lists them all, as its "6-1 …" button will ask)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from rendering.faces import paste_tile
from rendering.geometry import LONG, SHORT, Rect
from rendering.palette import BACKGROUND, MUTED, PLAYABLE_EDGE, TEXT, encode_png, font
from rendering.table import RenderedImage

SLOT, MARGIN, TOP, CAPTION = 62, 16, 62, 44
"""Width per tile (room for "N E S W" under it), margins, header and caption heights."""


def hand_order(hand: list[str]) -> list[str]:
    """High end first, then low end: the same order every time the hand is shown."""
    return sorted(hand, key=lambda t: (-int(t[0]), -int(t[2])))


def placements(view: dict[str, Any]) -> dict[str, list[str]]:
    """Each tile the seat can play now, with the ends it fits, in the engine's order."""
    ends: dict[str, list[str]] = {}
    for move in view["legal"]:
        tile, _, end = move.partition(" ")
        if move not in ("draw", "pass"):
            ends.setdefault(tile, []).append(end)
    return ends


def status_line(view: dict[str, Any], names: list[str]) -> str:
    """What the seat is to do now, so the picture alone says why nothing is green."""
    if view["outcome"] is not None:
        return "The round is over"
    if view["turn"] != view["seat"]:
        return f"Waiting for {names[view['turn']]}"
    fits = placements(view)
    if fits:
        return f"Your turn: {len(fits)} of your tiles fit (green)"
    return f"Your turn: nothing fits, press {view['legal'][0].capitalize()}"


def render_hand(view: dict[str, Any], names: list[str]) -> RenderedImage:
    """``view``: the seat's private view."""
    hand = hand_order(view["hand"])
    fits = placements(view)
    title = f"{names[view['seat']]}'s hand · {len(hand)} tiles"
    status = status_line(view, names)
    title_font, status_font, caption = font(18), font(15), font(14)
    width = max(
        MARGIN * 2 + len(hand) * SLOT,
        int(title_font.getlength(title)) + 2 * MARGIN,
        int(status_font.getlength(status)) + 2 * MARGIN,
    )
    height = TOP + LONG + CAPTION + MARGIN // 2
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN // 2), title, font=title_font, fill=TEXT)
    draw.text((MARGIN, MARGIN // 2 + 26), status, font=status_font, fill=MUTED)
    tiles = []
    for index, tile in enumerate(hand):
        x = MARGIN + index * SLOT + (SLOT - SHORT) // 2
        rect = Rect(x, TOP, x + SHORT, TOP + LONG)
        playable = tile in fits
        paste_tile(
            image,
            (rect.x0, rect.y0, rect.x1, rect.y1),
            int(tile[0]),
            int(tile[2]),
            "playable" if playable else "plain",
            frame=PLAYABLE_EDGE if playable else None,
            frame_width=4,
        )
        centre = x + SHORT // 2
        draw.text((centre, TOP + LONG + 14), tile, font=caption, anchor="mm",
                  fill=TEXT if playable else MUTED)  # fmt: skip
        if playable:
            draw.text((centre, TOP + LONG + 32), " ".join(fits[tile]), font=caption,
                      anchor="mm", fill=PLAYABLE_EDGE)  # fmt: skip
        tiles.append((tile, rect))
    return RenderedImage(encode_png(image), width, height, tiles)
