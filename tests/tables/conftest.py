from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import open_store, sqlite_url
from data.repository import Repository
from tests.tables.helpers import Clock


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Repository]:
    store = await open_store(sqlite_url(tmp_path / "domino.db"))
    yield store
    await store.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()
