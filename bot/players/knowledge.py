"""What a seat can know from its private view: which tiles it has not seen, and which
numbers (or, in Maltese Cross's caps phase, which doubles) each other seat is known not
to hold, because it passed or drew while they were open (R-ALL-4: a player who can play
must play)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import TILES, Tile
from bot.engine.tiles import DOUBLE, SUIT


@dataclass
class Knowledge:
    unseen: int
    """Mask of the tiles this seat has not seen: in other hands or the boneyard."""
    lacking: list[int]
    """Per seat, a mask of tiles it cannot hold."""


def table_tiles(layout: dict[str, Any] | None) -> list[str]:
    if layout is None:
        return []
    if layout["kind"] == "line":
        return [t["tile"] for t in layout["tiles"]]
    return [layout["spinner"], *(t["tile"] for arm in layout["arms"].values() for t in arm)]


def infer(view: dict[str, Any]) -> Knowledge:
    """Replay the public history, noting what each seat could not play at each pass or draw."""
    seen = 0
    for text in view["hand"] + table_tiles(view["layout"]):
        seen |= Tile.parse(text).bit
    unseen = ((1 << len(TILES)) - 1) & ~seen
    lacking = [0] * view["players"]
    ends: dict[str, int] = {}
    spinner: int | None = None
    started: set[str] = set()
    capped: set[str] = set()
    spinner_game = view["game"] != "milo"
    maltese = view["game"] == "maltese-cross"
    for seat, text in view["history"]:
        if text in ("draw", "pass"):
            if spinner_game and spinner is not None and len(started) < 4:
                lacking[seat] |= SUIT[spinner]
            elif maltese and len(capped) < 4 and spinner is not None:
                for end, value in ends.items():
                    if end not in capped:
                        lacking[seat] |= DOUBLE[value]
            else:
                for value in ends.values():
                    lacking[seat] |= SUIT[value]
            continue
        tile_text, _, end = text.partition(" ")
        tile = Tile.parse(tile_text)
        if not end:  # the lead
            if spinner_game:
                spinner = tile.high
                ends = dict.fromkeys("NESW", tile.high)
            else:
                ends = {"L": tile.high, "R": tile.low}
            continue
        if maltese and len(started) == 4 and end not in capped and tile.is_double:
            capped.add(end)
        started.add(end)
        ends[end] = tile.other(ends[end])
    lacking[view["seat"]] = 0
    return Knowledge(unseen, lacking)
