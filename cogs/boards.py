"""``/domino leaderboard`` and ``/domino stats``: scores across games and servers."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine import GAMES
from bot.refusals import TableError
from bot.standings import Standings
from cogs import messages, wording
from cogs.acting import refuse
from cogs.choices import GAME_CHOICES, ORDER_CHOICES, SCOPE_CHOICES
from cogs.tree import DominoCommands
from rendering import LeaderboardRow, render_leaderboard

if TYPE_CHECKING:
    from bot.client import DominoBot


class BoardsCog(DominoCommands, name="Boards"):
    """Leaderboards and a player's stats."""

    def __init__(self, bot: DominoBot, standings: Standings) -> None:
        super().__init__(bot)
        self.standings = standings

    @app_commands.command(name="leaderboard", description="The best players of a game")
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
        where = "this server" if scope_value == "server" else "every server"
        title = f"{GAMES[game.value].title} — {where}"
        if not board.entries:
            await interaction.followup.send(f"{title}: nobody has finished enough games yet.")
            return
        rows = [
            LeaderboardRow(e.rank, e.name or self._name(e.user_id), _value(e, by), e.games)
            for e in board.entries
        ]
        png = await asyncio.to_thread(render_leaderboard, rows, wording.leaderboard_text(title))
        lines = [f"{r.rank}. {wording.plain(r.name)} — {r.value} ({r.games} games)" for r in rows]
        if board.me is not None and all(e.user_id != board.me.user_id for e in board.entries):
            lines.append(f"You: #{board.me.rank} — {_value(board.me, by)} ({board.me.games} games)")
        alt = f"{title}. " + "; ".join(lines)
        file = discord.File(io.BytesIO(png), filename="leaderboard.png", description=alt[:1024])
        await interaction.followup.send(f"**{title}**\n" + "\n".join(lines), file=file)

    def _name(self, user_id: int) -> str:
        user = self.bot.get_user(user_id)
        return user.display_name if user else f"Player …{str(user_id)[-4:]}"

    @app_commands.command(name="stats", description="A player's games, wins and points")
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = user or interaction.user
        shown = wording.plain(who.display_name)
        try:
            rows = await self.standings.stats(who.id, interaction.guild_id)
        except TableError as error:
            await refuse(interaction, error)
            return
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



def _value(entry: Any, order: str) -> str:
    if order == "wins":
        return f"{entry.wins} wins"
    if order == "points":
        return f"{entry.points} points"
    return f"{entry.rating:.1f}"


async def setup(bot: DominoBot) -> None:
    await bot.add_cog(BoardsCog(bot, Standings(bot.store)), override=True)
