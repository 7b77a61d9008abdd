"""``/domino`` for tables and play: open a table, take a seat, start, play, draw, pass,
see your hand, post the table again, read the rules, end the table. The cog acknowledges
at once and asks the table service to act (a refusal is raised, for the tree to answer
privately); it never decides a rule. Buttons are in ``discord_face.buttons``; what both share is in
``discord_face.acting``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.commands import Cancel, Join, Leave, MoreTime, Play, Start
from bot.events import Moved
from bot.refusals import Refusal
from bot.service import NewTable, TableService
from bot.snapshot import TableSnapshot
from bot.table import Status
from discord_face import acting, buttons, members
from discord_face.acting import reply
from discord_face.announcer import Announcer
from discord_face.budget import RequestBudget
from discord_face.choices import GAME_CHOICES, HINT_LEVEL_CHOICES
from discord_face.commands_i18n import slash
from discord_face.embeds import embed
from discord_face.tree import DominoCommands
from words import common, i18n, lobby, play, rules

if TYPE_CHECKING:
    from bot.client import DominoBot

log = logging.getLogger(__name__)

TEXT_LIMIT = 20
"""Longer "tiles" and "ends" are refused before they are read (``[6|5] N`` is 7)."""


class TablesCog(DominoCommands, name="Tables"):
    """Tables and play: everything a player does at a table."""

    def __init__(self, bot: DominoBot, service: TableService) -> None:
        super().__init__(bot)
        self.service = service
        self.announcer = Announcer(
            bot, service, RequestBudget(bot.settings.requests_per_second), bot.painter
        )
        service.add_listener(self.announcer)

    async def cog_unload(self) -> None:
        """discord.py's development loop (``reload_extension``) makes a new cog with its
        own announcer: this one stops hearing of the tables first, then lets its posts
        under way go out, so that no move is posted twice."""
        self.service.remove_listener(self.announcer)
        await self.announcer.close()
        await super().cog_unload()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await buttons.answer_unreachable(interaction)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A moderator deleted a channel: its table closes (``Announcer.channel_gone``)."""
        await self.announcer.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: its tables close (``Announcer.guild_gone``)."""
        await self.announcer.guild_gone(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Discord has said which servers the bot is in (each, unavailable or not): the
        tables of a server it was removed from while it was down close as they would
        have then, and so do those whose channel or thread was deleted meanwhile. A
        browser's local server (a negative id) is no Discord server."""
        for guild_id in self.service.guilds():
            if guild_id > 0 and self.bot.get_guild(guild_id) is None:
                await self.announcer.guild_gone(guild_id)
        await self.announcer.places_gone()

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted (by a moderator, or with its channel): its table closes.
        The raw event, so that a thread discord.py has not cached counts too."""
        await self.announcer.channel_gone(payload.thread_id)

    # -- slash commands -----------------------------------------------------------------------

    @app_commands.command(
        name=slash("command", "new"), description=locale_str("Open a domino table in this channel")
    )
    @app_commands.rename(
        game=slash("option", "game"),
        target=slash("option", "target"),
        keep_last_two=slash("option", "keep_last_two"),
        match_games=slash("option", "match_games"),
        hints=slash("option", "hints"),
    )
    @app_commands.describe(
        game=locale_str("Which game"),
        target=locale_str(
            "Points to win (Cross, Maltese Cross 10–1000; Milo 1–25; Merry-Go-Round: 61)"
        ),
        keep_last_two=locale_str("Merry-Go-Round: never draw the last two boneyard tiles"),
        match_games=locale_str("Milo: games a team must win to take the match (1–9)"),
        hints=locale_str("Let players ask what a computer would play (the game is then not rated)"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        target: app_commands.Range[int, 1, 1000] | None = None,
        keep_last_two: bool | None = None,
        match_games: app_commands.Range[int, 1, 9] | None = None,
        hints: bool | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        settings = await self.service.settings(interaction.guild_id)
        acting.check_can_post(interaction, threads=settings.use_threads)
        await interaction.response.defer(ephemeral=True, thinking=True)
        request = NewTable(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=members.seat_name(interaction.user),
            game=game.value,
            target=target,
            keep_last_two=keep_last_two,
            match_games=match_games,
            hints=hints is True,
        )
        table = await self.service.open_table(request)
        # The host's own answer stays private (it takes the place of the "thinking" one,
        # so a refusal above never shows in the channel); the lobby is then posted for
        # everyone as a second follow-up, which does not count against Discord's global
        # rate limit as a channel message would.
        await interaction.followup.send(lobby.table_open(), ephemeral=True)
        posted = await acting.post_lobby(interaction, self.service, table)
        channel = interaction.channel
        if settings.use_threads and isinstance(channel, discord.TextChannel):
            public = await acting.server_language(
                self.service, table.guild_id, acting.guild_locale(interaction)
            )
            with i18n.speaking(public):
                await self._move_to_thread(table, channel.get_partial_message(posted.id))

    async def _move_to_thread(self, table: TableSnapshot, message: discord.PartialMessage) -> None:
        try:
            thread = await message.create_thread(name=lobby.thread_name(table.title))
        except discord.HTTPException as error:
            log.info("table %s stays in its channel: no thread (%s)", table.id, error.status)
            return
        await self.service.move_to_channel(table.id, thread.id)

    @app_commands.command(
        name=slash("command", "join"),
        description=locale_str("Take a seat at the table in this channel"),
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        user = interaction.user
        await self._lobby_action(interaction, Join(user.id, members.seat_name(user)))

    @app_commands.command(
        name=slash("command", "leave"),
        description=locale_str("Give up your seat before the game starts"),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_action(interaction, Leave(interaction.user.id))

    @app_commands.command(
        name=slash("command", "start"), description=locale_str("Start the game (host)")
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_action(interaction, Start(interaction.user.id))

    @app_commands.command(
        name=slash("command", "end"),
        description=locale_str("Close the table (host, or Manage Server)"),
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        manager = bool(interaction.permissions.manage_guild)
        await self._lobby_action(interaction, Cancel(interaction.user.id, manager))

    async def _lobby_action(
        self, interaction: discord.Interaction[Any], command: Join | Leave | Start | Cancel
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = acting.table_here(self.service, interaction)
        if await acting.run(interaction, self.service, table, command):
            await interaction.followup.send(lobby.done(command.kind), ephemeral=True)

    @app_commands.command(
        name=slash("command", "play"), description=locale_str("Play a tile from your hand")
    )
    @app_commands.rename(tile=slash("option", "tile"), end=slash("option", "end"))
    @app_commands.describe(
        tile=locale_str("A tile from your hand, like 6-5"),
        # Translators: the ends' letters as your language shows them (the arms' and Milo's).
        end=locale_str("Where: N, E, S, W (or L, R in Milo)"),
    )
    async def play(
        self,
        interaction: discord.Interaction[Any],
        tile: app_commands.Range[str, 1, TEXT_LIMIT],
        end: app_commands.Range[str, 1, TEXT_LIMIT] | None = None,
    ) -> None:
        await self._play_text(interaction, tile, end)

    @play.autocomplete("tile")
    async def _tile_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        table = self._quiet_table(interaction)
        view = table.seat_view(interaction.user.id) if table is not None else None
        if view is None:
            return []
        legal = {str(m.tile) for m in view.legal if m.tile}
        hand = [str(t) for t in view.hand]
        ordered = sorted(hand, key=lambda t: (t not in legal, t))
        return [
            app_commands.Choice(name=play.tile_choice(t, t in legal), value=t)
            for t in ordered
            if current.strip() in t
        ][:25]

    @play.autocomplete("end")
    async def _end_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The ends the tile given fits, each shown with the member's language's letter
        and sent as the engine names it (read either way, :func:`common.read_end`)."""
        table = self._quiet_table(interaction)
        if table is None:
            return []
        tile = getattr(interaction.namespace, "tile", None) or ""
        ends = [m.end_name for m in table.legal_for(interaction.user.id)
                if m.tile and str(m.tile) == str(tile).strip() and m.end_name]  # fmt: skip
        typed = current.strip().upper()
        letters = [(end, common.end_letter(end)) for end in ends]
        return [
            app_commands.Choice(name=letter, value=end)
            for end, letter in letters
            if typed in ("", letter.upper(), end)
        ][:25]

    def _quiet_table(self, interaction: discord.Interaction[Any]) -> TableSnapshot | None:
        try:
            return acting.my_table(self.service, interaction)
        except Refusal:
            return None

    @app_commands.command(
        name=slash("command", "draw"),
        description=locale_str("Draw from the boneyard (when you cannot play)"),
    )
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        await self._play_text(interaction, "draw", None)

    @app_commands.command(
        name=slash("command", "pass"),
        description=locale_str("Pass (when you can neither play nor draw)"),
    )
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self._play_text(interaction, "pass", None)

    async def _play_text(
        self, interaction: discord.Interaction[Any], tile: str, end: str | None
    ) -> None:
        """Play ``tile`` (or ``draw``, ``pass``) on ``end``: the end's letter in the
        member's language or the engine's (``O`` or ``W``), read for the table's game."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = acting.my_table(self.service, interaction)
        text = common.typed_move(tile, end, table.variant.layout_kind)
        events = await acting.run(interaction, self.service, table, Play(interaction.user.id, text))
        try:
            if await acting.after_draw(interaction, self.service, table, events):
                return
            made = [e.move for e in events if isinstance(e, Moved)]
            if made:
                await interaction.followup.send(play.you_played(made[0]), ephemeral=True)
        except discord.HTTPException as error:
            # The move is stored and the table shows it: only its private answer failed,
            # and nothing must make the member doubt the move.
            log.info("the answer to a stored move failed (%s)", error.status)

    @app_commands.command(
        name=slash("command", "hand"), description=locale_str("See your hand (only you see it)")
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = acting.my_table(self.service, interaction)
        await acting.send_hand(interaction, self.service, table)

    @app_commands.command(
        name=slash("command", "status"),
        description=locale_str("Show the table in this channel again"),
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = acting.table_here(self.service, interaction)
        if table.status is Status.LOBBY:
            await interaction.followup.send(embed=embed(lobby.lobby_card(table)), ephemeral=True)
            return
        acting.check_can_post(interaction)  # else "posted again" would promise a post
        await self.service.repost(table.id)
        await interaction.followup.send(lobby.posted_again(), ephemeral=True)

    @app_commands.command(
        name=slash("command", "hint"),
        description=locale_str("What a computer player would play for you (tables with hints)"),
    )
    @app_commands.rename(level=slash("option", "level"))
    @app_commands.describe(level=locale_str("Whose advice: the normal player (default) or hard"))
    @app_commands.choices(level=HINT_LEVEL_CHOICES)
    async def hint(
        self,
        interaction: discord.Interaction[Any],
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        table = acting.my_table(self.service, interaction)
        await acting.send_hint(interaction, table, level.value if level else "normal")

    @app_commands.command(
        name=slash("command", "more-time"),
        description=locale_str("A whole turn more on your clock (on your turn, ten times a game)"),
    )
    async def more_time(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = acting.my_table(self.service, interaction)
        await acting.run(interaction, self.service, table, MoreTime(interaction.user.id))
        now = self.service.find(table.id)
        if now is not None and now.deadline is not None:
            await interaction.followup.send(play.more_time_given(now.deadline), ephemeral=True)

    @app_commands.command(
        name=slash("command", "rules"),
        description=locale_str("The rules of a game, in plain words"),
    )
    @app_commands.rename(game=slash("option", "game"))
    @app_commands.describe(game=locale_str("Which game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        await reply(interaction, rules.rules_for(game.value))


async def setup(bot: DominoBot) -> None:
    assert bot.service is not None, "the client makes the table service before the cogs"
    await bot.add_cog(TablesCog(bot, bot.service), override=True)
