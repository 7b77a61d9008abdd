"""The table service the cogs call: seats, turns, timers and persistence; no Discord.

Every action is a typed command (``bot.commands``) and goes through
:meth:`TableService.act`, which takes the table's lock (and, for a join, the server's),
checks the version the user's controls were drawn for and the rules of tables, applies
the command to a copy of the table, writes the copy and the action to the store in one
transaction (compare-and-swap on the version), and only then makes the copy the live
table and announces the events. A refused or failed action leaves the live table
exactly as stored; a crash after the write loses nothing; a crash before it loses only
the click that was never confirmed.

Timers are stored deadlines, not sleeping tasks: one clock task wakes at the earliest
deadline, and :meth:`TableService.run_due` plays what is due (a computer seat's move, or
a member's turn that timed out). After a restart the deadlines are read back and the
clock carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.commands import (
    AddComputer,
    ComeBack,
    Command,
    ComputerMove,
    Forget,
    Join,
    MoveToThread,
    ReleaseSeats,
    Timeout,
)
from bot.engine import EngineError, Move, Options, Reason, find_variant
from bot.events import Event, GameOver, Moved, Reminder
from bot.events import from_dict as events_from_dict
from bot.events import to_dict as events_to_dict
from bot.open_tables import OpenTables
from bot.players import computer_player
from bot.refusals import (
    ChannelTaken,
    LobbyClosed,
    NotInThatGame,
    NotSaved,
    OptionsRefused,
    OutOfRange,
    RematchElsewhere,
    SeatedElsewhere,
    StaleVersion,
    StillSeated,
    TableClosed,
    TableError,
    UnknownLanguage,
)
from bot.snapshot import TableSnapshot
from bot.standings import finished_game
from bot.table import Status, Table, game_id, lineup_keys
from data.models import FinishedGame as FinishedGame
from data.models import Forgotten as Forgotten
from data.models import GuildSettings as GuildSettings  # part of this service's API
from data.models import LeaderboardEntry as LeaderboardEntry
from data.models import Participant as Participant
from data.models import RoundResult, TableRow
from data.models import Stats as Stats
from data.models import Stored as Stored
from data.repository import ChannelInUse, Repository, StoreError, VersionConflict

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "easy"
"""Plays when a computer player fails: any legal move keeps the table going."""
TURN_TIMER_RANGE = (20, 3600)
"""Seconds a member may take for a move (a server setting)."""
REMIND_AT = 0.25
"""The share of a member's turn left when they are reminded it is theirs."""
KEEP_SEATS_SECONDS = 300.0
"""How long a rematch's lobby keeps the seats of the game's other members for them."""
RETRY_LONGEST = 300.0
"""The longest wait between tries of a computer move whose write keeps failing."""


@dataclass(frozen=True, slots=True)
class Resumed:
    """What the listeners are told came ``via`` when a restarted service hands back an
    action a channel has not been shown (its ``version``): the bot may have stopped
    just after a post and before noting it, so the channel may show it already."""

    version: int


class Listener(Protocol):
    """What hears of every stored action (the Discord face's announcer)."""

    def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
        """``table`` as stored after the action, with what it caused (none: show the
        table as it stands). Called under the table's lock, in the order the actions
        were stored, so it must not wait for anything: it queues. ``via`` is whatever
        the caller of :meth:`TableService.act` gave (the Discord face passes the
        interaction, to answer through it); the service never looks at it."""

    async def close(self) -> None:
        """The service is stopping: finish or drop what is under way."""


@dataclass(frozen=True, slots=True)
class NewTable:
    """What ``/domino new`` asks for; the options are checked by the engine."""

    guild_id: int
    channel_id: int
    host_id: int
    host_name: str
    game: str
    target: int | None = None
    keep_last_two: bool | None = None
    match_games: int | None = None
    hints: bool = False
    """Members may ask for a hint; the game is then not rated."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """A new table that plays a finished game again (see :meth:`TableService.rematch`)."""

    game_id: str
    invited: tuple[int, ...]
    series: tuple[int, ...]
    lineup: tuple[str, ...]


class TableService:
    """Owns every open table in memory, backed by the store."""

    def __init__(
        self,
        store: Repository,
        *,
        computer_pace: float = 1.5,
        keep_closed: float = 24 * 3600.0,
        clock: Callable[[], float] = time.time,
        languages: Sequence[str] = ("en-US",),
    ) -> None:
        self.store = store
        self.languages = tuple(languages)
        """The languages a server may choose for its tables (the Discord face's codes)."""
        self.computer_pace = computer_pace
        self.keep_closed = keep_closed
        """Seconds a finished or cancelled table's state and action log are kept (its game
        is recorded apart, for good)."""
        self._pruning: asyncio.Task[None] | None = None
        self.clock = clock
        self.tables = OpenTables()
        self._locks: dict[str, asyncio.Lock] = {}
        self._guild_locks: dict[int, asyncio.Lock] = {}
        self._rematches: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        """A lock per finished game being played again, while someone holds it."""
        self._failures: dict[str, int] = {}
        self._snapshots: dict[str, tuple[Table, TableSnapshot]] = {}
        """Computer moves whose write failed in a row, per table (for the back-off)."""
        self._listeners: list[Listener] = []
        self._settings: dict[int, GuildSettings] = {}
        self._wake = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None
        self._closing = False
        self._running: set[asyncio.Task[None]] = set()

    # -- lifecycle ------------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Tell ``listener`` of every stored action from now on (a face: any number)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop telling ``listener`` (a face unloaded: a cog's reload must not leave its
        old listener posting beside the new one)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def resume(self, owns: Callable[[int], bool] = lambda guild_id: True) -> int:
        """Load every table that is not finished (of the servers this process ``owns``:
        its shards'), tell the listeners what each channel has not been shown yet
        (stored, but not announced before a crash or a failed post), and start the
        clock. Returns how many tables."""
        for row in await self.store.load_active_tables():
            if not owns(row.guild_id):
                continue
            try:
                table = _from_row(row)
            except (EngineError, KeyError, TypeError, ValueError) as error:
                await self._set_aside(row, error)
                continue
            timer = None
            if table.status is Status.PLAYING and not table.computer_to_move:
                # The member's turn starts again now: the time the bot was down is not
                # theirs to lose.
                timer = (await self.settings(table.guild_id)).turn_timer_seconds
                table.deadline = self.clock() + timer
            self.tables.put(table)
            if timer is not None:
                self._schedule_reminder(table, timer)
            for version, events in await self._unannounced(table):
                self._tell(table, events, Resumed(version))
        self._clock_task = asyncio.create_task(self._run_clock(), name="domino-clock")
        await self._prune_once()
        self._pruning = asyncio.create_task(self._prune(), name="domino-prune")
        self._wake.set()
        log.info("resumed %d open tables", len(self.tables))
        return len(self.tables)

    async def _unannounced(self, table: Table) -> list[tuple[int, list[Event]]]:
        """The stored actions its channel has not been shown, each as its version (one
        more than the action before's) and its events (an audit line written before
        events were stored whole has none: the table is still shown as it stands)."""
        if table.announced_version >= table.version:
            return []
        unshown = []
        actions = await self.store.actions_since(table.id, table.announced_version)
        for version, action in enumerate(actions, start=table.announced_version + 1):
            events: list[Event] = []
            for data in action.get("events", ()):
                with contextlib.suppress(KeyError, TypeError, ValueError, EngineError):
                    events.append(events_from_dict(data))
            unshown.append((version, events))
        return unshown

    async def _set_aside(self, row: TableRow, error: Exception) -> None:
        """A stored table that cannot be read back (written by a release that refereed a
        rule wrongly, say, so its record no longer replays) is closed in the store, so
        its channel is free again; the error is logged, the row and its actions kept."""
        log.error("table %s cannot be read back (%s): closed", row.id, error)
        await self.store.close_unreadable(row.id, row.version, f"{type(error).__name__}: {error}")

    async def close(self) -> None:
        """Stop the clock, then the computer moves under way (they are not stored yet,
        so they simply did not happen), then the listeners (what they have not posted
        is handed back to them at the next start)."""
        self._closing = True
        self._wake.set()
        if self._clock_task is not None:
            # Woken rather than cancelled: on Python 3.11 a cancel that meets a wake-up
            # can be swallowed, and the clock would sleep on until its next deadline.
            await self._clock_task
        if self._pruning is not None:
            self._pruning.cancel()
            await asyncio.gather(self._pruning, return_exceptions=True)
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)
        for listener in self._listeners:
            await listener.close()

    # -- finding tables -------------------------------------------------------------------

    def snapshot(self, table_id: str) -> TableSnapshot:
        """The open table ``table_id`` as stored now (TableClosed if it is not open)."""
        return self._snapshot(self.get(table_id))

    def find(self, table_id: str) -> TableSnapshot | None:
        """The open table ``table_id`` as stored now, or None if it is not open."""
        table = self.tables.get(table_id)
        return self._snapshot(table) if table is not None else None

    def in_channel(self, channel_id: int) -> TableSnapshot | None:
        table = self.tables.in_channel(channel_id)
        return self._snapshot(table) if table is not None else None

    def of_user(self, guild_id: int, user_id: int) -> TableSnapshot | None:
        """The open table where the member sits in this server, if any."""
        table = self.tables.of_member(guild_id, user_id)
        return self._snapshot(table) if table is not None else None

    def _snapshot(self, table: Table) -> TableSnapshot:
        """Snapshots of the live tables, made once per stored state: a live table is
        replaced whole, never changed, so its snapshot stays true while it is live."""
        cached = self._snapshots.get(table.id)
        if cached is not None and cached[0] is table:
            return cached[1]
        snapshot = TableSnapshot.of(table)
        self._snapshots[table.id] = (table, snapshot)
        return snapshot

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableClosed()
        return table

    async def settings(self, guild_id: int) -> GuildSettings:
        cached = self._settings.get(guild_id)
        if cached is None:
            try:
                cached = await self.store.get_guild_settings(guild_id)
            except StoreError as error:
                raise NotSaved(error.fault) from error
            self._settings[guild_id] = cached
        return cached

    async def change_settings(
        self,
        guild_id: int,
        *,
        turn_timer: int | None = None,
        game: str | None = None,
        target: int | None = None,
        threads: bool | None = None,
        language: str | None = None,
    ) -> GuildSettings:
        """Check and store new server settings; a refusal or a failed write keeps the
        old ones. A default target is checked by the game's own rules; a language must
        be one of :attr:`languages`."""
        low, high = TURN_TIMER_RANGE
        if turn_timer is not None and not (
            isinstance(turn_timer, int) and not isinstance(turn_timer, bool)
            and low <= turn_timer <= high
        ):  # fmt: skip
            raise OutOfRange("turn_timer", low, high, turn_timer)
        if language is not None and language not in self.languages:
            raise UnknownLanguage(self.languages)
        async with self._guild_lock(guild_id):
            current = await self.settings(guild_id)
            targets = dict(current.default_targets)
            if game is not None and target is not None:
                try:
                    variant = find_variant(game)
                    Options.for_game(variant, max(variant.player_counts), target=target)
                except EngineError as error:
                    raise OptionsRefused(error) from None
                targets[variant.game] = target
            updated = replace(
                current,
                turn_timer_seconds=current.turn_timer_seconds if turn_timer is None else turn_timer,
                default_targets=targets,
                use_threads=current.use_threads if threads is None else threads,
                language=current.language if language is None else language,
            )
            try:
                await self.store.set_guild_settings(updated)
            except StoreError as error:
                raise NotSaved(error.fault) from error
            self._settings[guild_id] = updated
            return updated

    # -- opening a table --------------------------------------------------------------------

    async def open_table(
        self,
        request: NewTable,
        *,
        computers: Sequence[str] = (),
        rematch: Rematch | None = None,
    ) -> TableSnapshot:
        """A new lobby with the host seated; refused if the channel already has a table or
        the host sits at another table in this server, or if the options are not allowed.
        Checked and stored under the server's lock, so two requests at the same moment
        cannot both pass the checks; the store's unique index backs the channel rule."""
        try:
            variant = find_variant(request.game)
        except EngineError as error:
            raise OptionsRefused(error) from None
        async with self._guild_lock(request.guild_id):
            if self.tables.in_channel(request.channel_id) is not None:
                raise ChannelTaken()
            busy = self.tables.of_member(request.guild_id, request.host_id)
            if busy is not None:
                raise SeatedElsewhere(busy.channel_id)
            settings = await self.settings(request.guild_id)
            target = request.target
            if target is None:
                target = settings.default_targets.get(variant.game)
            try:
                options = Options.for_game(
                    variant,
                    max(variant.player_counts),
                    target=target,
                    keep_last_two=request.keep_last_two,
                    match_games=request.match_games,
                )
            except EngineError as error:
                raise OptionsRefused(error) from None
            table = Table(
                id=secrets.token_hex(4),
                guild_id=request.guild_id,
                channel_id=request.channel_id,
                host_id=request.host_id,
                game=variant.game,
                options=options,
                seed=secrets.randbits(48),
                hints=request.hints is True,
            )
            if rematch is not None:
                table = replace(
                    table,
                    rematch_of=rematch.game_id,
                    invited=rematch.invited,
                    series=rematch.series,
                    lineup=rematch.lineup,
                    deadline=self.clock() + KEEP_SEATS_SECONDS if rematch.invited else None,
                )
            table.apply(Join(request.host_id, request.host_name))
            for level in computers:
                table.apply(AddComputer(request.host_id, level))
            try:
                await self.store.create_table(self._row(table))
            except ChannelInUse:
                raise ChannelTaken() from None
            except StoreError as error:
                raise NotSaved(error.fault) from error
            self.tables.put(table)
            return self._snapshot(table)

    # -- again, with the same seats ------------------------------------------------------------

    async def rematch(
        self, game_id: str, guild_id: int, channel_id: int, user_id: int, name: str
    ) -> tuple[TableSnapshot, bool]:
        """Play a finished game again: same game, options and seats. The first of its
        members to ask opens the table in this channel, with the computers seated again
        and the other members' seats kept for them; each of them confirms by asking too
        (which seats them). The table shows the series between these seats so far.
        Returns the table, and whether this call opened it (its lobby is to be posted).

        Only in the game's own channel; and one call at a time per game, so two members
        asking at the same moment are one opening and one confirming."""
        game = await finished_game(self.store, game_id, guild_id)
        members = [p.user_id for p in game.participants if p.user_id is not None]
        if user_id not in members:
            raise NotInThatGame()
        if game.channel_id is not None and game.channel_id != channel_id:
            raise RematchElsewhere(game.channel_id)
        lock = self._rematches.get(game_id)
        if lock is None:
            lock = self._rematches[game_id] = asyncio.Lock()
        async with lock:
            here = self.tables.in_channel(channel_id)
            if here is not None and here.rematch_of == game_id:
                await self.act(here.id, Join(user_id, name))
                return self.snapshot(here.id), False
            return await self._open_rematch(game, channel_id, user_id, name, members), True

    async def _open_rematch(
        self, game: FinishedGame, channel_id: int, user_id: int, name: str, members: list[int]
    ) -> TableSnapshot:
        """Open a lobby that plays ``game`` again (see :meth:`rematch`)."""
        guild_id = game.guild_id
        seats = sorted(game.participants, key=lambda p: p.seat)
        try:
            series = await self.store.series(
                guild_id, game.game, [(p.user_id, p.computer_level) for p in seats]
            )
        except StoreError as error:
            raise NotSaved(error.fault, "read") from error
        options = game.record.get("options", {})
        request = NewTable(
            guild_id,
            channel_id,
            user_id,
            name,
            game.game,
            target=options.get("target"),
            keep_last_two=options.get("keep_last_two") or None,
            match_games=options.get("match_games"),
            hints=not game.rated,
        )
        again = Rematch(
            game.id,
            invited=tuple(member for member in members if member != user_id),
            series=tuple(series),
            lineup=tuple(lineup_keys(p.user_id for p in seats)),
        )
        levels = [p.computer_level or "normal" for p in seats if p.user_id is None]
        return await self.open_table(request, computers=levels, rematch=again)

    # -- privacy ---------------------------------------------------------------------------------

    async def stored_about(self, user_id: int) -> Stored:
        try:
            return await self.store.stored_about(user_id)
        except StoreError as error:
            raise NotSaved(error.fault, "read") from error

    async def forget(self, user_id: int) -> Forgotten:
        """Delete what is stored about a member (see ``Repository.forget``); refused while
        they sit at an open table, whose state holds their seat."""
        seated = self.tables.of_user(user_id)
        if seated is not None:
            raise StillSeated(seated.channel_id)
        for table in list(self.tables.values()):  # a rematch's lobby that keeps them a seat
            if user_id in table.invited or lineup_keys([user_id])[0] in table.lineup:
                with contextlib.suppress(TableClosed, LobbyClosed):
                    await self.act(table.id, Forget(user_id))
        try:
            return await self.store.forget(user_id)
        except StoreError as error:
            raise NotSaved(error.fault, "forget") from error

    # -- the one way to change a table ----------------------------------------------------

    async def act(
        self,
        table_id: str,
        command: Command,
        *,
        seen_version: int | None = None,
        via: object | None = None,
    ) -> list[Event]:
        """Carry out ``command`` under the table's lock, store it, then tell the
        listeners (``via``: passed on to them, see :class:`Listener`).

        A :class:`Join` also holds the server's lock, so "one seat per member in a
        server" is checked against every table of the server with none changing
        meanwhile. Locks are always taken server first, then table."""
        guild_id = self.get(table_id).guild_id
        async with (
            self._guild_lock(guild_id) if isinstance(command, Join) else contextlib.nullcontext(),
            self._lock(table_id),
        ):
            table = self.get(table_id)  # it may have closed while we waited
            if seen_version is not None:
                table.check_version(seen_version)
            if isinstance(command, Join):
                busy = self.tables.of_member(guild_id, command.user_id)
                if busy is not None and busy.id != table.id:
                    raise SeatedElsewhere(busy.channel_id)
            table, events = await self._apply(table, command)
            self._tell(table, events, via)
            return events

    def _lock(self, table_id: str) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    @asynccontextmanager
    async def _guild_lock(self, guild_id: int) -> AsyncIterator[None]:
        async with self._guild_locks.setdefault(guild_id, asyncio.Lock()):
            yield

    async def _reload(self, table_id: str) -> None:
        """The store holds a newer version than memory (a write that committed although
        its caller was cancelled, or another process): the store is the truth."""
        row = await self.store.get_table(table_id)
        if row is None or row.status not in (Status.LOBBY, Status.PLAYING):
            self._drop(table_id)
        else:
            self.tables.put(_from_row(row))

    async def _apply(self, live: Table, command: Command) -> tuple[Table, list[Event]]:
        """Apply on a copy, store the copy, then make it the live table: until the store
        has it, the live table stays exactly as stored."""
        table = live.copy()
        events = table.apply(command)  # a refusal raises and has changed only the copy
        self._set_deadline(table, await self.settings(table.guild_id))
        ended = any(isinstance(event, GameOver) for event in events)
        try:
            await self.store.save_action(
                self._row(table),
                live.version,
                self._action_record(command, events),
                finished=self._finished_game(table) if ended else None,
            )
        except VersionConflict:
            await self._reload(live.id)
            raise StaleVersion() from None
        except StoreError as error:
            raise NotSaved(error.fault, command.kind) from error
        if table.is_open:
            self.tables.put(table)
            if table.status is Status.PLAYING and not table.computer_to_move:
                settings = await self.settings(table.guild_id)
                self._schedule_reminder(table, settings.turn_timer_seconds)
        else:  # finished or cancelled, and stored so: nothing more to do
            self._drop(table.id)
        self._wake.set()
        return table, events

    def _drop(self, table_id: str) -> None:
        """Let a closed table go, with its lock: a task still waiting on the lock finds
        the table gone and is told it is closed."""
        self.tables.drop(table_id)
        self._locks.pop(table_id, None)
        self._snapshots.pop(table_id, None)
        self._failures.pop(table_id, None)

    def _tell(self, table: Table, events: Sequence[Event], via: object | None) -> None:
        snapshot = self._snapshot(table) if table.is_open else TableSnapshot.of(table)
        for listener in self._listeners:
            try:
                listener.stored(snapshot, events, via)
            except Exception:  # the action stands; a listener reports its own trouble
                log.exception("telling %r about table %s failed", listener, table.id)

    def _schedule_reminder(self, table: Table, timer: float) -> None:
        """Remind the member to move when a quarter of their ``timer`` is left."""
        assert table.deadline is not None
        self.tables.schedule(table, table.deadline - timer * REMIND_AT, reminder=True)

    def _set_deadline(self, table: Table, settings: GuildSettings) -> None:
        if table.status is Status.LOBBY and table.invited:
            return  # the seats kept for a rematch's members until their time runs out
        if table.status is not Status.PLAYING:
            table.deadline = None
        elif table.computer_to_move:
            table.deadline = self.clock() + self.computer_pace
        else:
            table.deadline = self.clock() + settings.turn_timer_seconds

    async def remember_message(self, table_id: str, message_id: int | None, version: int) -> None:
        """The channel now shows ``version`` of the table, in message ``message_id`` (the
        lobby, then the latest table message, whose buttons the next one strips; None:
        the same message as before). Stored, so that after a restart only what it has
        not shown is announced; a store fault only means it is shown again later."""
        async with self._lock(table_id):
            live = self.tables.get(table_id)
            if live is None or version < live.announced_version:
                return
            shown = message_id if message_id is not None else live.message_id
            self.tables.put(replace(live, message_id=shown, announced_version=version))
            try:
                await self.store.set_announced(table_id, message_id, version)
            except StoreError as error:
                log.warning("table %s: could not store what its channel shows (%s)",
                            table_id, error.fault)  # fmt: skip

    async def move_to_channel(self, table_id: str, channel_id: int) -> None:
        await self.act(table_id, MoveToThread(channel_id))

    async def come_back(self, table_id: str, user_id: int) -> None:
        await self.act(table_id, ComeBack(user_id))

    async def repost(self, table_id: str, via: object | None = None) -> None:
        """Show the table again as it stands (``/domino status``)."""
        async with self._lock(table_id):
            self._tell(self.get(table_id), [], via)

    async def _prune(self) -> None:
        """Now and then (at start, then every quarter of :attr:`keep_closed`, at most an
        hour apart), delete closed tables older than :attr:`keep_closed`."""
        while not self._closing:
            await asyncio.sleep(min(self.keep_closed / 4, 3600.0) or 60.0)
            await self._prune_once()

    async def _prune_once(self) -> None:
        try:
            pruned = await self.store.prune_closed(self.clock() - self.keep_closed)
        except StoreError as error:
            log.warning("could not prune closed tables (%s)", error.fault)
            return
        if pruned:
            log.info("pruned %d closed tables", pruned)

    # -- the clock --------------------------------------------------------------------------

    async def _run_clock(self) -> None:
        while not self._closing:
            self._wake.clear()
            self.run_due()
            wake = self.tables.next_wake()
            timeout = None if wake is None else max(0.0, wake - self.clock())
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._wake.wait()

    def run_due(self) -> list[asyncio.Task[None]]:
        """Start a task for each table whose deadline has passed (computer moves and
        turn timeouts), so tables never wait for one another; returns the tasks."""
        started = []
        for table_id, version, reminder in self.tables.due(self.clock()):
            if reminder:
                self._remind(table_id)
                continue
            task = asyncio.create_task(self._expire(table_id, version))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
            started.append(task)
        return started

    def _remind(self, table_id: str) -> None:
        """A quarter of a member's time is left: the listeners remind them (once; the
        reminder changes nothing, so it is not stored)."""
        table = self.tables.get(table_id)
        if table is None or table.deadline is None or table.computer_to_move:
            return
        self._tell(table, [Reminder(table.seat_to_move(), table.deadline)], None)

    async def _expire(self, table_id: str, version: int) -> None:
        """Play the computer's move for the seat to move, or free the seats a rematch's
        lobby kept, if nobody acted meanwhile."""
        table = self.tables.get(table_id)
        if table is None or table.version != version:
            return
        if table.status is Status.LOBBY and table.invited:
            with contextlib.suppress(TableError):
                await self.act(table_id, ReleaseSeats(), seen_version=version)
            return
        if table.status is not Status.PLAYING:
            return
        seat = table.seat_to_move()
        computer = table.seats[seat].played_by_computer
        assert table.match is not None
        view = table.match.seat_view(seat)
        seed = table.seed + version
        level = table.computer_level()
        try:
            try:
                move: Move = await asyncio.to_thread(computer_player(level, seed=seed).choose, view)
            except Exception:  # a player's bug must not stop the table: a legal move instead
                log.exception("the %s player failed at table %s", level, table_id)
                move = computer_player(FALLBACK_LEVEL, seed=seed).choose(view)
            command = ComputerMove(move) if computer else Timeout(move)
            await self.act(table_id, command, seen_version=version)
        except NotSaved as error:
            self._retry_later(table_id, version, f"the store refused it ({error.fault})")
        except TableError as error:  # someone acted first: nothing to do
            log.debug("computer move at %s skipped: %s", table_id, error)
        except Exception:
            log.exception("computer move at table %s failed", table_id)
            self._retry_later(table_id, version, "it failed")
        else:
            self._failures.pop(table_id, None)

    def _retry_later(self, table_id: str, version: int, why: str) -> None:
        """Try a failed computer move again, waiting twice as long each time (up to
        :data:`RETRY_LONGEST`), so a store that keeps failing is not hammered nor the log
        flooded: the first failure in a row is an error, the rest are warnings."""
        failures = self._failures[table_id] = self._failures.get(table_id, 0) + 1
        delay = min(max(self.computer_pace, 1.0) * 2 ** (failures - 1), RETRY_LONGEST)
        level = logging.ERROR if failures == 1 else logging.WARNING
        log.log(level, "computer move at table %s: %s; trying again in %.0f s (failure %d)",
                table_id, why, delay, failures)  # fmt: skip
        live = self.tables.get(table_id)
        if live is not None and live.version == version:
            self.tables.schedule(live, self.clock() + delay)
            self._wake.set()

    # -- stored forms -------------------------------------------------------------------------

    def _row(self, table: Table) -> TableRow:
        now = self.clock()
        return TableRow(
            id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=table.host_id,
            game=table.game,
            status=table.status.value,
            version=table.version,
            state=table.to_dict(),
            record=table.match.record() if table.match else {},
            deadline=table.deadline,
            message_id=table.message_id,
            announced_version=table.announced_version,
            created_at=now,
            updated_at=now,
        )

    @staticmethod
    def _action_record(command: Command, events: list[Event]) -> dict[str, Any]:
        """The audit log's line: the command by name, what it caused, the moves made."""
        return {
            "kind": command.kind,
            "events": [events_to_dict(e) for e in events],
            "moves": [[e.seat, e.move.text] for e in events if isinstance(e, Moved)],
        }

    def _finished_game(self, table: Table) -> FinishedGame:
        match = table.match
        assert match is not None
        outcome = match.outcome()
        assert outcome is not None
        variant = find_variant(table.game)
        rounds = [
            RoundResult(
                number=index + 1,
                reason=r.reason.value,
                winner=r.winner,
                points=list(r.points),
            )
            for index, r in enumerate(match.rounds)
        ]
        participants = []
        for seat, chair in enumerate(table.seats):
            side = variant.side_of(seat)
            won_rounds = [r for r in match.rounds if r.winner == side]
            participants.append(
                Participant(
                    user_id=chair.user_id,
                    computer_level=chair.level,
                    name=chair.name,
                    seat=seat,
                    team=side,
                    final_score=outcome.scores[side],
                    won=outcome.winner == side,
                    rounds_won=len(won_rounds),
                    points=sum(r.points[side] for r in match.rounds),
                    dominoes=sum(1 for r in won_rounds if r.reason is Reason.DOMINO),
                    blocked_wins=sum(1 for r in won_rounds if r.reason is Reason.BLOCKED),
                )
            )
        return FinishedGame(
            id=game_id(table.id, table.version),
            table_id=table.id,
            guild_id=table.guild_id,
            game=table.game,
            finished_at=self.clock(),
            record=match.record(),
            rounds=rounds,
            participants=participants,
            rated=not table.hints,
            channel_id=table.channel_id,
        )


def _from_row(row: TableRow) -> Table:
    """The table a row stores; what its channel shows is stored apart (it changes
    without an action)."""
    shown = row.version if row.announced_version is None else row.announced_version
    return replace(Table.from_dict(row.state), message_id=row.message_id, announced_version=shown)
