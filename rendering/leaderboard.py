"""The leaderboard card: top 10 with rank, name, rating (or wins, or points), and games
played."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.palette import BACKGROUND, HIGHLIGHT, MUTED, TEXT, draw_text, encode_png, fit, font

WIDTH, ROW, MARGIN = 560, 34, 20
NAME_X, VALUE_X, GAMES_X = MARGIN + 50, WIDTH - 220, WIDTH - 90


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
    body, y = font(17), MARGIN + 44
    for x, heading, room in (
        (MARGIN, text.rank, NAME_X - MARGIN),
        (NAME_X, text.player, VALUE_X - NAME_X),
        (VALUE_X, text.value, GAMES_X - VALUE_X),
        (GAMES_X, text.games, WIDTH - GAMES_X),
    ):
        draw_text(draw, (x, y), fit(heading, room - 12, body), body, MUTED)
    for row in rows:
        y += ROW
        colour = HIGHLIGHT if row.rank <= 3 else TEXT
        for x, words in (
            (MARGIN, str(row.rank)),
            (NAME_X, fit(row.name, VALUE_X - NAME_X - 16, body)),
            (VALUE_X, fit(row.value, GAMES_X - VALUE_X - 12, body)),
            (GAMES_X, str(row.games)),
        ):
            draw_text(draw, (x, y), words, body, colour)
    return encode_png(image)
