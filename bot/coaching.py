"""The coach's analyses of finished games, for the faces: made at every game's end, off
the event loop, stored once and announced once.

The Discord face never calls the coach itself (the import contracts say so): it asks
here, with the finished game the standings found, and words the
:class:`~bot.players.coach.Analysis` it gets back. An analysis is CPU work of seconds
(``docs/PLAYERS.md``, "The coach"): it runs in a process of its own, one worker owned by
a :class:`Coach`, so the bot's event loop keeps its core and its interpreter lock, and
two analyses never share the machine's other core. The coach is deterministic and its
work is counted, never timed, so an analysis made again is the same one: the first is
stored (``game_analysis``, once per game) and every later ask reads it back.

Once started (:meth:`Coach.start`), the coach hears the table service: a game with a
member's seat that ends is queued, analysed in its turn, stored, then told to the faces
(:class:`Herald`: the Discord face posts each member's accuracy in the game's channel,
the browser's shows it in the finished table's summary), and only then noted as
announced. A stop drops the queue; the next start takes up the last hour's games that
ended without an analysis, or whose analysis was stored and not announced.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from bot.engine import Match, SeatView
from bot.events import Event, GameOver
from bot.players.coach import BUDGET, Analysis, InvalidAnalysis, JudgedMove, analyse
from bot.refusals import NotRead
from bot.service import TableService
from bot.snapshot import TableSnapshot
from data.models import FinishedGame
from data.repository import Repository, StoreError

log = logging.getLogger(__name__)

FACE = "coach"
ANNOUNCED_WITHIN = 3600.0
"""Seconds after its end a game's analysis may still be announced: a start takes up the
games that ended within it unanalysed or unannounced (a crash, a stop with games
queued), and a game whose turn in the queue comes later (the coach fell behind: one
worker, seconds a game, and many tables ending at once) is passed over. Either way an
older game is analysed only when a member asks, and its accuracies are never posted
(the channel has moved on), so a backlog costs a store read a game, not an hour of
analyses nobody waits for."""


def _interrupts_left_to_the_bot() -> None:
    """The worker's start: Ctrl-C in a terminal reaches every process of its group, and
    the bot's stop ends the worker itself, so the worker ignores it (else it dies on it
    with a traceback under the bot's last line)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def members_seats(game: FinishedGame) -> list[int]:
    """The seats members played in ``game``: the moves the coach judges (a computer's
    are the computer's own choices, and so are the moves it chose in a member's seat,
    ``game.stood_in``, which the coach leaves out)."""
    return sorted(p.seat for p in game.participants if p.user_id is not None)


def _analysed(
    record: dict[str, Any], seats: list[int], budget: float, stood_in: tuple[int, ...]
) -> dict[str, Any]:
    """The analysis, as JSON holds it: what crosses back from the worker process (plain
    data, pickled small), made there by :func:`~bot.players.coach.analyse` (the moves
    ``stood_in`` indexes, the computer's in a member's seat, left out). Its failure
    crosses back as a ``ValueError`` saying why: the engine's own errors (a record that
    no longer replays) take arguments their pickled form does not keep, and one that
    cannot be read back breaks the worker and every analysis queued in it."""
    try:
        return analyse(record, seats, budget, stood_in).to_dict()
    except Exception as error:
        raise ValueError(f"{type(error).__name__}: {error}") from None


class Herald(Protocol):
    """A face told of each game's analysis once it is stored."""

    async def analysed(self, game: FinishedGame, analysis: Analysis, again: bool) -> None:
        """Show ``analysis`` of ``game``. ``again``: it was stored before the coach's
        queue came to it (before a restart, or when a member asked), so the face may
        have shown it already (the bot may have stopped between showing it and noting
        it): a face that posts looks before it posts. An error leaves the announcement
        to the next start."""
        ...


class Coach:
    """Analyses finished games in one worker process, started with the first analysis
    and stopped by :meth:`close` (the client makes one and closes it). ``budget`` is the
    coach's work per judged move (:data:`~bot.players.coach.BUDGET`: the expert's own
    search); a smaller one is quicker and judges less surely (the tests use one).

    Two asks for the same game while it is being analysed share the one analysis; asks
    for other games wait their turn in the worker's queue. The games that end are
    queued here and handed to the worker one at a time, in the order they ended (see
    :meth:`start`), so a member's ask waits for one analysis at most.

    It is a listener of the table service (``face = "coach"``), which closes it with
    the other listeners."""

    face = FACE
    catches_up = False

    def shows(self, guild_id: int) -> bool:
        """Every server's games are analysed, whichever face they were played on."""
        return True

    def forgotten(self, user_id: int) -> None:
        """Nothing kept: an analysis names seats, not members."""

    def __init__(self, budget: float = BUDGET, clock: Callable[[], float] = time.time) -> None:
        self.budget = budget
        self.clock = clock
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[str, asyncio.Future[Analysis]] = {}
        self._store: Repository | None = None
        self._heralds: list[Herald] = []
        self._ended: asyncio.Queue[str] = asyncio.Queue()
        self._queued: set[str] = set()
        """Game ids in :attr:`_ended` or being analysed: a game is queued once."""
        self._worker: asyncio.Task[None] | None = None

    # -- the games that end --------------------------------------------------------------

    def add_herald(self, herald: Herald) -> None:
        """Tell ``herald`` of every analysis made at a game's end from now on."""
        self._heralds.append(herald)

    def remove_herald(self, herald: Herald) -> None:
        """Stop telling ``herald`` (its face is unloaded or stopping)."""
        if herald in self._heralds:
            self._heralds.remove(herald)

    async def start(
        self, tables: TableService, owns: Callable[[int], bool] = lambda guild_id: True
    ) -> int:
        """Analyse each game with a member's seat once it ends, from now on; first, take
        up the games of the servers this process ``owns`` (its shards') that ended in
        the last :data:`ANNOUNCED_WITHIN` seconds without an analysis, or whose analysis
        was stored and not announced. Returns how many were taken up."""
        self._store = tables.store
        tables.add_listener(self)
        try:
            unsaid = await self._store.unsaid_since(self.clock() - ANNOUNCED_WITHIN)
        except StoreError as error:
            log.warning("could not read which games are still to analyse (%s)", error.fault)
            unsaid = []
        taken = [game.game_id for game in unsaid if owns(game.guild_id)]
        for game_id in taken:
            self._queue(game_id)
        self._worker = asyncio.create_task(self._work(), name="coach")
        if taken:
            log.info("the coach takes up %d games that ended unanalysed or unannounced", len(taken))
        return len(taken)

    def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
        """A game with a member's seat ended: it is queued (the service stored it with
        the action that ended it). A game of computers alone is not analysed."""
        if any(isinstance(event, GameOver) for event in events) and any(
            not seat.is_computer for seat in table.seats
        ):
            self._queue(table.game_id)

    def _queue(self, game_id: str) -> None:
        if game_id not in self._queued:
            self._queued.add(game_id)
            self._ended.put_nowait(game_id)

    async def settled(self) -> None:
        """Until every game queued so far is analysed and announced (or given up)."""
        await self._ended.join()

    async def _work(self) -> None:
        """The queued games, one at a time: a failure is logged, and the next start
        takes the game up again (within :data:`ANNOUNCED_WITHIN`)."""
        assert self._store is not None
        while True:
            game_id = await self._ended.get()
            try:
                await self._coach(self._store, game_id)
            except Exception:
                log.exception("game %s: the coach's analysis or its announcement failed", game_id)
            finally:
                self._queued.discard(game_id)
                self._ended.task_done()

    async def _coach(self, store: Repository, game_id: str) -> None:
        """Analyse the game (or read its stored analysis), tell the heralds, then note
        it announced: stored first, so a crash between the two leaves it to announce
        at the next start, never unsaid and never lost."""
        try:
            game = await store.get_game(game_id)
            due = await store.announcement_due(game_id)
        except StoreError as error:
            log.warning("game %s: not analysed now, the store cannot say (%s)", game_id,
                        error.fault)  # fmt: skip
            return
        if game is None or due is False or not members_seats(game):
            return
        if self.clock() - game.finished_at > ANNOUNCED_WITHIN:
            log.info("game %s ended too long ago to announce: analysed when asked", game_id)
            return
        analysis = await self.analysis_of(store, game)
        if due is None and await store.announcement_due(game_id) is None:
            return  # not stored (logged): the next start makes it again, then says it
        told = True
        for herald in list(self._heralds):
            try:
                await herald.analysed(game, analysis, due is True)
            except Exception:
                log.exception("game %s: %r could not tell of its analysis", game_id, herald)
                told = False
        if told:
            await store.mark_announced(game_id, self.clock())

    # -- analyses --------------------------------------------------------------------------

    async def analysis_of(self, store: Repository, game: FinishedGame) -> Analysis:
        """The analysis of ``game``: the stored one if there is one, else made in the
        worker (every member's seat, with this coach's budget) and stored (in the place
        of a stored one that does not read). A store that
        cannot be read is refused (:class:`~bot.refusals.NotRead`); one that cannot be
        written is logged, and the analysis is still given (it is made again and stored
        the next time it is asked for).

        Asks for the same game share one task, which reads the store and then, if need
        be, makes the analysis: an ask either joins it or comes once it has stored."""
        running = self._running.get(game.id)
        if running is None:
            running = asyncio.ensure_future(self._make(store, game))
            self._running[game.id] = running
            running.add_done_callback(lambda _: self._running.pop(game.id, None))
        return await asyncio.shield(running)

    async def _make(self, store: Repository, game: FinishedGame) -> Analysis:
        try:
            stored = await store.get_analysis(game.id)
        except StoreError as error:
            raise NotRead(error.fault) from error
        if stored is not None:
            try:
                return _read(game, stored)
            except InvalidAnalysis:
                log.exception("game %s's stored analysis does not read; it is made again", game.id)
        data = await self._in_worker(game.record, members_seats(game), game.stood_in)
        try:
            await store.save_analysis(game.id, data, replacing=stored is not None)
        except StoreError:
            log.exception("game %s's analysis could not be stored", game.id)
        return Analysis.from_dict(data)

    async def _in_worker(
        self, record: dict[str, Any], seats: list[int], stood_in: tuple[int, ...]
    ) -> dict[str, Any]:
        """:func:`_analysed` in the worker process; a worker that died is replaced for the
        next analysis, and this one fails (its caller is told as of any error)."""
        if self._pool is None:
            # A new interpreter, not a fork of this one: the bot's threads (the store's,
            # the event loop's helpers) and their locks are not copied half-held.
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_interrupts_left_to_the_bot,
            )
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(
                pool, _analysed, record, seats, self.budget, stood_in
            )
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise

    async def close(self) -> None:
        """Stop the worker at once, dropping the analyses not yet made and the games
        queued (nothing of them was stored: the next start takes them up, and a member's
        ask makes one); a second call does nothing. The worker is ended, not waited for:
        an analysis takes longer than a stop may."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker
        pool, self._pool = self._pool, None
        for running in list(self._running.values()):
            running.cancel()
        if pool is None:
            return
        for process in list(pool._processes.values()):  # no public way before 3.14
            process.terminate()
        await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


async def stored_analysis(store: Repository, game: FinishedGame) -> Analysis | None:
    """The analysis of ``game`` if one was stored, else None: never made here (a replay
    marks the moves of an analysed game; a game's end or ``/domino analysis`` starts one). One
    that does not read is logged and taken as none; a store that cannot be read is
    refused (:class:`~bot.refusals.NotRead`)."""
    try:
        stored = await store.get_analysis(game.id)
    except StoreError as error:
        raise NotRead(error.fault) from error
    if stored is None:
        return None
    try:
        return _read(game, stored)
    except InvalidAnalysis:
        log.exception("game %s's stored analysis does not read", game.id)
        return None


async def accuracies(store: Repository, games: list[FinishedGame]) -> dict[str, dict[int, float]]:
    """The accuracy of each analysed seat that had a move to judge, by seat, for those of
    ``games`` whose analysis is stored (a page of history; nothing is analysed here). A
    store that cannot be read is refused (:class:`~bot.refusals.NotRead`)."""
    try:
        stored = await store.analyses_of([game.id for game in games])
    except StoreError as error:
        raise NotRead(error.fault) from error
    by_id = {game.id: game for game in games}
    found: dict[str, dict[int, float]] = {}
    for game_id, data in stored.items():
        try:
            analysis = _read(by_id[game_id], data)
        except InvalidAnalysis:
            log.exception("game %s's stored analysis does not read", game_id)
            continue
        found[game_id] = analysis.accuracies()
    return found


def _read(game: FinishedGame, stored: object) -> Analysis:
    """``game``'s stored analysis, held to the game (:meth:`Analysis.of_game`); a record
    that does not read back (the store hands it back as its text) has no move it fits."""
    actions = game.record.get("actions") if isinstance(game.record, dict) else None
    count = len(actions) if isinstance(actions, list) else 0
    return Analysis.of_game(stored, game.game, len(game.participants), count)


def position(game: FinishedGame, seat: int, move: JudgedMove) -> SeatView:
    """What ``seat`` saw just before ``move`` (its hand, the table, what everyone did;
    no other seat's hidden tiles): the record's actions before it, replayed."""
    record = game.record
    return Match.from_record({**record, "actions": record["actions"][: move.action]}).seat_view(
        seat
    )
