"""A player's hand, sent only to them: every tile standing, playable ones framed in
green, each captioned like the buttons that play it ("6-1" over "N E" reads as the
buttons "6-1 N" and "6-1 E")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine import SeatView, Tile
from rendering.faces import paste_tile
from rendering.geometry import LONG, SHORT, Rect
from rendering.palette import MUTED, PLAYABLE_EDGE, TEXT, encode_sheet, length, sheet, write
from rendering.table import RenderedImage

SLOT, MARGIN, TOP, CAPTION = 62, 16, 62, 44
"""Width per tile (room for "N E S W" under it), margins, header and caption heights."""
TITLE_SIZE, STATUS_SIZE, CAPTION_SIZE = 18, 15, 14
"""Font sizes in px."""


@dataclass(frozen=True, slots=True)
class HandText:
    """The words a hand picture shows, written by the caller (the ``words`` package); the
    captions under the tiles are tile faces and the ends' letters."""

    title: str
    """Whose hand, and how many tiles."""
    status: str
    """What the seat is to do now, so the picture alone says why nothing is green."""
    ends: Mapping[str, str] = field(default_factory=dict)
    """Each end's letter in the captions, by the engine's name (``W`` → ``O``), as the
    buttons show it; an end not given is captioned with the engine's name."""

    def __reduce__(self) -> tuple[type[HandText], tuple[Any, ...]]:
        """Pickled as its class and fields (see :meth:`rendering.table.TableText.__reduce__`)."""
        return HandText, (self.title, self.status, self.ends)


def hand_order(hand: Iterable[Tile]) -> list[Tile]:
    """High end first, then low end: the same order every time the hand is shown."""
    return sorted(hand, key=lambda tile: (-tile.high, -tile.low))


def placements(view: SeatView) -> dict[Tile, list[str]]:
    """Each tile the seat can play now, with the ends it fits (none for a lead), in the
    engine's order."""
    ends: dict[Tile, list[str]] = {}
    for move in view.legal:
        if move.tile is not None:
            fits = ends.setdefault(move.tile, [])
            if move.end_name is not None:
                fits.append(move.end_name)
    return ends


@dataclass(frozen=True, slots=True)
class HandScene:
    """What a hand's picture shows of a seat's view: its tiles in order, and the ends
    each one it can play fits. The drawing process is sent this, not the view, which
    holds the whole public view too (its layout and the round's history): several
    times as much to pickle and unpickle with every hand's picture."""

    tiles: tuple[Tile, ...]
    fits: dict[Tile, list[str]]

    @classmethod
    def of(cls, view: SeatView) -> HandScene:
        return cls(tuple(hand_order(view.hand)), placements(view))

    def __reduce__(self) -> tuple[type[HandScene], tuple[Any, ...]]:
        return HandScene, (self.tiles, self.fits)


def render_hand(view: SeatView, text: HandText) -> RenderedImage:
    """The seat's own hand, worded by ``text``."""
    return draw_hand(HandScene.of(view), text)


def draw_hand(scene: HandScene, text: HandText) -> RenderedImage:
    """The picture of what ``scene`` shows, worded by ``text``."""
    hand, fits = scene.tiles, scene.fits
    width = max(
        MARGIN * 2 + len(hand) * SLOT,
        int(length(text.title, TITLE_SIZE)) + 2 * MARGIN,
        int(length(text.status, STATUS_SIZE)) + 2 * MARGIN,
    )
    height = TOP + LONG + CAPTION + MARGIN // 2
    image = sheet((width, height))
    write(image, (MARGIN, MARGIN // 2), text.title, TITLE_SIZE, TEXT)
    write(image, (MARGIN, MARGIN // 2 + 26), text.status, STATUS_SIZE, MUTED)
    tiles = []
    for index, tile in enumerate(hand):
        x = MARGIN + index * SLOT + (SLOT - SHORT) // 2
        rect = Rect(x, TOP, x + SHORT, TOP + LONG)
        playable = tile in fits
        paste_tile(
            image,
            (rect.x0, rect.y0, rect.x1, rect.y1),
            tile.high,
            tile.low,
            "playable" if playable else "plain",
            frame=PLAYABLE_EDGE if playable else None,
            frame_width=4,
        )
        centre = x + SHORT // 2
        shade = TEXT if playable else MUTED
        write(image, (centre, TOP + LONG + 14), str(tile), CAPTION_SIZE, shade, anchor="mm")
        if playable:
            ends = " ".join(text.ends.get(end, end) for end in fits[tile])
            write(image, (centre, TOP + LONG + 32), ends, CAPTION_SIZE, PLAYABLE_EDGE, "mm")
        tiles.append((tile, rect))
    return RenderedImage(encode_sheet(image), width, height, tiles)
