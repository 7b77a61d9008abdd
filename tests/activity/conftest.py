"""The Activity tests' fixtures: the real bot against the fake Discord with the Activity
on (its web server at ``WEB_PORT``, ``DISCORD_CLIENT_SECRET`` the fake's), Discord's
frame (``tests/activity/frame.py``) and Chromium driven as in ``tests/browser``.

The fake Discord, the bot and the frames' server run on an event loop of their own in a
thread (:class:`World`): the tests drive Chromium with Playwright's sync API on the main
thread, reuse the browser tests' harness as it is, and hand the world the members'
clicks to run (:meth:`World.run`). Without Chromium the folder is skipped as one, as
``tests/browser`` is, and with ``DOMINO_BROWSER_TESTS=required`` it fails instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from bot.client import DominoBot
from bot.config import Settings
from data import open_store, sqlite_url
from tests.activity.frame import Activity, FrameServer, open_activity, problems
from tests.browser.harness import Monitor, free_port
from tests.browser.skipping import launched, module_or_skip
from tests.fakediscord.fixtures import Server, limits_for, make_server, serving, start_bot, stop_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import Member

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

T = TypeVar("T")
WORLD_SECONDS = 60.0
"""The longest one step handed to the world may take (a member's move takes well under a
second): a bound that turns a hang into a failure naming the step."""


def pytest_pycollect_makemodule(
    module_path: Path, parent: pytest.Collector
) -> pytest.Module | None:
    return module_or_skip(module_path, parent)


class World:
    """The fake Discord with Activities on, a server with channels, the bot (as
    ``python -m bot`` makes it, with ``WEB_PORT`` and ``DISCORD_CLIENT_SECRET``) and the
    frames' server, on their own event loop in a thread."""

    def __init__(
        self, folder: Path, request: pytest.FixtureRequest, *, activity: bool = True
    ) -> None:
        self.folder = folder
        self.activity = activity
        self.limits = limits_for(request)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="activity-world")
        self._stack = contextlib.AsyncExitStack()
        self.fake: FakeDiscord
        self.server: Server
        self.bot: DominoBot
        self.frames: FrameServer

    @property
    def page(self) -> str:
        """The bot's page, as Discord's proxy maps the Activity's root to it."""
        return f"http://127.0.0.1:{self.bot.settings.web_port}/"

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = WORLD_SECONDS) -> T:
        """Run ``coroutine`` in the world; its result (or its exception)."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def call(self, function: Callable[[], T]) -> T:
        """Call ``function`` in the world's thread (what it touches is the world's)."""

        async def called() -> T:
            return function()

        return self.run(called())

    def member(self, name: str, nick: str | None = None) -> Member:
        """A new member of the server (``nick``: their nickname there)."""
        return self.call(lambda: self.server.member(name, nick=nick))

    def start(self) -> None:
        self.thread.start()
        try:
            self.run(self._up())
        except BaseException:
            self.stop()
            raise

    async def _up(self) -> None:
        stack = self._stack
        self.fake = await stack.enter_async_context(serving(FakeDiscord(rate_limits=self.limits)))
        self.fake.activities.enable()
        self.server = make_server(self.fake)
        self.frames = FrameServer(self.fake)
        await self.frames.start()
        stack.push_async_callback(self.frames.stop)
        settings = Settings(
            discord_token=self.fake.token,
            database_url=sqlite_url(self.folder / "var" / "domino.db"),
            computer_pace_seconds=0.0,
            web_host="127.0.0.1",
            web_port=free_port(),
            web_secret="activity-tests",
            discord_client_secret=self.fake.activities.client_secret if self.activity else None,
        )
        store = await open_store(settings.database_url)
        stack.push_async_callback(store.close)
        bot = DominoBot(settings, store, guild_ready_timeout=0.05)
        task = await start_bot(bot, self.fake.token)
        stack.push_async_callback(stop_bot, bot, task)
        self.bot = bot

    def stop(self) -> None:
        """Stop the bot, the frames' server and the fake (which fails on any request it
        found against Discord's rules), then the loop and its thread."""
        try:
            if self.thread.is_alive():
                self.run(self._stack.aclose())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(WORLD_SECONDS)
            self.loop.close()


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the folder."""
    with launched() as browser:
        yield browser


@pytest.fixture
def world(error_log: object, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    """The world of one test; at the end the bot must have logged no error (``error_log``)
    and the fake seen nothing against Discord's rules. Parametrized indirectly with
    False, the bot has no Activity set up (no client secret), as a bot whose owner never
    turned it on, while Discord still runs the instances and shows the page."""
    made = World(tmp_path, request, activity=getattr(request, "param", True))
    made.start()
    yield made
    made.stop()


@pytest.fixture
def monitor() -> Iterator[Monitor]:
    """Every frame each Activity's page receives, checked at the end: a hand sent to
    anyone but its owner fails the test."""
    watching = Monitor()
    yield watching
    watching.check()


class Activities:
    """Opens members' Activities in the browser; at the end each frame must have seen
    the page keep Discord's protocol, and every context is closed."""

    def __init__(self, browser: Browser, world: World, monitor: Monitor) -> None:
        self.browser = browser
        self.world = world
        self.monitor = monitor
        self.opened: list[Activity] = []

    def open(
        self,
        member: Member,
        instance_id: str,
        *,
        page: str | None = None,
        locale: str = "en-US",
        prepare: Callable[[BrowserContext], None] | None = None,
        width: int = 1280,
    ) -> Activity:
        """``member`` opens the Activity ``instance_id`` (a frame stands for them, in it
        or not), in their Discord's ``locale``, ``width`` pixels wide: the bot's page, or
        ``page``."""
        shown = page or self.world.page
        stand = self.world.call(
            lambda: self.world.frames.stand(member.id, instance_id, shown, locale=locale)
        )
        activity = open_activity(
            self.browser, self.monitor, self.world.frames.url, stand, member.name, prepare, width
        )
        activity.sdk = self.world.activity
        self.opened.append(activity)
        return activity

    def close(self) -> list[str]:
        """Close every context; what each frame found against the protocol."""
        found = [f"{a.person.label}: {p}" for a in self.opened for p in problems(a)]
        contexts: list[BrowserContext] = [a.person.context for a in self.opened]
        for context in contexts:
            context.close()
        return found


@pytest.fixture
def activities(browser: Browser, world: World, monitor: Monitor) -> Iterator[Activities]:
    made = Activities(browser, world, monitor)
    yield made
    found = made.close()
    assert not found, "\n".join(found)
