"""The ``/domino`` commands and every button click. The cog acknowledges at once, asks
the table service to act, and answers refusals ephemerally; it never decides a rule."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import GAMES, EngineError, Move, Options
from bot.table import StaleVersion, Status, Table, TableError
from bot.tables import NewTable, TableService
from cogs import messages
from cogs.announcer import Announcer
from cogs.controls import (
    CANCEL,
    COMPUTER,
    DRAW,
    HAND,
    JOIN,
    LEAVE,
    LEVEL,
    PASS,
    PLAY,
    RULES,
    START,
    Click,
    ends_view,
    hand_view,
    level_view,
    lobby_view,
)
from cogs.rules_text import rules_for
from rendering import LeaderboardRow, describe_hand, render_hand, render_leaderboard

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


def sentence(error: Exception) -> str:
    """A refusal's text as a sentence: the table and the engine word theirs as clauses
    ("it is Ann's turn, not yours") so they can be embedded in other text too."""
    text = str(error)
    return f"{text[:1].upper()}{text[1:]}."


async def refuse(interaction: discord.Interaction[Any], message: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was acknowledged already."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(message, ephemeral=True, **kwargs)


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
        self._in_flight: set[asyncio.Task[Any]] = set()
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
        """Discord's own refusals (a check that failed) are told as they are; anything
        else is a bug of ours: logged with its traceback, and the user is told the table
        is safe (every action is stored before it is announced)."""
        if isinstance(error, app_commands.CheckFailure):
            await self.apologize(interaction, sentence(error))
            return
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("/%s failed", name, exc_info=error)
        await self.apologize(interaction)

    async def apologize(self, interaction: discord.Interaction[Any], text: str = "") -> None:
        text = text or (
            "Something went wrong on my side. The table is saved: try again, "
            "or use /domino status to see it."
        )
        with contextlib.suppress(discord.HTTPException):
            await refuse(interaction, text)

    # -- graceful shutdown: let running handlers finish before the store closes ----------

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        self._track()
        return True

    def _track(self) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait for the commands and clicks being handled now."""
        running = {t for t in self._in_flight if t is not asyncio.current_task()}
        if running:
            await asyncio.wait(running, timeout=timeout)

    # -- finding the caller's table ---------------------------------------------------------

    def _table_here(self, interaction: discord.Interaction[Any]) -> Table:
        table = self.service.in_channel(interaction.channel_id or 0)
        if table is None:
            raise TableError("there is no table in this channel: open one with /domino new")
        return table

    def _my_table(self, interaction: discord.Interaction[Any]) -> Table:
        """The table in this channel if the caller sits there, else their table here."""
        here = self.service.in_channel(interaction.channel_id or 0)
        if here is not None and here.seat_of(interaction.user.id) is not None:
            return here
        assert interaction.guild_id is not None
        mine = self.service.of_user(interaction.guild_id, interaction.user.id)
        if mine is None:
            raise TableError("you are not seated at a table in this server: /domino join one")
        return mine

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        action: Any,
        *,
        seen_version: int | None = None,
    ) -> bool:
        """Run an action for the caller; answer a refusal ephemerally. True if it stood."""
        if table.guild_id != interaction.guild_id:
            await refuse(interaction, "That table belongs to another server.")
            return False
        try:
            await self.service.act(table.id, action, seen_version=seen_version)
        except StaleVersion:
            await self._moved_on(interaction, table)
            return False
        except TableError as error:
            await refuse(interaction, sentence(error))
            return False
        return True

    async def _moved_on(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A click on controls drawn for an older state: say so, and give fresh ones."""
        text = "The table has moved on since those buttons were drawn."
        if table.status is Status.PLAYING and table.seat_of(interaction.user.id) is not None:
            await self._send_hand(interaction, table, note=f"{text} Here is your hand now.")
        else:
            await refuse(interaction, text)

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
            await refuse(interaction, sentence(error))
            return
        # The lobby is an ordinary channel message, like every table message after it; the
        # host's own answer stays private, so a refusal above never shows in the channel.
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        lobby = await channel.send(embed=messages.lobby_embed(table), view=lobby_view(table))
        await self.service.remember_message(table, lobby.id)
        await interaction.followup.send(
            "Your table is open: others press Join, or Add computer; then press Start.",
            ephemeral=True,
        )
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
        await self._lobby_action(interaction, JOIN)

    @domino.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_action(interaction, LEAVE)

    @domino.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_action(interaction, START)

    @domino.command(name="end", description="Close the table (host, or Manage Server)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_action(interaction, CANCEL)

    async def _lobby_action(self, interaction: discord.Interaction[Any], action: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table = self._table_here(interaction)
        except TableError as error:
            await refuse(interaction, sentence(error))
            return
        if await self._act(interaction, table, self._lobby(interaction, action)):
            done = {JOIN: "You joined the table.", LEAVE: "You left the table.",
                    START: "The game has started.", CANCEL: "The table is closed."}  # fmt: skip
            await interaction.followup.send(done[action], ephemeral=True)

    def _lobby(
        self, interaction: discord.Interaction[Any], action: str, arg: str | None = None
    ) -> Any:
        user = interaction.user
        manager = bool(interaction.permissions.manage_guild)
        if action == JOIN:
            busy = self.service.of_user(interaction.guild_id or 0, user.id)
            if busy is not None:
                raise TableError("you are seated at another table in this server already")
            return lambda t: t.join(user.id, user.display_name)
        if action == LEAVE:
            return lambda t: t.leave(user.id)
        if action == START:
            return lambda t: t.start(user.id)
        if action == CANCEL:
            return lambda t: t.cancel(user.id, manager=manager)
        assert action == LEVEL and arg is not None
        return lambda t: t.add_computer(user.id, arg)

    @domino.command(name="play", description="Play a tile from your hand")
    @app_commands.describe(
        tile="A tile from your hand, like 6-5", end="Where: N, E, S, W (or L, R in Milo)"
    )
    async def play(
        self, interaction: discord.Interaction[Any], tile: str, end: str | None = None
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
                if m.tile and str(m.tile) == tile.strip() and m.end_name]  # fmt: skip
        return [app_commands.Choice(name=e, value=e) for e in ends if current.upper() in e][:25]

    def _quiet_table(self, interaction: discord.Interaction[Any]) -> Table | None:
        try:
            return self._my_table(interaction)
        except TableError:
            return None

    @domino.command(name="draw", description="Draw from the boneyard (when you cannot play)")
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        await self._play_text(interaction, "draw")

    @domino.command(name="pass", description="Pass (when you can neither play nor draw)")
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self._play_text(interaction, "pass")

    async def _play_text(
        self, interaction: discord.Interaction[Any], text: str, seen: int | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table = self._my_table(interaction)
            move = self._resolve(table, interaction.user.id, text)
        except (TableError, ValueError) as error:
            await refuse(interaction, sentence(error))
            return
        user = interaction.user.id
        if await self._act(interaction, table, lambda t: t.play(user, move), seen_version=seen):
            await interaction.followup.send(f"You played {move.text}.", ephemeral=True)

    @staticmethod
    def _resolve(table: Table, user_id: int, text: str) -> Move:
        """Read the player's move; a tile that fits only one end gets that end filled in
        (R-SP-3), so ``/domino play 6-5`` works when there is no choice to make."""
        move = Move.parse(text)
        if move.tile is not None and move.end is None:
            places = [m for m in table.legal_for(user_id) if m.tile is move.tile]
            if len(places) == 1:
                return places[0]
        return move

    @domino.command(name="hand", description="See your hand (only you see it)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        try:
            table = self._my_table(interaction)
        except TableError as error:
            await refuse(interaction, sentence(error))
            return
        await self._send_hand(interaction, table)

    async def _send_hand(
        self, interaction: discord.Interaction[Any], table: Table, note: str = ""
    ) -> None:
        """The caller's hand, privately: the picture and a button per playable tile."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.match is None or table.status is not Status.PLAYING:
            await refuse(
                interaction,
                "You have no hand here: the game has not started, or you are not playing.",
            )
            return
        if table.seats[seat].away:
            await self.service.act(table.id, lambda t: t.come_back(interaction.user.id))
        view = table.match.private_view(seat)
        legal = table.legal_for(interaction.user.id)
        png, alt = await asyncio.to_thread(_draw_hand, view, table.names())
        turn = (
            "Your turn: pick a tile."
            if legal
            else f"{table.seats[table.turn or 0].name} is to play."
        )
        file = discord.File(io.BytesIO(png), filename="hand.png", description=alt)
        await interaction.followup.send(
            f"{note}\n{turn}".strip(), file=file, view=hand_view(table, legal), ephemeral=True
        )

    @domino.command(name="status", description="Show the table in this channel again")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table = self._table_here(interaction)
        except TableError as error:
            await refuse(interaction, sentence(error))
            return
        if table.status is Status.LOBBY:
            await interaction.followup.send(embed=messages.lobby_embed(table), ephemeral=True)
            return
        await self.service.repost(table)
        await interaction.followup.send("The table is posted again below.", ephemeral=True)

    @domino.command(name="rules", description="The rules of a game, in plain words")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        await interaction.response.send_message(rules_for(game.value), ephemeral=True)

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
        await interaction.response.defer(thinking=True)
        scope_value = scope.value if scope else "server"
        board = await self.service.store.leaderboard(
            game.value,
            guild_id=interaction.guild_id if scope_value == "server" else None,
            order=order.value if order else "rating",
            page=page - 1,
            page_size=10,
            user_id=interaction.user.id,
        )
        where = "this server" if scope_value == "server" else "every server"
        title = f"{GAMES[game.value].title} — {where}"
        if not board.entries:
            await interaction.followup.send(f"{title}: nobody has finished enough games yet.")
            return
        by = order.value if order else "rating"
        rows = [
            LeaderboardRow(e.rank, e.name or self._name(e.user_id), _value(e, by), e.games)
            for e in board.entries
        ]
        png = await asyncio.to_thread(render_leaderboard, title, rows)
        lines = [f"{r.rank}. {r.name} — {r.value} ({r.games} games)" for r in rows]
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
        rows = await self.service.store.get_stats(who.id, guild_id=interaction.guild_id)
        if not rows:
            await interaction.followup.send(
                f"{who.display_name} has not finished a game here yet.", ephemeral=True
            )
            return
        embed = discord.Embed(title=f"{who.display_name} — this server", colour=messages.COLOUR)
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
        if not interaction.permissions.manage_guild:
            await refuse(interaction, "Only members with Manage Server can change the settings.")
            return
        assert interaction.guild_id is not None
        current = await self.service.settings(interaction.guild_id)
        targets = dict(current.default_targets)
        if (game is None) != (target is None):
            await refuse(interaction, "Give both a game and a target to set a default target.")
            return
        if game is not None and target is not None:
            variant = GAMES[game.value]
            try:
                Options.for_game(variant, max(variant.player_counts), target=target)
            except EngineError as error:
                await refuse(interaction, sentence(error))
                return
            targets[game.value] = target
        updated = dataclasses.replace(
            current,
            turn_timer_seconds=turn_timer or current.turn_timer_seconds,
            default_targets=targets,
            use_threads=current.use_threads if threads is None else threads,
        )
        await self.service.update_settings(updated)
        defaults = (
            ", ".join(f"{GAMES[g].title} {t}" for g, t in targets.items()) or "the rules' own"
        )
        await interaction.response.send_message(
            f"Turn timer: {updated.turn_timer_seconds} s · Default targets: {defaults} · "
            f"Threads: {'on' if updated.use_threads else 'off'}",
            ephemeral=True,
        )

    # -- buttons --------------------------------------------------------------------------------

    async def on_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """Every button lands here (see cogs.controls)."""
        self._track()
        table = self.service.tables.get(click.table_id)
        if table is None:
            await refuse(interaction, "That table is closed. Open a new one with /domino new.")
            return
        if table.guild_id != interaction.guild_id:
            await refuse(interaction, "That table belongs to another server.")
            return
        action = click.action
        if action == RULES:
            await refuse(interaction, rules_for(table.game))
        elif action == COMPUTER:
            await refuse(interaction, "Which level?", view=level_view(table))
        elif action == HAND:
            await self._send_hand(interaction, table)
        elif action in (JOIN, LEAVE, START, CANCEL, LEVEL):
            await interaction.response.defer()
            try:
                act = self._lobby(interaction, action, click.arg)
            except TableError as error:
                await refuse(interaction, sentence(error))
                return
            await self._act(interaction, table, act)
        elif action in (DRAW, PASS):
            await self._click_move(interaction, table, action, click.version)
        elif action == PLAY and click.arg:
            await self._click_play(interaction, table, click)

    async def _click_move(
        self, interaction: discord.Interaction[Any], table: Table, text: str, version: int
    ) -> None:
        await interaction.response.defer()
        user = interaction.user.id
        try:
            move = Move.parse(text)
        except ValueError as error:
            await refuse(interaction, sentence(error))
            return
        await self._act(interaction, table, lambda t: t.play(user, move), seen_version=version)

    async def _click_play(
        self, interaction: discord.Interaction[Any], table: Table, click: Click
    ) -> None:
        """A tile button in a hand: play it, or ask where when it fits several ends."""
        assert click.arg is not None
        move = Move.parse(click.arg)
        user = interaction.user.id
        if (
            move.tile is not None
            and move.end is None
            and table.match is not None
            and table.match.round.led
        ):
            if click.version != table.version:
                await interaction.response.defer()
                await self._moved_on(interaction, table)
                return
            places = [m for m in table.legal_for(user) if m.tile is move.tile]
            await interaction.response.edit_message(
                content=f"Where does {move.tile} go?", view=ends_view(table, places)
            )
            return
        await interaction.response.defer()
        if await self._act(
            interaction, table, lambda t: t.play(user, move), seen_version=click.version
        ):
            await interaction.edit_original_response(
                content=f"You played {move.text}.", view=None, attachments=[]
            )


def _value(entry: Any, order: str) -> str:
    if order == "wins":
        return f"{entry.wins} wins"
    if order == "points":
        return f"{entry.points} points"
    return f"{entry.rating:.1f}"


def _draw_hand(view: dict[str, Any], names: list[str]) -> tuple[bytes, str]:
    """Render in a worker thread."""
    return render_hand(view, names).png, describe_hand(view)
