from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.sqlite import SqliteStore
from tests.tables.helpers import Clock


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    store = await SqliteStore.open(tmp_path / "domino.db")
    yield store
    await store.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()
