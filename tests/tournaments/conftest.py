"""What the tournament service's tests share: a fresh SQLite store for each test (the
PostgreSQL side of storing tournaments is tests/data's)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import open_store, sqlite_url
from data.repository import Repository


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Repository]:
    async with await open_store(sqlite_url(tmp_path / "t.db")) as opened:
        yield opened
