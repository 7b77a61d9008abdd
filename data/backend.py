"""The seam between the rules of storage (``data.repository`` and its parts) and a database.

The repository writes every rule once, as transactions: ``async def work(tx: Session)``
functions that run SQL through the session. A backend decides how such a function runs
(SQLite: on the database's own thread, many writes grouped in one commit; PostgreSQL: on
a pooled connection, one transaction each) and turns what its driver raises into the
store's errors, so the rules never see a driver:

- a fault of the database becomes :class:`StoreError` with its one-word ``fault``;
- the unique index ``active_tables_open_channel`` becomes :class:`ChannelInUse`;
- our own mistakes (another constraint broken, SQL that does not parse, a value the
  driver cannot send) go on unchanged: they are bugs to see, not faults to word.

SQL is written once too, with ``?`` for parameters; a backend whose driver numbers them
(``$1``) rewrites the text. Only ANSI SQL and ``INSERT … ON CONFLICT`` are used, which
both databases accept.

A transaction function awaits nothing but its session: the SQLite backend runs it to the
end on its database thread without an event loop (see :func:`run_to_end`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Row(Protocol):
    """One result row; columns are read by name."""

    def __getitem__(self, key: str, /) -> Any: ...


class Session(Protocol):
    """A transaction in progress, as the rules see it."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it inserted, updated or deleted."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def serialize(self, names: Iterable[str], *, patient: bool = False) -> None:
        """Hold these names until the transaction ends, so that writers that read
        before they write (a rating, a migration's claim) take turns across processes.
        ``patient``: wait for them as long as their holder takes, not the store's lock
        timeout (the migrations: a process of a new release started beside the one
        applying them waits for it, however long a migration takes, rather than fail
        to start). SQLite needs nothing: its writer holds the whole database's write
        lock."""


Work = Callable[[Session], Coroutine[Any, Any, T]]
"""A transaction: it is given the session and returns what the caller gets."""


class Backend(Protocol):
    kind: str
    """``sqlite`` or ``postgresql``."""

    def write(self, work: Work[T]) -> Awaitable[T]:
        """Run ``work`` in a write transaction and return its result once that is
        durable (committed and synced). If it raises, nothing it wrote stays."""

    def read(self, work: Work[T]) -> Awaitable[T]:
        """Run ``work`` in a read-only transaction: every query in it sees the same
        committed data, and it never waits for a write in progress."""

    async def close(self) -> None:
        """Wait for what is under way, then close every connection; idempotent."""


def run_to_end(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a transaction function whose session answers at once (no event loop: SQLite's
    session calls sqlite3 directly on the thread running this). A function that awaits
    anything else is a bug, refused here rather than left hanging."""
    try:
        coroutine.send(None)
    except StopIteration as finished:
        return finished.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("a store transaction awaited something other than its session")
