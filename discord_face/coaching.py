"""The coach's word in a game's channel: once a game's analysis is made at its end
(``bot.coaching``), each member's accuracy is posted where the game was played, after the
game's last card, with the command that shows each member their own costliest moves
privately. Figures only: never a move, a hand or a tile.

Posted once: the coach notes the announcement after this returns, and one handed back
after a restart (``again``: the bot may have stopped between the post and the note) is
looked for among the channel's latest messages first, as the announcer does for a
table's posts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.service import TableService
from discord_face import acting
from discord_face.announcer import LOOKBACK, Announcer
from words import boards, coaching, i18n

if TYPE_CHECKING:  # the values the coach's service hands over, read only
    from bot.players.coach import Analysis
    from data.models import FinishedGame

log = logging.getLogger(__name__)

CARD_WAIT = 60.0
"""Seconds the coach's word waits for its table's posts under way (the game-over card,
which it follows) to go out: a card Discord keeps refusing is not waited for longer."""


class AccuracyHerald:
    """Tells a game's channel each member's accuracy (a
    :class:`~bot.coaching.Herald`), through the tables' announcer's request budget."""

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        announcer: Callable[[], Announcer | None],
    ) -> None:
        self.client = client
        self.service = service
        self._announcer = announcer
        """The tables' announcer now (a reload of the tables' cog makes a new one)."""

    async def analysed(self, game: FinishedGame, analysis: Analysis, again: bool) -> None:
        """Post the accuracies in ``game``'s channel (nothing for a game no Discord server
        played, or where every member's move was forced or the computer's). A channel
        that is gone or closed to the bot is logged and given up; another refusal raises,
        so the next start tries again."""
        if game.guild_id <= 0 or game.channel_id is None:
            return  # the browser's local tables, or a game stored before its channel was
        accuracy = analysis.accuracies()
        if not accuracy:
            return
        announcer = self._announcer()
        if announcer is not None:
            await announcer.settled(game.table_id, CARD_WAIT)
        language = await acting.posting_language(self.client, self.service, game.guild_id)
        try:
            if again and await self._posted(game, announcer):
                log.info("game %s: its accuracies were posted before the restart", game.id)
                return
            with i18n.speaking(language):
                text = _said(game, accuracy)
            channel = await self._channel(game.channel_id, announcer)
            if announcer is not None:
                await announcer.budget.take()
            await channel.send(text)
        except (discord.NotFound, discord.Forbidden) as error:
            log.warning("game %s: its accuracies cannot be posted in channel %s (%s)", game.id,
                        game.channel_id, error.status)  # fmt: skip

    async def _posted(self, game: FinishedGame, announcer: Announcer | None) -> bool:
        """Whether the channel's latest messages hold the bot's word on this game, in any
        language the server may have spoken meanwhile, whatever names it holds (a member
        may have been renamed since). A channel that cannot be read (no Read Message
        History) is posted to, as the announcer does."""

        def said(content: str) -> bool:
            for language in i18n.SHIPPED:
                with i18n.speaking(language):
                    if coaching.says_game_accuracies(content, game.id):
                        return True
            return False

        channel = await self._channel(game.channel_id or 0, announcer)
        if announcer is not None:
            await announcer.budget.take()
        me = self.client.user
        try:
            async for message in channel.history(limit=LOOKBACK):
                if me is not None and message.author.id == me.id and said(message.content):
                    return True
        except discord.HTTPException as error:
            log.warning("game %s: cannot read channel %s (%s) to see whether its accuracies"
                        " were posted", game.id, game.channel_id, error.status)  # fmt: skip
        return False

    async def _channel(
        self, channel_id: int, announcer: Announcer | None
    ) -> discord.abc.Messageable:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            if announcer is not None:
                await announcer.budget.take()
            channel = await self.client.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel


def _said(game: FinishedGame, accuracy: dict[int, float]) -> str:
    """The coach's word on ``game`` in the language of the moment."""
    return coaching.game_accuracies(game.id, boards.seat_labels(game.participants), accuracy)
