"""The ``/domino`` commands. The cog acknowledges at once, asks the table service to act,
and answers refusals ephemerally; it never decides a rule. Buttons are in
``cogs.buttons``; what both share is in ``cogs.acting``."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import Cancel, Join, Leave, Play, Start
from bot.engine import GAMES, Move, Tile
from bot.refusals import OutOfRange, TableError
from bot.table import Status, Table
from bot.tables import NewTable, TableService
from cogs import acting, buttons, messages, wording
from cogs.acting import refuse, reply
from cogs.announcer import Announcer
from cogs.rules_text import rules_for
from rendering import LeaderboardRow, render_leaderboard

log = logging.getLogger(__name__)

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


PAGE_RANGE = (1, 1000)
TEXT_LIMIT = 20
"""Longer "tiles" and "ends" are refused before they are read (``[6|5] N`` is 7)."""


class DominoCog(commands.Cog, name="Domino"):
    """Tables, hands, scores: everything a player does."""

    domino = app_commands.Group(
        name="domino",
        description="Play dominoes: Cross, Maltese Cross, Merry-Go-Round, Milo",
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot, service: TableService) -> None:
        self.bot = bot
        self.service = service
        service.add_announcer(Announcer(bot, service))

    # -- errors nobody foresaw: a private apology, never "This interaction failed" ---------

    async def cog_load(self) -> None:
        self._tree_on_error = self.bot.tree.on_error
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._tree_on_error  # type: ignore[method-assign]

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Discord's own refusals (a check that failed, a value that is not one of the
        choices) are told as they are; anything else is a bug of ours: logged with its
        traceback, and the user is told it may not have been done."""
        if isinstance(error, app_commands.TransformerError):
            await acting.apologize(interaction, wording.NOT_A_CHOICE)
            return
        if isinstance(error, app_commands.CheckFailure):
            await acting.apologize(interaction, wording.sentence(str(error)))
            return
        original = getattr(error, "original", None)
        if isinstance(original, acting.Starting):
            await acting.apologize(interaction, wording.STARTING)
            return
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("/%s failed", name, exc_info=error)
        await acting.apologize(interaction)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        acting.track(interaction)
        return True

    # -- slash commands -----------------------------------------------------------------------

    @domino.command(name="new", description="Open a domino table in this channel")
    @app_commands.describe(
        game="Which game",
        target="Points to win (Cross, Maltese Cross 10–1000; Milo 1–25; Merry-Go-Round: 61)",
        keep_last_two="Merry-Go-Round: never draw the last two boneyard tiles",
        match_games="Milo: games a team must win to take the match (1–9)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        target: app_commands.Range[int, 1, 1000] | None = None,
        keep_last_two: bool | None = None,
        match_games: app_commands.Range[int, 1, 9] | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        request = NewTable(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            game=game.value,
            target=target,
            keep_last_two=keep_last_two,
            match_games=match_games,
        )
        try:
            table = await self.service.open_table(request)
        except TableError as error:
            await refuse(interaction, error)
            return
        # The lobby is an ordinary channel message, like every table message after it; the
        # host's own answer stays private, so a refusal above never shows in the channel.
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        lobby = await channel.send(
            embed=messages.lobby_embed(table), view=buttons.lobby_view(table)
        )
        await self.service.remember_message(table, lobby.id)
        await interaction.followup.send(wording.TABLE_OPEN, ephemeral=True)
        settings = await self.service.settings(interaction.guild_id)
        if settings.use_threads and isinstance(channel, discord.TextChannel):
            await self._move_to_thread(table, lobby)

    async def _move_to_thread(self, table: Table, message: discord.Message) -> None:
        try:
            thread = await message.create_thread(name=f"{table.variant_title} table")
        except discord.HTTPException as error:
            log.info("table %s stays in its channel: no thread (%s)", table.id, error.status)
            return
        await self.service.move_to_channel(table, thread.id)

    @domino.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        user = interaction.user
        await self._lobby_action(interaction, Join(user.id, user.display_name))

    @domino.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_action(interaction, Leave(interaction.user.id))

    @domino.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_action(interaction, Start(interaction.user.id))

    @domino.command(name="end", description="Close the table (host, or Manage Server)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        manager = bool(interaction.permissions.manage_guild)
        await self._lobby_action(interaction, Cancel(interaction.user.id, manager))

    async def _lobby_action(
        self, interaction: discord.Interaction[Any], command: Join | Leave | Start | Cancel
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table = acting.table_here(self.service, interaction)
        except TableError as error:
            await refuse(interaction, error)
            return
        if await acting.run(interaction, self.service, table, command):
            await interaction.followup.send(wording.DONE[command.kind], ephemeral=True)

    @domino.command(name="play", description="Play a tile from your hand")
    @app_commands.describe(
        tile="A tile from your hand, like 6-5", end="Where: N, E, S, W (or L, R in Milo)"
    )
    async def play(
        self,
        interaction: discord.Interaction[Any],
        tile: app_commands.Range[str, 1, TEXT_LIMIT],
        end: app_commands.Range[str, 1, TEXT_LIMIT] | None = None,
    ) -> None:
        text = f"{tile} {end}" if end else tile
        await self._play_text(interaction, text)

    @play.autocomplete("tile")
    async def _tile_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        table = self._quiet_table(interaction)
        if table is None or table.match is None:
            return []
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return []
        legal = {str(m.tile) for m in table.legal_for(interaction.user.id) if m.tile}
        hand = [str(t) for t in table.match.round.hand(seat)]
        ordered = sorted(hand, key=lambda t: (t not in legal, t))
        return [
            app_commands.Choice(name=f"{t} (fits)" if t in legal else t, value=t)
            for t in ordered
            if current.strip() in t
        ][:25]

    @play.autocomplete("end")
    async def _end_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        table = self._quiet_table(interaction)
        if table is None:
            return []
        tile = getattr(interaction.namespace, "tile", None) or ""
        ends = [m.end_name for m in table.legal_for(interaction.user.id)
                if m.tile and str(m.tile) == str(tile).strip() and m.end_name]  # fmt: skip
        return [app_commands.Choice(name=e, value=e) for e in ends if current.upper() in e][:25]

    def _quiet_table(self, interaction: discord.Interaction[Any]) -> Table | None:
        try:
            return acting.my_table(self.service, interaction)
        except TableError:
            return None

    @domino.command(name="draw", description="Draw from the boneyard (when you cannot play)")
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        await self._play_text(interaction, "draw")

    @domino.command(name="pass", description="Pass (when you can neither play nor draw)")
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self._play_text(interaction, "pass")

    async def _play_text(self, interaction: discord.Interaction[Any], text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table = acting.my_table(self.service, interaction)
        except TableError as error:
            await refuse(interaction, error)
            return
        move = self._resolve(table, interaction.user.id, text)
        if isinstance(move, str):
            await reply(interaction, move)
            return
        user = interaction.user.id
        if await acting.run(interaction, self.service, table, Play(user, move)):
            await interaction.followup.send(f"You played {move.text}.", ephemeral=True)

    @staticmethod
    def _resolve(table: Table, user_id: int, text: str) -> Move | str:
        """Read the player's move, or say why it is not one; a tile that fits only one
        end gets that end filled in (R-SP-3), so ``/domino play 6-5`` works when there is
        no choice to make."""
        try:
            move = Move.parse(text)
        except ValueError:
            tile, _, end = text.strip().rpartition(" ") if " " in text.strip() else (text, "", "")
            try:
                Tile.parse(tile)
            except ValueError:
                return wording.not_a_tile(tile)
            return wording.not_an_end(end)
        if move.tile is not None and move.end is None:
            places = [m for m in table.legal_for(user_id) if m.tile is move.tile]
            if len(places) == 1:
                return places[0]
        return move

    @domino.command(name="hand", description="See your hand (only you see it)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        try:
            table = acting.my_table(self.service, interaction)
        except TableError as error:
            await refuse(interaction, error)
            return
        await acting.send_hand(interaction, self.service, table)

    @domino.command(name="status", description="Show the table in this channel again")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table = acting.table_here(self.service, interaction)
        except TableError as error:
            await refuse(interaction, error)
            return
        if table.status is Status.LOBBY:
            await interaction.followup.send(embed=messages.lobby_embed(table), ephemeral=True)
            return
        await self.service.repost(table)
        await interaction.followup.send(wording.POSTED_AGAIN, ephemeral=True)

    @domino.command(name="rules", description="The rules of a game, in plain words")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        await reply(interaction, rules_for(game.value))

    @domino.command(name="leaderboard", description="The best players of a game")
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES, order=ORDER_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        scope: app_commands.Choice[str] | None = None,
        order: app_commands.Choice[str] | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        low, high = PAGE_RANGE
        if not low <= page <= high:
            await refuse(interaction, OutOfRange("page", low, high, page))
            return
        await interaction.response.defer(thinking=True)
        scope_value = scope.value if scope else "server"
        by = order.value if order else "rating"
        board = await self.service.store.leaderboard(
            game.value,
            guild_id=interaction.guild_id if scope_value == "server" else None,
            order=by,
            page=page - 1,
            page_size=10,
            user_id=interaction.user.id,
        )
        where = "this server" if scope_value == "server" else "every server"
        title = f"{GAMES[game.value].title} — {where}"
        if not board.entries:
            await interaction.followup.send(f"{title}: nobody has finished enough games yet.")
            return
        rows = [
            LeaderboardRow(e.rank, e.name or self._name(e.user_id), _value(e, by), e.games)
            for e in board.entries
        ]
        png = await asyncio.to_thread(render_leaderboard, title, rows)
        lines = [f"{r.rank}. {wording.plain(r.name)} — {r.value} ({r.games} games)" for r in rows]
        if board.me is not None and all(e.user_id != board.me.user_id for e in board.entries):
            lines.append(f"You: #{board.me.rank} — {_value(board.me, by)} ({board.me.games} games)")
        alt = f"{title}. " + "; ".join(lines)
        file = discord.File(io.BytesIO(png), filename="leaderboard.png", description=alt[:1024])
        await interaction.followup.send(f"**{title}**\n" + "\n".join(lines), file=file)

    def _name(self, user_id: int) -> str:
        user = self.bot.get_user(user_id)
        return user.display_name if user else f"Player …{str(user_id)[-4:]}"

    @domino.command(name="stats", description="A player's games, wins and points")
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = user or interaction.user
        shown = wording.plain(who.display_name)
        rows = await self.service.store.get_stats(who.id, guild_id=interaction.guild_id)
        if not rows:
            await interaction.followup.send(
                f"{shown} has not finished a game here yet.", ephemeral=True
            )
            return
        embed = discord.Embed(title=f"{shown} — this server", colour=messages.COLOUR)
        for row in rows:
            embed.add_field(
                name=GAMES[row.game].title,
                value=(
                    f"{row.games} games, {row.wins} wins\n"
                    f"{row.rounds_won} rounds won, {row.points} points\n"
                    f"{row.dominoes} dominoes, {row.blocked_wins} blocked wins"
                ),
            )
        await interaction.followup.send(embed=embed, ephemeral=True)

    @domino.command(
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


def _value(entry: Any, order: str) -> str:
    if order == "wins":
        return f"{entry.wins} wins"
    if order == "points":
        return f"{entry.points} points"
    return f"{entry.rating:.1f}"
