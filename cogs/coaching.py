"""``/domino analysis``: the coach on a member's own moves in a finished game, privately:
their accuracy and grades, then their three costliest moves, each with the table and
their hand as they were just before it and the move the expert would have made.

The analysis comes from the service (``bot.coaching``): made once in the coach's worker
process and stored, so a second ask is read back. Only the member's own seat is shown,
from that seat's own view: no other seat's hidden tiles.

The coach also analyses every game with a member's seat at its end; while this cog is
loaded, its herald (``discord_face.coaching``) posts each member's accuracy in the
game's channel."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.coaching import position
from bot.standings import Standings
from discord_face import acting
from discord_face.announcer import Announcer
from discord_face.coaching import AccuracyHerald
from discord_face.commands_i18n import slash
from discord_face.embeds import embed
from discord_face.tree import DominoCommands
from rendering import HandScene
from rendering.painter import hand_png, table_png
from rendering.table import TableScene
from words import boards, coaching, pictures

if TYPE_CHECKING:
    from bot.client import DominoBot


class CoachingCog(DominoCommands, name="Coaching"):
    """A member's analysis of a game they played, one being made at a time for each
    member (an analysis is seconds of the machine's work)."""

    def __init__(self, bot: DominoBot, standings: Standings) -> None:
        super().__init__(bot)
        self.standings = standings
        self._making: set[int] = set()
        self.herald: AccuracyHerald | None = None

    async def cog_load(self) -> None:
        await super().cog_load()
        if self.bot.service is not None:
            self.herald = AccuracyHerald(self.bot, self.bot.service, self._announcer)
            self.bot.coach.add_herald(self.herald)

    async def cog_unload(self) -> None:
        """A reload makes a new cog with its own herald: this one stops being told."""
        if self.herald is not None:
            self.bot.coach.remove_herald(self.herald)
        await super().cog_unload()

    def _announcer(self) -> Announcer | None:
        """The tables' announcer, whose posts the coach's word follows and whose request
        budget it shares."""
        return getattr(self.bot.get_cog("Tables"), "announcer", None)

    @app_commands.command(
        name=slash("command", "analysis"),
        description=locale_str("The coach on your moves in a finished game (only you see it)"),
    )
    @app_commands.rename(game=slash("option", "game"))
    @app_commands.describe(
        game=locale_str("The game's id (at the foot of its last message, or in history)")
    )
    async def analysis(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[str, 1, 40]
    ) -> None:
        user_id = interaction.user.id
        if user_id in self._making:  # checked and taken before anything is awaited
            await acting.reply(interaction, coaching.analysis_running())
            return
        self._making.add(user_id)
        try:
            await self._analysis(interaction, game)
        finally:
            self._making.discard(user_id)

    async def _analysis(self, interaction: discord.Interaction[Any], game: str) -> None:
        """Refusals (a game not found, a store that cannot be read, a record that does
        not replay, so cannot be judged) are raised for the tree to answer privately."""
        played = await self.standings.replayable(game, interaction.guild_id or 0)
        seat = next((p.seat for p in played.participants if p.user_id == interaction.user.id), None)
        if seat is None:
            await acting.reply(interaction, coaching.not_your_game())
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        analysis = await self.bot.coach.analysis_of(self.bot.store, played)
        names = boards.seat_labels(played.participants)
        mine = next((analysed for analysed in analysis.seats if analysed.seat == seat), None)
        card = coaching.analysis_card(played.id, played.game, names[seat], mine)
        await interaction.followup.send(embed=embed(card), ephemeral=True)
        if mine is None:
            return
        for number, move in enumerate(mine.costliest(coaching.COSTLIEST), 1):
            view = position(played, seat, move)
            table = await self.bot.painter.draw(
                table_png, TableScene.of(view.public), pictures.table_text(view.public, names)
            )
            hand = await self.bot.painter.draw(
                hand_png, HandScene.of(view), pictures.hand_text(view, names)
            )
            files = [
                discord.File(
                    io.BytesIO(table), filename=f"analysis-{number}-table.png",
                    description=pictures.describe_table(view.public, names),
                ),
                discord.File(
                    io.BytesIO(hand), filename=f"analysis-{number}-hand.png",
                    description=pictures.describe_hand(view),
                ),
            ]  # fmt: skip
            text = coaching.costly_move(move, mine.scale.unit, pictures.in_match(view.public))
            await interaction.followup.send(text, files=files, ephemeral=True)


async def setup(bot: DominoBot) -> None:
    await bot.add_cog(CoachingCog(bot, Standings(bot.store)), override=True)
