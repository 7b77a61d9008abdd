"""Line layouts (R-MI-2): one line with two ends, L and R; doubles are not spinners."""

from __future__ import annotations

from typing import Any, ClassVar

from bot.engine.errors import DoesNotFit, WrongEnd
from bot.engine.moves import END_NAMES, LINE_ENDS
from bot.engine.round import Fits, Round
from bot.engine.tiles import SUIT, Tile
from bot.engine.traits import LayoutKind
from bot.engine.views import Layout, LineLayout, LineTile

_L = END_NAMES.index("L")
_R = END_NAMES.index("R")


class LineRound(Round):
    """A round on a line. The lead ``a-b`` lies with ``a`` (its high end) on the left."""

    layout_kind: ClassVar[LayoutKind] = LayoutKind.LINE
    ends: ClassVar[tuple[str, ...]] = LINE_ENDS
    place_rule: ClassVar[str] = "R-MI-2"

    first: Tile | None
    left: list[tuple[Tile, int]]
    """Tiles laid on the left end, from the lead outwards, each with its outer value."""
    right: list[tuple[Tile, int]]
    line_ends: list[int]
    """The numbers the L and R ends show."""

    def _init_layout(self) -> None:
        self.first = None
        self.left = []
        self.right = []
        self.line_ends = [0, 0]

    def _copy_layout(self, state: dict[str, Any]) -> None:
        state["left"] = self.left.copy()
        state["right"] = self.right.copy()
        state["line_ends"] = self.line_ends.copy()

    def _lay(self, tile: Tile, end: int | None) -> None:
        if end is None:
            self.first = tile
            self.line_ends = [tile.high, tile.low]
            return
        side = end - _L
        far = tile.low if self.line_ends[side] == tile.high else tile.high  # tile.other, inlined
        (self.left if side == 0 else self.right).append((tile, far))
        self.line_ends[side] = far

    def _compute_fits(self) -> Fits:
        left, right = self.line_ends
        return [(_L, SUIT[left]), (_R, SUIT[right])]

    def _why_not_fit(self, tile: Tile, end: int, fits_on: tuple[str, ...]) -> WrongEnd:
        return DoesNotFit(tile, END_NAMES[end], self.line_ends[end - _L], fits_on, "R-MI-2")

    def open_ends(self) -> dict[str, int]:
        if self.first is None:
            return {}
        return {"L": self.line_ends[0], "R": self.line_ends[1]}

    def line(self) -> list[tuple[Tile, int, int]]:
        """The line from left to right: each tile with the values on its left and right."""
        assert self.first is not None
        return (
            [(tile, far, tile.other(far)) for tile, far in reversed(self.left)]
            + [(self.first, self.first.high, self.first.low)]
            + [(tile, tile.other(far), far) for tile, far in self.right]
        )

    def _layout_dict(self) -> dict[str, Any]:
        return {
            "kind": "line",
            "tiles": [
                {"tile": tile.text, "left": left, "right": right}
                for tile, left, right in self.line()
            ],
            "lead_index": len(self.left),
        }

    def _layout_view(self) -> LineLayout:
        return LineLayout(
            tuple(LineTile(tile, left, right) for tile, left, right in self.line()),
            len(self.left),
        )

    def _load_layout(self, layout: Layout) -> None:
        assert isinstance(layout, LineLayout)
        first = layout.tiles[layout.lead_index]
        self._lay(first.tile, None)
        self.line_ends = [first.left, first.right]
        for placed in reversed(layout.tiles[: layout.lead_index]):
            self._lay(placed.tile, _L)
        for placed in layout.tiles[layout.lead_index + 1 :]:
            self._lay(placed.tile, _R)
