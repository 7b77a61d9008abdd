"""Where each tile goes: pure geometry from the engine's typed layout, no Pillow.

A tile is ``LONG`` × ``SHORT`` pixels; it lies along the direction its arm grows, and a
double lies crosswise. Arms grow as staircases, each into its own quadrant (N turns
towards the east, E towards the south, S towards the west, W towards the north), so arms
never meet and a full layout stays compact. Milo's line snakes: the right end turns down,
the left end turns up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.engine import LineLayout, Move, SpinnerLayout, Tile

LONG, SHORT = 64, 32
STRAIGHT_RUN = 4
"""Tiles an arm lays straight before it steps aside."""
SIDE_RUN = 2
"""Tiles it lays sideways before it goes straight on again."""
LABEL_GAP = 10

Vector = tuple[int, int]
RIGHT, DOWN, LEFT, UP = (1, 0), (0, 1), (-1, 0), (0, -1)
ARM_DIRECTIONS: dict[str, tuple[Vector, Vector]] = {
    "N": (UP, RIGHT),
    "E": (RIGHT, DOWN),
    "S": (DOWN, LEFT),
    "W": (LEFT, UP),
}
"""Per arm: the way it grows, and the way it steps aside."""


@dataclass(frozen=True, slots=True)
class Rect:
    x0: int
    y0: int
    x1: int
    y1: int

    def overlaps(self, other: Rect) -> bool:
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def shifted(self, dx: int, dy: int) -> Rect:
        return Rect(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the picture: ``near`` is drawn on the side towards the spinner (or the
    lead), ``far`` on the outer side; ``direction`` is the way its arm grows there."""

    tile: Tile
    rect: Rect
    near: int
    far: int
    direction: Vector
    end: str | None
    """The arm or end it belongs to (None: the spinner or the lead)."""


@dataclass(frozen=True, slots=True)
class Label:
    end: str
    value: int | None
    """The open number shown (None: a dead arm)."""
    anchor: tuple[int, int]
    """Where the label's centre goes."""


@dataclass(frozen=True, slots=True)
class Layout:
    tiles: list[PlacedTile]
    labels: list[Label]

    def bounds(self) -> Rect:
        rects = [t.rect for t in self.tiles]
        xs = [r.x0 for r in rects] + [r.x1 for r in rects] + [a.anchor[0] for a in self.labels]
        ys = [r.y0 for r in rects] + [r.y1 for r in rects] + [a.anchor[1] for a in self.labels]
        return Rect(min(xs), min(ys), max(xs), max(ys))


def tile_rect(start: tuple[float, float], direction: Vector, double: bool) -> Rect:
    """The rectangle of a tile whose near edge is centred on ``start``."""
    length, width = (SHORT, LONG) if double else (LONG, SHORT)
    dx, dy = direction
    sx, sy = start
    ex, ey = sx + dx * length, sy + dy * length
    half = width / 2
    if dx:
        return Rect(int(min(sx, ex)), int(sy - half), int(max(sx, ex)), int(sy + half))
    return Rect(int(sx - half), int(min(sy, ey)), int(sx + half), int(max(sy, ey)))


class _Arm:
    """Lays the tiles of one arm (or one end of a line), turning as the pattern says."""

    def __init__(self, start: tuple[float, float], pattern: list[tuple[Vector, int]]) -> None:
        self.point = start
        self.pattern = pattern
        self.step = 0
        self.run = 0
        self.direction = pattern[0][0]

    def lay(self, tile: Tile) -> tuple[Rect, Vector]:
        _, limit = self.pattern[self.step % len(self.pattern)]
        double = tile.is_double
        if self.run >= limit and not double:  # doubles never take a corner
            self.step += 1
            self.run = 0
            new, _ = self.pattern[self.step % len(self.pattern)]
            px, py = self.point
            old = self.direction
            half = SHORT / 2
            self.point = (px + old[0] * half - new[0] * half, py + old[1] * half - new[1] * half)
            self.direction = new
        rect = tile_rect(self.point, self.direction, double)
        length = SHORT if double else LONG
        px, py = self.point
        self.point = (px + self.direction[0] * length, py + self.direction[1] * length)
        self.run += 1
        return rect, self.direction

    def label_anchor(self, width: int, height: int) -> tuple[int, int]:
        """Just beyond the open end."""
        dx, dy = self.direction
        px, py = self.point
        return (
            int(px + dx * (LABEL_GAP + width / 2)),
            int(py + dy * (LABEL_GAP + height / 2)),
        )


ARM_STARTS: dict[str, tuple[float, float]] = {
    "N": (0, -LONG / 2),
    "E": (SHORT / 2, 0),
    "S": (0, LONG / 2),
    "W": (-SHORT / 2, 0),
}
"""Per arm: the middle of the spinner's edge it grows from."""


def spinner_layout(
    layout: SpinnerLayout, open_ends: Mapping[str, int], label_size: tuple[int, int]
) -> Layout:
    """Place a spinner layout (Cross, Maltese Cross, Merry-Go-Round) around (0, 0)."""
    spinner = layout.spinner
    tiles = [
        PlacedTile(
            spinner,
            Rect(-SHORT // 2, -LONG // 2, SHORT // 2, LONG // 2),
            spinner.high,
            spinner.high,
            UP,
            None,
        )
    ]
    labels = []
    for arm_view in layout.arms:
        end = arm_view.name
        grow, aside = ARM_DIRECTIONS[end]
        arm = _Arm(ARM_STARTS[end], [(grow, STRAIGHT_RUN), (aside, SIDE_RUN)])
        for placed in arm_view.tiles:
            rect, direction = arm.lay(placed.tile)
            tiles.append(PlacedTile(placed.tile, rect, placed.near, placed.far, direction, end))
        value = None if arm_view.dead else open_ends[end]
        labels.append(Label(end, value, arm.label_anchor(*label_size)))
    return Layout(tiles, labels)


def line_layout(
    layout: LineLayout, open_ends: Mapping[str, int], label_size: tuple[int, int]
) -> Layout:
    """Place Milo's line: the lead at (0, 0), the right end snaking down, the left up."""
    placed = layout.tiles
    lead_index = layout.lead_index
    lead = placed[lead_index]
    double = lead.tile.is_double
    rect = tile_rect((-(SHORT if double else LONG) / 2, 0), RIGHT, double)
    tiles = [PlacedTile(lead.tile, rect, lead.left, lead.right, RIGHT, None)]
    edge = rect.x1 - rect.x0
    snake = 6
    right = _Arm((edge / 2, 0), [(RIGHT, snake), (DOWN, 1), (LEFT, snake), (DOWN, 1)])
    for item in placed[lead_index + 1 :]:
        box, direction = right.lay(item.tile)
        tiles.append(PlacedTile(item.tile, box, item.left, item.right, direction, "R"))
    left = _Arm((-edge / 2, 0), [(LEFT, snake), (UP, 1), (RIGHT, snake), (UP, 1)])
    for item in reversed(placed[:lead_index]):
        box, direction = left.lay(item.tile)
        tiles.append(PlacedTile(item.tile, box, item.right, item.left, direction, "L"))
    labels = [
        Label("L", open_ends["L"], left.label_anchor(*label_size)),
        Label("R", open_ends["R"], right.label_anchor(*label_size)),
    ]
    return Layout(tiles, labels)


class Laid(Protocol):
    """What :func:`place` reads: a public view, or a table picture's scene."""

    @property
    def layout(self) -> SpinnerLayout | LineLayout | None: ...

    @property
    def open_ends(self) -> Mapping[str, int]: ...


def place(view: Laid, label_size: tuple[int, int]) -> Layout | None:
    """The geometry of a view's layout (None before the lead); ``label_size`` is the
    room each open-end label is given."""
    layout = view.layout
    if layout is None:
        return None
    if isinstance(layout, LineLayout):
        return line_layout(layout, view.open_ends, label_size)
    return spinner_layout(layout, view.open_ends, label_size)


class Played(Protocol):
    """What :func:`last_played` reads: a public view's history of (seat, move)."""

    @property
    def history(self) -> tuple[tuple[int, Move], ...]: ...


def last_played(view: Played) -> Tile | None:
    """The tile of the round's last play (a draw or a pass lays none)."""
    return next((move.tile for _, move in reversed(view.history) if move.tile is not None), None)


def halves(placed: PlacedTile) -> tuple[int, int]:
    """(top or left value, bottom or right value) as the tile lies on the picture."""
    outward_first = placed.direction in (RIGHT, DOWN)
    return (placed.near, placed.far) if outward_first else (placed.far, placed.near)
