"""The leaderboard card: top 10 with rank, name, rating or wins, and games played."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.palette import BACKGROUND, HIGHLIGHT, MUTED, TEXT, encode_png, font

WIDTH, ROW, MARGIN = 560, 34, 20


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    name: str
    value: str
    """The rating, wins or points, as shown."""
    games: int


def render_leaderboard(title: str, rows: list[LeaderboardRow]) -> bytes:
    rows = rows[:10]
    height = MARGIN * 2 + 40 + ROW * (len(rows) + 1)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), title, font=font(22), fill=TEXT)
    body, y = font(17), MARGIN + 44
    for x, heading in (
        (MARGIN, "#"),
        (MARGIN + 50, "Player"),
        (WIDTH - 200, "Score"),
        (WIDTH - 90, "Games"),
    ):
        draw.text((x, y), heading, font=body, fill=MUTED)
    for row in rows:
        y += ROW
        colour = HIGHLIGHT if row.rank <= 3 else TEXT
        name = row.name if body.getlength(row.name) < WIDTH - 290 else row.name[:22] + "…"
        for x, text in (
            (MARGIN, str(row.rank)),
            (MARGIN + 50, name),
            (WIDTH - 200, row.value),
            (WIDTH - 90, str(row.games)),
        ):
            draw.text((x, y), text, font=body, fill=colour)
    return encode_png(image)
