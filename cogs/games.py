"""``/domino history`` and ``/domino replay``: a member's finished games (with each
member's accuracy where the coach has analysed the game), and any one of them watched
again, move by move (the coach's graded moves marked on their frames, where the game
was analysed)."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.coaching import accuracies, stored_analysis
from bot.standings import Standings
from discord_face import acting, members
from discord_face.commands_i18n import slash
from discord_face.tree import DominoCommands
from rendering import render_replay
from words import boards, coaching, common, replays

if TYPE_CHECKING:
    from bot.client import DominoBot


REPLAY_PARTS_MOST = 3
"""Files one replay posts at most (each within Discord's upload limit): a long game's
replay stops after them, and says after which round; the rest is not drawn."""
REPLAY_COOL_DOWN = 60.0
"""Seconds after a member's replay is drawn before they may ask for another."""


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

    def drawn(self, user_id: int) -> None:
        """A member's replay is drawn, which is what it costs: their next waits the
        cool-down, even if posting this one then fails."""
        now = self.clock()
        self._next = {user: when for user, when in self._next.items() if when > now}
        self._next[user_id] = now + REPLAY_COOL_DOWN

    def end(self, guild_id: int, user_id: int) -> None:
        self._servers.discard(guild_id)
        self._members.discard(user_id)


class GamesCog(DominoCommands, name="Games"):
    """Finished games: a member's history, and replays (within :class:`ReplayLimits`)."""

    def __init__(self, bot: DominoBot, standings: Standings) -> None:
        super().__init__(bot)
        self.standings = standings
        self.replays = ReplayLimits()

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
        user_id, name = members.whose(interaction, user)
        games, pages = await self.standings.history(user_id, interaction.guild_id or 0, page)
        if not games:
            text = boards.no_history(name)
            if pages:
                text = boards.board_past_end(common.plain(name), page, pages)
            await interaction.followup.send(text, ephemeral=True)
            return
        analysed = await accuracies(self.bot.store, games)
        lines = [boards.history_title(name, page, pages)]
        for game in games:
            line, seats = boards.history_line(game), analysed.get(game.id)
            if seats:  # the coach's accuracy of each member, where the game was analysed
                labels = boards.seat_labels(game.participants)
                line += " · " + coaching.history_accuracies(labels, seats)
            lines.append(line)
        for part in acting.chunks(lines):  # long names can fill one before ten games
            await interaction.followup.send(part, ephemeral=True)

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
        try:
            await self._replay(interaction, game)
        finally:
            self.replays.end(guild_id, user_id)

    async def _replay(self, interaction: discord.Interaction[Any], game: str) -> None:
        """Post the replay of ``game`` (not when the member must wait). A game not found,
        not read or that does not replay, or its analysis not read, is refused before the
        public answer, so the tree answers it privately."""
        played = await self.standings.replayable(game, interaction.guild_id or 0)
        too_soon = self.replays.too_soon(interaction.user.id)
        if too_soon is not None:
            await acting.reply(interaction, too_soon)
            return
        # Only an analysis already stored: a replay never starts one (``/domino analysis``).
        marked = coaching.marked_moves(await stored_analysis(self.bot.store, played))
        await interaction.response.defer(thinking=True)
        names = boards.seat_labels(played.participants)
        worded = replays.replay_text(names, marked)
        replay = await asyncio.to_thread(
            render_replay, played.record, worded, most=REPLAY_PARTS_MOST
        )
        self.replays.drawn(interaction.user.id)
        parts = replay.parts
        for number, part in enumerate(parts, 1):
            file = discord.File(
                io.BytesIO(part.gif),
                filename=f"replay-{played.id}-{number}.gif",
                description=replays.describe_replay(replay, names, number - 1, marked),
            )
            text = boards.replay_posted(played.id, number, len(parts))
            if number == len(parts) and not replay.whole:
                text += "\n" + boards.replay_cut(part.rounds.stop, len(replay.rounds))
            await interaction.followup.send(text, file=file)


async def setup(bot: DominoBot) -> None:
    await bot.add_cog(GamesCog(bot, Standings(bot.store)), override=True)
