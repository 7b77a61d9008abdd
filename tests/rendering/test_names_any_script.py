"""Display names in any script drawn in the pictures: emoji, Chinese, Japanese, Korean,
Hebrew, Arabic, combining marks. No character may come out as a font's missing-glyph
box (Pillow draws one wherever a font lacks a character, and says nothing), a name
read right to left reads so, and a name cut to its room fits it."""

from __future__ import annotations

import io
import random
import unicodedata
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.engine import Match
from rendering import (
    LeaderboardRow,
    fonts,
    render_hand,
    render_leaderboard,
    render_replay,
    render_table,
)
from rendering.palette import TEXT, canvas, length, write
from rendering.table import HEADER_FONT, MARGIN, NAME_ROOM, fit_name
from words.pictures import hand_text, leaderboard_text, table_text
from words.replays import replay_text

NAMES = [
    "🎲 Dado 😀🇪🇸",
    "山田太郎",
    "김민준",
    "さくら🌸",
    "עברית כהן",
    "محمد علي",
    "Zoe\u0301 Rene\u0301e",
    "Z̸̢̛̤̈́a̶̟̿l̷͔̊g̵̙̈o̶̹̓",
    "𝓐𝓵𝓲𝓬𝓮 ✨",
    "👨\u200d👩\u200d👧 ☺\ufe0f",
    "สวัสดี",
    "🎲" * 32,
    "山" * 32,
]
"""Names as Discord members write them: emoji (a flag, a family joined by zero-width
joiners, a variation selector), CJK, right-to-left scripts, an accent written as a
combining mark, "Zalgo" stacks of marks, mathematical letters, Thai (which no shipped
font draws: replaced), and two of Discord's longest."""
NOT_DRAWN = "สวัสดี"
NO_FONT_HAS = "\U0010fffd"
"""A private-use character: every font draws it as its missing-glyph box."""


def tables(names: list[str]) -> Iterator[list[str]]:
    """The names four at a time, each group seated at a table."""
    for first in range(0, len(names), 4):
        group = names[first : first + 4]
        yield group + NAMES[: 4 - len(group)]


def test_every_character_is_drawn_by_a_font_that_has_it_or_left_out_on_purpose() -> None:
    for name in NAMES:
        drawn = "".join(run.text for run in fonts.runs(name))
        for run in fonts.runs(name):
            assert {ord(char) for char in run.text} <= fonts.covered(run.font), (name, run)
        for char in set(name) - set(drawn):
            owner = next(
                (i for i in range(len(fonts.FILES)) if ord(char) in fonts.covered(i)), None
            )
            kind = unicodedata.category(char)
            assert owner is None or (kind == "Cf" and owner != fonts.MAIN), (name, char)
            assert kind in ("Mn", "Me", "Cf") or fonts.REPLACEMENT in drawn, (name, char)
    assert {run.text for run in fonts.runs(NOT_DRAWN)} == {fonts.REPLACEMENT * 4}


def glyph(face: ImageFont.FreeTypeFont, char: str) -> bytes:
    """``char`` drawn alone in ``face``, with room around it for marks that hang off."""
    size = int(face.size)
    image = Image.new("L", (4 * size, 3 * size))
    ImageDraw.Draw(image).text((size, size), char, font=face, fill=255)
    return image.tobytes()


def test_the_fonts_draw_every_character_their_maps_give_them_as_a_glyph_not_a_box() -> None:
    """Read from the pictures, not the character maps: each character drawn in the font
    chosen for it differs from that font's missing-glyph box."""
    assert not any(ord(NO_FONT_HAS) in fonts.covered(i) for i in range(len(fonts.FILES)))
    faces = [ImageFont.truetype(path, HEADER_FONT) for path in fonts.FILES]
    boxes = [glyph(face, NO_FONT_HAS) for face in faces]
    assert all(box != glyph(faces[0], " ") for box in boxes)  # a box is drawn at all
    for name in NAMES:
        for run in fonts.runs(name):
            for char in set(run.text):
                assert glyph(faces[run.font], char) != boxes[run.font], (name, char)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every text Pillow is asked to draw meanwhile, with the font file it is drawn in."""
    calls: list[tuple[str, str]] = []
    text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, words: Any, *args: Any, **kwargs: Any) -> None:
        face = kwargs.get("font")
        calls.append((str(words), str(getattr(face, "path", ""))))
        text(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    return calls


def assert_no_missing_glyph(calls: list[tuple[str, str]]) -> None:
    maps = {str(path): fonts.covered(index) for index, path in enumerate(fonts.FILES)}
    assert calls
    for words, path in calls:
        missing = {char for char in words if ord(char) not in maps[path]}
        assert not missing, (words, path, missing)


def test_table_pictures_draw_no_missing_glyph(drawn: list[tuple[str, str]]) -> None:
    for names in tables(NAMES):
        match = Match("cross", 4, seed=1)
        picker = random.Random(1)
        for _ in range(6):
            view = match.view()
            picture = render_table(view, table_text(view, names))
            assert Image.open(io.BytesIO(picture.png)).size == (picture.width, picture.height)
            match.play(picker.choice(match.legal_moves()))
    assert_no_missing_glyph(drawn)


def test_hand_pictures_draw_no_missing_glyph(drawn: list[tuple[str, str]]) -> None:
    for names in tables(NAMES):
        match = Match("milo", 4, seed=2)
        for seat in range(4):
            view = match.seat_view(seat)
            picture = render_hand(view, hand_text(view, names))
            assert Image.open(io.BytesIO(picture.png)).size == (picture.width, picture.height)
    assert_no_missing_glyph(drawn)


def test_the_leaderboard_draws_no_missing_glyph(drawn: list[tuple[str, str]]) -> None:
    rows = [LeaderboardRow(rank, name, "1,500", 12) for rank, name in enumerate(NAMES[:10], 1)]
    png = render_leaderboard(rows, leaderboard_text("🎲 Dominó 山田"))
    assert Image.open(io.BytesIO(png)).width > 0
    assert_no_missing_glyph(drawn)


def test_a_replay_draws_no_missing_glyph(drawn: list[tuple[str, str]]) -> None:
    names = NAMES[4:8]
    record = Match("milo", 4, seed=3)
    while record.outcome() is None:
        record.play(record.legal_moves()[0])
    replay = render_replay(record.record(), replay_text(names))
    assert replay.parts
    assert_no_missing_glyph(drawn)


@pytest.mark.parametrize("name", NAMES)
def test_a_name_cut_to_its_room_fits_it(name: str) -> None:
    """As measured and as inked: a name measured in the wrong font (a box where a wider
    CJK letter is drawn) would spill over its neighbour's."""
    for room, cut in ((NAME_ROOM, fit_name(name)), (3 * NAME_ROOM, fit_name(name, wide=True))):
        assert length(cut, HEADER_FONT) <= room
        image = canvas((4 * room, 4 * HEADER_FONT))
        _, _, right, _ = write(image, (MARGIN, HEADER_FONT), cut, HEADER_FONT, TEXT)
        assert right - MARGIN <= room + 2  # ink may overhang the pen by a pixel or two
        shown = cut.removesuffix("\u200e")  # a left-to-right mark after a Hebrew name
        assert shown == name or (shown.endswith("…") and name.startswith(shown[:-1]))


def visual(text: str) -> list[tuple[str, bool]]:
    return [(run.text, run.backwards) for run in fonts.runs(text)]


def test_right_to_left_names_read_right_to_left_among_left_to_right_words() -> None:
    """The bidirectional algorithm on a left-to-right line: a Hebrew or Arabic name's
    words and letters run right to left, a number after it stays on its left, the rest
    of the line goes on to its right."""
    assert visual("עברית 3 · Bob 5") == [("3", False), ("עברית ", True), (" · Bob 5", False)]
    assert visual("Ann 4 · محمد علي 12") == [
        ("Ann 4 · ", False),
        ("12", False),
        ("محمد علي ", True),
    ]
    assert visual("Bob 7") == [("Bob 7", False)]
    (run,) = fonts.runs("\u05e9\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd")  # shalom, pointed
    # drawn from its end, each letter keeping its marks after it
    assert fonts.mirrored(run) == "\u05dd\u05d5\u05b9\u05dc\u05e9\u05c1\u05b8"


def test_a_score_stays_after_a_right_to_left_name_in_the_header() -> None:
    """Left alone, the bidirectional algorithm would draw "Scores: 0 עברית כהן · Ann
    0": a number after a right-to-left name joins its stretch, on its left."""
    names = ["עברית כהן", "Ann", "محمد علي", "Bob"]
    match = Match("cross", 4, seed=1)
    match.play(match.legal_moves()[0])
    view = match.view()
    lines = [line for line in table_text(view, names).header if "Ann" in line]
    assert lines
    for line in lines:
        placed = fonts.runs(line)
        for before, run in pairwise(placed):
            if run.backwards:
                assert not before.text.rstrip()[-1:].isdigit(), (line, placed)


def test_without_libraqm_right_to_left_names_are_drawn_letter_by_letter_from_the_end(
    monkeypatch: pytest.MonkeyPatch, drawn: list[tuple[str, str]]
) -> None:
    monkeypatch.setattr("rendering.palette.shaping", lambda: False)
    image = canvas((300, 40))
    write(image, (4, 4), "Ann 4 · עברית", 17, TEXT)
    assert ("תירבע", str(fonts.FILES[fonts.MAIN])) in drawn


def test_a_name_dejavu_sans_draws_alone_takes_the_usual_way() -> None:
    for name in ("Ann", "Zoë", "Ренат", "Ελένη", "Łukasz Žák", "Zoe\u0301"):
        assert fonts.plain(name)
    for name in ("山田", "🎲", "עברית", "محمد", "𝓐"):
        assert not fonts.plain(name)


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("JJJJJ" + "🇧🇷" * 10, "JJJJJ🇧🇷"),  # a flag is two letters: never one alone
        ("Família 👨\u200d👩\u200d👧\u200d👦 Silva Santos", "Família"),  # nor a joiner left
        ("Ze\u0301" * 10, "Ze\u0301" * 4 + "Z"),  # an accent stays with its letter
        ("👍🏽" * 10, "👍🏽" * 2),  # and a skin tone with its hand
    ],
)
def test_a_name_is_cut_between_whole_characters(name: str, kept: str) -> None:
    """A name cut to its room keeps whole characters as a reader sees them: no half a
    flag, no family's first member with a dangling joiner, no letter without its accent
    or hand without its skin tone."""
    assert fit_name(name) == kept + "…"


@pytest.mark.parametrize("separator", ["\r", "\u2029"])
def test_a_paragraph_separator_in_a_right_to_left_name_is_drawn_as_a_space(separator: str) -> None:
    """A line of a picture is one paragraph: libraqm, which lays out a stretch read right
    to left, fails outright ("raqm_layout() failed") on a carriage return or a paragraph
    separator inside one, and the table's every picture failed with it."""
    name = f"עברית{separator}כהן"
    assert fonts.runs(name) == fonts.runs("עברית כהן")
    match = Match("cross", 2, seed=1)
    match.play(match.legal_moves()[0])
    view = match.view()
    names = [name, "محمد" + separator + "علي"]
    render_table(view, table_text(view, names))
    render_hand(match.seat_view(0), hand_text(match.seat_view(0), names))
    render_leaderboard([LeaderboardRow(1, name, "1", 1)], leaderboard_text("x"))
