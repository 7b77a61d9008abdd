"""Shutting the bot down: every connection is closed even when a step before it fails, so
the process can always exit (an open store keeps a non-daemon worker thread running)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import DominoBot
from bot.config import Settings
from bot.service import TableService
from data import open_store, sqlite_url
from data.repository import StoreError


async def test_the_client_and_the_store_close_even_when_stopping_the_tables_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opened and closed as ``bot.client.run`` does: the store around the bot."""
    settings = Settings(discord_token="fake-token", database_url=sqlite_url(tmp_path / "domino.db"))
    store = await open_store(settings.database_url)

    async def broken() -> None:
        raise RuntimeError("the clock would not stop")

    with pytest.raises(RuntimeError, match="clock would not stop"):
        async with store, DominoBot(settings, store) as bot:
            bot.service = TableService(store, computer_pace=0.0)
            monkeypatch.setattr(bot.service, "close", broken)
    assert bot.is_closed()
    with pytest.raises(StoreError, match="closed"):
        await store.load_active_tables()
