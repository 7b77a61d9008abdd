"""The fixed choices slash command options offer (Discord shows them as a list, each
name in the member's language; a language is named in itself, as language menus do)."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str

from bot.engine import GAMES
from bot.levels import HINT_LEVELS
from words import i18n

GAME_CHOICES = [app_commands.Choice(name=locale_str(g.title), value=g.game) for g in GAMES.values()]
"""The games, by their titles (the catalogues hold them: ``words.common.TITLES``)."""
ORDER_CHOICES = [
    app_commands.Choice(name=locale_str("Rating"), value="rating"),
    app_commands.Choice(name=locale_str("Wins"), value="wins"),
    app_commands.Choice(name=locale_str("Points"), value="points"),
]
SCOPE_CHOICES = [
    app_commands.Choice(name=locale_str("This server"), value="server"),
    app_commands.Choice(name=locale_str("Every server"), value="global"),
]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=language.name, value=language.code) for language in i18n.SHIPPED
]
HINT_LEVEL_CHOICES = [
    app_commands.Choice(name=locale_str(level.capitalize(), context="button"), value=level)
    for level in HINT_LEVELS
]
"""Whose advice ``/domino hint`` gives: named as the lobby's level buttons are."""
