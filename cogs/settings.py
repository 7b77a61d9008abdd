"""``/domino settings``: a server's turn timer, default targets, threads, language and
the role of its tournament organisers (Manage Server only)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.service import TableService
from discord_face import acting
from discord_face.acting import reply
from discord_face.choices import GAME_CHOICES, LANGUAGE_CHOICES
from discord_face.commands_i18n import slash
from discord_face.tree import DominoCommands
from words import lobby

if TYPE_CHECKING:
    from bot.client import DominoBot


class SettingsCog(DominoCommands, name="Settings"):
    """Server settings."""

    def __init__(self, bot: DominoBot, service: TableService) -> None:
        super().__init__(bot)
        self.service = service

    @app_commands.command(
        name=slash("command", "settings"),
        description=locale_str(
            "Server settings: turn timer, more time, default targets, threads, language, organisers"
        ),
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(
        turn_timer=slash("option", "turn_timer"),
        game=slash("option", "game"),
        target=slash("option", "target"),
        threads=slash("option", "threads"),
        language=slash("option", "language"),
        tournament_role=slash("option", "tournament_role"),
        clear_tournament_role=slash("option", "clear_tournament_role"),
        more_time=slash("option", "more_time"),
    )
    @app_commands.describe(
        turn_timer=locale_str(
            "Seconds a player has for a move before the computer plays it (20–3600)"
        ),
        game=locale_str("The game whose default target to set"),
        target=locale_str("The default target for that game"),
        threads=locale_str("Post each table in its own thread"),
        language=locale_str("The language of the tables' messages in this server"),
        tournament_role=locale_str(
            "A role whose members may announce and manage tournaments, as Manage Server may"
        ),
        clear_tournament_role=locale_str("Leave tournaments to members with Manage Server"),
        more_time=locale_str("Players may take a whole turn more on their clock, ten times a game"),
    )
    @app_commands.choices(game=GAME_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        turn_timer: app_commands.Range[int, 20, 3600] | None = None,
        game: app_commands.Choice[str] | None = None,
        target: app_commands.Range[int, 1, 1000] | None = None,
        threads: bool | None = None,
        language: app_commands.Choice[str] | None = None,
        tournament_role: discord.Role | None = None,
        clear_tournament_role: bool = False,
        more_time: bool | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if not interaction.permissions.manage_guild:
            await reply(interaction, lobby.manage_server_only())
            return
        if (game is None) != (target is None):
            await reply(interaction, lobby.game_and_target())
            return
        if tournament_role is not None and clear_tournament_role:
            await reply(interaction, lobby.role_or_clear())
            return
        assert interaction.guild_id is not None
        updated = await self.service.change_settings(
            interaction.guild_id,
            turn_timer=turn_timer,
            game=game.value if game else None,
            target=target,
            threads=threads,
            language=language.value if language else None,
            tournament_role=tournament_role.id if tournament_role else None,
            clear_tournament_role=clear_tournament_role,
            more_time=more_time,
        )
        speaks = await acting.server_language(
            self.service, interaction.guild_id, acting.guild_locale(interaction)
        )
        await reply(interaction, lobby.settings_now(updated, speaks))


async def setup(bot: DominoBot) -> None:
    assert bot.service is not None, "the client makes the table service before the cogs"
    await bot.add_cog(SettingsCog(bot, bot.service), override=True)
