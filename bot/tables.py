"""The table service the cogs call: seats, turns, timers and persistence; no Discord.

Every action goes through :meth:`TableService.act`, which takes the table's lock, checks
the version the user's controls were drawn for, applies the action to the table, writes
the new state and the action to the store in one transaction (compare-and-swap on the
version), and only then announces the events. A crash after the write loses nothing; a
crash before it loses only the click that was never confirmed.

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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.engine import EngineError, Move, Options, Reason, find_variant
from bot.players import computer_player
from bot.table import GAME_OVER, Event, StaleVersion, Status, Table, TableError
from data.models import FinishedGame, GuildSettings, Participant, RoundResult, TableRow
from data.repository import Repository, VersionConflict

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "easy"
"""Plays when a computer player fails: any legal move keeps the table going."""

Announcer = Callable[[Table, list[Event]], Awaitable[None]]
Action = Callable[[Table], list[Event]]


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


class TableService:
    """Owns every open table in memory, backed by the store."""

    def __init__(
        self,
        store: Repository,
        *,
        computer_pace: float = 1.5,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.computer_pace = computer_pace
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._announcers: list[Announcer] = []
        self._settings: dict[int, GuildSettings] = {}
        self._wake = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None
        self._closing = False
        self._running: set[asyncio.Task[None]] = set()

    # -- lifecycle ------------------------------------------------------------------------

    def add_announcer(self, announcer: Announcer) -> None:
        """``announcer(table, events)`` is awaited after every stored action."""
        self._announcers.append(announcer)

    async def resume(self) -> int:
        """Load every table that is not finished, and start the clock. Returns how many."""
        for row in await self.store.load_active_tables():
            self.tables[row.id] = _from_row(row)
        self._clock_task = asyncio.create_task(self._run_clock(), name="domino-clock")
        self._wake.set()
        log.info("resumed %d open tables", len(self.tables))
        return len(self.tables)

    async def close(self) -> None:
        """Stop the clock, then the computer moves under way (they are not stored yet,
        so they simply did not happen)."""
        self._closing = True
        self._wake.set()
        if self._clock_task is not None:
            # Woken rather than cancelled: on Python 3.11 a cancel that meets a wake-up
            # can be swallowed, and the clock would sleep on until its next deadline.
            await self._clock_task
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)

    # -- finding tables -------------------------------------------------------------------

    def in_channel(self, channel_id: int) -> Table | None:
        for table in self.tables.values():
            if table.channel_id == channel_id and table.is_open:
                return table
        return None

    def of_user(self, guild_id: int, user_id: int) -> Table | None:
        for table in self.tables.values():
            if table.guild_id == guild_id and table.is_open and table.seat_of(user_id) is not None:
                return table
        return None

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("that table is closed: open a new one with /domino new")
        return table

    async def settings(self, guild_id: int) -> GuildSettings:
        cached = self._settings.get(guild_id)
        if cached is None:
            cached = self._settings[guild_id] = await self.store.get_guild_settings(guild_id)
        return cached

    async def update_settings(self, settings: GuildSettings) -> None:
        await self.store.set_guild_settings(settings)
        self._settings[settings.guild_id] = settings

    # -- opening a table --------------------------------------------------------------------

    async def open_table(self, request: NewTable) -> Table:
        """A new lobby with the host seated; refused if the channel already has a table or
        the host sits at another table in this server, or if the options are not allowed."""
        if self.in_channel(request.channel_id) is not None:
            raise TableError("this channel already has a table: join it, or use another channel")
        busy = self.of_user(request.guild_id, request.host_id)
        if busy is not None:
            raise TableError(
                f"you are seated at another table in this server (<#{busy.channel_id}>)"
            )
        variant = find_variant(request.game)
        settings = await self.settings(request.guild_id)
        target = request.target or settings.default_targets.get(variant.game)
        try:
            options = Options.for_game(
                variant,
                max(variant.player_counts),
                target=target,
                keep_last_two=request.keep_last_two,
                match_games=request.match_games,
            )
        except EngineError as error:
            raise TableError(str(error)) from None
        table = Table(
            id=secrets.token_hex(4),
            guild_id=request.guild_id,
            channel_id=request.channel_id,
            host_id=request.host_id,
            game=variant.game,
            options=options,
            seed=secrets.randbits(48),
        )
        table.join(request.host_id, request.host_name)
        await self.store.create_table(self._row(table))
        self.tables[table.id] = table
        return table

    # -- the one way to change a table ----------------------------------------------------

    async def act(
        self, table_id: str, action: Action, *, seen_version: int | None = None, kind: str = ""
    ) -> list[Event]:
        """Apply ``action`` to the table under its lock, store it, then announce it."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.get(table_id)
            if seen_version is not None:
                table.check_version(seen_version)
            try:
                events = await self._apply(table, action, kind)
            except VersionConflict:
                await self._reload(table_id)
                raise StaleVersion("the table has moved on: here it is as it stands") from None
            await self._announce(table, events)
            return events

    async def _reload(self, table_id: str) -> None:
        """The store holds a newer version than memory (a write that committed although
        its caller was cancelled, or another process): the store is the truth."""
        row = await self.store.get_table(table_id)
        if row is None or row.status not in (Status.LOBBY, Status.PLAYING):
            self.tables.pop(table_id, None)
        else:
            self.tables[table_id] = _from_row(row)

    async def _apply(self, table: Table, action: Action, kind: str) -> list[Event]:
        saved = table.to_dict()
        events = action(table)  # a refusal raises TableError and has changed nothing
        try:
            self._set_deadline(table, await self.settings(table.guild_id))
            ended = any(event.kind == GAME_OVER for event in events)
            await self.store.save_action(
                self._row(table),
                saved["version"],
                self._action_record(table, kind, events),
                finished=self._finished_game(table) if ended else None,
            )
        except BaseException:
            # Not stored, so it did not happen: back to the state that was.
            self.tables[table.id] = Table.from_dict(saved)
            raise
        if not table.is_open:  # finished or cancelled, and stored so: nothing more to do
            self.tables.pop(table.id, None)
        self._wake.set()
        return events

    async def _announce(self, table: Table, events: list[Event]) -> None:
        for announcer in self._announcers:
            try:
                await announcer(table, events)
            except Exception:  # the action stands; the announcer reports its own trouble
                log.exception("announcing table %s failed", table.id)

    def _set_deadline(self, table: Table, settings: GuildSettings) -> None:
        if table.status is not Status.PLAYING:
            table.deadline = None
        elif table.computer_to_move:
            table.deadline = self.clock() + self.computer_pace
        else:
            table.deadline = self.clock() + settings.turn_timer_seconds

    async def remember_message(self, table: Table, message_id: int) -> None:
        """The table's current public message (the lobby, then the latest table message),
        whose buttons are removed when the next one is posted."""
        table.message_id = message_id
        await self.store.set_message_id(table.id, message_id)

    async def move_to_channel(self, table: Table, channel_id: int) -> None:
        await self.act(table.id, lambda t: t.move_to(channel_id), kind="thread")

    async def repost(self, table: Table) -> None:
        """Post the table message again (``/domino status``)."""
        async with self._locks.setdefault(table.id, asyncio.Lock()):
            await self._announce(table, [])

    # -- the clock --------------------------------------------------------------------------

    async def _run_clock(self) -> None:
        while not self._closing:
            self._wake.clear()
            self.run_due()
            deadlines = [t.deadline for t in self.tables.values() if t.deadline is not None]
            timeout = max(0.0, min(deadlines) - self.clock()) if deadlines else None
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._wake.wait()

    def run_due(self) -> list[asyncio.Task[None]]:
        """Start a task for each table whose deadline has passed (computer moves and
        turn timeouts), so tables never wait for one another; returns the tasks."""
        now = self.clock()
        started = []
        for table in list(self.tables.values()):
            if table.deadline is not None and table.deadline <= now:
                table.deadline = None  # taken: the task sets the next one
                task = asyncio.create_task(self._expire(table.id, table.version))
                self._running.add(task)
                task.add_done_callback(self._running.discard)
                started.append(task)
        return started

    async def _expire(self, table_id: str, version: int) -> None:
        """Play the computer's move for the seat to move, if nobody acted meanwhile."""
        table = self.tables.get(table_id)
        if table is None or table.version != version or table.status is not Status.PLAYING:
            return
        seat = table.seat_to_move()
        computer = table.seats[seat].played_by_computer
        assert table.match is not None
        view = table.match.private_view(seat)
        seed = table.seed + version
        player = computer_player(table.computer_level(), seed=seed)

        def make_move(t: Table) -> list[Event]:
            return t.computer_move(move) if computer else t.timeout(move)

        try:
            try:
                move: Move = await asyncio.to_thread(player.choose, view)
            except Exception:  # a player's bug must not stop the table: a legal move instead
                log.exception("the %s player failed at table %s", table.computer_level(), table_id)
                move = computer_player(FALLBACK_LEVEL, seed=seed).choose(view)
            await self.act(table_id, make_move, seen_version=version, kind="computer")
        except TableError as error:  # someone acted first: nothing to do
            log.debug("computer move at %s skipped: %s", table_id, error)
        except Exception:
            log.exception("computer move at table %s failed; trying again shortly", table_id)
            live = self.tables.get(table_id)
            if live is not None and live.version == version:
                live.deadline = self.clock() + max(self.computer_pace, 1.0)
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
            created_at=now,
            updated_at=now,
        )

    @staticmethod
    def _action_record(table: Table, kind: str, events: list[Event]) -> dict[str, Any]:
        return {
            "kind": kind,
            "events": [e.kind for e in events],
            "moves": [[e.seat, e.move] for e in events if e.move is not None],
        }

    def _finished_game(self, table: Table) -> FinishedGame:
        match = table.match
        assert match is not None
        outcome = match.outcome()
        assert outcome is not None
        teams = find_variant(table.game).teams
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
            side = seat % 2 if teams else seat
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
            id=f"{table.id}-{table.version}",
            table_id=table.id,
            guild_id=table.guild_id,
            game=table.game,
            finished_at=self.clock(),
            record=match.record(),
            rounds=rounds,
            participants=participants,
        )


def _from_row(row: TableRow) -> Table:
    table = Table.from_dict(row.state)
    table.message_id = row.message_id  # stored apart: it changes without an action
    return table
