"""SQLite under the repository: one writer thread committing groups, readers beside it.

**Durability.** WAL with ``synchronous=FULL``: under WAL, ``NORMAL`` only syncs the log at
checkpoints, so a power cut or an OS crash could lose commits whose moves the channel has
already been shown; ``FULL`` syncs the log at every commit.

**Group commit.** Every write goes to one thread that owns the one write connection.
When it is free it takes every write waiting, runs them one after another inside a
single transaction (``BEGIN IMMEDIATE``: the database's write lock, so across processes
too the writes see every earlier commit), each under its own savepoint, and commits
once: one sync for the whole group. Each caller is then told its own outcome: a write
that raised (a :class:`VersionConflict`, say) was rolled back to its savepoint alone, and
its neighbours stay. Should SQLite end the whole transaction under a failing write (it
may, on a full disk or an I/O error), the others run again in a new one. A whole
transaction is one call on the thread, not one trip through the event loop per
statement. Nothing is told before its commit has returned, that is, before it is on disk.

**Reads** run on their own connections (``query_only``), each on its own thread, in a
read transaction of their own: WAL lets them read the last commit while the writer
writes, so a leaderboard never waits behind a group, and never sees a write that may
still be rolled back.

Every connection lives and dies on its thread (non-daemon, like aiosqlite's: a store
left open keeps the process from exiting, which the test suite turns into a failure).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from data.backend import Row, Work, run_to_end
from data.errors import ChannelInUse, StoreError

log = logging.getLogger(__name__)

T = TypeVar("T")

BUSY_TIMEOUT_SECONDS = 5.0
"""How long a statement waits for another connection's lock (another process) before
failing as ``busy``."""
READERS = 2
"""Read connections: enough that reads never queue behind one slow read, few enough to
leave the writer and the event loop their cores."""
LARGEST_GROUP = 256
"""Writes committed together at most, so a group's own latency stays bounded."""

_FAULTS = {
    "SQLITE_FULL": "full",
    "SQLITE_BUSY": "busy",
    "SQLITE_LOCKED": "busy",
    "SQLITE_READONLY": "read-only",
}


def store_error(error: sqlite3.Error) -> StoreError:
    """SQLite's error as the store's :class:`StoreError`, by SQLite's own error name
    (``SQLITE_READONLY_DBMOVED`` and kin fall under their family)."""
    name = getattr(error, "sqlite_errorname", "") or ""
    family = "_".join(name.split("_")[:2])
    fault = StoreError(_FAULTS.get(family, "unavailable"), str(error))
    fault.__cause__ = error
    return fault


def translate(error: Exception) -> Exception:
    """What the caller of a failed transaction is given (see ``data.backend``)."""
    if isinstance(error, sqlite3.IntegrityError):
        if "active_tables.channel_id" in str(error):
            refused = ChannelInUse("the channel has an open table")
            refused.__cause__ = error
            return refused
        return error  # another constraint: our own mistake
    if isinstance(error, sqlite3.ProgrammingError | sqlite3.InterfaceError):
        return error
    if isinstance(error, sqlite3.Error):
        return store_error(error)
    return error


class _Session:
    """The session of ``data.backend`` over a sqlite3 connection, on its own thread:
    every call is answered at once, so a transaction runs to its end in one go."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._db.execute(sql, params).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._db.executemany(sql, rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows: list[Row] = self._db.execute(sql, params).fetchall()
        return rows

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = self._db.execute(sql, params).fetchone()
        return row

    async def serialize(self, names: Iterable[str], *, patient: bool = False) -> None:
        """Nothing to do: the writer holds the database's write lock (``BEGIN
        IMMEDIATE``) from the start of its transaction."""


@dataclass(slots=True)
class _Job:
    future: asyncio.Future[Any]
    work: Work[Any] | None = None
    """A transaction; or else ``call``, a function of the connection run outside any."""
    call: Callable[[sqlite3.Connection], Any] | None = None
    last: bool = False
    """Close the connection after this job and end the thread."""


_Outcome = tuple[asyncio.Future[Any], Any, Exception | None]


class _Worker:
    """One connection and the thread that alone uses it; jobs come through a queue."""

    def __init__(self, name: str, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._loop = asyncio.get_running_loop()
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name)
        self._db: sqlite3.Connection | None = None
        self._closing = False
        self.load = 0
        """Jobs given and not yet answered (reads go to the least loaded reader)."""

    async def start(self) -> None:
        """Start the thread and connect on it; a failure to connect ends the thread."""
        self._thread.start()
        await self.call(lambda _: None)

    def submit(self, work: Work[T]) -> asyncio.Future[T]:
        return self._put(_Job(self._loop.create_future(), work=work))

    def call(self, function: Callable[[sqlite3.Connection], T]) -> asyncio.Future[T]:
        return self._put(_Job(self._loop.create_future(), call=function))

    def _put(self, job: _Job) -> asyncio.Future[Any]:
        if self._closing:
            job.future.set_exception(StoreError("unavailable", "the store is closed"))
        else:
            self.load += 1
            self._jobs.put(job)
        return job.future

    async def close(self, last: Callable[[sqlite3.Connection], None] = lambda _: None) -> None:
        """Finish the jobs already given, run ``last`` with the connection, close it, end
        the thread."""
        if not self._closing:
            self._closing = True
            if self._db is not None:  # connected (else the thread has ended by itself)
                stop = _Job(self._loop.create_future(), call=last, last=True)
                self.load += 1
                self._jobs.put(stop)
                await asyncio.shield(stop.future)
        if self._thread.is_alive():
            self._thread.join(timeout=BUSY_TIMEOUT_SECONDS)

    # -- on the thread --------------------------------------------------------------------

    def _serve(self) -> None:
        started = self._jobs.get()  # from start(): nothing else is given before it ends
        try:
            self._db = self._connect()
        except Exception as error:
            self._tell([(started.future, None, translate(error))])
            return
        self._tell([(started.future, None, None)])
        while True:
            jobs = [self._jobs.get()]
            while len(jobs) < LARGEST_GROUP and not jobs[-1].last:
                try:
                    jobs.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            if not self._run(jobs):
                self._db.close()
                return

    def _run(self, jobs: list[_Job]) -> bool:
        """Run the jobs taken together, in order; False after the last job."""
        transactions: list[_Job] = []
        for job in jobs:
            if job.work is not None:
                transactions.append(job)
                continue
            self._tell(self._transactions(transactions))
            transactions = []
            self._tell([self._call(job)])
            if job.last:
                return False
        self._tell(self._transactions(transactions))
        return True

    def _call(self, job: _Job) -> _Outcome:
        assert self._db is not None and job.call is not None
        try:
            return job.future, job.call(self._db), None
        except Exception as error:
            return job.future, None, translate(error)

    def _transactions(self, jobs: list[_Job]) -> list[_Outcome]:
        raise NotImplementedError

    def _tell(self, outcomes: list[_Outcome]) -> None:
        if outcomes:
            try:
                self._loop.call_soon_threadsafe(self._settle, outcomes)
            except RuntimeError:  # the event loop is gone: nobody is waiting any more
                log.debug("%d store results with no event loop to hear them", len(outcomes))

    def _settle(self, outcomes: list[_Outcome]) -> None:
        """On the event loop: answer each caller (one whose wait was cancelled is gone)."""
        for future, result, error in outcomes:
            self.load -= 1
            if future.done():
                continue
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)


class _Writer(_Worker):
    commits = 0
    """Groups committed so far (how many syncs the writes cost)."""

    def _transactions(self, jobs: list[_Job]) -> list[_Outcome]:
        outcomes: list[_Outcome] = []
        # A caller that stopped waiting before its write began: the write never happens.
        # (Read off the event loop's thread: a cancel landing just after this check only
        # means the write is made and nobody hears of it, as with any cancel mid-write.)
        waiting = [job for job in jobs if not job.future.done()]
        outcomes += [(job.future, None, None) for job in jobs if job.future.done()]
        while waiting:
            waiting = self._group(waiting, outcomes)
        return outcomes

    def _group(self, jobs: list[_Job], outcomes: list[_Outcome]) -> list[_Job]:
        """One transaction for ``jobs``, each under its own savepoint; their outcomes go
        to ``outcomes``. Returns the jobs to run again: those that SQLite's ending of the
        whole transaction (under a failing job) undid."""
        db = self._db
        assert db is not None
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            outcomes += [(job.future, None, translate(error)) for job in jobs]
            return []
        session = _Session(db)
        done: list[tuple[_Job, Any]] = []
        for index, job in enumerate(jobs):
            assert job.work is not None
            try:
                db.execute("SAVEPOINT job")
                result = run_to_end(job.work(session))
                db.execute("RELEASE job")
            except Exception as error:
                outcomes.append((job.future, None, translate(error)))
                if db.in_transaction:
                    try:
                        db.execute("ROLLBACK TO job")
                        db.execute("RELEASE job")
                        continue
                    except sqlite3.Error:
                        self._roll_back()
                # The transaction is gone, and with it what the jobs before did.
                return [job for job, _ in done] + jobs[index + 1 :]
            done.append((job, result))
        try:
            db.execute("COMMIT")
        except sqlite3.Error as error:
            self._roll_back()
            outcomes += [(job.future, None, translate(error)) for job, _ in done]
            return []
        self.commits += 1
        outcomes += [(job.future, result, None) for job, result in done]
        return []

    def _roll_back(self) -> None:
        """After a failed commit or savepoint: leave no transaction open behind."""
        assert self._db is not None
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("rolling back a failed group failed")


class _Reader(_Worker):
    def _transactions(self, jobs: list[_Job]) -> list[_Outcome]:
        """Each read in a read transaction of its own (one snapshot for its queries),
        its caller told as soon as it is done."""
        db = self._db
        assert db is not None
        for job in jobs:
            assert job.work is not None
            try:
                db.execute("BEGIN")
                try:
                    result = run_to_end(job.work(_Session(db)))
                finally:
                    db.execute("COMMIT")
            except Exception as error:
                self._tell([(job.future, None, translate(error))])
            else:
                self._tell([(job.future, result, None)])
        return []


class SqliteBackend:
    """The SQLite backend of ``data.backend``: a writer thread grouping commits and
    :data:`READERS` reader threads."""

    kind = "sqlite"

    def __init__(self, writer: _Writer, readers: list[_Reader]) -> None:
        self._writer = writer
        self._readers = readers

    @classmethod
    async def open(cls, path: Path) -> SqliteBackend:
        """Open (creating the file and its folder), in WAL with ``synchronous=FULL``,
        foreign keys on and a busy timeout given to the connect itself, so it holds from
        the first statement. If anything fails, what was opened is closed before the
        error goes on (:class:`StoreError`): a thread left running would keep the
        process from ever exiting."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError("unavailable", str(error)) from error
        workers: list[_Worker] = []
        try:
            writer = _Writer("domino-sqlite-writer", lambda: _connect_writer(path))
            workers.append(writer)
            await writer.start()
            readers = []
            for number in range(1, READERS + 1):
                reader = _Reader(f"domino-sqlite-reader-{number}", lambda: _connect_reader(path))
                workers.append(reader)
                await reader.start()
                readers.append(reader)
        except BaseException:
            for worker in workers:
                await worker.close()
            raise
        return cls(writer, readers)

    def write(self, work: Work[T]) -> Awaitable[T]:
        return self._writer.submit(work)

    def read(self, work: Work[T]) -> Awaitable[T]:
        return min(self._readers, key=lambda reader: reader.load).submit(work)

    def on_writer(self, function: Callable[[sqlite3.Connection], T]) -> Awaitable[T]:
        """Run ``function`` with the write connection, between two groups, outside any
        transaction (benchmarks and tests use it for pragmas and for faults)."""
        return self._writer.call(function)

    @property
    def commits(self) -> int:
        """Write transactions committed since opening (each one sync)."""
        return self._writer.commits

    async def close(self) -> None:
        """Close the readers, then the writer, which folds the write-ahead log back into
        the database file first: after a clean stop the file alone holds everything (a
        copy of it is a complete backup) and no older page of the log is left on disk."""
        for reader in self._readers:
            await reader.close()
        await self._writer.close(_checkpoint)


def _checkpoint(connection: sqlite3.Connection) -> None:
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as error:  # closing goes on: SQLite checkpoints on close anyway
        log.warning("the closing checkpoint failed: %s", error)


def _connect_writer(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS)
    try:
        _use_wal(connection)
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
        # What is deleted (a member's data after /domino forget-me) is overwritten, not
        # left readable in free pages of the file.
        connection.execute("PRAGMA secure_delete=ON")
    except BaseException:
        connection.close()
        raise
    connection.row_factory = sqlite3.Row
    return connection


def _connect_reader(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS)
    try:
        connection.execute("PRAGMA query_only=ON")
    except BaseException:
        connection.close()
        raise
    connection.row_factory = sqlite3.Row
    return connection


def _use_wal(connection: sqlite3.Connection) -> None:
    """Switch the file to WAL, trying again while another connection is switching it.

    The switch reads the file's header and then upgrades to the write lock to change it.
    SQLite refuses such an upgrade at once ("database is locked", without waiting out the
    busy timeout) while another connection holds a read lock, since two readers each
    waiting for the other to let go would wait forever. Two processes starting on a new
    file at the same moment can both be refused; trying again after the other has
    switched finds the file in WAL already, which needs no write."""
    give_up = time.monotonic() + BUSY_TIMEOUT_SECONDS
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            busy = error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY
            if not busy or time.monotonic() >= give_up:
                raise
        time.sleep(0.01)
