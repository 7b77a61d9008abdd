"""Each storage test runs once on SQLite and once on PostgreSQL (see ``databases``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import open_store, sqlite_url
from data.repository import Repository
from tests.data.databases import Database, postgres_schema


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A new, empty database: a file of its own, or a schema of its own."""
    if request.param == "sqlite":
        yield Database("sqlite", sqlite_url(tmp_path / "var" / "test.db"))
        return
    async with postgres_schema() as url:
        yield Database("postgresql", url)


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Repository]:
    opened = await open_store(database.url)
    yield opened
    await opened.close()
