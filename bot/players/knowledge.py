"""What a seat can know from its private view: which tiles it has not seen, and which
tiles each other seat cannot be holding, because it passed or drew while they would have
fitted (R-ALL-4: a player who can play must play).

A constraint only holds for the tiles a player held when it was learned: a tile drawn
later may be anything. So each seat's hidden hand is kept as *lots*: the dealt tiles,
then one lot per drawn tile, each with the mask of tiles it cannot be. Every pass or draw
bans what fitted then from every lot the seat holds, so an older lot's ban always
contains a newer one's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine import Tile
from bot.engine.tiles import DOUBLE, FULL_SET, SUIT


@dataclass
class Lot:
    count: int
    """How many of the seat's hidden tiles belong to this lot."""
    banned: int
    """Mask of the tiles none of them can be."""


@dataclass
class Knowledge:
    unseen: int
    """Mask of the tiles this seat has not seen: in other hands or the boneyard."""
    lots: list[list[Lot]] = field(default_factory=list)
    """Per seat, its hidden tiles as lots, oldest first (none for the seat itself)."""

    def lacking(self, seat: int) -> int:
        """Mask of the tiles ``seat`` certainly does not hold now (every lot bans them)."""
        mask = FULL_SET
        for lot in self.lots[seat]:
            mask &= lot.banned
        return mask if self.lots[seat] else 0


def table_tiles(layout: dict[str, Any] | None) -> list[str]:
    if layout is None:
        return []
    if layout["kind"] == "line":
        return [t["tile"] for t in layout["tiles"]]
    return [layout["spinner"], *(t["tile"] for arm in layout["arms"].values() for t in arm)]


class _Layout:
    """Just enough of the layout, replayed from the public history, to say which tiles
    would have fitted at each pass or draw. Mirrors the fits each game's round computes
    (R-CR-3/4, R-MC-2..5, R-MG-3, R-MI-2) from public facts only."""

    def __init__(self, game: str, boneyard: int) -> None:
        self.line = game == "milo"
        self.maltese = game == "maltese-cross"
        self.boneyard = boneyard
        self.spinner: int | None = None
        self.ends: dict[str, int] = {}
        self.started: set[str] = set()
        self.capped: set[str] = set()

    def fits(self) -> int:
        """Mask of the tiles that could be played now."""
        if not self.ends:
            return 0
        if self.line:
            return SUIT[self.ends["L"]] | SUIT[self.ends["R"]]
        if self.maltese and len(self.capped) < 4:
            if self.boneyard <= 2:  # R-MC-5: the uncapped arms are dead
                return _suits(v for end, v in self.ends.items() if end in self.capped)
            if len(self.started) == 4:  # R-MC-3: only caps
                mask = 0
                for end, value in self.ends.items():
                    if end not in self.capped:
                        mask |= DOUBLE[value]
                return mask
        if len(self.started) < 4:
            assert self.spinner is not None
            return SUIT[self.spinner]
        return _suits(self.ends.values())

    def lay(self, tile: Tile, end: str) -> None:
        if not end:  # the lead
            if self.line:
                self.ends = {"L": tile.high, "R": tile.low}
            else:
                self.spinner = tile.high
                self.ends = dict.fromkeys("NESW", tile.high)
            return
        if self.maltese and len(self.started) == 4 and self.boneyard > 2:
            self.capped.add(end)  # in the caps phase every play is a cap
        self.started.add(end)
        self.ends[end] = tile.other(self.ends[end])


def _suits(values: Any) -> int:
    mask = 0
    for value in values:
        mask |= SUIT[value]
    return mask


def infer(view: dict[str, Any]) -> Knowledge:
    """Replay the public history: who played, drew and passed, and what fitted then."""
    seen = 0
    for text in view["hand"] + table_tiles(view["layout"]):
        seen |= Tile.parse(text).bit
    unseen = FULL_SET & ~seen
    history = view["history"]
    dealt = list(view["hand_sizes"])
    draws = 0
    for seat, text in history:
        if text == "draw":
            dealt[seat] -= 1
            draws += 1
        elif text != "pass":
            dealt[seat] += 1
    lots = [[Lot(count, 0)] if count else [] for count in dealt]
    layout = _Layout(view["game"], view["boneyard_count"] + draws)
    previous: tuple[int, str] | None = None
    drawn_fits = 0
    for seat, text in history:
        if text in ("draw", "pass"):
            fits = layout.fits()
            if text == "pass" and previous == (seat, "draw"):
                # After a draw only the drawn tile may be played (R-CR-5, R-MC-5): the
                # pass shows just that it does not fit. Kept within the older lots' ban
                # so bans stay nested (a draw that kills Maltese arms changes the fits).
                lots[seat][-1].banned |= fits & drawn_fits
            else:
                for lot in lots[seat]:
                    lot.banned |= fits
            if text == "draw":
                layout.boneyard -= 1
                lots[seat].append(Lot(1, 0))
                drawn_fits = fits
        else:
            tile_text, _, end = text.partition(" ")
            tile = Tile.parse(tile_text)
            just_drew = previous == (seat, "draw") and layout.fits() == drawn_fits
            _take(lots[seat], tile, just_drew)
            layout.lay(tile, end)
        previous = (seat, text)
    lots[view["seat"]] = []
    return Knowledge(unseen, lots)


def _take(lots: list[Lot], tile: Tile, just_drew: bool) -> None:
    """Remove a played tile from the lot it came from. Right after a draw that changed
    nothing on the table, it is the drawn tile (R-CR-5, R-MG-5: only it can fit). Else
    it is counted against the oldest lot that may hold it: if it really came from a newer
    one, the one left over is treated as newer, with a looser ban, so no true deal is
    ruled out."""
    chosen = len(lots) - 1
    if not just_drew:
        chosen = next((i for i, lot in enumerate(lots) if not lot.banned & tile.bit), chosen)
    lots[chosen].count -= 1
    if not lots[chosen].count:
        del lots[chosen]
