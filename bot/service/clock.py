"""The tables' clock: deadlines, not sleeping tasks. One task wakes at the earliest
deadline and plays what is due: a computer seat's move, a member's turn that timed out
(the computer's move made for them), a quarter of a member's time left (a reminder), a
rematch's kept seats freed, a lobby where nothing happened closed. Deadlines are stored
with their table, so after a restart the clock carries on (a member to move gets their
whole turn again)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.commands import CloseIdle, Command, ComputerMove, ReleaseSeats, Timeout
from bot.engine import Move
from bot.events import Reminder
from bot.players import computer_player, players_seed
from bot.refusals import NotSaved, Refusal, TimeEnough
from bot.table import Status, Table
from data.models import GuildSettings

if TYPE_CHECKING:
    from bot.service.core import TableService

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "easy"
"""Plays when a computer player fails: any legal move keeps the table going."""
REMIND_AT = 0.25
"""The share of a member's turn left when they are reminded it is theirs."""
RETRY_LONGEST = 300.0
"""The longest wait between tries of a computer move whose write keeps failing."""
LOBBY_IDLE_SECONDS = 3600
"""How long a lobby stays open with nothing happening (nobody joins, leaves, adds a
computer or starts) before the clock closes it. Its host may have gone for good (a
browser guest's page closed, their cookie lost), and nobody else may close it in the
browser, nor open another in its Discord channel; an hour is long past the wait for
friends to come, and a host still there opens a new table in a click. The same for
every face: any action in the lobby gives it the whole time again."""


class Clockwork:
    """The clock of one service's tables; owns the tasks it starts."""

    def __init__(self, service: TableService, computer_pace: float) -> None:
        self.service = service
        self.computer_pace = computer_pace
        """Seconds between computer moves at one table, so a channel stays readable."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._failures: dict[str, int] = {}
        """Computer moves whose write failed in a row, per table (for the back-off)."""
        self._closing = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="domino-clock")

    def wake(self) -> None:
        """A deadline may have changed: look again."""
        self._wake.set()

    async def close(self) -> None:
        """Stop the clock, then the computer moves under way (they are not stored yet,
        so they simply did not happen)."""
        self._closing = True
        self._wake.set()
        if self._task is not None:
            # Woken rather than cancelled: on Python 3.11 a cancel that meets a wake-up
            # can be swallowed, and the clock would sleep on until its next deadline.
            await self._task
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)

    def forget(self, table_id: str) -> None:
        """A table closed: nothing more to retry for it."""
        self._failures.pop(table_id, None)

    # -- deadlines ----------------------------------------------------------------------------

    def set_deadline(self, table: Table, settings: GuildSettings, before: Table) -> None:
        """The deadline of ``table`` after an action (``before`` it): a computer's pace, a
        member's turn, a rematch's kept seats, a lobby's idle time, or none. An action
        that made no move and left the same seat to move, played as before (another
        seat's member back), leaves that turn's clock as it was; more time taken adds a
        whole turn to what was left, refused (:class:`TimeEnough`) while more than a
        whole turn is left."""
        if table.status is Status.LOBBY and table.invited:
            return  # the seats kept for a rematch's members until their time runs out
        if table.status is Status.LOBBY:
            table.deadline = self.lobby_deadline(table)
        elif table.status is not Status.PLAYING:
            table.deadline = None
        elif _took_more_time(before, table):
            now, timer = self.service.clock(), settings.turn_timer_seconds
            left = max((before.deadline or now) - now, 0.0)
            if left > timer:
                raise TimeEnough()  # on the copy being applied: nothing is stored
            table.deadline = now + left + timer
        elif _same_turn(before, table):
            table.deadline = before.deadline
        elif table.computer_to_move:
            table.deadline = self.service.clock() + self.computer_pace
        else:
            table.deadline = self.service.clock() + settings.turn_timer_seconds

    def lobby_deadline(self, table: Table) -> float | None:
        """When the lobby ``table`` is closed if nothing happens in it from now on
        (:data:`LOBBY_IDLE_SECONDS`); none for a tournament's, which its tournament
        starts at its show-up deadline, a computer standing in for whoever has not
        come."""
        if table.tournament is not None:
            return None
        return self.service.clock() + LOBBY_IDLE_SECONDS

    def schedule_reminder(self, table: Table, timer: float) -> None:
        """Remind the member to move when a quarter of their ``timer`` is left."""
        assert table.deadline is not None
        when = table.deadline - timer * REMIND_AT
        if when > self.service.clock():  # else this turn's member was reminded already
            self.service.tables.schedule(table, when, reminder=True)

    def restart_turn(self, table: Table, timer: float) -> None:
        """After a restart the member to move gets their whole turn from now, or what
        they had if more (more time taken): the time the bot was down is not theirs to
        lose."""
        table.deadline = max(self.service.clock() + timer, table.deadline or 0.0)

    # -- what is due ----------------------------------------------------------------------------

    async def _run(self) -> None:
        tables = self.service.tables
        while not self._closing:
            self._wake.clear()
            self.run_due()
            wake = tables.next_wake()
            timeout = None if wake is None else max(0.0, wake - self.service.clock())
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._wake.wait()

    def run_due(self) -> list[asyncio.Task[None]]:
        """Start a task for each table whose deadline has passed (computer moves and
        turn timeouts), so tables never wait for one another; returns the tasks."""
        started = []
        for table_id, version, reminder in self.service.tables.due(self.service.clock()):
            if reminder:
                self.remind(table_id)
                continue
            task = asyncio.create_task(self._expire(table_id, version))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
            started.append(task)
        return started

    def remind(self, table_id: str) -> None:
        """A quarter of a member's time is left: the listeners remind them (once; the
        reminder changes nothing, so it is not stored)."""
        table = self.service.tables.get(table_id)
        if table is None or table.deadline is None or table.computer_to_move:
            return
        self.service.tell(table, [Reminder(table.seat_to_move(), table.deadline)], None)

    async def _expire(self, table_id: str, version: int) -> None:
        """Play the computer's move for the seat to move, free the seats a rematch's
        lobby kept, or close a lobby where nothing happened, if nobody acted meanwhile."""
        service = self.service
        table = service.tables.get(table_id)
        if table is None or table.version != version:
            return
        if table.status is Status.LOBBY and table.invited:
            await self._lobby_due(table_id, version, ReleaseSeats(), "freeing kept seats")
            return
        if table.status is Status.LOBBY:
            await self._lobby_due(
                table_id, version, CloseIdle(LOBBY_IDLE_SECONDS), "closing an idle lobby"
            )
            return
        if table.status is not Status.PLAYING:
            return
        seat = table.seat_to_move()
        computer = table.computer_to_move  # a seat it plays, or a turn it began
        assert table.match is not None
        view = table.match.seat_view(seat)
        seed = players_seed(table.seed, version)  # never the deal's own (bot.players.base)
        level = table.computer_level()
        try:
            try:
                move: Move = await asyncio.to_thread(computer_player(level, seed=seed).choose, view)
            except Exception:  # a player's bug must not stop the table: a legal move instead
                log.exception("the %s player failed at table %s", level, table_id)
                move = computer_player(FALLBACK_LEVEL, seed=seed).choose(view)
            command = ComputerMove(move) if computer else Timeout(move)
            await service.act(table_id, command, seen_version=version)
        except NotSaved as error:
            self._retry_later(table_id, version, f"the store refused it ({error.fault})")
        except Refusal as error:  # someone acted first: nothing to do
            log.debug("computer move at %s skipped: %s", table_id, error)
        except Exception:
            log.exception("computer move at table %s failed", table_id)
            self._retry_later(table_id, version, "it failed")
        else:
            self._failures.pop(table_id, None)

    async def _lobby_due(self, table_id: str, version: int, command: Command, what: str) -> None:
        """Carry out what a lobby's deadline calls for (``command``), unless someone acted
        first; a write the store refused is tried again, as a computer's move is."""
        try:
            await self.service.act(table_id, command, seen_version=version)
        except NotSaved as error:
            self._retry_later(table_id, version, f"the store refused it ({error.fault})", what)
        except Refusal:  # someone acted first: their action has its own deadline
            pass
        else:
            self._failures.pop(table_id, None)

    def _retry_later(
        self, table_id: str, version: int, why: str, what: str = "computer move"
    ) -> None:
        """Try a failed computer move (or ``what`` else the clock does) again, waiting
        twice as long each time (up to :data:`RETRY_LONGEST`), so a store that keeps
        failing is not hammered nor the log flooded: the first failure in a row is an
        error, the rest are warnings."""
        failures = self._failures[table_id] = self._failures.get(table_id, 0) + 1
        delay = min(max(self.computer_pace, 1.0) * 2 ** (failures - 1), RETRY_LONGEST)
        level = logging.ERROR if failures == 1 else logging.WARNING
        log.log(level, "%s at table %s: %s; trying again in %.0f s (failure %d)",
                what, table_id, why, delay, failures)  # fmt: skip
        live = self.service.tables.get(table_id)
        if live is not None and live.version == version:
            self.service.tables.schedule(live, self.service.clock() + delay)
            self._wake.set()


def _same_turn(before: Table, after: Table) -> bool:
    """Whether an action left the turn that ran ``before`` it running: no move made, the
    same seat to move, played by the same (member or computer)."""
    return (
        before.status is Status.PLAYING
        and before.match is not None
        and after.match is not None
        and len(before.match.actions) == len(after.match.actions)
        and before.turn == after.turn
        and before.computer_to_move == after.computer_to_move
        and before.deadline is not None
    )


def _took_more_time(before: Table, after: Table) -> bool:
    """Whether the action was the member to move taking more time (``MoreTime``)."""
    turn = after.turn
    return (
        turn is not None
        and _same_turn(before, after)
        and after.seats[turn].more_time > before.seats[turn].more_time
    )
