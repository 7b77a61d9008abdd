"""``/domino leaderboard`` and ``/domino stats``: scores across games and servers."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.engine import GAMES
from bot.refusals import TableError
from bot.standings import PAGE_SIZE, RATED_AFTER, Standings
from discord_face import acting
from discord_face.acting import refuse
from discord_face.choices import GAME_CHOICES, ORDER_CHOICES, SCOPE_CHOICES
from discord_face.commands_i18n import slash
from discord_face.embeds import embed
from discord_face.tree import DominoCommands
from rendering import LeaderboardRow, render_leaderboard, render_replay
from words import boards, common, i18n, pictures, replays

if TYPE_CHECKING:
    from bot.client import DominoBot


REPLAY_PARTS_MOST = 3
"""Files one replay posts at most (each within Discord's upload limit): a long game's
replay stops after them, and says so."""
REPLAY_COOL_DOWN = 60.0
"""Seconds after a member's replay is posted before they may ask for another."""


class ReplayLimits:
    """Replays are the heaviest thing a member can ask for (megabytes of pictures, and
    seconds of drawing): one at a time in a server, one at a time for a member, and a
    member's next one after a cool-down."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._servers: set[int] = set()
        self._members: set[int] = set()
        self._next: dict[int, float] = {}

    def busy(self, guild_id: int, user_id: int) -> str | None:
        """Why no replay can be begun now, for this member here (None: one can)."""
        if user_id in self._members:
            return boards.replay_yours_running()
        if guild_id in self._servers:
            return boards.replay_running_here()
        return None

    def too_soon(self, user_id: int) -> str | None:
        """Why this member must wait for their next replay (None: they need not)."""
        when = self._next.get(user_id, 0.0)
        return boards.replay_again_at(when) if when > self.clock() else None

    def begin(self, guild_id: int, user_id: int) -> None:
        self._servers.add(guild_id)
        self._members.add(user_id)

    def end(self, guild_id: int, user_id: int, *, posted: bool) -> None:
        self._servers.discard(guild_id)
        self._members.discard(user_id)
        if posted:
            now = self.clock()
            self._next = {user: when for user, when in self._next.items() if when > now}
            self._next[user_id] = now + REPLAY_COOL_DOWN


class BoardsCog(DominoCommands, name="Boards"):
    """Leaderboards and a player's stats."""

    def __init__(self, bot: DominoBot, standings: Standings) -> None:
        super().__init__(bot)
        self.standings = standings
        self.replays = ReplayLimits()

    @app_commands.command(
        name=slash("command", "leaderboard"), description=locale_str("The best players of a game")
    )
    @app_commands.rename(
        game=slash("option", "game"),
        scope=slash("option", "scope"),
        order=slash("option", "order"),
        page=slash("option", "page"),
    )
    @app_commands.describe(
        game=locale_str("Which game"),
        scope=locale_str("This server, or every server"),
        order=locale_str("By rating, wins or points"),
        page=locale_str("Which page of 10 players"),
    )
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES, order=ORDER_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        scope: app_commands.Choice[str] | None = None,
        order: app_commands.Choice[str] | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        scope_value = scope.value if scope else "server"
        by = order.value if order else "rating"
        try:
            self.standings.check(page, by)  # refused privately, before the public answer
            await interaction.response.defer(thinking=True)
            board = await self.standings.leaderboard(
                game.value,
                guild_id=interaction.guild_id if scope_value == "server" else None,
                order=by,
                page=page,
                user_id=interaction.user.id,
            )
        except TableError as error:
            await refuse(interaction, error)
            return
        # The board is public: from here on, in the server's language.
        assert interaction.guild_id is not None
        public = await acting.server_language(
            acting.service_of(interaction), interaction.guild_id, acting.guild_locale(interaction)
        )
        i18n.use(public.code)
        title = boards.board_title(GAMES[game.value].title, everywhere=scope_value != "server")
        if not board.entries:
            pages = -(-board.total // PAGE_SIZE)
            text = (
                boards.board_past_end(title, page, pages)
                if board.total
                else boards.board_empty(title, by, RATED_AFTER)
            )
            await interaction.followup.send(text)
            return
        rows = [
            LeaderboardRow(
                e.rank, e.name or self._name(e.user_id), boards.board_value(e, by), e.games
            )
            for e in board.entries
        ]
        png = await asyncio.to_thread(
            render_leaderboard, rows, pictures.leaderboard_text(title, by)
        )
        lines = [boards.board_line(r.rank, r.name, r.value, r.games) for r in rows]
        if board.me is not None and all(e.user_id != board.me.user_id for e in board.entries):
            me = board.me
            lines.append(boards.board_you(me.rank, boards.board_value(me, by), me.games))
        alt = f"{title}. " + "; ".join(lines)
        file = discord.File(io.BytesIO(png), filename="leaderboard.png", description=alt[:1024])
        await interaction.followup.send(f"**{title}**\n" + "\n".join(lines), file=file)

    def _name(self, user_id: int) -> str:
        user = self.bot.get_user(user_id)
        return user.display_name if user else boards.unknown_player(user_id)

    def _whose(
        self, interaction: discord.Interaction[Any], user: discord.abc.Snowflake | None
    ) -> tuple[int, str]:
        """The member a ``user`` option names (the caller when left out) and the name to
        show. Discord sends the member along with the command; should it not, the id it
        sends is enough to look them up."""
        who = user or interaction.user
        if isinstance(who, discord.User | discord.Member):
            return who.id, who.display_name
        return who.id, self._name(who.id)

    @app_commands.command(
        name=slash("command", "stats"), description=locale_str("A player's games, wins and points")
    )
    @app_commands.rename(user=slash("option", "user"))
    @app_commands.describe(user=locale_str("Whose stats (yours if left out)"))
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id, name = self._whose(interaction, user)
        shown = common.plain(name)
        try:
            rows = await self.standings.stats(user_id, interaction.guild_id)
        except TableError as error:
            await refuse(interaction, error)
            return
        if not rows:
            await interaction.followup.send(boards.no_stats(shown), ephemeral=True)
            return
        await interaction.followup.send(embed=embed(boards.stats_card(shown, rows)), ephemeral=True)

    @app_commands.command(
        name=slash("command", "history"),
        description=locale_str("A player's finished games in this server"),
    )
    @app_commands.rename(user=slash("option", "user"), page=slash("option", "page"))
    @app_commands.describe(
        user=locale_str("Whose games (you, if left out)"), page=locale_str("Which page")
    )
    async def history(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id, name = self._whose(interaction, user)
        try:
            games, pages = await self.standings.history(user_id, interaction.guild_id or 0, page)
        except TableError as error:
            await refuse(interaction, error)
            return
        if not games:
            text = boards.no_history(name)
            if pages:
                text = boards.board_past_end(common.plain(name), page, pages)
            await interaction.followup.send(text, ephemeral=True)
            return
        lines = [boards.history_title(name, page, pages)]
        lines += [boards.history_line(game) for game in games]
        await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(
        name=slash("command", "replay"),
        description=locale_str("Watch a finished game again, move by move"),
    )
    @app_commands.rename(game=slash("option", "game"))
    @app_commands.describe(
        game=locale_str("The game's id (at the foot of its last message, or in history)")
    )
    async def replay(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[str, 1, 40]
    ) -> None:
        guild_id, user_id = interaction.guild_id or 0, interaction.user.id
        busy = self.replays.busy(guild_id, user_id)
        if busy is not None:  # checked and taken before anything is awaited
            await acting.reply(interaction, busy)
            return
        self.replays.begin(guild_id, user_id)
        posted = False
        try:
            posted = await self._replay(interaction, game)
        finally:
            self.replays.end(guild_id, user_id, posted=posted)

    async def _replay(self, interaction: discord.Interaction[Any], game: str) -> bool:
        """Post the replay of ``game``; whether it was posted (else refused)."""
        try:  # refused privately, before the public answer
            played = await self.standings.game(game, interaction.guild_id or 0)
        except TableError as error:
            await refuse(interaction, error)
            return False
        too_soon = self.replays.too_soon(interaction.user.id)
        if too_soon is not None:
            await acting.reply(interaction, too_soon)
            return False
        await interaction.response.defer(thinking=True)
        names = boards.seat_labels(played.participants)
        replay = await asyncio.to_thread(render_replay, played.record, replays.replay_text(names))
        parts = replay.parts
        posted = parts[:REPLAY_PARTS_MOST]
        for number, part in enumerate(posted, 1):
            file = discord.File(
                io.BytesIO(part.gif),
                filename=f"replay-{played.id}-{number}.gif",
                description=replays.describe_replay(replay, names, number - 1),
            )
            text = boards.replay_posted(played.id, number, len(parts))
            if number == len(posted) < len(parts):
                text += "\n" + boards.replay_cut(len(posted), len(parts))
            await interaction.followup.send(text, file=file)
        return True


async def setup(bot: DominoBot) -> None:
    await bot.add_cog(BoardsCog(bot, Standings(bot.store)), override=True)
