"""pytest fixtures: the fake server, the bot against it, and a guard that fails a test
on any ERROR logged by discord.py or the bot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import discord
import pytest
import yarl
from discord.ext import commands

from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import Member

WATCHED_LOGGERS = ("discord", "bot", "cogs", "discord_face", "rendering", "data")
SPEED = 50.0
"""How much faster than Discord's the fixture's rate-limit clock runs (see
:attr:`RateLimits.speed`): the members here click within milliseconds, and at Discord's
own pace a whole game's table messages would wait minutes on the channel's 5-per-5-s
bucket. ``pytest --discord-speed 1`` runs the tests at Discord's pace."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--discord-speed",
        type=float,
        default=SPEED,
        help=f"run the fake Discord's rate limits this many times faster (default {SPEED:g})",
    )


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in WATCHED_LOGGERS:
            self.records.append(record)


@pytest.fixture
def error_log() -> Iterator[_Collect]:
    handler = _Collect()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)
    assert not handler.records, [f"{r.name}: {r.getMessage()}" for r in handler.records]


@contextlib.asynccontextmanager
async def serving(fake: FakeDiscord) -> AsyncIterator[FakeDiscord]:
    """Start ``fake`` and point discord.py at it; afterwards stop it, and fail on any
    request it found against Discord's rules."""
    await fake.start()
    routes = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield fake
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = routes
        await fake.stop()
    assert not fake.violations, fake.violations


def limits_for(request: pytest.FixtureRequest) -> RateLimits:
    """Discord's rate limits, at the ``--discord-speed`` of this run."""
    return RateLimits(speed=request.config.getoption("--discord-speed"))


@pytest.fixture
async def fake_discord(
    error_log: _Collect, request: pytest.FixtureRequest
) -> AsyncIterator[FakeDiscord]:
    """The fake, started, with Discord's rate limits on (at ``--discord-speed``), and
    discord.py pointed at it."""
    async with serving(FakeDiscord(rate_limits=limits_for(request))) as fake:
        yield fake


@dataclass
class Server:
    """A guild with channels and members, on the fake."""

    fake: FakeDiscord
    guild_id: int
    channels: list[int]
    members: dict[str, Member] = field(default_factory=dict)

    def member(self, name: str, *, manager: bool = False, nick: str | None = None) -> Member:
        self.members[name] = Member(self.fake, self.guild_id, name, manager=manager, nick=nick)
        return self.members[name]


def make_server(
    fake: FakeDiscord, name: str = "Test Server", channels: int = 3, shard: int | None = None
) -> Server:
    guild = fake.add_guild(name, channels, shard)
    return Server(fake, guild["id"], list(guild["channels"]))


async def start_bot(
    client: commands.Bot | commands.AutoShardedBot, token: str = "fake-token"
) -> asyncio.Task[None]:
    """Run ``client`` until it is ready; returns the task that runs it. If it never gets
    ready, it is closed (its store too, whose thread would hang the test run's exit)
    before the error is raised."""
    ready = asyncio.Event()

    async def on_ready() -> None:
        ready.set()

    client.add_listener(on_ready, "on_ready")
    task = asyncio.create_task(client.start(token))
    waiter = asyncio.create_task(ready.wait())
    try:
        done, _ = await asyncio.wait(
            {task, waiter}, timeout=20, return_when=asyncio.FIRST_COMPLETED
        )
        if task in done:
            task.result()  # raises what stopped the client
        if waiter not in done:
            raise AssertionError("the bot did not become ready")
    except BaseException:
        waiter.cancel()
        task.cancel()
        await stop_bot(client, task)
        raise
    return task


async def stop_bot(client: discord.Client, task: asyncio.Task[None]) -> None:
    """Close the client (a second close does nothing), then wait for its task to end; if
    closing fails, the task is cancelled rather than left running."""
    try:
        await client.close()
    except BaseException:
        task.cancel()
        raise
    finally:
        await asyncio.gather(task, return_exceptions=True)


def database_path(tmp_path: Path) -> Path:
    return tmp_path / "var" / "domino.db"
