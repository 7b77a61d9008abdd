"""The browser face's listener: it hears every stored action of the local tables and
sends each page that follows a table its frame, in the page's language, with the hand
of that page's guest only.

Each page is a :class:`Reader` with its own queue and writer task, so a slow page never
holds up the service (which tells listeners under the table's lock) nor another page.
A page is sent whole states, never differences, so a page that reconnects (or finds the
server restarted) is brought to the stored state by the frame it is sent on ``watch``.

It is also one of the coach's heralds (``bot.coaching``): once a finished game is
analysed, the pages that show its table are sent its summary again with each member's
accuracy, which a page that opens the finished table later is shown too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import web

from bot.events import Event, GameOver
from bot.service import TableService
from bot.snapshot import TableSnapshot
from bot.table import Status
from web import frames
from web.activity import Activities
from web.identity import LOCAL_SERVER, Guest
from web.marks import WebMarks
from words import i18n, marks

if TYPE_CHECKING:  # the values the coach's service hands over, read only
    from bot.players.coach import Analysis
    from data.models import FinishedGame

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Activity:
    """A page's Activity: its access token and instance, and the channel Discord said
    the instance runs in (the only table the page may follow)."""

    token: str
    instance: str
    channel_id: int


FACE = "web"
QUEUE_MOST = 64
"""Frames a page may fall behind by; a page further behind is closed, and reconnects
to the stored state (its frames are whole states, so nothing is lost but the lines)."""
LOBBY_EVERY = 0.5
"""Seconds between two sendings of the open tables' list."""
KEEP_FINISHED = 256
"""Finished tables kept in memory (the newest), so their pages, and an Activity opened
in their channel afterwards, still show how they ended and offer a rematch (the service
lets a closed table go)."""


@dataclass(slots=True)
class Ending:
    """How a finished table's game ended, for as long as its table is kept: the game's
    end (its summary) and, once the coach has analysed it, each member's accuracy by
    seat."""

    over: GameOver
    accuracy: dict[int, float] | None = None


@dataclass(eq=False)
class Reader:
    """One open page: who it is (a guest, a Discord member in an Activity, or None for
    a spectator), its language, the table it follows (by channel: a rematch is the same
    channel's next table), whether it follows the lobby list, and what is queued for it.

    A page in an Activity (``activity``: its token and instance, confirmed with
    Discord) belongs to that Discord server and channel; any other page, to the local
    server (``web.identity.LOCAL_SERVER``)."""

    socket: web.WebSocketResponse
    guest: Guest | None
    language: i18n.Language
    guild_id: int = LOCAL_SERVER
    activity: Activity | None = None
    in_discord: bool = False
    """The page said it runs inside Discord (even if Discord did not confirm it): it is
    told about the Activity, not asked for a guest's name."""
    channel: int | None = None
    lobby: bool = False
    confirmed_at: float | None = None
    """When Discord last confirmed the page's member for a seat (``time.monotonic``)."""
    signed_in_at: float | None = None
    """When Discord last confirmed its sign-in (``activity``): kept apart, so that a seat
    taken just after it is still asked for as the member is named now."""
    queue: deque[str] = field(default_factory=deque)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    writer: asyncio.Task[None] | None = None

    @property
    def user_id(self) -> int | None:
        return None if self.guest is None else self.guest.id

    def send(self, frame: dict[str, Any]) -> None:
        """Queue ``frame``; never waits (see the module's docstring)."""
        self.send_text(orjson.dumps(frame).decode())

    def send_text(self, text: str) -> None:
        """Queue a frame already written as JSON (one shared by several pages)."""
        if len(self.queue) >= QUEUE_MOST:
            self.queue.clear()
            self.queue.append("")  # the writer closes a page that fell this far behind
        else:
            self.queue.append(text)
        self.ready.set()

    async def write(self) -> None:
        """Send what is queued, in order, until the page goes."""
        while not self.socket.closed:
            await self.ready.wait()
            self.ready.clear()
            while self.queue:
                text = self.queue.popleft()
                if not text:
                    await self.socket.close()
                    return
                await self.socket.send_str(text)


class WebFace:
    """The browser face's listener and its pages (see the module's docstring)."""

    face = FACE
    catches_up = False

    def shows(self, guild_id: int) -> bool:
        """Every server's tables: the local ones, and Discord's in an Activity."""
        return True

    def forgotten(self, user_id: int) -> None:
        """Let go of the finished tables kept that seat, host or invite the member (the
        store deleted them): a page or an Activity opened later no longer finds them."""
        for channel, table in list(self._finished.items()):
            seated = table.seat_of(user_id) is not None
            if seated or table.host_id == user_id or table.keeps(user_id):
                self._let_go(channel)

    def __init__(self, service: TableService, activities: Activities | None = None) -> None:
        self.service = service
        self.activities = activities
        """Discord's side of the Activity, when the bot runs in Discord with it set up."""
        self.readers: set[Reader] = set()
        self._following: dict[int, set[Reader]] = {}
        """Local channel → the pages that follow its table."""
        self._lobby_due: asyncio.TimerHandle | None = None
        """The lobby list's next sending, once it has changed."""
        self._finished: dict[int, TableSnapshot] = {}
        """Channel → its table as it finished (the newest :data:`KEEP_FINISHED`)."""
        self._endings: dict[str, Ending] = {}
        """Table id → how the game ended, for the finished tables kept that played one."""
        self._shown_in: dict[str, int] = {}
        """Open Discord table's id → the channel its pages were last shown it in, so that
        they follow it when it moves to a thread (:meth:`_follow_moved`)."""
        self._taken_up = asyncio.Event()

    # -- pages come and go --------------------------------------------------------------

    def add(self, reader: Reader) -> None:
        self.readers.add(reader)
        reader.writer = asyncio.create_task(self._write(reader), name="web-reader")

    async def _write(self, reader: Reader) -> None:
        try:
            await reader.write()
        except (ConnectionError, RuntimeError) as error:  # the page went mid-send
            log.debug("a page went while being written to (%s)", error)

    async def remove(self, reader: Reader) -> None:
        self.readers.discard(reader)
        self._unfollow(reader)
        if reader.writer is not None:
            reader.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader.writer

    def follow(self, reader: Reader, channel: int | None) -> None:
        """``reader`` follows the table of ``channel`` from now on (None: no table)."""
        self._unfollow(reader)
        reader.channel = channel
        if channel is not None:
            self._following.setdefault(channel, set()).add(reader)

    def _unfollow(self, reader: Reader) -> None:
        if reader.channel is not None:
            followers = self._following.get(reader.channel)
            if followers is not None:
                followers.discard(reader)
                if not followers:
                    del self._following[reader.channel]
        reader.channel = None

    # -- what a page is shown -----------------------------------------------------------

    def table_in(self, channel: int) -> TableSnapshot | None:
        """The channel's open table, or the one that finished there last."""
        return self.service.in_channel(channel) or self._finished.get(channel)

    def for_activity(self, channel: int, user_id: int) -> TableSnapshot | None:
        """The table an Activity opened in ``channel`` shows: the channel's own; else,
        where the server plays its tables in threads of the channel, the newest open one
        ``user_id`` sits at, else the newest open one, else the newest that ended there."""
        table = self.table_in(channel)
        if table is not None or self.activities is None:
            return table
        parent_of = self.activities.parent_of
        open_here = [
            table
            for table in (self.service.tables[table_id] for table_id in list(self.service.tables))
            if parent_of(table.channel_id) == channel
        ]
        own = [table for table in open_here if table.seat_of(user_id) is not None]
        if own or open_here:
            return self.service.snapshot((own or open_here)[-1].id)
        ended = [table for kept, table in self._finished.items() if parent_of(kept) == channel]
        return ended[-1] if ended else None

    def finished(self, table_id: str) -> TableSnapshot | None:
        """A local table that finished (or was cancelled) lately, by its id."""
        return next((t for t in self._finished.values() if t.id == table_id), None)

    def _table_id_in(self, channel: int) -> str | None:
        table = self.table_in(channel)
        return None if table is None else table.id

    def local_tables(self) -> list[TableSnapshot]:
        """The open local tables, the newest first."""
        tables = [self.service.find(table_id) for table_id in list(self.service.tables)]
        local = [t for t in tables if t is not None and t.guild_id == LOCAL_SERVER]
        return local[::-1]

    def show(
        self,
        reader: Reader,
        table: TableSnapshot,
        events: Sequence[Event] = (),
        *,
        again: bool = False,
    ) -> None:
        """Send ``reader`` the table as stored (with what ``events`` did; a finished
        table with its game's summary); ``again``: the page shows it already, and is
        sent it anew in another language, with the last round's end it may still show."""
        self._send(table, events, (reader,), again=again)

    def _public(
        self, table: TableSnapshot, events: Sequence[Event], again: bool = False
    ) -> frames.Frame:
        """The table's public part; a finished table shown again is shown as its end
        was (the summary), with the accuracies once the coach has them."""
        ending = None if table.is_open else self._endings.get(table.id)
        if ending is None:
            return frames.public_part(table, events, again=again)
        return frames.public_part(table, events or (ending.over,), ending.accuracy)

    def greet(self, reader: Reader) -> None:
        """Send the page its ``hello``: who it speaks for, in its language."""
        guest = reader.guest
        with self.speaking(reader.language):
            reader.send(
                frames.hello(
                    None if guest is None else (guest.id, guest.name),
                    reader.language,
                    None if self.activities is None else self.activities.client_id,
                )
            )

    def show_lobby(self, reader: Reader) -> None:
        with i18n.speaking(reader.language):
            reader.send(frames.table_list(self.local_tables()))

    def _send_lobbies(self) -> None:
        """The open tables' list to every page that follows it: written once per
        language, however many pages read it."""
        self._lobby_due = None
        written: dict[str, str] = {}
        tables = self.local_tables()
        for reader in self.readers:
            if not reader.lobby:
                continue
            code = reader.language.code
            if code not in written:
                with i18n.speaking(reader.language):
                    written[code] = _written(frames.table_list(tables))
            reader.send_text(written[code])

    def speaking(
        self, language: i18n.Language, table: TableSnapshot | None = None
    ) -> contextlib.AbstractContextManager[object]:
        """The words in ``language``, marked for the page, naming ``table``'s members:
        those seated by their seats, and those it names without a seat (whose seats it
        keeps, an organiser hosting it) by the names it keeps for them; the chat
        mentions them, and the page has no other way to name them."""
        names = {} if table is None else {
            **dict(table.unseated),
            **{seat.user_id: seat.name for seat in table.seats if seat.user_id is not None},
        }  # fmt: skip
        stack = contextlib.ExitStack()
        stack.enter_context(i18n.speaking(language))
        stack.enter_context(marks.using(WebMarks(names, self._table_id_in)))
        return stack

    # -- the service tells ----------------------------------------------------------------

    def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
        if not table.is_open:  # any server's: an Activity opened later shows it, with Rematch
            self._keep_finished(table, events)
        if table.guild_id != LOCAL_SERVER:
            self._follow_moved(table)
            self._draw_in(table)
        followers = self._following.get(table.channel_id, ())
        if table.guild_id != LOCAL_SERVER and not followers:
            return  # a Discord table that no Activity shows
        self._send(table, events, followers)
        listed = table.version <= 2 or not table.is_open or any(e.kind in _LISTED for e in events)
        if listed and table.guild_id == LOCAL_SERVER:
            self.lobby_changed()

    def _follow_moved(self, table: TableSnapshot) -> None:
        """The pages this face showed ``table`` in another channel follow it to the one it
        is in now: with threads on, a lobby posted in its channel moves to a thread it
        starts (``MoveToThread``). Known from what the pages were shown, not from
        :meth:`Activities.parent_of`: Discord's word of the new thread (its gateway
        event) may come after the move, and a page left on the channel meanwhile would
        show the lobby as first posted and have its Join refused as not in the channel.
        The note is taken again by :meth:`_send` while the table is open and shown."""
        was = self._shown_in.pop(table.id, None)
        if was is None or was == table.channel_id:
            return
        for reader in list(self._following.get(was, ())):
            self.follow(reader, table.channel_id)

    def _draw_in(self, table: TableSnapshot) -> None:
        """``table`` is a lobby of a Discord server's channel, or of a thread of it
        (threads on): the pages of an Activity in that channel that show no table of
        their own follow it from now on (none open; a closed one their member sat at
        keeps its Rematch). So a lobby posted in the channel and moved to its thread
        goes on being shown there, and a page that found no table, or whose table has
        closed, shows the next lobby opened."""
        if table.status is not Status.LOBBY or self.activities is None:
            return
        homes = {table.channel_id, self.activities.parent_of(table.channel_id)}
        for reader in self.readers:
            if reader.activity is None or reader.activity.channel_id not in homes:
                continue
            if reader.channel == table.channel_id:
                continue
            shown = None if reader.channel is None else self.table_in(reader.channel)
            user = reader.user_id
            if shown is not None and (
                shown.is_open or (user is not None and shown.seat_of(user) is not None)
            ):
                continue
            self.follow(reader, table.channel_id)

    def _send(
        self,
        table: TableSnapshot,
        events: Sequence[Event],
        followers: Iterable[Reader],
        *,
        again: bool = False,
    ) -> None:
        """``table`` to each of ``followers``: its public part written once per language."""
        public: dict[str, str] = {}
        for reader in followers:
            code = reader.language.code
            if code not in public:
                with self.speaking(reader.language, table):
                    public[code] = _written(self._public(table, events, again))
            reader.send_text(_with_reader(public[code], frames.reader_part(table, reader.user_id)))
        if public and table.is_open and table.guild_id != LOCAL_SERVER:
            self._shown_in[table.id] = table.channel_id

    def _keep_finished(self, table: TableSnapshot, events: Sequence[Event]) -> None:
        """Keep ``table``, closed by an action that caused ``events``, as the last one of
        its channel (and its game's end), within :data:`KEEP_FINISHED`."""
        self._let_go(table.channel_id)
        self._finished[table.channel_id] = table
        over = next((event for event in events if isinstance(event, GameOver)), None)
        if over is not None:
            self._endings[table.id] = Ending(over)
        while len(self._finished) > KEEP_FINISHED:
            self._let_go(next(iter(self._finished)))

    async def take_up(self) -> None:
        """Once the service has resumed after a start, take up the tables closed last,
        as they ended: a page that comes back to a table that finished just before a
        stop (or an Activity opened in its channel) is shown its end, not told it is
        closed. Pages are greeted only after this (:meth:`taken_up`). The coach's
        accuracies come with its next analysis only."""
        try:
            await self.service.resumed()
            ends = await self.service.recent_ends(KEEP_FINISHED)
            heard = set(self._finished)  # closed since the start: newer than the store's
            for table, events in ends:  # oldest first: a channel keeps its last
                if table.channel_id not in heard:
                    self._keep_finished(table, events)
        finally:
            self._taken_up.set()

    async def taken_up(self) -> None:
        """Until :meth:`take_up` is done (a page asked earlier would be told of no
        table that closed before the start)."""
        await self._taken_up.wait()

    def _let_go(self, channel: int) -> None:
        """Forget the table that finished in ``channel`` (a newer one is kept)."""
        gone = self._finished.pop(channel, None)
        if gone is not None:
            self._endings.pop(gone.id, None)

    async def analysed(self, game: FinishedGame, analysis: Analysis, again: bool) -> None:
        """The coach's analysis of a game whose table is kept: its summary, with each
        member's accuracy, to the pages that show it (and to any that opens it later).
        A table no longer kept is not shown, so there is nothing to tell; nor is one
        whose rematch has opened in its channel, which its pages now show."""
        ending = self._endings.get(game.table_id)
        table = None if game.channel_id is None else self._finished.get(game.channel_id)
        if ending is None or table is None or table.id != game.table_id:
            return
        ending.accuracy = analysis.accuracies()
        if self.service.in_channel(table.channel_id) is not None:
            return  # its rematch is open there: its pages show that now, not this again
        self._send(table, (), self._following.get(table.channel_id, ()))

    def opened(self, table: TableSnapshot) -> None:
        """A local table was opened (the service tells its listeners of actions, not of
        openings): its followers and the lobby list are shown it. The table that finished
        in its channel is kept while this one plays it again: another of its members may
        be asking for the rematch at the same moment, by that table (which seats them at
        this one)."""
        kept = self._finished.get(table.channel_id)
        if kept is None or table.rematch_of != kept.game_id:
            self._let_go(table.channel_id)
        for reader in self._following.get(table.channel_id, ()):
            self.show(reader, table)
        if table.guild_id == LOCAL_SERVER:
            self.lobby_changed()

    def lobby_changed(self) -> None:
        """The open tables changed: their list goes to the pages that follow it, at most
        every :data:`LOBBY_EVERY` seconds (a busy server changes it many times a second;
        each page needs only the newest)."""
        if self._lobby_due is None:
            self._lobby_due = asyncio.get_running_loop().call_later(LOBBY_EVERY, self._send_lobbies)

    async def close(self) -> None:
        """Close every page's socket: the pages reconnect when the bot is back."""
        if self._lobby_due is not None:
            self._lobby_due.cancel()
        for reader in list(self.readers):
            with contextlib.suppress(ConnectionError, RuntimeError):
                await reader.socket.close()
            await self.remove(reader)


def _written(frame: dict[str, Any]) -> str:
    return orjson.dumps(frame).decode()


def _with_reader(public: str, reader: dict[str, Any]) -> str:
    """One page's frame: the public part, written once for every page of its language,
    and the page's own part (its seat, controls and hand) added to the same object."""
    return public[:-1] + "," + orjson.dumps(reader).decode()[1:]


_LISTED = frozenset({"joined", "left", "started", "cancelled"})
"""Events that change what the lobby list shows of a table."""
