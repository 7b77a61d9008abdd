"""A browser guest who opens a table and goes (the tab closed, a private window, the
cookie lost) does not leave its lobby open for good: nobody else may cancel it there,
so the clock closes it once nothing has happened in it for a while, and every page that
shows it, or follows the list of open tables, is told."""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.service import TableService
from bot.service.clock import LOBBY_IDLE_SECONDS
from tests.tables.helpers import Clock
from tests.web.conftest import SECRET, Site
from tests.web.test_socket import open_table
from web.identity import Signer
from web.server import make_app


class ClockedSite(Site):
    """The site on a clock the test moves."""

    async def start(self) -> None:
        self.clock = Clock()
        self.service = TableService(self.store, computer_pace=0.0, clock=self.clock)
        self.client: TestClient[Any, Any] = TestClient(
            TestServer(make_app(self.service, Signer(SECRET)))
        )
        await self.client.start_server()
        await self.service.resume()


async def test_a_lobby_whose_host_has_gone_is_closed_and_every_page_told_why(
    store: Any,
) -> None:
    site = ClockedSite(store)
    await site.start()
    try:
        gone = await site.open_page("Gone")
        opened = await open_table(gone)
        await gone.socket.close()
        await gone.session.close()  # the cookie goes with the private window
        site.pages.remove(gone)
        ann, bob = await site.open_page("Ann"), await site.open_page("Bob")
        await ann.send(type="lobby")
        assert [t["id"] for t in (await ann.next("tables"))["tables"]] == [opened["id"]]
        await bob.send(type="watch", table=opened["id"])
        assert (await bob.next("table"))["status"] == "lobby"

        site.clock.now += LOBBY_IDLE_SECONDS
        await asyncio.gather(*site.service.run_due())

        closed = await bob.table_at(opened["version"] + 1)
        assert closed["status"] == "cancelled"
        assert closed["lines"] == [
            "The Cross table was closed: nobody joined or started it for 1 hour."
        ]
        assert (await ann.next("tables"))["tables"] == []
    finally:
        await site.close_pages()
        await site.stop()
