"""``/domino leaderboard`` and ``/domino stats``: scores across games and servers (the
games themselves, ``history`` and ``replay``, are ``cogs.games``')."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.engine import GAMES
from bot.standings import PAGE_SIZE, RATED_AFTER, Standings
from discord_face import acting, members
from discord_face.choices import GAME_CHOICES, ORDER_CHOICES, SCOPE_CHOICES
from discord_face.commands_i18n import slash
from discord_face.embeds import embed
from discord_face.tree import DominoCommands
from rendering import LeaderboardRow, render_leaderboard
from words import boards, common, i18n, pictures

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
        self.standings.check(page, by)
        # Read before the public answer: a store that fails the read is refused
        # privately (the tree answers it), not in place of the public "thinking".
        board = await self.standings.leaderboard(
            game.value,
            guild_id=interaction.guild_id if scope_value == "server" else None,
            order=by,
            page=page,
            user_id=interaction.user.id,
            shown_in=interaction.guild_id,
        )
        await interaction.response.defer(thinking=True)
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
                e.rank,
                e.name or await members.public_name(self.bot, e.user_id),
                boards.board_value(e, by),
                e.games,
            )
            for e in board.entries
        ]
        png = await asyncio.to_thread(
            render_leaderboard, rows, pictures.leaderboard_text(title, by)
        )
        lines = [boards.board_line(r.rank, r.name, r.value, r.games) for r in rows]
        you = None
        if board.me is not None and all(e.user_id != board.me.user_id for e in board.entries):
            me = board.me
            you = boards.board_you(me.rank, boards.board_value(me, by), me.games)
            lines.append(you)
        alt = pictures.describe_leaderboard(title, rows, you)
        file = discord.File(io.BytesIO(png), filename="leaderboard.png", description=alt)
        await interaction.followup.send(f"**{title}**\n" + "\n".join(lines), file=file)

    @app_commands.command(
        name=slash("command", "stats"), description=locale_str("A player's games, wins and points")
    )
    @app_commands.rename(user=slash("option", "user"))
    @app_commands.describe(user=locale_str("Whose stats (yours if left out)"))
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id, name = members.whose(interaction, user)
        shown = common.plain(name)
        rows = await self.standings.stats(user_id, interaction.guild_id)
        if not rows:
            await interaction.followup.send(boards.no_stats(shown), ephemeral=True)
            return
        await interaction.followup.send(embed=embed(boards.stats_card(shown, rows)), ephemeral=True)


async def setup(bot: DominoBot) -> None:
    await bot.add_cog(BoardsCog(bot, Standings(bot.store)), override=True)
