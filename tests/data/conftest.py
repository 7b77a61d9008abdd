from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.sqlite import SqliteStore


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    """A fresh database per test."""
    opened = await SqliteStore.open(tmp_path / "var" / "test.db")
    yield opened
    await opened.close()
