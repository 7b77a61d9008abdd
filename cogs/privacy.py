"""``/domino privacy`` and ``/domino forget-me``: what the bot stores about a member,
and deleting it (Discord's developer policy: users can learn what is stored and have it
deleted)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.service import TableService
from discord_face import acting, buttons
from discord_face.acting import reply
from discord_face.commands_i18n import slash
from discord_face.tree import DominoCommands
from words import boards

if TYPE_CHECKING:
    from bot.client import DominoBot


class PrivacyCog(DominoCommands, name="Privacy"):
    """What is stored about a member, and forgetting it."""

    def __init__(self, bot: DominoBot, service: TableService) -> None:
        super().__init__(bot)
        self.service = service

    @app_commands.command(
        name=slash("command", "privacy"), description=locale_str("What this bot stores about you")
    )
    async def privacy(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        stored = await self.service.stored_about(interaction.user.id)
        hours = round(self.service.keep_closed / 3600)
        await reply(interaction, boards.privacy(stored, hours))

    @app_commands.command(
        name=slash("command", "forget-me"),
        description=locale_str("Delete what this bot stores about you"),
    )
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        """Asks first: the deletion happens on the confirmation button."""
        await acting.reply(
            interaction, boards.forget_confirm(), view=buttons.forget_view(interaction.user.id)
        )


async def setup(bot: DominoBot) -> None:
    assert bot.service is not None, "the client makes the table service before the cogs"
    await bot.add_cog(PrivacyCog(bot, bot.service), override=True)
