"""The fixed choices slash command options offer (Discord shows them as a list)."""

from __future__ import annotations

from discord import app_commands

from bot.engine import GAMES

GAME_CHOICES = [app_commands.Choice(name=g.title, value=g.game) for g in GAMES.values()]
ORDER_CHOICES = [
    app_commands.Choice(name="Rating", value="rating"),
    app_commands.Choice(name="Wins", value="wins"),
    app_commands.Choice(name="Points", value="points"),
]
SCOPE_CHOICES = [
    app_commands.Choice(name="This server", value="server"),
    app_commands.Choice(name="Every server", value="global"),
]
