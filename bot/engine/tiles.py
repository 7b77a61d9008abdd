"""Tiles of a double-six set (R-ALL-1) and the bit masks the rounds compute with.

A hand is stored as an ``int`` bit mask over the 28 tile indices, so "which of my tiles
carry a 5" is one ``&`` with :data:`SUIT` ``[5]``. That keeps legal-move generation in
the microseconds the self-play benchmarks need; :class:`Tile` objects appear only at
the edges (parsing, views, records).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar

from bot.engine.errors import BadPips, NotATile

PIPS = range(7)
_TILE_TEXT = re.compile(r"^\s*\[?\s*([0-6])\s*[-|:/ ]\s*([0-6])\s*\]?\s*$")


class Tile:
    """One tile, an unordered pair of pip values, written high end first (``6-5``).

    Tiles are interned: ``Tile(5, 6) is Tile(6, 5)``, so identity, equality and hashing
    are all cheap and a tile can key dicts and sets. ``Tile(a, b)`` refuses anything but
    two whole numbers from 0 to 6 with :class:`BadPips` (R-ALL-1).
    """

    __slots__ = ("bit", "high", "index", "is_double", "low", "text", "value")
    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}
    """Every tile under both of its pairs of pips, ``(6, 5)`` and ``(5, 6)``."""
    high: int
    low: int
    index: int
    bit: int
    value: int
    is_double: bool
    text: str
    """``6-5``: written once, as tiles are written over and over (a table's stored state
    names some seventy on every move)."""

    def __new__(cls, a: int, b: int) -> Tile:
        # The types first: ``True`` and ``1.0`` hash and compare as 1 would in the lookup.
        if type(a) is int and type(b) is int:
            tile = cls._interned.get((a, b))
            if tile is not None:
                return tile
        raise BadPips(a, b)

    @classmethod
    def _make(cls, high: int, low: int) -> Tile:
        """The one tile ``high-low``, made once when the module loads (see :data:`TILES`)."""
        tile = object.__new__(cls)
        tile.high, tile.low = high, low
        tile.index = high * (high + 1) // 2 + low
        tile.bit = 1 << tile.index
        tile.value = high + low
        tile.is_double = high == low
        tile.text = f"{high}-{low}"
        cls._interned[high, low] = cls._interned[low, high] = tile
        return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``6-5``, ``5-6``, ``6|5`` or ``[6|5]``; raise :class:`NotATile` (a
        ``ValueError`` too) for anything else, a non-string included."""
        match = _TILE_TEXT.match(text) if isinstance(text, str) else None
        if not match:
            raise NotATile(text)
        return cls(int(match[1]), int(match[2]))

    def other(self, pip: int) -> int:
        """The far end when this tile is joined to ``pip`` (which it must carry)."""
        return self.low if pip == self.high else self.high

    def __contains__(self, pip: object) -> bool:
        return pip == self.high or pip == self.low

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return Tile, (self.high, self.low)

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index


TILES: tuple[Tile, ...] = tuple(Tile._make(h, lo) for h in PIPS for lo in range(h + 1))
"""All 28 tiles; ``TILES[i].index == i``."""
FULL_SET = (1 << len(TILES)) - 1
SUIT: tuple[int, ...] = tuple(sum(t.bit for t in TILES if pip in t) for pip in PIPS)
"""``SUIT[p]``: the mask of the seven tiles that carry ``p``."""
DOUBLE: tuple[int, ...] = tuple(Tile(p, p).bit for p in PIPS)
"""``DOUBLE[p]``: the mask of the double ``p-p``."""
ALL_DOUBLES = sum(DOUBLE)

_indices_cache: dict[int, tuple[int, ...]] = {}


def indices(mask: int) -> tuple[int, ...]:
    """Tile indices set in ``mask``, lowest first (memoised: masks repeat endlessly)."""
    found = _indices_cache.get(mask)
    if found is None:
        found = tuple(i for i in range(len(TILES)) if mask >> i & 1)
        if len(_indices_cache) < 1 << 16:
            _indices_cache[mask] = found
    return found


def tiles_of(mask: int) -> list[Tile]:
    """The tiles in ``mask``, in set order."""
    return [TILES[i] for i in indices(mask)]


def mask_of(tiles: Iterable[Tile]) -> int:
    mask = 0
    for tile in tiles:
        mask |= tile.bit
    return mask


_PIPS_OF = tuple(t.value for t in TILES)


def pip_count(mask: int) -> int:
    """The count of a hand (R-ALL-7): the pip total of its tiles."""
    total = 0
    while mask:
        low = mask & -mask
        total += _PIPS_OF[low.bit_length() - 1]
        mask ^= low
    return total


def highest_double(mask: int) -> Tile | None:
    """The highest double in ``mask``, if any (who leads, R-CR-2 and R-MG-2)."""
    for pip in reversed(PIPS):
        if mask & DOUBLE[pip]:
            return Tile(pip, pip)
    return None
