from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.client import DominoBot
from bot.config import Settings
from data import open_store, sqlite_url
from data.repository import Repository
from tests.fakediscord.fixtures import Server, make_server, start_bot, stop_bot
from tests.fakediscord.server import FakeDiscord

COACH_BUDGET = 0.05
"""The coach's work a judged move in these tests: a twentieth of the expert's (every game
with a member's seat is analysed at its end, and the machine is shared)."""


@dataclass
class Running:
    """The bot running against the fake, restartable."""

    fake: FakeDiscord
    settings: Settings
    bot: DominoBot | None = None
    task: asyncio.Task[None] | None = None
    bot_class: type[DominoBot] = DominoBot

    store: Repository | None = None

    async def start(self) -> DominoBot:
        """Open the store and start a bot on it, as ``python -m bot`` does."""
        self.store = await open_store(self.settings.database_url)
        bot = self.bot_class(self.settings, self.store, guild_ready_timeout=0.05)
        bot.coach.budget = COACH_BUDGET  # set before the start, which takes up games
        try:
            self.task = await start_bot(bot)  # a bot that never gets ready is closed there
        except BaseException:
            await self.store.close()
            raise
        self.bot = bot
        return bot

    async def stop(self) -> None:
        """Stop the running bot, then close its store; nothing to do when none runs."""
        if self.bot is not None and self.task is not None:
            bot, task = self.bot, self.task
            self.bot, self.task = None, None
            try:
                await stop_bot(bot, task)
            finally:
                if self.store is not None:
                    await self.store.close()


@pytest.fixture
async def running(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Running]:
    settings = Settings(
        discord_token="fake-token",
        database_url=sqlite_url(tmp_path / "var" / "domino.db"),
        computer_pace_seconds=0.0,
    )
    run = Running(fake_discord, settings)
    yield run
    await run.stop()


@pytest.fixture
def server(fake_discord: FakeDiscord) -> Server:
    return make_server(fake_discord)
