"""PostgreSQL under the repository, through an asyncpg pool.

**Transactions.** Each write is one ``READ COMMITTED`` transaction on a pooled
connection, as each action is on SQLite; the rules need nothing stronger, because none
of them trusts a read it then writes: the compare-and-swap is one ``UPDATE … WHERE
version = $n`` (a second writer waits for the row, then finds the version moved on), a
finished game and a migration are claimed by a unique key (``ON CONFLICT DO NOTHING``
waits for the other's commit), and the one read-then-write, a rating, is made under
transaction-scoped advisory locks named for the player and game (``serialize``), taken
in sorted order so that two games ending at once queue rather than deadlock.

**Group commit** is the server's: concurrent transactions on the pool's connections
share the write-ahead log's flushes. No batching here, so an action's transaction holds
its row locks for its own statements only.

**Durability.** ``synchronous_commit`` is set ``on`` for every connection whatever the
server or the URL says: a commit returns once it is flushed to disk. A lock waited for
longer than ``lock_timeout`` (5 s unless the URL sets it) fails as ``busy``, as SQLite's
busy timeout does.

**Reads** run in ``REPEATABLE READ, READ ONLY`` transactions: every query of one read
sees one snapshot, and none waits for a writer.
"""

from __future__ import annotations

import contextlib
import functools
import re
import urllib.parse
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from data.backend import Row, Work
from data.errors import ChannelInUse, StoreError

T = TypeVar("T")

POOL_SIZE = 10
"""Connections at most: the concurrent transactions one process runs."""
LOCK_TIMEOUT = "5s"
_FAULTS = {
    "53100": "full",  # disk_full
    "25006": "read-only",  # read_only_sql_transaction
    "42501": "read-only",  # insufficient_privilege: the role may not write
    "40001": "busy",  # serialization_failure
    "40P01": "busy",  # deadlock_detected
    "55P03": "busy",  # lock_not_available (lock_timeout)
    "57014": "busy",  # query_canceled (statement_timeout)
    "53300": "busy",  # too_many_connections
}
_MISTAKES = ("22", "23", "42", "0A")
"""SQLSTATE classes that are our own mistakes (a value, a constraint, the SQL itself),
passed on unchanged: data exception, integrity violation, syntax or access rule, feature
not supported."""


def translate(error: Exception) -> Exception:
    """What the caller of a failed transaction is given (see ``data.backend``)."""
    if isinstance(error, asyncpg.PostgresError):
        if getattr(error, "constraint_name", None) == "active_tables_open_channel":
            return ChannelInUse("the channel has an open table")
        state = error.sqlstate or ""
        if state in _FAULTS:
            return StoreError(_FAULTS[state], str(error))
        if state[:2] in _MISTAKES:
            return error
        return StoreError("unavailable", str(error))
    # asyncpg's InternalClientError: a connection the server dropped, found mid-way
    # through starting a transaction ("cannot switch to state …"); the next one is new.
    if isinstance(
        error, OSError | TimeoutError | asyncpg.InterfaceError | asyncpg.InternalClientError
    ):
        return StoreError("unavailable", str(error) or type(error).__name__)
    return error


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """The repository's ``?`` parameters as PostgreSQL's ``$1, $2 …`` (none of our SQL
    has a ``?`` inside a string literal; literals are skipped all the same)."""
    parts = re.split(r"('(?:[^']|'')*')", sql)
    count = 0
    for index in range(0, len(parts), 2):  # even parts lie outside literals
        pieces = parts[index].split("?")
        out = pieces[0]
        for piece in pieces[1:]:
            count += 1
            out += f"${count}{piece}"
        parts[index] = out
    return "".join(parts)


def _changed(status: str) -> int:
    """Rows changed, from a command tag (``UPDATE 1``, ``INSERT 0 1``; DDL: 0)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _Session:
    def __init__(self, connection: PoolConnectionProxy[asyncpg.Record]) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _changed(await self._db.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(numbered(sql), list(rows))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._db.fetch(numbered(sql), *params))

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = await self._db.fetchrow(numbered(sql), *params)
        return row

    async def serialize(self, names: Iterable[str], *, patient: bool = False) -> None:
        """Transaction-scoped advisory locks, named within the current schema (two bots
        on two schemas of one server never wait for each other), taken in sorted order;
        ``patient``, with no lock timeout while they are waited for (then the store's
        again, for the rest of the transaction)."""
        if patient:
            await self._db.execute("SET LOCAL lock_timeout = 0")
        await self._db.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || name, 0))"
            " FROM (SELECT DISTINCT unnest($1::text[]) AS name ORDER BY name) AS names",
            sorted(set(names)),
        )
        if patient:
            await self._db.execute("SET LOCAL lock_timeout TO DEFAULT")


class PostgresBackend:
    """The PostgreSQL backend of ``data.backend``."""

    kind = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str, server_settings: dict[str, str]) -> None:
        self.pool = pool
        self.url = url
        self.server_settings = server_settings
        """What every connection is given (tests reconnect the pool with more)."""
        self._closed = False

    @classmethod
    async def open(cls, url: str, pool_size: int = POOL_SIZE) -> PostgresBackend:
        """Connect (the first connection at once, so an unreachable server is refused
        here as ``unavailable``, and so is a URL the driver cannot read, such as a port
        that is no number, or settings in it the server refuses: the operator's to
        correct, said in one line, not a mistake of ours)."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
        settings = {"synchronous_commit": "on"}
        if "lock_timeout" not in query:
            settings["lock_timeout"] = LOCK_TIMEOUT
        try:
            with _named_faults():
                pool = await asyncpg.create_pool(
                    url, min_size=1, max_size=pool_size, server_settings=settings
                )
        except (ValueError, OverflowError, asyncpg.PostgresError) as error:
            raise StoreError("unavailable", str(error)) from error
        return cls(pool, url, settings)

    async def write(self, work: Work[T]) -> T:
        self._check_open()
        with _named_faults():
            async with (
                self.pool.acquire() as connection,
                connection.transaction(isolation="read_committed"),
            ):
                return await work(_Session(connection))

    async def read(self, work: Work[T]) -> T:
        self._check_open()
        with _named_faults():
            async with (
                self.pool.acquire() as connection,
                connection.transaction(isolation="repeatable_read", readonly=True),
            ):
                return await work(_Session(connection))

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("unavailable", "the store is closed")

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.pool.close()


@contextlib.contextmanager
def _named_faults() -> Iterator[None]:
    """Raise what :func:`translate` makes of an error (ours unchanged)."""
    try:
        yield
    except Exception as error:
        refusal = translate(error)
        if refusal is error:
            raise
        raise refusal from error
