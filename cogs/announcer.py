"""Posting what happened at a table: the lobby, a picture after every move, the end of a
round and of the game. Runs after the table service has stored the action, so a failure
to post never loses a move: discord.py waits out rate limits and retries transient errors,
and what still fails (a missing permission, say) is told to the channel in plain text."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import PublicView
from bot.events import (
    Away,
    Back,
    Cancelled,
    Event,
    GameOver,
    Joined,
    Left,
    Moved,
    RoundOver,
    Started,
    TimedOut,
)
from bot.table import Status, Table
from cogs import messages, wording
from cogs.buttons import lobby_view, table_view
from rendering import render_table

if TYPE_CHECKING:
    from bot.tables import TableService

log = logging.getLogger(__name__)
NEEDED = "View Channel, Send Messages, Embed Links and Attach Files"


class Announcer:
    """Turns a table's events into channel messages."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service

    async def __call__(self, table: Table, events: list[Event]) -> None:
        if any(isinstance(e, Joined | Left) for e in events) and table.status is Status.LOBBY:
            await self._edit(table, embed=messages.lobby_embed(table), view=lobby_view(table))
            return
        if any(isinstance(e, Cancelled) for e in events):
            await self._edit(table, view=None)
            await self._send(table, content=f"The {table.variant_title} table was closed.")
            return
        if any(isinstance(e, Started) for e in events):
            await self._edit(table, embed=messages.lobby_embed(table), view=None)
            await self._post_table(table, ["The game begins."])
            return
        lines = self._lines(table, events)
        for event in events:
            if isinstance(event, RoundOver):
                await self._edit(table, view=None)
                await self._send(
                    table,
                    content="\n".join(lines),
                    embed=messages.round_embed(table, event.outcome),
                )
                lines = []
            if isinstance(event, GameOver):
                await self._send(table, embed=messages.game_over_embed(table, event.outcome))
                return
        if table.status is Status.PLAYING:
            await self._post_table(table, lines)

    def _lines(self, table: Table, events: list[Event]) -> list[str]:
        lines = []
        for event in events:
            if isinstance(event, Moved):
                lines.append(messages.move_line(table, event))
            elif isinstance(event, TimedOut | Away | Back):
                lines.append(messages.seat_note(table, event))
        return lines

    async def _post_table(self, table: Table, lines: list[str]) -> None:
        """The table message: the picture, the embed, the buttons; the previous table
        message loses its buttons; the next player is mentioned."""
        assert table.match is not None
        view = table.match.view()
        names = table.names()
        png, alt = await asyncio.to_thread(_draw, view, names)
        embed = messages.table_embed(table)
        embed.set_image(url="attachment://table.png")
        turn = table.turn
        mention = discord.AllowedMentions.none()
        if turn is not None and not table.seats[turn].played_by_computer:
            lines.append(f"<@{table.seats[turn].user_id}>, your turn.")
            # Users may be pinged in this one message, and the only mention it carries is
            # this one: every name in it is escaped. (Not ``users=[that member]``: discord.py
            # sends those ids as numbers, where Discord's API description wants strings.)
            mention = discord.AllowedMentions(users=True)
        file = discord.File(io.BytesIO(png), filename="table.png", description=alt)
        previous = table.message_id
        message = await self._send(
            table,
            content="\n".join(lines) or None,
            embed=embed,
            file=file,
            view=table_view(table),
            allowed_mentions=mention,
        )
        if message is None:  # the previous message keeps its buttons: the table is not stuck
            return
        await self.service.remember_message(table, message.id)
        await self._edit(table, previous, view=None)

    async def _channel(self, table: Table) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(table.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(table.channel_id)
            except discord.HTTPException:
                log.warning("table %s: channel %s is gone", table.id, table.channel_id)
                return None
        return channel  # type: ignore[return-value]

    async def _send(self, table: Table, **kwargs: Any) -> discord.Message | None:
        """Post in the table's channel. discord.py itself waits out rate limits (429) and
        retries Discord's transient 5xx; what still fails is told to the channel in plain
        words, and the action it announces stands (it was stored first)."""
        channel = await self._channel(table)
        if channel is None:
            return None
        try:
            return await channel.send(**kwargs)
        except discord.Forbidden:
            await self._tell(
                channel,
                table,
                f"I cannot post the {table.variant_title} table here: I need {NEEDED}. "
                "The game is saved; use /domino status once that is fixed.",
            )
        except discord.HTTPException as error:
            log.warning(
                "table %s: Discord refused a message (%s); the move stands", table.id, error.status
            )
            await self._tell(
                channel,
                table,
                f"Discord did not take my last {table.variant_title} message ({error.status}). "
                "Nothing is lost: /domino status posts the table again.",
            )
        return None

    async def _tell(self, channel: discord.abc.Messageable, table: Table, text: str) -> None:
        """A plain-text note to the channel, when a richer message could not be posted."""
        try:
            await channel.send(text)
        except discord.HTTPException:
            log.warning("table %s: cannot post in channel %s at all", table.id, table.channel_id)

    async def _edit(self, table: Table, message_id: int | None = None, **kwargs: Any) -> None:
        """Edit one of the table's messages: by default its current one (the lobby, or the
        last table message)."""
        message_id = message_id or table.message_id
        if message_id is None:
            return
        channel = await self._channel(table)
        if isinstance(channel, discord.Thread) and channel.id == message_id:
            # The lobby started this thread, so the two share an id; the lobby itself
            # stays in the thread's parent channel.
            channel = self.client.get_partial_messageable(channel.parent_id)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as error:
            log.info("table %s: could not edit message %s (%s)", table.id, message_id, error.status)


def _draw(view: PublicView, names: list[str]) -> tuple[bytes, str]:
    """Render in a worker thread: Pillow must never block the event loop."""
    png = render_table(view, wording.table_text(view, names)).png
    return png, wording.describe_table(view, names)
