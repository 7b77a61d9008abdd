"""``/domino settings``: a server's turn timer, default targets and threads (Manage
Server only)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.refusals import TableError
from bot.tables import TableService
from cogs import wording
from cogs.acting import refuse, reply
from cogs.choices import GAME_CHOICES
from cogs.tree import DominoCommands

if TYPE_CHECKING:
    from bot.client import DominoBot


class SettingsCog(DominoCommands, name="Settings"):
    """Server settings."""

    def __init__(self, bot: DominoBot, service: TableService) -> None:
        super().__init__(bot)
        self.service = service

    @app_commands.command(
        name="settings", description="Server settings: turn timer, default targets, threads"
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        turn_timer="Seconds a player has for a move before the computer plays it (20–3600)",
        game="The game whose default target to set",
        target="The default target for that game",
        threads="Post each table in its own thread",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        turn_timer: app_commands.Range[int, 20, 3600] | None = None,
        game: app_commands.Choice[str] | None = None,
        target: app_commands.Range[int, 1, 1000] | None = None,
        threads: bool | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if not interaction.permissions.manage_guild:
            await reply(interaction, wording.MANAGE_SERVER_ONLY)
            return
        if (game is None) != (target is None):
            await reply(interaction, wording.GAME_AND_TARGET)
            return
        assert interaction.guild_id is not None
        try:
            updated = await self.service.change_settings(
                interaction.guild_id,
                turn_timer=turn_timer,
                game=game.value if game else None,
                target=target,
                threads=threads,
            )
        except TableError as error:
            await refuse(interaction, error)
            return
        await reply(interaction, wording.settings_now(updated))


async def setup(bot: DominoBot) -> None:
    assert bot.service is not None, "the client makes the table service before the cogs"
    await bot.add_cog(SettingsCog(bot, bot.service), override=True)
