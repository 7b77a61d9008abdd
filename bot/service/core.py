"""The table service every face calls: the one way to change a table, and its parts.

Every action is a typed command (``bot.commands``) and goes through
:meth:`TableService.act`, which takes the table's lock (and, for a join, the server's),
checks the version the user's controls were drawn for and the rules of tables, applies
the command to a copy of the table, writes the copy and the action to the store in one
transaction (compare-and-swap on the version), and only then makes the copy the live
table and tells every face (:class:`Listener`). A refused or failed action leaves the
live table exactly as stored; a crash after the write loses nothing; a crash before it
loses only the click that was never confirmed.

The parts, each a module of its own: the clock and computer seats (``clock``), rematches
and their series (``rematches``), privacy (``privacy``), server settings (``settings``),
the table's stored forms (``rows``), and writes whose answer was lost (``settling``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace

from bot.commands import AddComputer, Cancel, ComeBack, Command, Join, MoveToThread
from bot.engine import EngineError, Options, find_variant
from bot.events import Event, GameOver
from bot.refusals import (
    ChannelTaken,
    NotSaved,
    OptionsRefused,
    SeatedElsewhere,
    StaleVersion,
    TableClosed,
)
from bot.service.clock import Clockwork
from bot.service.commitments import Commitment
from bot.service.faces import Listener, Resumed, Shown
from bot.service.open_tables import OpenTables
from bot.service.privacy import Privacy
from bot.service.rematches import KEEP_SEATS_SECONDS, Rematch, Rematches
from bot.service.requests import NewTable, TournamentSeats
from bot.service.rows import (
    UNREADABLE,
    action_record,
    events_of,
    finished_game,
    row_of,
    shown_of,
    table_of,
)
from bot.service.settings import ServerSettings
from bot.service.settling import UNANSWERED, Settling
from bot.snapshot import TableSnapshot
from bot.table import Status, Table, lineup_keys
from data.models import TableRow
from data.repository import ChannelInUse, Repository, StoreError, VersionConflict

log = logging.getLogger(__name__)


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
        self.keep_closed = keep_closed
        """Seconds a finished or cancelled table's state and action log are kept (its game
        is recorded apart, for good)."""
        self.clock = clock
        self.tables = OpenTables()
        self._locks: dict[str, asyncio.Lock] = {}
        self._guild_locks: dict[int, asyncio.Lock] = {}
        self._snapshots: dict[str, tuple[Table, TableSnapshot]] = {}
        self._listeners: list[Listener] = []
        self._commitments: list[Commitment] = []
        self._shown: dict[str, dict[str, Shown]] = {}
        """Table id → face → what the face has shown of it (see :meth:`shown`): every
        open table's, and a closed one's while it waits in :attr:`_ends`."""
        self._ends: dict[str, tuple[int, float, int]] = {}
        """Closed table id → (its last version, when it closed, its server), while a face
        that catches up and shows it has not noted showing that version (the game-over
        card, the closing notice): what the face notes is still kept, and stored, so that
        after a restart the end is handed back only if it was never shown."""
        self._pruning: asyncio.Task[None] | None = None
        self._closing = False
        self._resumed = asyncio.Event()
        self.servers = ServerSettings(store, languages, self.guild_lock)
        self.clockwork = Clockwork(self, computer_pace)
        self.rematches = Rematches(self)
        self.settling = Settling(self)
        self.privacy = Privacy(self)
        # What the faces call, as the parts answer it (see each part).
        self.settings = self.servers.of
        self.change_settings = self.servers.change
        self.rematch = self.rematches.ask
        self.stored_about = self.privacy.stored_about
        self.forget = self.privacy.forget
        self.run_due = self.clockwork.run_due

    # -- the parts, as the faces ask for them -------------------------------------------

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages a server may choose for its tables."""
        return self.servers.languages

    # -- lifecycle ------------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Tell ``listener`` of every stored action from now on (a face: any number)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop telling ``listener`` (a face unloaded: a cog's reload must not leave its
        old listener posting beside the new one)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def add_commitment(self, commitment: Commitment) -> None:
        """Ask ``commitment`` before seating a member at any table but a tournament's
        (the tournament service: its players' seats are its round tables)."""
        self._commitments.append(commitment)

    def remove_commitment(self, commitment: Commitment) -> None:
        if commitment in self._commitments:
            self._commitments.remove(commitment)

    def _check_uncommitted(self, guild_id: int, user_id: int) -> None:
        """Refuse a casual seat to a member something holds to seats of its own in this
        server (a tournament they play in): it raises the holder's refusal."""
        for commitment in self._commitments:
            refusal = commitment.holds(guild_id, user_id)
            if refusal is not None:
                raise refusal

    async def resume(self, owns: Callable[[int], bool] = lambda guild_id: True) -> int:
        """Load every table that is not finished (of the servers this process ``owns``:
        its shards'), tell each listener what its face has not been shown yet (stored,
        but not announced before a crash or a failed post), and start the clock.
        Returns how many tables."""
        loaded: list[Table] = []
        for row in await self.store.load_active_tables():
            if not owns(row.guild_id):
                continue
            try:
                table = table_of(row)
            except UNREADABLE as error:
                await self._set_aside(row, error)
                continue
            self._shown[table.id] = shown_of(row)
            loaded.append(table)

        # A lobby no face has shown is taken up last: one kept though its opening was
        # not answered may seat a member who sat down elsewhere meanwhile.
        def unseen(table: Table) -> bool:
            return table.status is Status.LOBBY and not self._shown[table.id]

        loaded.sort(key=unseen)
        for table in loaded:
            if unseen(table) and self._seated_elsewhere(table):
                await self._close_unseen(table)
                continue
            timer = None
            if table.status is Status.PLAYING and not table.computer_to_move:
                timer = (await self.servers.of(table.guild_id)).turn_timer_seconds
                self.clockwork.restart_turn(table, timer)
            elif table.status is Status.LOBBY and table.deadline is None and not table.invited:
                # A lobby an earlier release stored with no deadline: its idle time
                # starts now, so it is not left open for good (it is stored at its next
                # action, or as it closes).
                table.deadline = self.clockwork.lobby_deadline(table)
            self.tables.put(table)
            if timer is not None:
                self.clockwork.schedule_reminder(table, timer)
            await self._hand_back(table)
        await self._hand_back_ends(owns)
        self.clockwork.start()
        await self._prune_once()
        self._pruning = asyncio.create_task(self._prune(), name="domino-prune")
        self.clockwork.wake()
        self._resumed.set()
        log.info("resumed %d open tables", len(self.tables))
        return len(self.tables)

    async def resumed(self) -> None:
        """Until :meth:`resume` has brought the stored tables back. A face that takes
        requests before then (the browser's server listens first, so that a port in use
        is said at once) waits here: asked earlier, the service would call a stored table
        closed, or seat a guest at a second table beside the one it already has."""
        await self._resumed.wait()

    async def _hand_back(self, table: Table) -> None:
        """Tell each listener, in order, the stored actions its face has not been shown,
        each with its version (the last one's is the table's: a table is opened with a
        version no action is logged for) and its events (an audit line written before
        events were stored whole has none: the table is still shown as it stands). A
        face that has shown nothing of it, not even its opening (the bot stopped between
        opening a table and posting its lobby), is first told it as it stands, marked
        with the version it was opened at. The actions are read once, from the oldest
        any face lacks."""
        catching_up = self._catching_up(table.guild_id)
        since = {listener.face: self.shown(listener.face, table.id).version
                 for listener in catching_up}  # fmt: skip
        noted = self._shown.get(table.id, {})
        unseen = any(listener.face not in noted for listener in catching_up)
        oldest = min(since.values(), default=table.version)
        if oldest >= table.version and not unseen:  # (a tournament's table opens at 0)
            return
        snapshot = self._snapshot(table) if table.is_open else TableSnapshot.of(table)
        actions = await self.store.actions_since(table.id, oldest)
        opened = table.version - len(actions)  # when read from the first action
        for listener in catching_up:
            if since[listener.face] == 0:
                self._tell(listener, snapshot, [], Resumed(opened))
        for version, action in enumerate(actions, start=opened + 1):
            events = events_of(action)
            for listener in catching_up:
                if version > since[listener.face]:
                    self._tell(listener, snapshot, events, Resumed(version))

    async def _hand_back_ends(self, owns: Callable[[int], bool]) -> None:
        """Hand back the closed tables whose end a catching-up face has not shown (the
        bot stopped between storing a game's end, or a cancel, and posting it), kept
        until pruned. A table set aside as unreadable was closed without being shown,
        and cannot be shown: it is passed over."""
        faces = sorted({listener.face for listener in self._listeners if listener.catches_up})
        since = self.clock() - self.keep_closed
        for row in await self.store.load_unshown_ends(faces, since):
            if not owns(row.guild_id) or not self._catching_up(row.guild_id):
                continue
            try:
                table = table_of(row)
            except UNREADABLE:
                continue  # logged when it was set aside
            self._shown[table.id] = shown_of(row)
            self._ends[table.id] = (table.version, row.updated_at, table.guild_id)
            await self._hand_back(table)

    async def recent_ends(self, count: int) -> list[tuple[TableSnapshot, list[Event]]]:
        """The ``count`` tables closed last (kept until pruned), oldest first, each as it
        ended and with what its last action caused (its game's end, its cancel): for a
        face that keeps showing the last ones after they close, and takes them up after
        a restart. A table set aside as unreadable is passed over; a store that cannot
        be read gives none (the face shows them closed, as before)."""
        try:
            rows = await self.store.load_recent_ends(count)
            last = await self.store.last_actions([row.id for row in rows])
        except StoreError as error:
            log.warning("the tables closed last could not be read (%s)", error.fault)
            return []
        ends = []
        for row in rows:
            try:
                table = table_of(row)
            except UNREADABLE:
                continue  # logged when it was set aside
            ends.append((TableSnapshot.of(table), events_of(last.get(row.id))))
        return ends

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
        await self.settling.close()
        await self.clockwork.close()
        if self._pruning is not None:
            self._pruning.cancel()
            await asyncio.gather(self._pruning, return_exceptions=True)
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

    def guilds(self) -> set[int]:
        """The servers with an open table (every open table is looked at: asked once a
        start has heard which servers the bot is in)."""
        return {self.tables[table_id].guild_id for table_id in self.tables}

    def in_guild(self, guild_id: int) -> list[TableSnapshot]:
        """The open tables of a server: every open table is looked at, which suits the
        rare moment it is asked (the bot is removed from the server)."""
        return [
            self._snapshot(table)
            for table_id in self.tables
            if (table := self.tables[table_id]).guild_id == guild_id
        ]

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

    # -- opening a table --------------------------------------------------------------------

    async def open_table(
        self,
        request: NewTable,
        *,
        computers: Sequence[str] = (),
        rematch: Rematch | None = None,
        drawn: TournamentSeats | None = None,
    ) -> TableSnapshot:
        """A new lobby with the host seated (a tournament's table, ``drawn``: its seats
        kept for the players drawn to it, its host the organiser, not seated); refused if
        the channel already has a table or the host sits at another table in this server,
        or a commitment holds them (a tournament they play in: :meth:`add_commitment`),
        or if the options are not allowed.
        Checked and stored under the server's lock, so two requests at the same moment
        cannot both pass the checks; the store's unique index backs the channel rule."""
        try:
            variant = find_variant(request.game)
        except EngineError as error:
            raise OptionsRefused(error) from None
        async with self.guild_lock(request.guild_id):
            if self.tables.in_channel(request.channel_id) is not None:
                raise ChannelTaken()
            busy = self.tables.of_member(request.guild_id, request.host_id)
            if busy is not None and drawn is None:  # a tournament's host takes no seat
                raise SeatedElsewhere(busy.channel_id)
            if drawn is None:
                self._check_uncommitted(request.guild_id, request.host_id)
            settings = await self.servers.of(request.guild_id)
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
                more_time=settings.more_time,
            )
            if rematch is not None:
                table = replace(
                    table,
                    rematch_of=rematch.game_id,
                    invited=rematch.invited,
                    series=rematch.series,
                    lineup=rematch.lineup,
                    deadline=self.clock() + KEEP_SEATS_SECONDS if rematch.invited else None,
                    unseated=rematch.names,
                )
            if drawn is not None:
                named = bool(request.host_name) and request.host_id not in drawn.players
                host = ((request.host_id, request.host_name),) if named else ()
                table = replace(
                    table,
                    tournament=drawn.tournament,
                    rated=drawn.rated,
                    invited=drawn.players,
                    lineup=tuple(lineup_keys(drawn.players)),
                    unseated=(*drawn.names, *host),
                )
            else:
                table.apply(Join(request.host_id, request.host_name))
            for level in computers:
                table.apply(AddComputer(request.host_id, level))
            if not table.invited:  # else the seats it keeps have their own deadline, or none
                table.deadline = self.clockwork.lobby_deadline(table)
            try:
                await self.store.create_table(row_of(table, self.clock()))
            except ChannelInUse:
                raise ChannelTaken() from None
            except StoreError as error:
                if error.fault == UNANSWERED:
                    self.settling.unsure(table.id)
                raise NotSaved(error.fault) from error
            self.tables.put(table)
            self._shown[table.id] = {}
            self.clockwork.wake()  # its deadline (an idle lobby's, kept seats') may be the next
            return self._snapshot(table)

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
        meanwhile; a join at a table that is not a tournament's is refused to a member a
        commitment holds (a tournament they play in). Locks are always taken server
        first, then table."""
        guild_id = self.get(table_id).guild_id
        async with (
            self.guild_lock(guild_id) if isinstance(command, Join) else contextlib.nullcontext(),
            self._lock(table_id),
        ):
            table = self.get(table_id)  # it may have closed while we waited
            if seen_version is not None:
                table.check_version(seen_version)
            if isinstance(command, Join):
                busy = self.tables.of_member(guild_id, command.user_id)
                if busy is not None and busy.id != table.id:
                    raise SeatedElsewhere(busy.channel_id)
                if busy is None and table.tournament is None:
                    self._check_uncommitted(guild_id, command.user_id)
            table, events = await self._apply(table, command)
            self.tell(table, events, via)
            if not table.is_open:  # let go once told: a face reads what it has shown
                self._await_end_shown(table)
                self._drop(table.id)
            return events

    def _lock(self, table_id: str) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    @asynccontextmanager
    async def guild_lock(self, guild_id: int) -> AsyncIterator[None]:
        """The server's lock: taken before a table's, never after."""
        async with self._guild_locks.setdefault(guild_id, asyncio.Lock()):
            yield

    async def take_up(self, table_id: str) -> None:
        """Take up what the store holds of ``table_id``, under its lock (see
        :meth:`_take_up`): a write whose answer was lost may have been kept. Its server's
        lock first, as for a join: a table taken up whose opening was not answered
        seats its host, whom no other table of the server may seat meanwhile."""
        row = await self.store.get_table(table_id)
        held = contextlib.nullcontext() if row is None else self.guild_lock(row.guild_id)
        async with held, self._lock(table_id):
            await self._take_up(table_id)
            if table_id not in self.tables and table_id not in self._ends:
                self._locks.pop(table_id, None)

    async def _take_up(self, table_id: str) -> None:
        """The store may hold a newer version of the table than memory: a write that
        committed although its caller was cancelled, or never heard the answer
        (:mod:`bot.service.settling`). The store is the truth: memory takes it, and
        every listener is told each stored action it was not told, in order, marked
        ``Resumed`` as after a restart (a table whose opening was not answered, as it
        stands); a table closed so is let go once its end is shown."""
        live = self.tables.get(table_id)
        row = await self.store.get_table(table_id)
        self.settling.known(table_id)
        if row is None or (live is not None and row.version <= live.version):
            return
        if live is None and row.status not in (Status.LOBBY, Status.PLAYING):
            return  # closed by an action whose answer came: told then
        try:
            table = table_of(row)
        except UNREADABLE as error:
            await self._set_aside(row, error)
            self._drop(table_id)
            return
        told: list[tuple[list[Event], Resumed]]
        if live is None and self._seated_elsewhere(table):
            await self._close_unseen(table)
            return
        if live is None:
            told = [([], Resumed(table.version))]
        else:
            actions = await self.store.actions_since(table_id, live.version)
            told = [(events_of(action), Resumed(version))
                    for version, action in enumerate(actions, start=live.version + 1)]  # fmt: skip
        if table.is_open:
            self.tables.put(table)
            self._shown.setdefault(table_id, shown_of(row))
            if table.status is Status.PLAYING and table.deadline and not table.computer_to_move:
                timer = (await self.servers.of(table.guild_id)).turn_timer_seconds
                self.clockwork.schedule_reminder(table, timer)
            self.clockwork.wake()
        snapshot = self._snapshot(table) if table.is_open else TableSnapshot.of(table)
        for events, mark in told:
            for listener in self._listeners:
                self._tell(listener, snapshot, events, mark)
        if not table.is_open:
            self._await_end_shown(table)
            self._drop(table_id)

    def _seated_elsewhere(self, table: Table) -> bool:
        """Whether a member seated at ``table`` sits at another open table of its server.
        Asked of a table not in memory yet (taken up, or read back at a start after the
        tables some face has shown), so the index of members names the other table."""
        return any(
            (other := self.tables.of_member(table.guild_id, seat.user_id)) is not None
            and other.id != table.id
            for seat in table.seats
            if seat.user_id is not None
        )

    async def _close_unseen(self, table: Table) -> None:
        """Close a lobby no face has shown, whose host sits at another table of the
        server: kept though its opening was not answered, while the host, told it was
        not saved, sat down elsewhere. One seat a server: it is stored as the host's
        cancel and told to nobody, its end noted as shown by every face that catches
        up, so that no restart posts the close of a table nobody saw."""
        closed, _ = await self._apply(table, Cancel(table.host_id))
        log.info("table %s: kept unanswered, its host seated elsewhere: closed", table.id)
        for face in {listener.face for listener in self._catching_up(closed.guild_id)}:
            await self.store.set_shown(closed.id, face, None, closed.version)
        try:
            await self.store.flush()
        except StoreError as error:  # noted again at the next action's commit, if any
            log.warning("table %s: its close not noted as shown (%s)", closed.id, error.fault)
        self._drop(closed.id)

    async def _apply(self, live: Table, command: Command) -> tuple[Table, list[Event]]:
        """Apply on a copy, store the copy, then make it the live table: until the store
        has it, the live table stays exactly as stored."""
        table = live.copy()
        events = table.apply(command)  # a refusal raises and has changed only the copy
        settings = await self.servers.of(table.guild_id)
        self.clockwork.set_deadline(table, settings, live)
        ended = any(isinstance(event, GameOver) for event in events)
        now = self.clock()
        try:
            await self.store.save_action(
                row_of(table, now),
                live.version,
                action_record(command, events),
                finished=finished_game(table, now) if ended else None,
            )
        except VersionConflict:
            await self._take_up(live.id)
            raise StaleVersion() from None
        except StoreError as error:
            if error.fault == UNANSWERED:
                self.settling.unsure(live.id)
            raise NotSaved(error.fault, command.kind) from error
        self.settling.known(live.id)
        if table.is_open:
            self.tables.put(table)
            if table.status is Status.PLAYING and not table.computer_to_move:
                self.clockwork.schedule_reminder(table, settings.turn_timer_seconds)
        self.clockwork.wake()
        return table, events

    def _drop(self, table_id: str) -> None:
        """Let a closed table go, with its lock: a task still waiting on the lock finds
        the table gone and is told it is closed."""
        self.tables.drop(table_id)
        self._locks.pop(table_id, None)
        self._snapshots.pop(table_id, None)
        self.clockwork.forget(table_id)
        if table_id not in self._ends:
            self._shown.pop(table_id, None)

    def _await_end_shown(self, table: Table) -> None:
        """``table`` has closed: what the faces that catch up note of it is kept until
        each that shows it has noted showing its last version (see :attr:`_ends`)."""
        self._ends[table.id] = (table.version, self.clock(), table.guild_id)
        self._end_shown(table.id)

    def _end_shown(self, table_id: str) -> None:
        """Let a closed table's notes go once every face that catches up and shows it
        shows its end."""
        version, _, guild_id = self._ends[table_id]
        faces = {listener.face for listener in self._catching_up(guild_id)}
        if all(self.shown(face, table_id).version >= version for face in faces):
            self._let_end_go(table_id)

    def _catching_up(self, guild_id: int) -> list[Listener]:
        """The listeners handed back what their face has not shown of server
        ``guild_id``'s tables."""
        return [
            listener
            for listener in self._listeners
            if listener.catches_up and listener.shows(guild_id)
        ]

    def _let_end_go(self, table_id: str) -> None:
        del self._ends[table_id]
        self._shown.pop(table_id, None)
        self._locks.pop(table_id, None)

    def tell(self, table: Table, events: Sequence[Event], via: object | None) -> None:
        """Tell every listener of ``table`` as stored, and what it caused."""
        snapshot = self._snapshot(table) if table.is_open else TableSnapshot.of(table)
        for listener in self._listeners:
            self._tell(listener, snapshot, events, via)

    def tell_forgotten(self, user_id: int) -> None:
        """Tell every listener that ``user_id`` was forgotten (:meth:`Listener.forgotten`)."""
        for listener in self._listeners:
            try:
                listener.forgotten(user_id)
            except Exception:  # the store forgot them; a listener reports its own trouble
                log.exception("telling %r that a member was forgotten failed", listener)

    def _tell(
        self, listener: Listener, table: TableSnapshot, events: Sequence[Event], via: object
    ) -> None:
        try:
            listener.stored(table, events, via)
        except Exception:  # the action stands; a listener reports its own trouble
            log.exception("telling %r about table %s failed", listener, table.id)

    def waits_for_end(self, table_id: str) -> bool:
        """Whether closed table ``table_id``'s end is still waited for, to be shown by
        the faces that catch up (until they show it, or it is pruned)."""
        return table_id in self._ends

    def shown(self, face: str, table_id: str) -> Shown:
        """What ``face`` has shown of the table ``table_id``, open or closed but not yet
        shown to its end (nothing yet: version 0, no message), as it noted it
        (:meth:`remember_message`) here or, before a restart, in the store."""
        return self._shown.get(table_id, {}).get(face, Shown())

    async def remember_message(
        self, face: str, table_id: str, message_id: int | None, version: int
    ) -> None:
        """``face`` now shows ``version`` of the table, in message ``message_id`` (for
        the Discord face the lobby, then the latest table message, whose buttons the next
        one strips; None: the same message as before, or a face without messages).
        Stored, so that after a restart only what it has not shown is handed back to it;
        a store fault only means it is shown again later. Another face's notes are left
        as they are."""
        if table_id not in self._shown:  # closed, and its end shown: nothing more to show
            return  # (nor a lock to make for it)
        async with self._lock(table_id):
            faces = self._shown.get(table_id)
            if faces is None:
                return
            before = faces.get(face, Shown())
            if version < before.version:
                if message_id is None or before.message_id is not None:
                    return
                # The message of an older version, noted after a newer one that named
                # none (a lobby whose first action came before its post was noted): the
                # face shows the newer version there once it has edited the message.
                version = before.version
            faces[face] = Shown(version, before.message_id if message_id is None else message_id)
            try:
                await self.store.set_shown(table_id, face, message_id, version)
            except StoreError as error:
                log.warning("table %s: could not store what the %s face shows (%s)",
                            table_id, face, error.fault)  # fmt: skip
            if table_id in self._ends:
                self._end_shown(table_id)

    async def move_to_channel(self, table_id: str, channel_id: int) -> None:
        await self.act(table_id, MoveToThread(channel_id))

    async def come_back(self, table_id: str, user_id: int) -> None:
        await self.act(table_id, ComeBack(user_id))

    async def repost(self, table_id: str, via: object | None = None) -> None:
        """Show the table again as it stands (``/domino status``)."""
        async with self._lock(table_id):
            self.tell(self.get(table_id), [], via)

    # -- housekeeping -------------------------------------------------------------------------

    async def _prune(self) -> None:
        """Now and then (at start, then every quarter of :attr:`keep_closed`, at most an
        hour apart), delete closed tables older than :attr:`keep_closed`."""
        while not self._closing:
            await asyncio.sleep(min(self.keep_closed / 4, 3600.0) or 60.0)
            await self._prune_once()

    async def _prune_once(self) -> None:
        before = self.clock() - self.keep_closed
        for table_id, (_, closed, _) in list(self._ends.items()):
            if closed < before:  # never shown (its channel gone, say): pruned below
                self._let_end_go(table_id)
        try:
            pruned = await self.store.prune_closed(before)
        except StoreError as error:
            log.warning("could not prune closed tables (%s)", error.fault)
            return
        if pruned:
            log.info("pruned %d closed tables", pruned)
