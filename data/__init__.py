"""Storage: :func:`open_store` gives the :class:`~data.repository.Repository` for a
``DATABASE_URL``, over SQLite (the default: one file, no other service) or PostgreSQL."""

from __future__ import annotations

from data.backend import Backend
from data.repository import Repository
from data.url import DEFAULT_DATABASE_URL, DatabaseUrl, parse_url, sqlite_url

__all__ = [
    "DEFAULT_DATABASE_URL", "DatabaseUrl", "open_backend", "open_store", "parse_url", "sqlite_url",
]  # fmt: skip


async def open_store(url: str) -> Repository:
    """Open the database ``url`` names (see :mod:`data.url`), bring its schema up to date
    and check that it can be written. ValueError for a URL of no known kind;
    :class:`~data.errors.StoreError` for a database that cannot be used, with nothing
    left open behind it."""
    return await Repository.open(await open_backend(url))


async def open_backend(url: str) -> Backend:
    """The backend alone: connected, its schema as it is (tests and benchmarks set up
    databases through it)."""
    target = parse_url(url)
    if target.path is not None:
        from data.sqlite import SqliteBackend

        return await SqliteBackend.open(target.path)
    from data.postgres import PostgresBackend  # asyncpg is imported only when asked for

    return await PostgresBackend.open(target.url)
