"""The page names the members a table's words name who have no seat there, as the chat
does by mentioning them: a rematch's lobby the players whose seats it keeps, a
tournament's table its organiser, who hosts it unseated, and its players until they
sit; never as "?" (which a screen reader reads out as "question mark"). A member who
asked to be forgotten is named no more, on the page or in the stored table."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.service import NewTable, TournamentSeats
from data.repository import Repository
from tests.web.conftest import Site
from tests.web.test_activity import CHANNEL, GUILD, Discord
from tests.web.test_socket import play_on, seated_game

ORGANISER = 99


def kept_seats(frame: dict[str, Any]) -> str:
    """What the lobby card says of the seats it keeps (its one field that names them)."""
    kept = [field["value"] for field in frame["card"]["fields"] if "kept" in field["value"]]
    assert len(kept) == 1, json.dumps(frame["card"])
    return str(kept[0])


async def test_a_rematch_lobby_names_the_players_whose_seats_it_keeps(site: Site) -> None:
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"])
    while frame["status"] == "playing":
        frame = await play_on([ann, bob], frame, turns=500)
    assert frame["status"] == "finished"
    await ann.send(type="act", table=frame["id"], version=frame["version"], action="rematch")
    lobby = await ann.next("table")
    assert lobby["status"] == "lobby" and lobby["id"] != frame["id"]
    assert kept_seats(lobby) == "Seats kept for Bob: press Rematch or Join."


@pytest.fixture
async def in_discord(store: Repository) -> AsyncIterator[Site]:
    """The web face with Activities: Ann (101) and Bob (102) in an instance in CHANNEL."""
    served = Site(
        store,
        Discord(users={"ann-token": (101, "Ann")}, instances={"i-1": (CHANNEL, {101, 102})}),
    )
    await served.start()
    yield served
    await served.close_pages()
    await served.stop()


async def test_a_tournament_table_names_its_host_and_players_until_the_host_is_forgotten(
    in_discord: Site, store: Repository
) -> None:
    site = in_discord
    table = await site.service.open_table(
        NewTable(GUILD, CHANNEL, ORGANISER, "Org", "cross"),
        drawn=TournamentSeats("t0000001", (101, 102), names=((101, "Ann"), (102, "Bob"))),
    )
    ann = await site.open_page()
    await ann.send(type="activity", token="ann-token", instance="i-1")
    shown = await ann.next("table")
    assert shown["id"] == table.id and shown["status"] == "lobby"
    assert shown["card"]["description"].startswith("Host: Org · ")
    assert kept_seats(shown) == "Seats kept for Ann, Bob: press Rematch or Join."

    await site.service.forget(ORGANISER)  # they organise it, they sit nowhere
    after = await ann.table_at(shown["version"] + 1)
    assert "Org" not in json.dumps(after), "a forgotten member is named no more"
    assert after["card"]["description"].startswith("Host: ? · ")
    assert kept_seats(after) == "Seats kept for Ann, Bob: press Rematch or Join."
    stored = await store.get_table(table.id)
    assert stored is not None and "Org" not in json.dumps(stored.state)
