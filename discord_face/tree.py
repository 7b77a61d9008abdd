"""The bot's slash command tree: the one ``/domino`` group that the cogs fill, each with
the commands of its concern, and the answers to what goes wrong in any command: a command
raises the service's refusal and the tree answers it, as discord.py's examples answer
errors in one place.

discord.py gives a group to one cog (``GroupCog``); here three cogs share it, so the
group belongs to the tree (one per bot) and each cog attaches its commands to it when it
loads (:class:`DominoCommands`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import AppCommand, locale_str
from discord.ext import commands

from bot.refusals import Refusal
from discord_face import acting
from discord_face.commands_i18n import slash
from words import refusals

if TYPE_CHECKING:
    from bot.client import DominoBot

log = logging.getLogger(__name__)

ENTRY_POINT = 4
"""The type of an application's Entry Point command (``PRIMARY_ENTRY_POINT``), which
discord.py does not know."""
_ENTRY_POINT_FIELDS = frozenset(
    {"id", "name", "name_localizations", "description", "description_localizations", "type",
     "handler", "integration_types", "contexts", "default_member_permissions", "nsfw"}
)  # fmt: skip
"""What of the Entry Point command a bulk overwrite sends back to keep it as it is."""


class DominoTree(app_commands.CommandTree[Any]):
    """The command tree of one bot: holds ``/domino``, counts each command in flight
    (so a shutdown lets it finish), and answers failures privately."""

    def __init__(self, client: discord.Client, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        self.domino = app_commands.Group(
            name=slash("command", "domino"),
            description=locale_str("Play dominoes: Cross, Maltese Cross, Merry-Go-Round, Milo"),
            guild_only=True,
        )
        self.add_command(self.domino)

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[AppCommand]:
        """discord.py's sync (a bulk overwrite), keeping the application's Entry Point
        command: Discord makes one ("Launch") when Activities are turned on, and refuses
        a global overwrite that would remove it. It is sent back as it is, so whatever
        the developer portal set for it stays."""
        application_id = self.client.application_id
        if guild is not None or application_id is None:
            return await super().sync(guild=guild)
        kept = await self._entry_point(application_id)
        if not kept:
            return await super().sync()
        translator = self.translator
        assert translator is not None, "set in setup_hook"
        payload = [
            await command.get_translated_payload(self, translator)
            for command in self._get_all_commands()
        ]
        data = await self._http.bulk_upsert_global_commands(
            application_id, payload=[*payload, *kept]
        )
        state = self._state
        return [AppCommand(data=d, state=state) for d in data if d.get("type") != ENTRY_POINT]

    async def withdraw(self, guild: discord.abc.Snowflake) -> None:
        """Take every command of ours out of one server (a bulk overwrite with none): a
        server lists its own beside the global ones, so a copy left where they were
        synced before would show there twice."""
        application_id = self.client.application_id
        assert application_id is not None, "known once logged in"
        await self._http.bulk_upsert_guild_commands(application_id, guild.id, payload=[])

    async def _entry_point(self, application_id: int) -> list[dict[str, Any]]:
        """The application's Entry Point command as an overwrite must send it back (none
        without Activities)."""
        return [
            {key: value for key, value in command.items() if key in _ENTRY_POINT_FIELDS}
            for command in await self._http.get_global_commands(application_id)
            if command.get("type") == ENTRY_POINT
        ]

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Every command is counted in flight and speaks its member's language; once the
        bot has begun to stop, a command is not run, and its member is asked to try
        again in a moment (the options' autocomplete still answers: it changes nothing)."""
        acting.track(interaction)
        if interaction.type is discord.InteractionType.autocomplete:
            if not _completes(interaction):  # Discord never asks: a forged request
                await interaction.response.autocomplete([])
                return False
            return True
        if getattr(interaction.client, "stopping", False):
            await acting.apologize(interaction, refusals.starting())
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        """The service's refusals (raised by a command, which discord.py wraps in
        ``CommandInvokeError``) and Discord's own (a check that failed, a value that is
        not one of the choices) are told in our words; anything else is a bug of ours:
        logged with its traceback, and the member is told it may not have been done.
        Never Discord's bare "This interaction failed"."""
        if isinstance(error, app_commands.TransformerError):
            await acting.apologize(interaction, refusals.not_a_choice())
            return
        if isinstance(error, app_commands.BotMissingPermissions):
            await acting.apologize(interaction, refusals.bot_lacks(error.missing_permissions))
            return
        if isinstance(error, app_commands.CheckFailure):
            await acting.apologize(interaction, refusals.not_allowed())
            return
        original = getattr(error, "original", None)
        if isinstance(original, acting.Starting):
            await acting.apologize(interaction, refusals.starting())
            return
        failure: BaseException = error
        if isinstance(original, Refusal):
            try:
                await acting.answer(interaction, original)
                return
            except Exception as unanswered:  # the answer itself failed: a failure as below
                failure = unanswered
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("/%s failed", name, exc_info=failure)
        await acting.apologize(interaction)


def _completes(interaction: discord.Interaction[Any]) -> bool:
    """Whether the option an autocomplete interaction is typing in has suggestions."""
    command = interaction.command
    data: dict[str, Any] = dict(interaction.data or {})
    options: list[dict[str, Any]] = list(data.get("options", []))
    while options and options[0].get("type") in (1, 2):  # a subcommand (group): go in
        options = list(options[0].get("options", []))
    focused = next((o["name"] for o in options if o.get("focused")), None)
    if not isinstance(command, app_commands.Command) or focused is None:
        return False
    return any(p.display_name == focused and p.autocomplete for p in command.parameters)


class DominoCommands(commands.Cog):
    """A cog whose slash commands are subcommands of ``/domino``. Load it with
    ``bot.add_cog(cog, override=True)``: discord.py then registers ``/domino`` once more
    for each attached command, and ``override`` lets it replace the group with itself."""

    def __init__(self, bot: DominoBot) -> None:
        self.bot = bot
        self._attached: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []

    async def cog_load(self) -> None:
        tree = self.bot.tree
        assert isinstance(tree, DominoTree)
        for command in self.get_app_commands():
            tree.domino.add_command(command)
            self._attached.append(command)

    async def cog_unload(self) -> None:
        tree = self.bot.tree
        assert isinstance(tree, DominoTree)
        for command in self._attached:
            tree.domino.remove_command(command.name)
        self._attached.clear()
