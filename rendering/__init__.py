"""Pillow pictures drawn from the engine's typed views: the table after every move, a
player's hand, the leaderboard card, a whole game's replay. Never imports Discord or the
database, and writes no words of its own: every word in a picture comes from the caller
in a ``*Text`` dataclass (the ``words`` package builds them, and the alt text)."""

from rendering.hand import HandScene, HandText, hand_order, placements, render_hand
from rendering.leaderboard import LeaderboardRow, LeaderboardText, render_leaderboard
from rendering.replay import Pace, Replay, ReplayPart, ReplayText, played, render_replay
from rendering.table import RenderedImage, TableScene, TableText, fit_name, render_table

__all__ = [
    "HandScene",
    "HandText",
    "LeaderboardRow",
    "LeaderboardText",
    "Pace",
    "RenderedImage",
    "Replay",
    "ReplayPart",
    "ReplayText",
    "TableScene",
    "TableText",
    "fit_name",
    "hand_order",
    "placements",
    "played",
    "render_hand",
    "render_leaderboard",
    "render_replay",
    "render_table",
]
