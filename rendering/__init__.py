"""Pillow pictures drawn from the engine's views: the table after every move, a player's
hand, the leaderboard card, and their alt text. Never imports Discord or the database."""

from rendering.alt_text import describe_hand, describe_table
from rendering.hand import render_hand
from rendering.leaderboard import LeaderboardRow, render_leaderboard
from rendering.table import RenderedImage, render_table

__all__ = [
    "LeaderboardRow",
    "RenderedImage",
    "describe_hand",
    "describe_table",
    "render_hand",
    "render_leaderboard",
    "render_table",
]
