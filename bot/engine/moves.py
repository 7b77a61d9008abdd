"""Moves and their one text form: ``6-5 N`` (tile on an arm or end), ``6-6`` (the lead),
``draw`` and ``pass``. ``Move.parse(str(move)) is move`` for every move.
"""

from __future__ import annotations

import enum
import re
from typing import ClassVar

from bot.engine.errors import NotAMove, NotATile
from bot.engine.tiles import TILES, Tile, indices

SPINNER_ARMS = ("N", "E", "S", "W")
LINE_ENDS = ("L", "R")
END_NAMES = SPINNER_ARMS + LINE_ENDS
"""Every end a move can name; spinner layouts use the first four, lines the last two."""


class Kind(enum.Enum):
    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"


_END_HINT = f"use {', '.join(SPINNER_ARMS)} or {', '.join(LINE_ENDS)}"
_MOVE_TEXT = re.compile(r"^\s*(?P<tile>\S+?)(?:\s+(?:on\s+)?(?P<end>[A-Za-z]+))?\s*$")


class Move:
    """An action of the seat to move. Interned, so ``in`` tests run on identity.

    ``end`` is an index into :data:`END_NAMES` (``None`` for the lead, a draw or a pass).
    """

    __slots__ = ("end", "kind", "text", "tile")
    _interned: ClassVar[dict[tuple[Kind, Tile | None, int | None], Move]] = {}
    kind: Kind
    tile: Tile | None
    end: int | None
    text: str

    def __new__(cls, kind: Kind, tile: Tile | None = None, end: int | None = None) -> Move:
        key = (kind, tile, end)
        move = cls._interned.get(key)
        if move is None:
            if (kind is Kind.PLAY) != (tile is not None) or (end is not None and tile is None):
                raise ValueError("a play names a tile; draw and pass name nothing")
            move = super().__new__(cls)
            move.kind, move.tile, move.end = kind, tile, end
            if kind is not Kind.PLAY:
                move.text = kind.value
            elif end is None:
                move.text = str(tile)
            else:
                move.text = f"{tile} {END_NAMES[end]}"
            cls._interned[key] = move
        return move

    @classmethod
    def play(cls, tile: Tile, end: str | int | None = None) -> Move:
        """``tile`` on ``end`` (a name such as ``N``, or an index into :data:`END_NAMES`);
        raise :class:`NotAMove` for anything else."""
        if not isinstance(tile, Tile):
            raise NotAMove(tile, "a play names a tile")
        if isinstance(end, str):
            if end.upper() not in END_NAMES:
                raise NotAMove(end, _END_HINT, "an end")
            end = END_NAMES.index(end.upper())
        elif end is not None and (
            isinstance(end, bool) or not isinstance(end, int) or not 0 <= end < len(END_NAMES)
        ):
            raise NotAMove(end, _END_HINT, "an end")
        return cls(Kind.PLAY, tile, end)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move's text form; raise :class:`NotAMove` (a ``ValueError`` too) with a
        hint otherwise, a non-string included."""
        if not isinstance(text, str):
            raise NotAMove(text)
        word = text.strip().lower()
        if word in ("draw", "pass"):
            return DRAW if word == "draw" else PASS
        match = _MOVE_TEXT.match(text)
        if not match:
            raise NotAMove(text)
        try:
            tile = Tile.parse(match["tile"])
        except NotATile:
            raise NotAMove(match["tile"], "write it like 6-5", "a tile") from None
        end = match["end"]
        if end is None:
            return cls(Kind.PLAY, tile)
        return cls.play(tile, end)

    @property
    def end_name(self) -> str | None:
        return None if self.end is None else END_NAMES[self.end]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return Move.parse, (self.text,)


DRAW = Move(Kind.DRAW)
PASS = Move(Kind.PASS)
LEADS: tuple[Move, ...] = tuple(Move(Kind.PLAY, t) for t in TILES)
"""``LEADS[i]``: leading tile ``i`` (the first tile of a round names no end)."""
PLACE: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(Kind.PLAY, t, e) for e in range(len(END_NAMES))) for t in TILES
)
"""``PLACE[i][e]``: tile ``i`` on end ``e`` (an index into :data:`END_NAMES`)."""

_placements: list[dict[int, tuple[Move, ...]]] = [{} for _ in END_NAMES]


def placements(end: int, mask: int) -> tuple[Move, ...]:
    """The moves that put each tile of ``mask`` on ``end`` (memoised: legal-move
    generation is the engine's hot path, and the masks seen repeat endlessly)."""
    cache = _placements[end]
    moves = cache.get(mask)
    if moves is None:
        moves = cache[mask] = tuple(PLACE[i][end] for i in indices(mask))
    return moves
