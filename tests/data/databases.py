"""The databases the storage tests run on, and how a test makes one misbehave for real.

Every storage test runs on SQLite and on PostgreSQL. PostgreSQL is the server at
``DOMINO_TEST_POSTGRES`` (default: 127.0.0.1:5432, user postgres, trust, database test);
each test gets a schema of its own, dropped afterwards. Without a server those cases
are skipped, saying how to run them, unless ``DOMINO_REQUIRE_POSTGRES=1`` (CI sets it):
then they fail.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
import threading
import urllib.parse
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import asyncpg
import pytest

from data.backend import Session
from data.postgres import PostgresBackend
from data.repository import Repository, StoreError
from data.sqlite import SqliteBackend

POSTGRES_URL = os.environ.get("DOMINO_TEST_POSTGRES") or "postgresql://postgres@127.0.0.1:5432/test"
HOW_TO_RUN = (
    "PostgreSQL at 127.0.0.1:5432 (user postgres, trust authentication, database test) is"
    " not reachable: start one, or set DOMINO_TEST_POSTGRES=postgresql://user@host:port/db,"
    " to run the storage tests on PostgreSQL too"
)
_unreachable: list[str] = []
"""Why the server could not be reached, once found (so each test does not wait again)."""


@dataclass(frozen=True)
class Database:
    kind: str
    url: str


async def postgres_admin() -> asyncpg.Connection:
    """A connection to the test server, or the test is skipped (failed, in CI)."""
    if not _unreachable:
        try:
            return await asyncpg.connect(POSTGRES_URL, timeout=5)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            _unreachable.append(f"{type(error).__name__}: {error}")
    if os.environ.get("DOMINO_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"{HOW_TO_RUN} ({_unreachable[0]}); DOMINO_REQUIRE_POSTGRES=1 requires it")
    pytest.skip(HOW_TO_RUN)


def with_settings(url: str, **settings: str) -> str:
    """``url`` with more PostgreSQL settings for its connections (``search_path`` …)."""
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query) + list(settings.items())
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


@asynccontextmanager
async def postgres_schema() -> AsyncIterator[str]:
    """The URL of a new, empty schema on the test server, dropped afterwards."""
    admin = await postgres_admin()
    schema = f"domino_test_{secrets.token_hex(6)}"
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_settings(POSTGRES_URL, search_path=schema)
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


async def rating_of(store: Repository, user_id: int, game: str) -> float | None:
    """A member's stored rating (its ordinal) for one game kind; None before their first
    rated game of it."""

    async def query(tx: Session) -> float | None:
        row = await tx.fetchrow(
            "SELECT ordinal FROM ratings WHERE user_id = ? AND game = ?", (user_id, game)
        )
        return None if row is None else float(row["ordinal"])

    return await store.backend.read(query)


async def rated(store: Repository, user_id: int, game: str) -> float:
    """A member's stored rating (its ordinal) for one game kind they have played."""
    rating = await rating_of(store, user_id, game)
    assert rating is not None, f"member {user_id} has no {game} rating"
    return rating


async def count(store: Repository, table: str) -> int:
    async def query(tx: Session) -> int:
        row = await tx.fetchrow(f"SELECT COUNT(*) AS n FROM {table}")
        assert row is not None
        return int(row["n"])

    return await store.backend.read(query)


def sqlite_of(store: Repository) -> SqliteBackend:
    assert isinstance(store.backend, SqliteBackend)
    return store.backend


def postgres_of(store: Repository) -> PostgresBackend:
    assert isinstance(store.backend, PostgresBackend)
    return store.backend


async def reconnect(store: Repository, **settings: str) -> None:
    """PostgreSQL: every connection of the store's pool from now on has these settings
    too (the idle ones are closed and made again)."""
    backend = postgres_of(store)
    backend.pool.set_connect_args(
        backend.url, server_settings={**backend.server_settings, **settings}
    )
    await backend.pool.expire_connections()


async def on_sqlite_writer(store: Repository, sql: str) -> Any:
    return await sqlite_of(store).on_writer(lambda db: [tuple(r) for r in db.execute(sql)])


async def break_store(store: Repository, fault: str) -> None:
    """Make the database itself refuse writes, the way a real fault would.

    ``read-only``: SQLite's ``query_only``; PostgreSQL's ``default_transaction_read_only``.
    ``full``: SQLite, a size limit just above today's size, then filled to it; PostgreSQL
    cannot be filled in a test (its disk is the server's): skipped."""
    if fault == "read-only":
        if store.backend.kind == "sqlite":
            await on_sqlite_writer(store, "PRAGMA query_only = ON")
        else:
            await reconnect(store, default_transaction_read_only="on")
    elif fault == "full":
        if store.backend.kind != "sqlite":
            pytest.skip("a full disk cannot be made for a PostgreSQL server from a test")
        [(pages,)] = await on_sqlite_writer(store, "PRAGMA page_count")
        await on_sqlite_writer(store, f"PRAGMA max_page_count = {pages + 8}")
        await on_sqlite_writer(store, "CREATE TABLE padding (filler BLOB)")
        with pytest.raises(StoreError, match="full"):
            for _ in range(64):
                await on_sqlite_writer(store, "INSERT INTO padding VALUES (randomblob(1000))")
    else:
        raise AssertionError(fault)


@asynccontextmanager
async def database_held(store: Repository, url: str) -> AsyncIterator[None]:
    """Another process holds the database (SQLite: its write lock; PostgreSQL: a lock on
    every open table) while the store waits at most 50 ms for it."""
    if store.backend.kind == "sqlite":
        await on_sqlite_writer(store, "PRAGMA busy_timeout = 50")
        holder = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        try:
            holder.execute("BEGIN EXCLUSIVE")
            yield
            holder.execute("ROLLBACK")
        finally:
            holder.close()
    else:
        await reconnect(store, lock_timeout="50")
        server = await asyncpg.connect(url)
        try:
            async with server.transaction():
                await server.execute("LOCK TABLE active_tables IN EXCLUSIVE MODE")
                yield
        finally:
            await server.close()


@asynccontextmanager
async def write_in_flight(store: Repository, table_id: str, version: int) -> AsyncIterator[None]:
    """A write that has moved the table to ``version`` and not committed, held there
    (SQLite: its group stops the writer thread mid-transaction) until the block ends."""
    loop = asyncio.get_running_loop()
    inside = asyncio.Event()
    release_thread, release_loop = threading.Event(), asyncio.Event()

    async def held(tx: Session) -> None:
        await tx.execute("UPDATE active_tables SET version = ? WHERE id = ?", (version, table_id))
        loop.call_soon_threadsafe(inside.set)
        if store.backend.kind == "sqlite":
            release_thread.wait(timeout=60)  # on the writer's thread, inside the group
        else:
            await release_loop.wait()

    write = asyncio.ensure_future(store.backend.write(held))
    try:
        await inside.wait()
        yield
    finally:
        release_thread.set()
        release_loop.set()
        await write


@asynccontextmanager
async def writes_waiting(store: Repository) -> AsyncIterator[Callable[[], None]]:
    """SQLite: the writer thread kept busy until the test calls the function given, so
    every write made meanwhile waits, and the writer takes them all as one group.
    PostgreSQL: nothing to hold (each write is its own transaction)."""
    if store.backend.kind != "sqlite":
        yield lambda: None
        return
    release = threading.Event()
    busy = sqlite_of(store).on_writer(lambda _: release.wait(timeout=60))
    try:
        yield release.set
    finally:
        release.set()
        await busy
