"""Colours and fonts, in one place. The fonts ship in ``rendering/fonts`` with their
licences, never from the host: Pillow's own default font draws no accented letters, no
Greek or Cyrillic and no dash, so names like "Zoë" and the leaderboard title came out
as boxes. Text is drawn in DejaVu Sans; what it lacks (emoji, CJK, ...) in the fallback
fonts :mod:`rendering.fonts` picks, run by run, and only text DejaVu Sans does not draw
alone takes that way: every other word is measured and inked as before."""

from __future__ import annotations

import math
import struct
import unicodedata
import zlib
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont, features
from zlib_ng import zlib_ng

from rendering import fonts

BACKGROUND = (22, 92, 52)
"""Table felt."""
FACE = (250, 247, 238)
PIP = (25, 25, 25)
BORDER = (40, 40, 40)
HIGHLIGHT = (255, 214, 90)
"""The last tile played."""
PLAYABLE = (214, 245, 214)
"""The face of a tile the player can play now (with a ``PLAYABLE_EDGE`` frame)."""
PLAYABLE_EDGE = (120, 230, 120)
DEAD = (170, 160, 160)
TEXT = (245, 245, 235)
MUTED = (200, 215, 200)
ALERT = (255, 178, 168)


FONT_FILE = fonts.FILES[fonts.MAIN]

LINES_KEPT = 512
"""Lines of text drawn whole (centred or middle-anchored: open-end labels, tile
captions, a replay's names) kept inked: a small set that recurs from picture to
picture."""
WORDS_KEPT = 4096
"""Words of left-aligned text kept inked, each at the fraction of a pixel it began at.
A header line names its table's players and scores, so whole lines rarely recur
across hundreds of tables, but their words do: lines inked whole were a large share of
the drawing process's time. Mostly names are kept (a word recurs at one to four
fractions); 4,096 hold nearly every word of hundreds of tables open at once, for a few
tens of MB (``benchmarks/render.py``; the figures are in docs/BENCHMARKS.md)."""


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` px, laid out by Pillow's basic engine so the same text
    gives the same pixels whether or not the host has libraqm."""
    return ImageFont.truetype(FONT_FILE, size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=64)
def _face(index: int, size: int, shaped: bool) -> ImageFont.FreeTypeFont:
    """The font at ``index`` in :data:`rendering.fonts.FILES` at ``size`` px, laid out
    by libraqm when ``shaped`` (a run read right to left: it puts the letters in order
    and joins Arabic ones), else by the basic engine, as :func:`font`."""
    if index == fonts.MAIN and not shaped:
        return font(size)
    engine = ImageFont.Layout.RAQM if shaped else ImageFont.Layout.BASIC
    return ImageFont.truetype(fonts.FILES[index], size, layout_engine=engine)


@cache
def shaping() -> bool:
    """Whether Pillow can lay text out with libraqm here (it needs the system's FriBiDi
    library). Without it a run read right to left is drawn letter by letter from its
    end (:func:`rendering.fonts.mirrored`): in the right order, Arabic letters unjoined."""
    return bool(features.check_feature("raqm"))


_Piece = tuple[ImageFont.FreeTypeFont, str, str | None, float]
"""A run as drawn: its font, its characters as handed to Pillow, its direction (for
libraqm; None for the basic engine) and where the pen stands at its start."""


def _pieces(text: str, size: int) -> tuple[list[_Piece], float]:
    """``text``'s runs (:func:`rendering.fonts.runs`) as drawn from left to right at
    ``size`` px, and how far they move the pen in all."""
    pieces: list[_Piece] = []
    pen = 0.0
    for run in fonts.runs(text):
        shaped = run.backwards and shaping()
        chars = fonts.mirrored(run) if run.backwards and not shaped else run.text
        direction = "rtl" if shaped else None
        face = _face(run.font, size, shaped)
        pieces.append((face, chars, direction, pen))
        pen += face.getlength(chars, direction=direction)
    return pieces, pen


def _pieces_mask(text: str, size: int, start: float) -> tuple[Image.Image, tuple[int, int]]:
    """Text DejaVu Sans does not draw alone, inked run by run on one baseline, from
    ``start`` (a fraction of a pixel), a pixel left either side as
    :func:`_inked_word` leaves; and where the mask sits from the point its text would
    be anchored at by ``"la"`` in DejaVu Sans (its ascender line, where the pen starts)."""
    pieces, _ = _pieces(text, size)
    boxes = [
        (pen + left, top, pen + right, bottom)
        for face, chars, direction, pen in pieces
        for left, top, right, bottom in [face.getbbox(chars, anchor="ls", direction=direction)]
    ] or [(0.0, 0.0, 0.0, 0.0)]
    left, top = math.floor(min(box[0] for box in boxes)), math.floor(min(box[1] for box in boxes))
    right, bottom = math.ceil(max(box[2] for box in boxes)), math.ceil(max(box[3] for box in boxes))
    mask = Image.new("L", (right - left + 2, max(1, bottom - top)), 0)
    draw = ImageDraw.Draw(mask)
    for face, chars, direction, pen in pieces:
        draw.text((1 - left + start + pen, -top), chars, fill=255, font=face, anchor="ls",
                  direction=direction)  # fmt: skip
    return mask, (left - 1, top + font(size).getmetrics()[0])


def write(
    image: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    ink: tuple[int, int, int],
    anchor: str = "la",
) -> tuple[int, int, int, int]:
    """Draw ``text`` at ``xy`` (whole pixels) on a :func:`canvas`, in DejaVu Sans of
    ``size`` px, as ``ImageDraw.text`` would draw it on the felt and the palette would
    map it, pixel for pixel, from inked copies kept for reuse: left-aligned text word
    by word, each word where the pen reaches it (``tests/rendering/test_text.py``
    holds the two to the same pixels), centred text as a whole line. Where it landed:
    (left, top, right, bottom), as ``ImageDraw.textbbox`` says.

    A line with letters read right to left is inked whole, as centred text is: the
    order of its words depends on the whole line."""
    if anchor != "la" or "\n" in text or fonts.right_to_left(text):
        inked, covered, (dx, dy) = _inked_line(text, size, anchor, ink)
        left, top = xy[0] + dx, xy[1] + dy
        image.paste(inked, (left, top), covered)
        return left, top, left + inked.width, top + inked.height
    x, y = xy
    pen = 0.0
    box = [x, y, x, y]
    for word, after in _words(text, size):
        if word:
            whole = math.floor(pen)
            inked, covered, (dx, dy) = _inked_word(word, size, ink, pen - whole)
            left, top = x + whole + dx, y + dy
            image.paste(inked, (left, top), covered)
            box = [min(box[0], left), min(box[1], top), max(box[2], left + inked.width),
                   max(box[3], top + inked.height)]  # fmt: skip
        pen += after
    return box[0], box[1], box[2], box[3]


def length(text: str, size: int) -> float:
    """How far ``text`` moves the pen, in pixels: ``FreeTypeFont.getlength``, added up
    from its words' (a line's words advance it as much as the line does)."""
    return sum(after for _, after in _words(text, size))


def _words(text: str, size: int) -> list[tuple[str, float]]:
    """``text``'s words, each with how far it and the space after it move the pen."""
    words = text.split(" ")
    spaced = [(word, _advance(word + " ", size)) for word in words[:-1]]
    return [*spaced, (words[-1], _advance(words[-1], size))]


@lru_cache(maxsize=WORDS_KEPT)
def _advance(text: str, size: int) -> float:
    """How far a word (with its space) moves the pen: measured once, like its ink."""
    if fonts.plain(text):
        return font(size).getlength(text)
    return _pieces(text, size)[1]


@lru_cache(maxsize=WORDS_KEPT)
def _inked_word(
    word: str, size: int, ink: tuple[int, int, int], start: float
) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """``word`` inked as :func:`_inked_line` inks a line, drawn from ``start`` (a
    fraction of a pixel): FreeType places each letter from where the pen stands, a
    fraction included, so a word drawn on its own at the fraction the line's pen
    reached gives the pixels the whole line gives there. A pixel is left either side
    for the fraction to shift it into."""
    if not fonts.plain(word):
        mask, offset = _pieces_mask(word, size, start)
        return *_ink(mask, ink), offset
    measure = font(size)
    left, top, right, bottom = measure.getbbox(word, anchor="la")
    mask = Image.new("L", (int(right - left) + 2, max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((1 - left + start, -top), word, fill=255, font=measure)
    return *_ink(mask, ink), (int(left) - 1, int(top))


@lru_cache(maxsize=LINES_KEPT)
def _inked_line(
    text: str, size: int, anchor: str, ink: tuple[int, int, int]
) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """``text`` in ``ink`` on the felt, already in the palette; the pixels it covers
    (only those are pasted, so whatever lies under the rest of its box stays); and
    where it sits from its anchor point."""
    measure = font(size)
    if not fonts.plain(text):
        mask, (dx, dy) = _pieces_mask(text, size, 0.0)
        across = {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]] * _pieces(text, size)[1]
        down = measure.getbbox("x", anchor="l" + anchor[1])[1] - measure.getbbox("x")[1]
        return *_ink(mask, ink), (dx - round(across), dy + int(down))
    left, top, right, bottom = measure.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=measure, anchor=anchor)
    return *_ink(mask, ink), (int(left), int(top))


def _ink(mask: Image.Image, ink: tuple[int, int, int]) -> tuple[Image.Image, Image.Image]:
    """The text's coverage ``mask`` as ``ink`` on the felt, in palette indices, and as
    the mask of the pixels it touches at all. Mapped through byte tables
    (``bytes.translate``): ``Image.point`` would first round each of a 256-entry
    list's values in Python, a third of inking a short word."""
    coverage = mask.tobytes()
    inked = Image.frombytes("P", mask.size, coverage.translate(_shades(ink)))
    return inked, Image.frombytes("L", mask.size, coverage.translate(_COVERED))


_COVERED = bytes([0] + [255] * 255)
"""Coverage to paste mask: every pixel the text touches at all."""


@cache
def _shades(ink: tuple[int, int, int]) -> bytes:
    """The palette index of ``ink`` over the felt at each of the 256 coverages: what
    pasting ``ink`` through the text's mask and mapping the result onto the palette
    would give each pixel, worked out once per ink instead of once per pixel (a
    quarter less time for each line of text drawn anew)."""
    coverage = Image.new("L", (256, 1))
    coverage.putdata(range(256))
    blended = Image.new("RGB", coverage.size, BACKGROUND)
    blended.paste(ink, (0, 0), coverage)
    return _to_palette(blended).tobytes()


def fit(text: str, room: float, measure: ImageFont.FreeTypeFont) -> str:
    """``text``, cut with an ellipsis to fit ``room`` pixels: display names run to 32
    characters, which would push a column or a picture's edge away. Measured, since
    letters differ in width, in the fonts that will draw them (``measure`` is a
    :func:`font`).

    Text with letters read right to left ends with a left-to-right mark (U+200E, drawn
    as nothing): the Unicode bidirectional algorithm would put a number that follows
    a Hebrew or Arabic name on a line (its score) on the name's left, as part of its
    right-to-left stretch; the mark ends the stretch with the name."""
    plain, size = fonts.plain(text), int(measure.size)

    def width(words: str) -> float:
        return measure.getlength(words) if plain else _pieces(words, size)[1]

    if width(text) > room:
        cut = len(text)
        while cut and (width(text[:cut] + "…") > room or _splits(text, cut)):
            cut -= 1
        text = text[:cut].rstrip() + "…"
    return text + LEFT_TO_RIGHT_MARK if fonts.right_to_left(text) else text


LEFT_TO_RIGHT_MARK = "\u200e"
_JOINING = frozenset("\u200d\ufe0e\ufe0f")
"""The zero-width joiner and the variation selectors: parts of the character before."""


def _splits(text: str, cut: int) -> bool:
    """Whether cutting ``text`` before index ``cut`` splits a character as it is seen
    (a name keeps whole letters and emoji, not half a flag or a family's first member
    and a dangling joiner): before an accent, a variation selector, a skin tone or a
    joiner, just after a joiner, or between a flag's two letters."""
    after = text[cut] if cut < len(text) else ""
    if after and (
        after in _JOINING
        or unicodedata.category(after) in ("Mn", "Me")
        or "\U0001f3fb" <= after <= "\U0001f3ff"
    ):
        return True
    if text[cut - 1 : cut] == "\u200d":
        return True
    letters = 0  # regional indicators just before the cut: a flag is two
    for char in reversed(text[:cut]):
        if not "\U0001f1e6" <= char <= "\U0001f1ff":
            break
        letters += 1
    return letters % 2 == 1


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    measure: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
) -> None:
    """``draw.text(xy, text, font=measure, fill=fill)`` (``measure`` a :func:`font`),
    with what DejaVu Sans lacks drawn in its fallbacks: for a picture drawn whole in
    RGB (the leaderboard's), where :func:`write` pastes text already in the palette."""
    if fonts.plain(text):
        draw.text(xy, text, font=measure, fill=fill)
        return
    baseline = xy[1] + measure.getmetrics()[0]
    for face, chars, direction, pen in _pieces(text, int(measure.size))[0]:
        draw.text((xy[0] + pen, baseline), chars, fill=fill, font=face, anchor="ls",
                  direction=direction)  # fmt: skip


INKS = (TEXT, MUTED, ALERT, HIGHLIGHT, PLAYABLE_EDGE)
"""Colours text is written in, always on the felt; its smoothed edges are blends of the
two, and the only colours a picture holds besides the flat ones above."""
BLEND_STEPS = 16


def _fixed_palette() -> Image.Image:
    flat = [BACKGROUND, FACE, PIP, BORDER, HIGHLIGHT, PLAYABLE, PLAYABLE_EDGE, DEAD, *INKS]
    blends = [
        tuple(round(b + (i - b) * step / BLEND_STEPS) for b, i in zip(BACKGROUND, ink, strict=True))
        for ink in INKS
        for step in range(1, BLEND_STEPS)
    ]
    colours = list(dict.fromkeys(flat + blends))
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in colours for value in colour])
    return palette


PALETTE = _fixed_palette()


def canvas(size: tuple[int, int]) -> Image.Image:
    """A picture of ``size`` covered in felt, drawn straight in the fixed palette.
    Every shape is drawn in a flat colour of the palette and text is pasted already
    mapped (:func:`write`), so no picture is mapped onto the palette as a whole: that
    mapping was a quarter of a table picture's time, and one byte a pixel is also
    cheaper to fill and paste than three."""
    image = Image.new("P", size, _INDEX[BACKGROUND])
    image.putpalette(_PALETTE_DATA)
    return image


def _to_palette(image: Image.Image) -> Image.Image:
    return image.quantize(palette=PALETTE, dither=Image.Dither.NONE)


_PALETTE_DATA = PALETTE.getpalette() or []
_INDEX = {tuple(_PALETTE_DATA[i : i + 3]): i // 3 for i in range(0, len(_PALETTE_DATA), 3)}


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of a picture, in a fixed palette of every colour the pictures use and
    the blends of smoothed text: an 8-bit palette PNG is a third the size of RGB. A
    :func:`canvas` is already in it; a picture drawn in RGB (the leaderboard's, whose
    text ``ImageDraw`` smooths on its own) is mapped onto it, which costs a fraction
    of searching a palette out per picture.

    The pixels are compressed by zlib-ng, not by Pillow: Pillow's wheels compress with
    the system's zlib, which made a table's PNG a large share of the drawing process's
    time; zlib-ng takes a fraction of that, and its file is a little smaller. The rest
    of a PNG is four chunks (the PNG specification, section 5)."""
    image = image if image.mode == "P" else _to_palette(image)
    width, height = image.size
    # Each row of the image data starts with its filter type, 0 (none: a palette's
    # indices are not numbers to predict): the picture pasted one pixel in from the
    # left edge of a copy one pixel wider, whose first column is 0.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    return _png(width, height, image, zlib_ng.compress(rows.tobytes(), PNG_LEVEL))


def sheet(size: tuple[int, int]) -> Image.Image:
    """A :func:`canvas` for a picture of ``size`` that :func:`encode_sheet` encodes:
    one pixel wider, a column outside the picture that ends up as the next row's
    filter type. Its pixels then go to the compressor as they lie, where
    :func:`encode_png` first copies a picture one pixel in (a tenth of a table
    picture's time)."""
    return canvas((size[0] + 1, size[1]))


def encode_sheet(image: Image.Image) -> bytes:
    """PNG bytes of a :func:`sheet`'s picture, as :func:`encode_png` gives them: a 0
    first, then the sheet's rows, each row's extra pixel (set to 0 here, whatever was
    drawn past the picture's edge) standing for the next row's filter type, the last
    one left out."""
    width, height = image.width - 1, image.height
    image.paste(0, (width, 0, width + 1, height))
    compressor = zlib_ng.compressobj(PNG_LEVEL)
    data = compressor.compress(b"\0") + compressor.compress(memoryview(image.tobytes())[:-1])
    return _png(width, height, image, data + compressor.flush())


def _png(width: int, height: int, image: Image.Image, compressed: bytes) -> bytes:
    """A PNG of ``image``'s palette around its compressed pixel data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit, palette
    return b"".join(
        [
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(image.getpalette() or _PALETTE_DATA)),
            _chunk(b"IDAT", compressed),
            _chunk(b"IEND", b""),
        ]
    )


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_LEVEL = 2
"""zlib-ng's level: at 1 it compresses a third less; past 2 it takes longer for little."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: its length, type, data and CRC-32 of the type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
