"""Posting what happened at a table: the lobby, a picture after every turn, the end of a
round and of the game.

The table service tells the announcer of every stored action (under the table's lock,
in order); the announcer queues it and posts from one worker per table, outside the
lock, so Discord's pace never holds a table up and each channel sees its table's turns
in order; a few tables are posted at a time (:data:`POSTS_AT_ONCE`). What it posts is
the table's newest state with every line since the channel last saw it: when a table
changes faster than its picture can go out, the stale pictures are skipped, never
queued. A turn that goes on after a draw (R-CR-5, R-MG-5) is posted once, when it ends
("Bob draws and passes").

Requests are a budget (``discord_face.budget``): a move made by a click is posted as that
click's own follow-up and the previous table message's buttons stripped through the
interaction that posted it, neither of which counts against Discord's global limit;
only what has no interaction to go through (a computer's move, a timeout) is posted in
the channel, within the bot's share of the limit.

After posting, the version shown is stored (the transactional outbox: the service
stores each action with its events, and on start-up hands back whatever a channel has
not been shown). A post Discord refuses is told to the channel once, in plain words,
and tried again later with the newest state; the move it announces stands, stored
first. A table whose channel or thread is gone (deleted by a moderator; Discord answers
Unknown Channel) is closed, its state stored as it stood, and nothing more is posted of
it (:meth:`Announcer.channel_gone`). Everything is posted in the server's language
(``words.i18n``), whoever's click caused it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.commands import Cancel
from bot.engine import PublicView
from bot.events import Cancelled, Event, GameOver, Reminder, RoundOver, Started, TimeAdded
from bot.refusals import Refusal
from bot.service import Resumed, TableService
from bot.snapshot import TableSnapshot
from bot.table import Status
from discord_face import acting, buttons
from discord_face.budget import RequestBudget
from discord_face.buttons import game_over_view, lobby_view, table_view
from discord_face.embeds import embed
from discord_face.unanswered import UNANSWERED
from rendering import TableScene
from rendering.painter import Painter, table_png
from words import common, i18n, lobby, pictures, play, rounds

log = logging.getLogger(__name__)

TOKEN_LIFE = 14 * 60.0
"""Seconds an interaction's token is used for (Discord honours it for 15 minutes)."""
ANSWER_WAIT = 3.0
"""Seconds a post waits for the click it goes through to be answered (Discord allows a
click 3 seconds); a click still unanswered by then is passed over for the channel."""
POSTS_FINISH_SECONDS = 3.0
"""How long a stop lets the posts under way finish (a post takes a fraction of a second;
one that Discord keeps waiting is posted at the next start instead)."""
POSTS_AT_ONCE = 32
"""Tables posted at the same time; the others wait their turn, and each posts its newest
state when its turn comes. Posts are the event loop's heaviest work (a picture to draw,
a multipart request, a message to parse back, the old buttons to strip), and with a
post under way for every table that moved, each step of a click's answer waited behind
hundreds of theirs. A limit shortens the clicks' answers at the same moves a second;
much lower, and the posts fall behind. A few hundred tables rarely reach it: it holds
back the bursts after a pause of the event loop (``benchmarks/e2e.py``; the figures are
in ``docs/BENCHMARKS.md``)."""
LOOKBACK = 50
"""The channel's latest messages read after a restart to see what it shows already: the
table's last post is among them unless members wrote this many messages meanwhile."""
RETRY_FIRST, RETRY_LONGEST = 2.0, 300.0
"""Seconds before a refused post is tried again, doubling up to the longest."""


@dataclass
class Posted:
    """A table message the announcer posted, and the interaction webhook that can edit
    it without counting against the global limit (None: a channel post)."""

    message_id: int
    webhook: discord.Webhook | None = None
    at: float = field(default_factory=time.monotonic)
    """When it was posted (its interaction was a moment older)."""

    @property
    def editable_by_token(self) -> bool:
        return self.webhook is not None and time.monotonic() - self.at < TOKEN_LIFE


@dataclass
class Feed:
    """One table's announcements still to make."""

    table: TableSnapshot
    message_id: int | None = None
    """The table's latest message as the service knew it when it told of ``table`` (the
    lobby, then the latest table message; after a restart, the one it noted before)."""
    events: list[Event] = field(default_factory=list)
    via: discord.Interaction[Any] | None = None
    via_since: float = 0.0
    pending: bool = False
    task: asyncio.Task[None] | None = None
    last: Posted | None = None
    failures: int = 0
    unsure: bool = False
    """Handed back after a restart: the channel may show some of it already (the bot
    may have stopped between a post and noting it)."""
    resumed: list[tuple[int, int]] = field(default_factory=list)
    """For each action handed back after a restart, its version and where its events end
    in :attr:`events`."""
    shown_now: bool = False
    """Asked to show the table as it stands (``/domino status``), even mid-turn."""
    stale: list[int] = field(default_factory=list)
    """Older messages of the table found with live buttons, to strip after the next post."""


class NotPosted(Exception):
    """Discord refused a post (after discord.py's own retries); told and tried later,
    unless the channel is ``gone``."""

    def __init__(self, gone: bool = False) -> None:
        super().__init__()
        self.gone = gone


class Announcer:
    """Hears the table service (``stored``) and posts, one worker per table."""

    face = acting.FACE
    catches_up = True

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        budget: RequestBudget,
        painter: Painter,
    ) -> None:
        self.client = client
        self.service = service
        self.budget = budget
        self.painter = painter
        self._feeds: dict[str, Feed] = {}
        self._posting = asyncio.Semaphore(POSTS_AT_ONCE)
        self._closing = False
        self._noting: set[asyncio.Task[None]] = set()
        """Ends noted as shown, of tables whose channel is gone (kept until done)."""
        self._answers: dict[int, asyncio.Event] = {}
        """Clicks the service passed on before they were answered (``acting.Click``), by
        interaction id: a follow-up waits for its click's answer."""
        self.posts = {"interaction": 0, "global": 0}
        """Requests made, by whether they count against the global limit."""

    # -- what the service tells -----------------------------------------------------------

    def shows(self, guild_id: int) -> bool:
        """Discord's servers (their ids are snowflakes, positive), not the browser's
        local tables, which only the browser face shows."""
        return guild_id > 0

    def forgotten(self, user_id: int) -> None:
        """Nothing kept: its feeds are of open tables, at which no forgotten member sits."""

    def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
        if not self.shows(table.guild_id):
            return
        if isinstance(via, acting.LobbyPosted):
            return  # the lobby just posted: the channel shows it
        if isinstance(via, acting.PlaceGone):
            self._forget(table)
            return
        feed = self._feeds.get(table.id)
        if feed is None:
            feed = self._feeds[table.id] = Feed(table)
        if isinstance(via, Resumed):
            feed.unsure = True
            feed.resumed.append((via.version, len(feed.events) + len(events)))
            via = None
        elif not events:
            feed.shown_now = True
        feed.table = table
        # What the service has noted, unless the worker knows a message it has not noted
        # yet (a lobby found after a restart, an action stored while it is being noted).
        feed.message_id = self.service.shown(acting.FACE, table.id).message_id or feed.message_id
        feed.events.extend(events)
        feed.pending = True
        answered = via.answered if isinstance(via, acting.Click) else None
        if isinstance(via, acting.Click):
            via = via.interaction
        if isinstance(via, discord.Interaction) and _answerable(via, table, answered):
            if feed.via is not None:
                self._answers.pop(feed.via.id, None)
            feed.via, feed.via_since = via, time.monotonic()
            if answered is not None:
                self._answers[via.id] = answered
        if not self._closing and (feed.task is None or feed.task.done()):
            feed.task = asyncio.create_task(self._run(feed), name=f"announce-{table.id}")

    async def channel_gone(self, channel_id: int) -> None:
        """A channel or thread was deleted: its table is closed, stored as it stood (its
        players free to sit elsewhere, a tournament's table counted as the tournament
        counts a cancelled one), and nothing more is posted there, nor tried again."""
        table = self.service.in_channel(channel_id)
        await self._all_gone(
            [] if table is None else [table], lambda feed: feed.table.channel_id == channel_id
        )

    async def places_gone(self) -> None:
        """At a start: a table of a server the bot is in whose channel or thread
        discord.py does not hold (deleted while the bot was down; or a thread it has not
        cached) is looked up, and one Discord no longer has is closed as if its deletion
        had been heard. Else its players would stay seated there (one seat a server)
        until a post found it gone: a whole turn, or a lobby's idle hour."""
        for guild_id in self.service.guilds():
            guild = self.client.get_guild(guild_id)
            if guild is None or guild.unavailable:
                continue
            for table in self.service.in_guild(guild_id):
                if self.client.get_channel(table.channel_id) is not None:
                    continue
                try:
                    await self._channel(table)
                except NotPosted as failed:
                    if failed.gone:
                        await self.channel_gone(table.channel_id)
                except UNANSWERED as error:  # found gone, if it is, by its next post
                    log.info("table %s: its channel not looked up (%r)", table.id, error)

    async def guild_gone(self, guild_id: int) -> None:
        """The bot was removed from a server: each of its tables is closed as a deleted
        channel's is, since no post could reach them and no member could end them."""
        await self._all_gone(
            self.service.in_guild(guild_id), lambda feed: feed.table.guild_id == guild_id
        )

    async def _all_gone(self, tables: list[TableSnapshot], there: Callable[[Feed], bool]) -> None:
        for table in tables:
            await self._close_gone(table)
        for feed in [f for f in self._feeds.values() if there(f)]:
            self._forget(feed.table)  # an end not posted yet

    async def _close_gone(self, table: TableSnapshot) -> None:
        me = self.client.user.id if self.client.user is not None else 0
        log.info("table %s: channel %s out of reach; closing it", table.id, table.channel_id)
        with contextlib.suppress(Refusal):  # closed meanwhile: nothing left to do
            await self.service.act(table.id, Cancel(me, manager=True), via=acting.PlaceGone())

    def _forget(self, table: TableSnapshot) -> None:
        """Post nothing more of ``table`` (its place is gone): what was waiting is
        dropped, and its end is noted as shown so the service lets it go."""
        feed = self._feeds.pop(table.id, None)
        if feed is not None and feed.task is not None and feed.task is not asyncio.current_task():
            feed.task.cancel()
        noting = asyncio.create_task(
            self.service.remember_message(acting.FACE, table.id, None, table.version)
        )
        self._noting.add(noting)
        noting.add_done_callback(self._noting.discard)

    async def close(self, timeout: float = POSTS_FINISH_SECONDS) -> None:
        """Let the posts under way finish (a while), then stop; what is left is posted
        after the next start (the service hands back what a channel has not seen)."""
        self._closing = True
        tasks = [f.task for f in self._feeds.values() if f.task is not None and not f.task.done()]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def settled(self, table_id: str, timeout: float) -> None:
        """Until the posts of ``table_id`` under way are made, for at most ``timeout``
        seconds: what follows a table's last card in its channel (the coach's word)
        waits for it."""
        feed = self._feeds.get(table_id)
        if feed is not None and feed.task is not None and not feed.task.done():
            await asyncio.wait([feed.task], timeout=timeout)

    # -- one table's worker -----------------------------------------------------------------

    async def _run(self, feed: Feed) -> None:
        while feed.pending and not self._closing:
            # The server's language first: right after a start it may wait for the bot
            # to know its servers, and what the feed holds is taken after that wait.
            language = await self._language(feed.table)
            async with self._posting:  # a turn first, then the newest state
                table = feed.table
                if self._closing:
                    return  # the next start posts it (the store knows what was shown)
                if table.turn_goes_on and not feed.shown_now:
                    # Posted with the rest of the turn (the next action wakes us); but the
                    # member to move is reminded meanwhile, as at any other time.
                    await self._remind_only(feed, table)
                    return
                feed.shown_now = False
                events, clicked = feed.events, feed.via
                via = clicked if time.monotonic() - feed.via_since <= TOKEN_LIFE else None
                feed.events, feed.via, feed.pending = [], None, False
                try:
                    with i18n.speaking(language):  # the server's, in public
                        await self._announce(feed, table, events, via)
                except NotPosted as refused:
                    if refused.gone:
                        await self._gone(feed)
                        return
                    if not table.is_open and not self.service.waits_for_end(table.id):
                        # Its end refused until the service let it go (pruned, a day
                        # on): not tried for ever, nor posted days late.
                        log.info("table %s: its end was never posted", table.id)
                        self._feeds.pop(table.id, None)
                        return
                    feed.events[:0] = events
                    feed.pending = True
                    feed.failures += 1
                except UNANSWERED as error:
                    # Tried again as a refusal is; but Discord may have made the post, so
                    # the channel is read first, as after a restart (:meth:`_not_shown`).
                    log.warning("table %s: Discord did not answer (%r); tried again later",
                                table.id, error)  # fmt: skip
                    feed.resumed = [(v, end + len(events)) for v, end in feed.resumed]
                    feed.resumed.insert(0, (table.version, len(events)))
                    feed.unsure = True
                    feed.events[:0] = events
                    feed.pending = True
                    feed.failures += 1
                except Exception:
                    log.exception("announcing table %s failed", table.id)
                    return
                else:
                    feed.failures = 0
                finally:
                    if clicked is not None:  # its answer is waited for once, if at all
                        self._answers.pop(clicked.id, None)
            if feed.failures:  # tried again later, without holding a turn meanwhile
                await asyncio.sleep(min(RETRY_FIRST * 2 ** (feed.failures - 1), RETRY_LONGEST))
        if not feed.pending and not feed.table.is_open:
            self._feeds.pop(feed.table.id, None)

    async def _gone(self, feed: Feed) -> None:
        """A post found the table's channel gone (deleted while the bot was not told: a
        restart in between)."""
        table = self.service.find(feed.table.id)
        if table is not None:
            await self._close_gone(table)
        else:
            self._forget(feed.table)

    async def _language(self, table: TableSnapshot) -> i18n.Language:
        return await acting.posting_language(self.client, self.service, table.guild_id)

    async def _remind_only(self, feed: Feed, table: TableSnapshot) -> None:
        """Send the reminders waiting in ``feed`` and keep the rest for later."""
        reminders = [e for e in feed.events if isinstance(e, Reminder)]
        if not reminders:
            return
        feed.events = [e for e in feed.events if not isinstance(e, Reminder)]
        try:
            with i18n.speaking(await self._language(table)):
                await self._remind(table, reminders)
        except NotPosted:
            log.info("table %s: the reminder could not be posted", table.id)

    async def _remind(self, table: TableSnapshot, reminders: list[Reminder]) -> None:
        """A quarter of a member's time left: one line mentioning them, nothing else."""
        reminder = reminders[-1]
        seat = table.seats[reminder.seat]
        if seat.user_id is None or table.turn != reminder.seat:
            return
        await self._send(
            table,
            None,
            content=play.time_running_out(
                seat.user_id, reminder.deadline, table.more_time_left(seat.user_id) > 0
            ),
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    async def _announce(
        self,
        feed: Feed,
        table: TableSnapshot,
        events: list[Event],
        via: discord.Interaction[Any] | None,
    ) -> None:
        reminders = [e for e in events if isinstance(e, Reminder)]
        if reminders and len(reminders) == len(events):
            await self._remind(table, reminders)
            return
        events = [e for e in events if not isinstance(e, Reminder)]
        if feed.unsure and table.status is not Status.LOBBY:
            unshown = await self._not_shown(feed, table, events)
            if unshown is None:
                return
            events = unshown
        if table.status is Status.LOBBY and feed.message_id is None and (feed.unsure or not events):
            await self._post_lobby(feed, table)
            return
        if table.status is Status.LOBBY:
            await self._edit_lobby(feed, table, via, embed=embed(lobby.lobby_card(table)),
                                   view=lobby_view(table))  # fmt: skip
            await self.service.remember_message(acting.FACE, table.id, None, table.version)
            return
        cancelled = _cancelled(events)
        if cancelled is not None:
            if table.view is None:  # closed in its lobby: the lobby says it is closed
                await self._edit_lobby(
                    feed, table, via, embed=embed(lobby.lobby_card(table)), view=None
                )
            else:
                await self._strip(feed, table)
            await self._send(table, None, content=lobby.table_closed(table.title, cancelled.idle))
            await self.service.remember_message(acting.FACE, table.id, None, table.version)
            return
        started = any(isinstance(e, Started) for e in events)
        if started:  # the lobby loses its buttons here: nothing to strip after the post
            await self._edit_lobby(
                feed, table, via, embed=embed(lobby.lobby_card(table)), view=None
            )
        message = await self._post_table(table, events, via)
        if not started:
            await self._strip(feed, table)
        await self._strip_stale(feed, table, keep=message.message_id)
        feed.last = message
        await self.service.remember_message(
            acting.FACE, table.id, message.message_id, table.version
        )

    async def _post_lobby(self, feed: Feed, table: TableSnapshot) -> None:
        """A lobby the channel was never noted showing, posted as /domino new posts its
        own: one opened by another face (a rematch asked for in the Activity), or, after
        a restart, one whose opener stopped before posting it. (A lobby's first actions
        may come before its opener has noted its message: those only edit it.) After a
        restart the lobby may have been posted just before the stop and its note lost:
        one found among the channel's latest messages, or the one that started the
        table's thread, is edited to the table as it stands, not posted again beside
        it."""
        if feed.unsure:
            feed.unsure, feed.resumed = False, []
            if await self._version_shown(feed, table, []) is None:
                feed.last = await self._thread_lobby(table)
            if feed.last is not None:
                feed.message_id = feed.last.message_id
                await self._edit_lobby(feed, table, None, embed=embed(lobby.lobby_card(table)),
                                       view=lobby_view(table))  # fmt: skip
                await self.service.remember_message(
                    acting.FACE, table.id, feed.message_id, table.version
                )
                return
        posted = await self._send(
            table, None, embed=embed(lobby.lobby_card(table)), view=lobby_view(table)
        )
        # Known before it is noted: an action stored while Discord took the post finds
        # no message id noted yet, and its pass (the next) edits this one.
        feed.message_id = posted.message_id
        await self.service.remember_message(acting.FACE, table.id, posted.message_id, table.version)

    async def _not_shown(
        self, feed: Feed, table: TableSnapshot, events: list[Event]
    ) -> list[Event] | None:
        """After a restart, before posting what the store says the channel has not seen:
        what of ``events`` the channel's latest messages do not show yet (the bot may
        have stopped just after a post, before noting it); None when they show it all,
        which is then noted. Our table messages say the version they were drawn for in
        their buttons' custom_ids, a closed table's notice in its words. Every older
        message of the table found with live buttons is stripped (now, or after the
        post). A channel that cannot be read (no Read Message History) is posted to."""
        feed.unsure = False
        resumed, feed.resumed = feed.resumed, []
        shown = await self._version_shown(feed, table, events)
        if shown is None:
            return events
        log.info("table %s: version %d was posted before the restart", table.id, shown)
        if shown >= table.version:
            await self._strip_stale(feed, table, keep=feed.last.message_id if feed.last else 0)
            await self.service.remember_message(
                acting.FACE, table.id, feed.last.message_id if feed.last else None, table.version
            )
            return None
        return events[max((end for v, end in resumed if v <= shown), default=0) :]

    async def _version_shown(
        self, feed: Feed, table: TableSnapshot, events: list[Event]
    ) -> int | None:
        """The newest version of ``table`` the channel's latest messages show (None: none
        found, or the channel cannot be read); its message becomes :attr:`Feed.last`, and
        the older ones with live buttons :attr:`Feed.stale`."""
        me = self.client.user
        try:
            channel = await self._channel(table)
            await self.budget.take()
            self.posts["global"] += 1
            recent = [m async for m in channel.history(limit=LOOKBACK)]
        except discord.HTTPException as error:
            log.warning("table %s: cannot read its channel (%s) to see what it shows",
                        table.id, error.status)  # fmt: skip
            return None
        cancelled = _cancelled(events)
        closed = None if cancelled is None else lobby.table_closed(table.title, cancelled.idle)
        ours: list[tuple[int, discord.Message]] = []
        for message in recent:
            if me is None or message.author.id != me.id:
                continue
            if closed is not None and message.content == closed:
                return table.version
            version = buttons.version_drawn(_custom_ids(message), table.id)
            if version is not None:
                ours.append((version, message))
        if not ours:
            return None
        version, newest = max(ours, key=lambda found: found[0])
        feed.last = Posted(newest.id)
        feed.stale = [m.id for _, m in ours if m.components and m is not newest]
        return version

    async def _thread_lobby(self, table: TableSnapshot) -> Posted | None:
        """With threads on, a table's lobby is posted in the channel and starts the
        thread the table then plays in, the two sharing an id: that lobby, when the
        table's channel is such a thread (the thread's own messages do not hold it)."""
        channel = await self._channel(table)
        if not isinstance(channel, discord.Thread) or channel.parent_id is None:
            return None
        parent = self.client.get_partial_messageable(channel.parent_id)
        try:
            await self.budget.take()
            self.posts["global"] += 1
            starter = await parent.fetch_message(channel.id)
        except discord.HTTPException:
            return None
        if buttons.version_drawn(_custom_ids(starter), table.id) is None:
            return None
        return Posted(starter.id)

    async def _strip_stale(self, feed: Feed, table: TableSnapshot, keep: int) -> None:
        """Take the buttons off the older messages :meth:`_shown_already` found live."""
        stale, feed.stale = feed.stale, []
        for message_id in stale:
            if message_id == keep:
                continue
            try:
                await self._edit(table, message_id, view=None)
            except discord.HTTPException as error:
                log.info("table %s: could not strip message %s (%s)", table.id, message_id,
                         error.status)  # fmt: skip

    async def _post_table(
        self, table: TableSnapshot, events: list[Event], via: discord.Interaction[Any] | None
    ) -> Posted:
        """One message for everything since the channel last saw the table: the lines,
        each round's end, the game's end, and the picture with the buttons (none once
        the game is over); the player to move is mentioned."""
        view = table.view
        assert view is not None
        lines = play.event_lines(table, events)
        if any(isinstance(e, Started) for e in events):
            lines.insert(0, play.game_begins())
        ended = [e.outcome for e in events if isinstance(e, RoundOver)]
        over = next((e for e in events if isinstance(e, GameOver)), None)
        embeds = [
            embed(rounds.round_card(table, outcome, _totals(view, over) if last else None))
            for last, outcome in ((i == len(ended) - 1, o) for i, o in enumerate(ended))
        ]
        names = common.seat_names(table)
        png, alt = await self._draw(view, names)
        files = [discord.File(io.BytesIO(png), filename="table.png", description=alt)]
        if embeds and over is None and table.ended is not None:
            # The round's last move, pictured with its result (the table shows the next deal).
            final, said = await self._draw(table.ended, names)
            files.append(discord.File(io.BytesIO(final), filename="round.png", description=said))
            embeds[-1].set_image(url="attachment://round.png")
        card = (
            play.table_card(table) if over is None else rounds.game_over_card(table, over.outcome)
        )
        shown = embed(card)
        shown.set_image(url="attachment://table.png")
        mention = discord.AllowedMentions.none()
        turn = table.turn
        only_time = bool(events) and all(isinstance(event, TimeAdded) for event in events)
        if (
            over is None
            and turn is not None
            and not table.seats[turn].played_by_computer
            and not only_time  # the member who took it knows whose turn it is: no ping
        ):
            lines.append(play.your_turn(table.seats[turn].user_id or 0))
            # Users may be pinged in this one message, and the only mention it carries is
            # this one: every name in it is escaped. (Not ``users=[that member]``: discord.py
            # sends those ids as numbers, where Discord's API description wants strings.)
            mention = discord.AllowedMentions(users=True)
        return await self._send(
            table,
            via,
            content=_within(lines, CONTENT_MOST) or None,
            embeds=within_embeds(shown, embeds, ended=over is not None),
            files=files,
            view=table_view(table) if over is None else game_over_view(table),
            allowed_mentions=mention,
        )

    async def _draw(self, view: PublicView, names: list[str]) -> tuple[bytes, str]:
        """A table's picture and its alt text; the words are chosen here, in the server's
        language, and the picture is drawn off the event loop."""
        text = pictures.table_text(view, names)
        png = await self.painter.draw(table_png, TableScene.of(view), text)
        return png, pictures.describe_table(view, names)

    # -- requests ---------------------------------------------------------------------------

    async def _send(
        self, table: TableSnapshot, via: discord.Interaction[Any] | None, **kwargs: Any
    ) -> Posted:
        """Post in the table's channel: as ``via``'s follow-up when there is one (not
        counted against the global limit), else as a channel message within the budget.
        A refusal is told to the channel (once in a row) and raises :class:`NotPosted`."""
        if via is not None and await self._answered(via):
            try:
                self.posts["interaction"] += 1
                sent = await via.followup.send(wait=True, **kwargs)
                return Posted(sent.id, via.followup)
            except discord.HTTPException as error:
                # The click's token is gone or refused: the channel it is. Whether the
                # channel takes it is what the members are told, if anything. (Not
                # answered at all, it may have been made: :meth:`_run` tries again once
                # the channel is read.)
                log.info("table %s: a click's follow-up was refused (%s); posting in the"
                         " channel", table.id, error.status)  # fmt: skip
            for file in kwargs.get("files", ()):
                file.reset()
        try:
            channel = await self._channel(table)
            await self.budget.take()
            self.posts["global"] += 1
            message = await channel.send(**kwargs)
            return Posted(message.id)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise NotPosted(gone=True) from error
            await self._refused(table, error)
            raise NotPosted() from error
        except discord.HTTPException as error:
            await self._refused(table, error)
            raise NotPosted() from error

    async def _answered(self, via: discord.Interaction[Any]) -> bool:
        """Whether a post may go out as ``via``'s follow-up now: once the click is
        answered (waiting for it when it acted before answering), by an update of the
        message clicked, not by a "thinking" message of the member's that a follow-up
        would replace."""
        answered = self._answers.pop(via.id, None)
        if answered is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(answered.wait(), ANSWER_WAIT)
        return via.response.type in QUIET_ANSWERS

    async def _refused(self, table: TableSnapshot, error: discord.HTTPException) -> None:
        feed = self._feeds.get(table.id)
        if feed is not None and feed.failures:
            return  # told already, this run of failures
        log.warning("table %s: Discord refused a post (%s); the move stands", table.id,
                    error.status)  # fmt: skip
        if isinstance(error, discord.Forbidden):
            text = lobby.cannot_post(table.title)
        else:
            text = lobby.not_taken(table.title, error.status)
        with contextlib.suppress(discord.HTTPException, NotPosted):
            channel = await self._channel(table)
            await self.budget.take()
            self.posts["global"] += 1
            await channel.send(text)

    async def _strip(self, feed: Feed, table: TableSnapshot) -> None:
        """Take the buttons off the table's previous message (old buttons would answer
        with the hand as it is now, but a channel reads better with one live set): the
        one this announcer posted last, or after a restart the one the store names."""
        last = feed.last
        previous = last.message_id if last is not None else feed.message_id
        if previous is None:
            return
        try:
            if last is not None and last.message_id == previous and last.editable_by_token:
                assert last.webhook is not None
                self.posts["interaction"] += 1
                await last.webhook.edit_message(previous, view=None)
                return
            await self._edit(table, previous, view=None)
        except discord.HTTPException as error:
            log.info("table %s: could not strip message %s (%s)", table.id, previous,
                     error.status)  # fmt: skip

    async def _edit_lobby(
        self,
        feed: Feed,
        table: TableSnapshot,
        via: discord.Interaction[Any] | None,
        **kwargs: Any,
    ) -> None:
        """Edit the lobby (the table's message, until its first table message is
        posted): through the click on it when there is one, else the channel."""
        lobby_id = feed.message_id
        if lobby_id is None:
            return
        try:
            if via is not None and via.message is not None and via.message.id == lobby_id:
                self.posts["interaction"] += 1
                await via.edit_original_response(**kwargs)
                return
            await self._edit(table, lobby_id, **kwargs)
        except discord.HTTPException as error:
            log.info("table %s: could not edit its lobby (%s)", table.id, error.status)

    async def _edit(self, table: TableSnapshot, message_id: int, **kwargs: Any) -> None:
        channel: discord.abc.Messageable = await self._channel(table)
        if isinstance(channel, discord.Thread) and channel.id == message_id:
            # The lobby started this thread, so the two share an id; the lobby itself
            # stays in the thread's parent channel.
            channel = self.client.get_partial_messageable(channel.parent_id)
        await self.budget.take()
        self.posts["global"] += 1
        await channel.get_partial_message(message_id).edit(**kwargs)  # type: ignore[attr-defined]

    async def _channel(self, table: TableSnapshot) -> discord.abc.Messageable:
        channel = self.client.get_channel(table.channel_id)
        if channel is None:
            try:
                await self.budget.take()
                self.posts["global"] += 1
                channel = await self.client.fetch_channel(table.channel_id)
            except discord.HTTPException as error:
                log.warning("table %s: channel %s cannot be found (%s)", table.id,
                            table.channel_id, error.status)  # fmt: skip
                gone = isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL
                raise NotPosted(gone) from error
        assert isinstance(channel, discord.abc.Messageable)
        return channel


UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel (or thread) that does not exist (any more)."""

QUIET_ANSWERS = (
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
)
"""Answers to a click after which a follow-up is a message of its own."""


def _answerable(
    via: discord.Interaction[Any], table: TableSnapshot, answered: asyncio.Event | None
) -> bool:
    """Whether a post for ``table`` may go out as ``via``'s follow-up: a click in the
    table's own channel, answered by an update of the message clicked, or still to be
    answered (``answered``: see :meth:`Announcer._answered`). (Its token is young: the
    click was just handled.)"""
    return (
        via.type is discord.InteractionType.component
        and via.channel_id == table.channel_id
        and (answered is not None or via.response.type in QUIET_ANSWERS)
    )


CONTENT_MOST = 2000
"""Characters Discord takes in a message's content."""
EMBEDS_MOST = 10
"""Embeds Discord takes in a message."""
EMBEDS_TEXT_MOST = 6000
"""The characters Discord takes in a message's embeds together (titles, descriptions,
fields, footers and authors)."""


def within_embeds(
    shown: discord.Embed, rounds: list[discord.Embed], *, ended: bool
) -> list[discord.Embed]:
    """A table message's embeds: the rounds that ended since the last post, and the
    table's card (after them) or the game's end (first, above them), within Discord's
    :data:`EMBEDS_MOST` and :data:`EMBEDS_TEXT_MOST`. Rounds that piled up beyond that
    (posts Discord refused for a while; long names make each card longer) lose their
    oldest cards, never the table's or the game's end, which names the winner and the
    game's id: a message over either limit is refused whole, and would be tried again
    for ever."""
    kept = rounds[-(EMBEDS_MOST - 1) :]
    while kept and len(shown) + sum(len(card) for card in kept) > EMBEDS_TEXT_MOST:
        kept = kept[1:]
    return [shown, *kept] if ended else [*kept, shown]


def _within(lines: Sequence[str], most: int) -> str:
    """The lines, one a line, as many of the latest as fit in ``most`` characters (a
    table whose computers played many turns between two posts: the picture and the
    card show where it stands; the first lines dropped give way to "…")."""
    kept: list[str] = []
    room = most - 2  # for "…" and its line break
    for line in reversed(lines):
        if len(line) + 1 > room:
            break
        kept.append(line)
        room -= len(line) + 1
    if len(kept) == len(lines):
        return "\n".join(lines)
    return "\n".join(["…", *reversed(kept)])


def _totals(view: PublicView, over: GameOver | None) -> tuple[int, ...] | None:
    """Each side's total after the round that just ended: the game's final scores, or
    what the next round of the same game starts from (None at a new game of a match,
    whose totals start again)."""
    if over is not None:
        return over.outcome.scores
    return view.start_scores if view.round_number > 1 else None


def _custom_ids(message: discord.Message) -> list[str]:
    """The custom_ids of a message's buttons (ours say the table and version drawn)."""
    return [
        str(child.custom_id)
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button) and child.custom_id
    ]


def _cancelled(events: Sequence[Event]) -> Cancelled | None:
    """The table's close among ``events``, if it closed (its notice says why)."""
    return next((event for event in events if isinstance(event, Cancelled)), None)
