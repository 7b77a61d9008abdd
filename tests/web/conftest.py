"""The browser face served in the test's own event loop: the table service on a SQLite
store in a temporary folder, the web application over it, and pages (sockets) that
remember every frame they were sent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import TableService
from data import open_store, sqlite_url
from data.repository import Repository
from web.activity import Activities
from web.identity import Signer
from web.server import make_app

SECRET = b"a secret for the tests"


@dataclass
class Page:
    """One browser page's socket: what it was sent, and how to wait for the next."""

    session: aiohttp.ClientSession
    socket: aiohttp.ClientWebSocketResponse
    guest_id: str | None
    frames: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, **message: Any) -> None:
        await self.socket.send_str(json.dumps(message))

    async def next(self, kind: str | None = None) -> dict[str, Any]:
        """The next frame (of ``kind``), as the server sent it."""
        while True:
            message = await asyncio.wait_for(self.socket.receive(), 10)
            assert message.type is aiohttp.WSMsgType.TEXT, message
            frame: dict[str, Any] = json.loads(message.data)
            self.frames.append(frame)
            if kind is None or frame["type"] == kind:
                return frame

    async def table_at(self, version: int) -> dict[str, Any]:
        """The newest table frame, once it is of ``version`` or later."""
        tables = [frame for frame in self.frames if frame["type"] == "table"]
        if tables and tables[-1]["version"] >= version:
            return tables[-1]
        while True:
            frame = await self.next("table")
            if frame["version"] >= version:
                return frame


class Site:
    """The web face under test, on one store: open pages on it, or restart it (a new
    service and server on the same store, as after a crash or a deploy)."""

    def __init__(
        self,
        store: Repository,
        activities: Activities | None = None,
        public_hosts: tuple[str, ...] = (),
    ) -> None:
        self.store = store
        self.activities = activities
        self.public_hosts = public_hosts
        self.pages: list[Page] = []

    async def start(self) -> None:
        self.service = TableService(self.store, computer_pace=0.0)
        self.client: TestClient[Any, Any] = TestClient(
            TestServer(
                make_app(
                    self.service, Signer(SECRET), self.activities, public_hosts=self.public_hosts
                )
            )
        )
        await self.client.start_server()
        await self.service.resume()

    async def stop(self) -> None:
        await self.client.close()
        await self.service.close()

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    async def open_page(
        self, name: str | None = None, language: str = "en-US", guest: Page | None = None
    ) -> Page:
        """A new page with its own cookies: a guest called ``name``, a spectator (no
        name), or another page of ``guest``'s (the same cookies)."""
        session = guest.session if guest is not None else aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True)
        )  # fmt: skip
        headers = {"Origin": self.origin, "Accept-Language": language}
        guest_id = guest.guest_id if guest is not None else None
        if name is not None:
            answer = await session.post(
                self.client.make_url("/api/guest"), json={"name": name}, headers=headers
            )
            guest_id = (await answer.json())["id"]
        socket = await session.ws_connect(self.client.make_url("/ws"), headers=headers)
        page = Page(session, socket, guest_id)
        self.pages.append(page)
        await page.next("hello")
        return page

    @property
    def origin(self) -> str:
        return str(self.client.make_url("")).rstrip("/")

    async def close_pages(self) -> None:
        sessions = {id(page.session): page.session for page in self.pages}
        for page in self.pages:
            await page.socket.close()
        for session in sessions.values():
            await session.close()
        self.pages.clear()


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Repository]:
    async with await open_store(sqlite_url(tmp_path / "web.db")) as opened:
        yield opened


@pytest.fixture
async def site(store: Repository) -> AsyncIterator[Site]:
    served = Site(store)
    await served.start()
    yield served
    await served.close_pages()
    await served.stop()
