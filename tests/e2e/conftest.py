from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.client import DominoBot
from bot.config import Settings
from tests.fakediscord.fixtures import Server, make_server, start_bot, stop_bot
from tests.fakediscord.server import FakeDiscord


@dataclass
class Running:
    """The bot running against the fake, restartable."""

    fake: FakeDiscord
    settings: Settings
    bot: DominoBot | None = None
    task: object = None
    bot_class: type[DominoBot] = DominoBot

    async def start(self) -> DominoBot:
        self.bot = self.bot_class(self.settings, guild_ready_timeout=0.05)
        self.task = await start_bot(self.bot)
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None:
            await stop_bot(self.bot, self.task)  # type: ignore[arg-type]
            self.bot = None


@pytest.fixture
async def running(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Running]:
    settings = Settings(
        discord_token="fake-token",
        database_path=tmp_path / "var" / "domino.db",
        computer_pace_seconds=0.0,
    )
    run = Running(fake_discord, settings)
    yield run
    await run.stop()


@pytest.fixture
def server(fake_discord: FakeDiscord) -> Server:
    return make_server(fake_discord)
