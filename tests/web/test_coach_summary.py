"""The coach in the browser: once a finished game is analysed (by itself, at its end), the
page that shows its table is sent the game's summary again with each member's accuracy,
as the stored analysis holds it, and a page that opens the finished table later is shown
it too; the accuracy is a figure, and no hand is sent to a page not seated there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.coaching import Coach
from bot.players.coach import Analysis
from bot.service import TableService
from data.repository import Repository
from tests.players.test_coach import SMALL
from tests.web.conftest import SECRET, Site
from tests.web.test_socket import against_the_computer_to_the_end
from web.identity import Signer
from web.server import FACE_KEY, make_app


class CoachedSite(Site):
    """The web face with the coach started beside it, as ``python -m bot`` runs them."""

    async def start(self) -> None:
        self.service = TableService(self.store, computer_pace=0.0)
        self.coach = Coach(SMALL)
        app = make_app(self.service, Signer(SECRET), self.activities, self.coach)
        self.client: TestClient[Any, Any] = TestClient(TestServer(app))
        await self.client.start_server()
        await self.service.resume()
        await self.coach.start(self.service)


@pytest.fixture
async def coached(store: Repository) -> AsyncIterator[CoachedSite]:
    served = CoachedSite(store)
    await served.start()
    yield served
    await served.close_pages()
    await served.stop()  # the service closes the coach, one of its listeners


def accuracy_of(frame: dict[str, Any]) -> list[str]:
    """The summary's accuracy lines (none before the analysis)."""
    fields = [f["value"] for f in frame["card"]["fields"] if f["name"] == "Accuracy"]
    return fields[0].split("\n") if fields else []


async def test_the_finished_tables_summary_gets_each_members_accuracy(
    coached: CoachedSite,
) -> None:
    ann = await coached.open_page("Ann")
    frame = await against_the_computer_to_the_end(ann, seed=5)
    assert frame["card"]["title"].startswith("Winner: ")
    assert accuracy_of(frame) == [], "the game has just ended: no analysis yet"

    await coached.coach.settled()
    stored = await coached.store.get_analysis(frame["game_id"])
    analysis = Analysis.from_dict(stored)
    [seat] = analysis.seats  # Ann's alone: a computer's moves are its own
    said = [f"Ann {round(seat.accuracy or 0)}%"]
    summary = await ann.next("table")
    assert summary["id"] == frame["id"] and summary["version"] == frame["version"]
    assert accuracy_of(summary) == said
    assert summary["card"]["title"] == frame["card"]["title"], "still the game's summary"
    assert summary["lines"] == [] and summary["ended"] == frame["ended"]

    later = await coached.open_page()  # a spectator, who opens the finished table
    await later.send(type="watch", table=frame["id"])
    shown = await later.next("table")
    assert accuracy_of(shown) == said and shown["card"]["title"] == frame["card"]["title"]
    assert shown["hand"] is None


async def test_an_analysis_that_comes_once_the_rematch_is_open_leaves_its_pages_on_it(
    coached: CoachedSite,
) -> None:
    """The coach may finish after a member pressed Play again: the finished table's
    summary is kept for whoever opens it, but not sent to the channel's pages, which
    show the rematch now (the page followed it back to the finished game)."""
    ann = await coached.open_page("Ann")
    frame = await against_the_computer_to_the_end(ann, seed=5)
    await ann.send(type="act", table=frame["id"], version=frame["version"], action="rematch")
    again = await ann.next("table")
    assert again["status"] == "lobby" and again["id"] != frame["id"]
    await coached.coach.settled()
    game = await coached.store.get_game(frame["game_id"])
    stored = await coached.store.get_analysis(frame["game_id"])
    assert game is not None and stored is not None
    face = coached.client.app[FACE_KEY]
    await face.analysed(game, Analysis.from_dict(stored), again=False)  # as if it came now
    await ann.send(type="lang", lang="es-ES")  # answered with the table the page shows
    await ann.next("hello")
    shown = await ann.next("table")
    assert shown["id"] == again["id"]
    tables = [f for f in ann.frames if f["type"] == "table"]
    assert all(f["id"] == again["id"] for f in tables[tables.index(again) :])
