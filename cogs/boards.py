"""``/domino leaderboard`` and ``/domino stats``: scores across games and servers."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.engine import GAMES
from bot.refusals import TableError
from bot.standings import PAGE_SIZE, RATED_AFTER, Standings
from cogs import acting, i18n, wording
from cogs.acting import refuse
from cogs.choices import GAME_CHOICES, ORDER_CHOICES, SCOPE_CHOICES
from cogs.i18n import slash
from cogs.tree import DominoCommands
from rendering import LeaderboardRow, render_leaderboard, render_replay

if TYPE_CHECKING:
    from bot.client import DominoBot


class BoardsCog(DominoCommands, name="Boards"):
    """Leaderboards and a player's stats."""

    def __init__(self, bot: DominoBot, standings: Standings) -> None:
        super().__init__(bot)
        self.standings = standings

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
        title = wording.board_title(GAMES[game.value].title, everywhere=scope_value != "server")
        if not board.entries:
            pages = -(-board.total // PAGE_SIZE)
            text = (
                wording.board_past_end(title, page, pages)
                if board.total
                else wording.board_empty(title, by, RATED_AFTER)
            )
            await interaction.followup.send(text)
            return
        rows = [
            LeaderboardRow(
                e.rank, e.name or self._name(e.user_id), wording.board_value(e, by), e.games
            )
            for e in board.entries
        ]
        png = await asyncio.to_thread(render_leaderboard, rows, wording.leaderboard_text(title))
        lines = [wording.board_line(r.rank, r.name, r.value, r.games) for r in rows]
        if board.me is not None and all(e.user_id != board.me.user_id for e in board.entries):
            me = board.me
            lines.append(wording.board_you(me.rank, wording.board_value(me, by), me.games))
        alt = f"{title}. " + "; ".join(lines)
        file = discord.File(io.BytesIO(png), filename="leaderboard.png", description=alt[:1024])
        await interaction.followup.send(f"**{title}**\n" + "\n".join(lines), file=file)

    def _name(self, user_id: int) -> str:
        user = self.bot.get_user(user_id)
        return user.display_name if user else wording.unknown_player(user_id)

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
        shown = wording.plain(name)
        try:
            rows = await self.standings.stats(user_id, interaction.guild_id)
        except TableError as error:
            await refuse(interaction, error)
            return
        if not rows:
            await interaction.followup.send(wording.no_stats(shown), ephemeral=True)
            return
        await interaction.followup.send(embed=wording.stats_embed(shown, rows), ephemeral=True)

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
            text = wording.no_history(name)
            if pages:
                text = wording.board_past_end(wording.plain(name), page, pages)
            await interaction.followup.send(text, ephemeral=True)
            return
        lines = [wording.history_title(name, page, pages)]
        lines += [wording.history_line(game) for game in games]
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
        try:  # refused privately, before the public answer
            played = await self.standings.game(game, interaction.guild_id or 0)
        except TableError as error:
            await refuse(interaction, error)
            return
        await interaction.response.defer(thinking=True)
        names = [wording.seat_label(p) for p in sorted(played.participants, key=lambda p: p.seat)]
        replay = await asyncio.to_thread(render_replay, played.record, wording.replay_text(names))
        parts = replay.parts
        for number, part in enumerate(parts, 1):
            file = discord.File(
                io.BytesIO(part.gif),
                filename=f"replay-{played.id}-{number}.gif",
                description=wording.describe_replay(replay, names, number - 1),
            )
            await interaction.followup.send(
                wording.replay_posted(played.id, number, len(parts)), file=file
            )


async def setup(bot: DominoBot) -> None:
    await bot.add_cog(BoardsCog(bot, Standings(bot.store)), override=True)
