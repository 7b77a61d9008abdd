"""The browser face's benchmark (``benchmarks/web.py``) talks the protocol as it is: its
pages open, join, start and play a whole game on the real web face, every move reaching
every socket of the table, and its bookkeeping counts a move's arrival once per socket."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import aiohttp

from benchmarks.web import Move, Page, Party, legal_actions
from benchmarks.web import Site as Bench
from tests.web.conftest import Site


def frame(table: str, version: int) -> dict[str, Any]:
    return {"type": "table", "id": table, "version": version}


def test_a_move_arrives_once_per_socket_and_only_with_a_newer_version() -> None:
    ann, bob = (Page(None, None) for _ in range(2))  # type: ignore[arg-type]
    move = Move("ab12cd34", 7, sent=10.0, waiting={ann, bob})
    assert not move.arrived(ann, frame("ab12cd34", 7), 10.5)  # the version it was sent on
    assert not move.arrived(ann, frame("ffffffff", 9), 10.5)  # another table
    assert not move.arrived(ann, frame("ab12cd34", 8), 10.002)
    assert not move.arrived(ann, frame("ab12cd34", 9), 10.004)  # already had it
    assert move.arrived(bob, frame("ab12cd34", 8), 10.003)
    assert [round(ms) for ms in move.arrivals] == [2, 3]


def test_the_actions_are_the_hands_moves_then_draw_or_pass() -> None:
    hand = [{"tile": "6-5", "moves": [{"move": "6-5 N"}, {"move": "6-5 S"}]},
            {"tile": "1-1", "moves": []}]  # fmt: skip
    offered = {"hand": hand, "draw_move": "draw", "pass_move": None}
    assert legal_actions(offered) == [("play", "6-5 N"), ("play", "6-5 S"), ("draw", None)]
    assert legal_actions({"hand": None, "draw_move": None, "pass_move": "pass"}) == [("pass", None)]


async def test_a_table_of_pages_plays_a_whole_game_every_move_to_every_socket(
    site: Site,
) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
        bench = Bench(site.origin, session)
        guests = [await bench.open_page(name, "en-US") for name in ("Ann", "Bob", "Cy")]
        spectator = await bench.open_page(None, "pt-BR")
        party = Party("cross", guests, spectator, random.Random(3), think=0.0, lobby=True)
        readers = [asyncio.create_task(page.read()) for page in party.pages]
        try:
            first = await party.open_table()
            assert first is not None and first["status"] == "playing"
            assert await party.play_game(first)
        finally:
            for reader in readers:
                reader.cancel()
            for page in party.pages:
                await page.socket.close()
    assert party.moves and not party.in_flight
    assert all(not m.refused and len(m.arrivals) == 4 for m in party.moves)
    assert not any(page.refusals for page in party.pages)
    assert guests[0].lists > 0 and not guests[1].lists  # the host's page followed the lobby
    last = guests[0].table
    assert last is not None and last["status"] == "finished"
