"""The coach's analyses of finished games, for the faces: made once, off the event loop,
and kept.

The Discord face never calls the coach itself (the import contracts say so): it asks
here, with the finished game the standings found, and words the
:class:`~bot.players.coach.Analysis` it gets back. An analysis is CPU work of seconds
(``docs/PLAYERS.md``, "The coach"): it runs in a process of its own, one worker owned by
a :class:`Coach`, so the bot's event loop keeps its core and its interpreter lock, and
two analyses never share the machine's other core. The coach is deterministic and its
work is counted, never timed, so an analysis made again is the same one: the first is
stored (``game_analysis``, once per game) and every later ask reads it back.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.engine import Match, SeatView
from bot.players.coach import BUDGET, Analysis, InvalidAnalysis, JudgedMove, analyse
from bot.refusals import NotRead
from data.models import FinishedGame
from data.repository import Repository, StoreError

log = logging.getLogger(__name__)


def members_seats(game: FinishedGame) -> list[int]:
    """The seats members played in ``game``: the moves the coach judges (a computer's
    are the computer's own choices)."""
    return sorted(p.seat for p in game.participants if p.user_id is not None)


def _analysed(record: dict[str, Any], seats: list[int], budget: float) -> dict[str, Any]:
    """The analysis, as JSON holds it: what crosses back from the worker process (plain
    data, pickled small), made there by :func:`~bot.players.coach.analyse`."""
    return analyse(record, seats, budget).to_dict()


class Coach:
    """Analyses finished games in one worker process, started with the first analysis
    and stopped by :meth:`close` (the client makes one and closes it). ``budget`` is the
    coach's work per judged move (:data:`~bot.players.coach.BUDGET`: the expert's own
    search); a smaller one is quicker and judges less surely (the tests use one).

    Two asks for the same game while it is being analysed share the one analysis; asks
    for other games wait their turn in the worker's queue."""

    def __init__(self, budget: float = BUDGET) -> None:
        self.budget = budget
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[str, asyncio.Future[Analysis]] = {}

    async def analysis_of(self, store: Repository, game: FinishedGame) -> Analysis:
        """The analysis of ``game``: the stored one if there is one, else made in the
        worker (every member's seat, with this coach's budget) and stored. A store that
        cannot be read is refused (:class:`~bot.refusals.NotRead`); one that cannot be
        written is logged, and the analysis is still given (it is made again and stored
        the next time it is asked for)."""
        try:
            stored = await store.get_analysis(game.id)
        except StoreError as error:
            raise NotRead(error.fault) from error
        if stored is not None:
            try:
                return Analysis.from_dict(stored)
            except InvalidAnalysis:
                log.exception("game %s's stored analysis does not read; it is made again", game.id)
        running = self._running.get(game.id)
        if running is None:
            running = asyncio.ensure_future(self._make(store, game))
            self._running[game.id] = running
            running.add_done_callback(lambda _: self._running.pop(game.id, None))
        return await asyncio.shield(running)

    async def _make(self, store: Repository, game: FinishedGame) -> Analysis:
        data = await self._in_worker(game.record, members_seats(game))
        try:
            await store.save_analysis(game.id, data)
        except StoreError:
            log.exception("game %s's analysis could not be stored", game.id)
        return Analysis.from_dict(data)

    async def _in_worker(self, record: dict[str, Any], seats: list[int]) -> dict[str, Any]:
        """:func:`_analysed` in the worker process; a worker that died is replaced for the
        next analysis, and this one fails (its caller is told as of any error)."""
        if self._pool is None:
            # A new interpreter, not a fork of this one: the bot's threads (the store's,
            # the event loop's helpers) and their locks are not copied half-held.
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(
                pool, _analysed, record, seats, self.budget
            )
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise

    async def close(self) -> None:
        """Stop the worker at once, dropping the analyses not yet made (nothing of them
        was stored: each is made when next asked for); a second call does nothing. The
        worker is ended, not waited for: an analysis takes longer than a stop may."""
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
    marks the moves of an analysed game, and only ``/domino analysis`` starts one). One
    that does not read is logged and taken as none; a store that cannot be read is
    refused (:class:`~bot.refusals.NotRead`)."""
    try:
        stored = await store.get_analysis(game.id)
    except StoreError as error:
        raise NotRead(error.fault) from error
    if stored is None:
        return None
    try:
        return Analysis.from_dict(stored)
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
    found: dict[str, dict[int, float]] = {}
    for game_id, data in stored.items():
        try:
            analysis = Analysis.from_dict(data)
        except InvalidAnalysis:
            log.exception("game %s's stored analysis does not read", game_id)
            continue
        found[game_id] = {
            seat.seat: seat.accuracy for seat in analysis.seats if seat.accuracy is not None
        }
    return found


def position(game: FinishedGame, seat: int, move: JudgedMove) -> SeatView:
    """What ``seat`` saw just before ``move`` (its hand, the table, what everyone did;
    no other seat's hidden tiles): the record's actions before it, replayed."""
    record = game.record
    return Match.from_record({**record, "actions": record["actions"][: move.action]}).seat_view(
        seat
    )
