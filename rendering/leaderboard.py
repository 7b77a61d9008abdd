"""The leaderboard card: top 10 with rank, name, rating (or wins, or points), and games
played."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.palette import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    TEXT,
    draw_text,
    encode_png,
    fit,
    font,
    length,
)

WIDTH, ROW, MARGIN = 560, 34, 20
BODY_SIZE = 17
NAME_X, VALUE_X, GAMES_X = MARGIN + 50, WIDTH - 220, WIDTH - 90
"""Where the name and value columns begin when their ranks and values fit the usual
room (up to four figures, a value as long as "12345 points"); the games column always
begins at ``GAMES_X``."""
GAP = 12
"""Pixels kept clear after a rank or a value, before the next column."""
NAME_ROOM_LEAST = 150
"""Pixels a name keeps however wide the ranks and values beside it (some 12 letters)."""


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    name: str
    value: str
    """The rating, wins or points, as shown."""
    games: int


@dataclass(frozen=True, slots=True)
class LeaderboardText:
    """The card's words, written by the caller (the ``words`` package)."""

    title: str
    rank: str
    """The heading of the rank column."""
    player: str
    value: str
    """The heading of the column the board is ordered by: the rating, wins or points."""
    games: str


def render_leaderboard(rows: list[LeaderboardRow], text: LeaderboardText) -> bytes:
    """The card for the first ten ``rows``; the cog writes the same rows as text too."""
    rows = rows[:10]
    height = MARGIN * 2 + 40 + ROW * (len(rows) + 1)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    big = font(22)
    draw_text(draw, (MARGIN, MARGIN), fit(text.title, WIDTH - 2 * MARGIN, big), big, TEXT)
    body, y = font(BODY_SIZE), MARGIN + 44
    name_x, value_x = columns(rows)
    for x, heading, room in (
        (MARGIN, text.rank, name_x - MARGIN),
        (name_x, text.player, value_x - name_x),
        (value_x, text.value, GAMES_X - value_x),
        (GAMES_X, text.games, WIDTH - GAMES_X),
    ):
        draw_text(draw, (x, y), fit(heading, room - GAP, body), body, MUTED)
    for row in rows:
        y += ROW
        colour = HIGHLIGHT if row.rank <= 3 else TEXT
        for x, words in (
            (MARGIN, str(row.rank)),
            (name_x, fit(row.name, value_x - name_x - 16, body)),
            (value_x, fit(row.value, GAMES_X - value_x - GAP, body)),
            (GAMES_X, str(row.games)),
        ):
            draw_text(draw, (x, y), words, body, colour)
    return encode_png(image)


def columns(rows: list[LeaderboardRow]) -> tuple[int, int]:
    """Where the name and value columns begin for ``rows``: as usual (``NAME_X``,
    ``VALUE_X``), or moved towards each other as far as a wider rank or value needs,
    the name (cut to fit in any case) giving up the room down to
    :data:`NAME_ROOM_LEAST`. The board's last page reaches rank 10,000, and a value is
    worded by the language ("12345 victorias"): in the usual room the rank ran into the
    name and the value was cut, where a name cut shorter still says who it is."""
    rank = max((length(str(row.rank), BODY_SIZE) for row in rows), default=0.0)
    value = max((length(row.value, BODY_SIZE) for row in rows), default=0.0)
    name_x = max(NAME_X, MARGIN + math.ceil(rank) + GAP)
    value_x = min(VALUE_X, GAMES_X - math.ceil(value) - GAP)
    return name_x, max(value_x, name_x + 16 + NAME_ROOM_LEAST)
