"""A tournament's two pictures: the standings after a round (Swiss, round robin) and the
knockout bracket. Drawn from the tournament core's values (``bot.tournaments``) with the
names and every word handed in (``StandingsText``, ``BracketText``: ``words.tournaments``
builds them, and the alt texts), in the felt and inks of the other pictures.

Both are one-off pictures, drawn in a thread as the leaderboard card is (not in the
table pictures' worker), and deterministic: the same values give the same bytes.

How a big bracket fits: round one of 256 entrants at tables of two is 128 matches, a
column some ten thousand pixels tall. The picture starts at the earliest round whose
column of matches stays within :data:`TALLEST` pixels (:func:`first_drawn_round`: the
round of 16 at tables of two, the last 16 entrants at tables of four that send one on)
and the words list the rounds before it in the alt text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.tournaments import Bracket, From, Match, Progress
from rendering.palette import (
    ALERT,
    HIGHLIGHT,
    MUTED,
    TEXT,
    encode_sheet,
    fit,
    font,
    length,
    sheet,
    write,
)
from rendering.table import RenderedImage

MARGIN = 20
TITLE_SIZE, SUBTITLE_SIZE, BODY_SIZE, SMALL_SIZE = 20, 16, 15, 13
"""Font sizes in px: the title, the line under it, rows and seats, marks and labels."""

# -- standings ----------------------------------------------------------------------------

STANDINGS_SHOWN = 64
"""Rows the standings picture holds at most: a 256-player event shows its top 64 (the
words say so under them, and the alt text and the text lines carry everyone)."""
STANDINGS_WIDTH = 640
"""A little wider than Discord shows an image in a message (some 550 pixels): scaled
down that far, its 15-pixel rows still read without opening the picture."""
ROW = 24
PLACE_X, NAME_X = MARGIN, MARGIN + 40
NUMBER_COLUMNS = (("points", 338), ("tie_break", 436), ("difference", 514),
                  ("played", 570), ("byes", 620))  # fmt: skip
"""Each number column's right edge (numbers are right-aligned): match points, the
tie-break (Buchholz or head-to-head), points difference (room for ``−1234.5``: game
points add up over the rounds), tables played, byes."""
NAME_ROOM = NUMBER_COLUMNS[0][1] - 52 - NAME_X - 8
"""Pixels a name may take (some 24 letters): from its column to where the widest match
points begin."""


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One entrant's line, as the picture shows it: the numbers a fraction may make
    (Buchholz, the difference) written by the words, in the language's decimals."""

    place: int
    name: str
    points: int
    tie_break: str
    difference: str
    played: int
    byes: int
    left: str = ""
    """Said after the name of an entrant who no longer plays ("withdrew"), whose line is
    dimmed; empty for everyone still in."""


@dataclass(frozen=True, slots=True)
class StandingsText:
    """The standings picture's words, written by the caller (the ``words`` package)."""

    title: str
    """The tournament: its game and format."""
    subtitle: str
    """Where it stands: "Round 3 of 5 — standings"."""
    place: str
    player: str
    points: str
    tie_break: str
    """The heading of the second tie-break's column: Buchholz, or head-to-head."""
    difference: str
    played: str
    byes: str
    note: str = ""
    """Under the rows, when there is something to add (that only the top 64 are shown)."""


def render_standings(rows: Sequence[StandingsRow], text: StandingsText) -> RenderedImage:
    """The standings card: a title, the column headings, then the first
    :data:`STANDINGS_SHOWN` ``rows`` (best first). The top three are in gold, an
    entrant who left is dimmed with ``row.left`` after their name."""
    rows = rows[:STANDINGS_SHOWN]
    top = MARGIN + 30 + 26
    height = top + 28 + ROW * len(rows) + (26 if text.note else 0) + MARGIN // 2
    width = STANDINGS_WIDTH
    image = sheet((width, height))
    room = width - 2 * MARGIN
    write(image, (MARGIN, MARGIN - 4), fit(text.title, room, font(TITLE_SIZE)), TITLE_SIZE, TEXT)
    subtitle = fit(text.subtitle, room, font(SUBTITLE_SIZE))
    write(image, (MARGIN, MARGIN + 26), subtitle, SUBTITLE_SIZE, MUTED)
    body = font(SMALL_SIZE)
    write(image, (PLACE_X, top + 6), fit(text.place, NAME_X - PLACE_X - 4, body), SMALL_SIZE, MUTED)
    write(image, (NAME_X, top + 6), fit(text.player, NAME_ROOM, body), SMALL_SIZE, MUTED)
    headings = {
        "points": text.points,
        "tie_break": text.tie_break,
        "difference": text.difference,
        "played": text.played,
        "byes": text.byes,
    }
    left_edge = NAME_X + NAME_ROOM + 8
    for column, right in NUMBER_COLUMNS:
        heading = fit(headings[column], right - left_edge - 6, body)
        write(image, (right, top + 6), heading, SMALL_SIZE, MUTED, anchor="ra")
        left_edge = right
    ImageDraw.Draw(image).line((MARGIN, top + 24, width - MARGIN, top + 24), fill=MUTED)
    y = top + 30
    for row in rows:
        _standings_row(image, y, row)
        y += ROW
    if text.note:
        write(image, (MARGIN, y + 4), fit(text.note, room, font(SMALL_SIZE)), SMALL_SIZE, MUTED)
    return RenderedImage(encode_sheet(image), width, height)


def _standings_row(image: Image.Image, y: int, row: StandingsRow) -> None:
    ink = MUTED if row.left else HIGHLIGHT if row.place <= 3 else TEXT
    write(image, (PLACE_X, y), str(row.place), BODY_SIZE, ink)
    room = NAME_ROOM
    if row.left:
        mark = fit(row.left, NAME_ROOM // 2, font(SMALL_SIZE))
        room -= int(length(mark, SMALL_SIZE)) + 8
    name = fit(row.name, room, font(BODY_SIZE))
    write(image, (NAME_X, y), name, BODY_SIZE, ink)
    if row.left:
        after = NAME_X + int(length(name, BODY_SIZE)) + 8
        write(image, (after, y + 2), mark, SMALL_SIZE, ALERT)
    cells = {
        "points": str(row.points),
        "tie_break": row.tie_break,
        "difference": row.difference,
        "played": str(row.played),
        "byes": str(row.byes),
    }
    for column, right in NUMBER_COLUMNS:
        write(image, (right, y), cells[column], BODY_SIZE, ink, anchor="ra")


# -- the bracket --------------------------------------------------------------------------

TALLEST = 960
"""Pixels the first column of matches drawn may take (see the module)."""
BOX_WIDTH, COLUMN_GAP = 206, 30
"""A match's box, and the room between columns for the lines that join them."""
SEAT_LINE, LABEL_ROOM, BOX_PAD, BOX_GAP = 20, 17, 6, 12
"""A seat's line; the match's label above its box; the room inside a box above and
below its seats; the room between two boxes of a column."""
WIDEST_TITLE = 640
"""Pixels a title may widen a small bracket's picture to; a longer one is cut."""
TOP = MARGIN + 28
"""Where the round headings stand (under the title, and the note if any)."""


@dataclass(frozen=True, slots=True)
class BracketText:
    """The bracket picture's words, written by the caller (the ``words`` package)."""

    title: str
    rounds: tuple[str, ...]
    """Each round's heading, round one first ("Round 1" … "Semi-finals", "Final")."""
    matches: tuple[str, ...]
    """Each match's label, match 1 first ("Match 3")."""
    pending: Mapping[tuple[int, int], str] = field(default_factory=dict)
    """A seat not yet known, by where it comes from (an earlier match and the place
    there): "Winner of match 3"."""
    bye: str = ""
    """A seat nobody fills in round one."""
    champion: str = ""
    """The heading of the last column, the winner of the final."""
    note: str = ""
    """Under the title: which rounds are not drawn (:func:`first_drawn_round`)."""


def box_height(match: Match) -> int:
    """A match's box, its label above it included: a line per seat."""
    return LABEL_ROOM + match.size * SEAT_LINE + 2 * BOX_PAD


def column_height(matches: Sequence[Match]) -> int:
    return sum(box_height(match) for match in matches) + BOX_GAP * (len(matches) - 1)


def first_drawn_round(bracket: Bracket) -> int:
    """The earliest round (from 1) the picture draws: the first whose column of matches
    fits in :data:`TALLEST` pixels (the last round always does: it is the final)."""
    return next(
        number
        for number, matches in enumerate(bracket.rounds, start=1)
        if column_height(matches) <= TALLEST or number == len(bracket.rounds)
    )


def render_bracket(
    bracket: Bracket, progress: Progress, names: Mapping[int, str], text: BracketText
) -> RenderedImage:
    """The knockout bracket: a column per round from :func:`first_drawn_round` on, each
    match a box of its seats (a name, where an unknown seat comes from, or a bye), a
    played match's finishing places beside its names and those who went on in gold, the
    eliminated dimmed; then the champion. ``names`` holds every entrant's name."""
    first = first_drawn_round(bracket)
    drawn = bracket.rounds[first - 1 :]
    columns = len(drawn) + 1
    top = TOP + (22 if text.note else 0)
    boxes_top = top + 26
    width = 2 * MARGIN + columns * BOX_WIDTH + (columns - 1) * COLUMN_GAP
    width = max(width, min(int(length(text.title, TITLE_SIZE)), WIDEST_TITLE) + 2 * MARGIN)
    height = boxes_top + column_height(drawn[0]) + MARGIN
    image = sheet((width, height))
    title = fit(text.title, width - 2 * MARGIN, font(TITLE_SIZE))
    write(image, (MARGIN, MARGIN - 4), title, TITLE_SIZE, TEXT)
    if text.note:
        note = fit(text.note, width - 2 * MARGIN, font(SMALL_SIZE))
        write(image, (MARGIN, TOP - 2), note, SMALL_SIZE, MUTED)
    draw = ImageDraw.Draw(image)
    centres: dict[int, int] = {}  # each drawn match's box's middle, down the picture
    for index, matches in enumerate(drawn):
        x = MARGIN + index * (BOX_WIDTH + COLUMN_GAP)
        heading = fit(text.rounds[first - 1 + index], BOX_WIDTH, font(BODY_SIZE))
        write(image, (x, top), heading, BODY_SIZE, TEXT)
        y = boxes_top
        for match in matches:
            feeders = list(dict.fromkeys(s.match for s in match.slots if isinstance(s, From)))
            rect = box_height(match) - LABEL_ROOM
            if index > 0:
                y = sum(centres[number] for number in feeders) // len(feeders) - rect // 2
                y -= LABEL_ROOM
                _join(draw, x, y + LABEL_ROOM + rect // 2, feeders, centres)
            centres[match.number] = y + LABEL_ROOM + rect // 2
            _match_box(image, draw, (x, y), match, progress, names, text)
            y += box_height(match) + BOX_GAP
    x = MARGIN + len(drawn) * (BOX_WIDTH + COLUMN_GAP)
    write(image, (x, top), fit(text.champion, BOX_WIDTH, font(BODY_SIZE)), BODY_SIZE, HIGHLIGHT)
    final = centres[bracket.final.number]
    draw.rectangle((x, final - SEAT_LINE, x + BOX_WIDTH, final + SEAT_LINE), outline=HIGHLIGHT)
    draw.line((x - COLUMN_GAP, final, x, final), fill=MUTED)
    if progress.champion is not None:
        name = fit(names[progress.champion], BOX_WIDTH - 16, font(BODY_SIZE))
        write(image, (x + 8, final - SEAT_LINE // 2 - 1), name, BODY_SIZE, HIGHLIGHT)
    return RenderedImage(encode_sheet(image), width, height)


def _match_box(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    at: tuple[int, int],
    match: Match,
    progress: Progress,
    names: Mapping[int, str],
    text: BracketText,
) -> None:
    """A match: its label, then a box with a line per seat."""
    x, y = at
    label = fit(text.matches[match.number - 1], BOX_WIDTH, font(SMALL_SIZE))
    write(image, (x + 2, y), label, SMALL_SIZE, MUTED)
    top = y + LABEL_ROOM
    bottom = top + match.size * SEAT_LINE + 2 * BOX_PAD
    draw.rectangle((x, top, x + BOX_WIDTH, bottom), outline=MUTED)
    order = progress.finished.get(match.number)
    seated = progress.seated.get(match.number, (None,) * len(match.slots))
    for seat in range(match.size):
        line_y = top + BOX_PAD + seat * SEAT_LINE
        place = ""
        if seat >= len(match.slots):
            words, ink = text.bye, MUTED
        elif (entrant := seated[seat]) is None:
            slot = match.slots[seat]
            pending = (slot.match, slot.place) if isinstance(slot, From) else (0, 0)
            words, ink = text.pending.get(pending, ""), MUTED
        else:
            words, ink = names[entrant], TEXT
            if order is not None:
                rank = order.index(entrant)
                ink = HIGHLIGHT if rank < match.advance else MUTED
                place = "" if match.walkover else str(rank + 1)
        room = BOX_WIDTH - 16 - (int(length("4", BODY_SIZE)) + 6 if order is not None else 0)
        write(image, (x + 8, line_y), fit(words, room, font(BODY_SIZE)), BODY_SIZE, ink)
        if place:
            write(image, (x + BOX_WIDTH - 8, line_y), place, BODY_SIZE, ink, anchor="ra")


def _join(
    draw: ImageDraw.ImageDraw, x: int, centre: int, feeders: list[int], centres: dict[int, int]
) -> None:
    """The lines from each feeding match's box (in the column to the left) to this one."""
    elbow = x - COLUMN_GAP // 2
    for feeder in feeders:
        draw.line((x - COLUMN_GAP, centres[feeder], elbow, centres[feeder]), fill=MUTED)
        draw.line((elbow, centres[feeder], elbow, centre), fill=MUTED)
    draw.line((elbow, centre, x, centre), fill=MUTED)
