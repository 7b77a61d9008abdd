"""The fonts pictures are drawn in, shipped here with their licences (``README.md`` says
where each comes from and how the fallbacks were cut down), and which of them draws
each character of a text, in what order on the picture.

DejaVu Sans draws nearly every word: Latin, Greek, Cyrillic, Hebrew, Arabic, many
symbols and emoticons. What it lacks and display names are often written in (emoji,
Chinese, Japanese and Korean, the mathematical letters of "fancy" names) is drawn in
the first fallback whose character map has it: Pillow draws a character a font lacks
as that font's missing-glyph box, and cannot tell when it does. A character no shipped
font has is drawn as U+FFFD, the replacement character, which reads as "a character
not shown" and cannot be taken for a letter of the name (a "?" can be one); a mark
none has is left out, as is a format character (a joiner, a tag, a direction mark)
DejaVu Sans lacks, which has nothing to show (DejaVu Sans draws its own as nothing; a
fallback may draw one as a visible sign).

Pillow lays text out left to right unless libraqm is there, so the order of letters
that read right to left (Hebrew, Arabic) is worked out here: :func:`runs` gives each
run of a text in the order it stands on the picture."""

from __future__ import annotations

import re
import struct
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

FOLDER = Path(__file__).parent
FILES = (
    FOLDER / "DejaVuSans.ttf",
    FOLDER / "NotoEmoji-Regular-subset.ttf",
    FOLDER / "NotoSansCJKsc-Regular-subset.otf",
    FOLDER / "Symbola-subset.ttf",
)
"""DejaVu Sans, then the fallbacks in the order they are asked for a character."""
MAIN = 0
"""DejaVu Sans's place in :data:`FILES`."""
REPLACEMENT = "\ufffd"
RUNS_KEPT = 1024
"""Texts kept split into runs: only words and lines DejaVu Sans alone does not draw."""

_RIGHT_TO_LEFT = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
"""Characters of the scripts written right to left (and their marks), found at a
glance: a text without any is laid out left to right as it stands."""


@dataclass(frozen=True, slots=True)
class Run:
    """Characters drawn in one font, one way."""

    text: str
    """In the order they are written (logical order), whichever way they read."""
    font: int
    """The place in :data:`FILES` of the font drawing them."""
    backwards: bool
    """Read right to left: drawn with their last character on the left."""


def plain(text: str) -> bool:
    """Whether DejaVu Sans draws every character of ``text``, left to right as it stands:
    what Pillow's basic layout alone draws right (a name in any Latin, Greek or Cyrillic
    letters, accented or not)."""
    return text.isascii() or (
        _RIGHT_TO_LEFT.search(text) is None and covered(MAIN).issuperset(map(ord, text))
    )


def right_to_left(text: str) -> bool:
    """Whether ``text`` holds any letter of a script read right to left."""
    return not text.isascii() and _RIGHT_TO_LEFT.search(text) is not None


@lru_cache(maxsize=RUNS_KEPT)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` as the runs it is drawn in, from left to right on the picture.

    A paragraph separator but a line feed (which starts another line of a text of
    several) is drawn as a space: a line of a picture is one paragraph, and libraqm
    fails outright ("raqm_layout() failed") on a carriage return or U+2029 inside a
    stretch it lays out right to left, where a name drawn as it comes may put one.
    Each character goes to the first font that has it (a mark to its letter's font if
    that has it too, so the two stay together), or is replaced (see the module's
    docstring). Then the order, as the Unicode bidirectional algorithm orders a line
    whose own direction is left to right, without explicit embeddings: a stretch from a
    right-to-left letter to the last right-to-left letter or number before the next
    left-to-right letter reads right to left, its numbers within it left to right."""
    chars: list[tuple[str, int]] = []
    for char in text:
        if char != "\n" and unicodedata.bidirectional(char) == "B":
            char = " "
        font = _font_of(char, chars[-1][1] if chars else None)
        kind = unicodedata.category(char)
        if font == MAIN or (font is not None and kind != "Cf"):
            chars.append((char, font))
        elif kind not in ("Mn", "Me", "Cf"):
            chars.append((REPLACEMENT, MAIN))
    directions = _directions([char for char, _ in chars])
    placed: list[Run] = []
    start = 0
    while start < len(chars):
        reversing = directions[start] != "L"
        stop = start + 1
        while stop < len(chars) and (directions[stop] != "L") == reversing:
            stop += 1
        pieces: list[Run] = []
        for (char, font), direction in zip(chars[start:stop], directions[start:stop], strict=True):
            backwards = direction == "R"
            if pieces and (pieces[-1].font, pieces[-1].backwards) == (font, backwards):
                pieces[-1] = Run(pieces[-1].text + char, font, backwards)
            else:
                pieces.append(Run(char, font, backwards))
        placed.extend(reversed(pieces) if reversing else pieces)
        start = stop
    return tuple(placed)


def mirrored(run: Run) -> str:
    """A backwards run's characters in the order they stand on the picture, for a
    layout that draws left to right as given: each letter with its marks after it (a
    mark is drawn over the letter before it)."""
    clusters: list[str] = []
    for char in run.text:
        if clusters and unicodedata.combining(char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return "".join(reversed(clusters))


def _font_of(char: str, before: int | None) -> int | None:
    code = ord(char)
    if before is not None and unicodedata.combining(char) and code in covered(before):
        return before
    return next((index for index in range(len(FILES)) if code in covered(index)), None)


_NUMBER = ("EN", "AN")


def _directions(chars: list[str]) -> list[str]:
    """Per character: "R" within a stretch read right to left, "N" for a number inside
    one (read left to right there), "L" elsewhere."""
    kinds: list[str] = []
    for char in chars:
        kind = unicodedata.bidirectional(char)
        kinds.append(
            ("R" if kind == "AL" else kind) if kind != "NSM" else kinds[-1] if kinds else "L"
        )
    directions = ["L"] * len(chars)
    strong = "L"  # the last strong direction met: a number after a left-to-right one is one
    stretch: int | None = None  # where the stretch now read right to left began
    last = -1  # its last right-to-left letter or number
    for index, kind in enumerate(kinds):
        if kind == "R":
            strong, last = "R", index
            stretch = index if stretch is None else stretch
        elif kind == "L":
            _close(directions, kinds, stretch, last)
            strong, stretch = "L", None
        elif kind in _NUMBER and strong == "R":
            last = index
    _close(directions, kinds, stretch, last)
    return directions


def _close(directions: list[str], kinds: list[str], stretch: int | None, last: int) -> None:
    """Mark the stretch from ``stretch`` to ``last`` as read right to left, a number's
    digits and the separators between them (1,000 or 3.5) left to right."""
    if stretch is None:
        return
    for index in range(stretch, last + 1):
        number = kinds[index] in _NUMBER or (
            kinds[index] in ("CS", "ES")
            and index < last
            and kinds[index - 1] in _NUMBER
            and kinds[index + 1] in _NUMBER
        )
        directions[index] = "N" if number else "R"


@cache
def covered(index: int) -> frozenset[int]:
    """The characters the font at ``index`` in :data:`FILES` has a glyph for: its
    character map, read once."""
    return frozenset(character_map(FILES[index].read_bytes()))


def character_map(font: bytes) -> set[int]:
    """The characters an OpenType font maps to a glyph (other than glyph 0, the
    missing-glyph box), from its ``cmap`` table's Windows Unicode subtable: the full
    repertoire one (format 12) if it has one, else the Basic Multilingual Plane's
    (format 4). The OpenType specification, "cmap — Character to Glyph Index Mapping
    Table"."""
    tables = struct.unpack_from(">H", font, 4)[0]
    cmap = next(
        offset
        for tag, _, offset, _ in (
            struct.unpack_from(">4sIII", font, 12 + 16 * i) for i in range(tables)
        )
        if tag == b"cmap"
    )
    subtables = {
        struct.unpack_from(">HH", font, cmap + 4 + 8 * i): struct.unpack_from(
            ">I", font, cmap + 8 + 8 * i
        )[0]
        for i in range(struct.unpack_from(">H", font, cmap + 2)[0])
    }
    if (3, 10) in subtables:
        return _format_12(font, cmap + subtables[3, 10])
    return _format_4(font, cmap + subtables[3, 1])


def _format_12(font: bytes, at: int) -> set[int]:
    groups = struct.unpack_from(">I", font, at + 12)[0]
    chars: set[int] = set()
    for group in range(groups):
        first, last, glyph = struct.unpack_from(">III", font, at + 16 + 12 * group)
        chars.update(range(first + (glyph == 0), last + 1))
    return chars


def _format_4(font: bytes, at: int) -> set[int]:
    segments = struct.unpack_from(">H", font, at + 6)[0] // 2
    ends = at + 14
    starts = ends + 2 * segments + 2
    deltas = starts + 2 * segments
    offsets = deltas + 2 * segments
    chars: set[int] = set()
    for segment in range(segments):
        (last,) = struct.unpack_from(">H", font, ends + 2 * segment)
        (first,) = struct.unpack_from(">H", font, starts + 2 * segment)
        (delta,) = struct.unpack_from(">H", font, deltas + 2 * segment)
        where = offsets + 2 * segment
        (offset,) = struct.unpack_from(">H", font, where)
        for code in range(first, min(last, 0xFFFE) + 1):
            if offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                (glyph,) = struct.unpack_from(">H", font, where + offset + 2 * (code - first))
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                chars.add(code)
    return chars
