"""What reaches the channel, and how: a move stored but never posted (the bot died
between the two) is shown at once after a restart, with no older message keeping its
buttons; a move made by a click costs at most one request against Discord's global
limit; a table that changes faster than its pictures can go out skips the stale ones;
tables are posted a few at a time; a draw and what follows it is one turn, posted
once."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from bot.client import DominoBot
from bot.engine import DRAW, PASS, Move
from bot.events import Event, Moved
from bot.table import Table
from discord_face import announcer as announcer_module
from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, open_lobby, seated_game, service_of, table_messages
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import Message
from tests.fakediscord.users import Member
from words import play as wording


def announcer_of(bot: DominoBot) -> Any:
    """The tables cog's announcer (the cog's module is loaded as an extension, so its
    class is not the one this test module imports)."""
    return getattr(bot.get_cog("Tables"), "announcer")  # noqa: B009


async def test_a_move_stored_but_never_posted_is_shown_at_once_after_a_restart(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    await driver.play_one()

    def mover_ends_the_turn() -> bool:
        """The member to move has a move that ends the turn at once (not a draw)."""
        now = driver.table()
        assert now is not None
        return any(m is not DRAW for m in now.legal_for(driver.mover(now).id))

    while not mover_ends_the_turn():
        await driver.play_one()
    posted = len(table_messages(server.fake, driver.channel_id))

    async def died_before_posting(*args: object) -> None:
        """The process ends between the commit and the post: nothing posted, nothing
        recorded as shown."""

    announcer_of(bot)._announce = died_before_posting
    table = driver.table()
    assert table is not None
    mover = driver.mover(table)
    move = next(m for m in table.legal_for(mover.id) if m is not DRAW)
    if move.tile is None:
        await (await mover.slash(f"domino {move.text}", driver.channel_id)).reply()
    else:
        options = {"tile": str(move.tile)} | ({"end": move.end_name} if move.end_name else {})
        await (await mover.slash("domino play", driver.channel_id, **options)).reply()
    stored = driver.table()
    assert stored is not None and stored.version == table.version + 1
    assert len(table_messages(server.fake, driver.channel_id)) == posted, "not posted"
    await running.stop()

    bot = await running.start()
    driver = Driver(server.fake, service_of(bot), driver.channel_id, driver.members)
    await server.fake.wait_for(driver.settled)
    shown = table_messages(server.fake, driver.channel_id)
    assert len(shown) == posted + 1 and driver.latest_version() == stored.version
    assert not any(m.buttons() for m in shown[:-1]), "no older message keeps buttons"
    mover_name = stored.seats[table.seat_to_move()].name
    assert mover_name in shown[-1].content, "the move that was never posted is told"


async def test_a_move_made_by_a_click_costs_at_most_one_request_against_the_global_limit(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "merry-go-round", 2, {})
    limiter = server.fake.limiter
    assert limiter is not None
    for _ in range(12):
        before = limiter.requests["global"]
        await driver.play_one()
        if driver.finished():
            break
        assert limiter.requests["global"] - before <= 1, "a human move: at most one"
    counted = announcer_of(bot).posts
    assert counted["interaction"] > counted["global"]


async def test_a_table_faster_than_its_pictures_skips_the_stale_ones(
    running: Running, server: Server
) -> None:
    """Computer moves at full speed (milliseconds apart), and five requests a second for
    the bot (a fifth of a second each, far slower than the moves): each post shows the
    newest state, never queued old ones, and the game still ends."""
    running.settings = dataclasses.replace(running.settings, requests_per_second=5)
    bot = await running.start()
    ann = server.member("Ann")
    channel = server.channels[0]
    lobby = await open_lobby(server.fake, ann, channel, game="milo", target=1)
    for number in (1, 2, 3):
        levels = await (await ann.click(lobby, "Add computer")).reply()
        await ann.click(levels, "Easy")

        def seated(number: int = number) -> bool:
            return f"Computer {number} (easy)" in server.fake.messages[lobby.id].text()

        await server.fake.wait_for(seated)
    table = service_of(bot).in_channel(channel)
    assert table is not None and len(table.seats) == 4
    table_id = table.id
    await ann.click(lobby, "Start")
    driver = Driver(server.fake, service_of(bot), channel, {ann.id: ann})
    while not driver.finished():
        await driver.play_one()
    versions = [int(m.buttons()[0]["custom_id"].split(":")[2])
                for m in table_messages(server.fake, channel) if m.buttons()]  # fmt: skip
    posts = len(table_messages(server.fake, channel))
    made = [a for a in await bot.store.actions_since(table_id, 0) if a["moves"]]
    assert posts < len(made), "some states were never pictured: skipped, not queued"
    assert versions == sorted(versions), "each post newer than the one before"


def event(seat: int, move: str) -> Event:
    return Moved(seat, Move.parse(move))


def test_a_draw_and_what_follows_it_is_one_line() -> None:
    table = Table.__new__(Table)
    names = ["Ann", "Bob"]
    seat = dataclasses.make_dataclass("S", ["name", ("level", object, None)])
    table.seats = tuple(seat(n) for n in names)
    lines = wording.event_lines(table, [Moved(0, DRAW), Moved(0, PASS), event(1, "6-5 N")])
    assert lines == ["Ann draws and passes.", "Bob plays 6-5 on N."]
    lines = wording.event_lines(table, [Moved(1, DRAW), Moved(1, DRAW), event(1, "3-1 E")])
    assert lines == ["Bob draws 2 tiles and plays the last, 3-1, on E."]
    assert wording.event_lines(table, [Moved(0, DRAW), event(0, "6-1 W")]) == [
        "Ann draws 6-1 and plays it on W."
    ]


async def test_tables_are_posted_a_few_at_a_time_and_every_one_reaches_its_channel(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Posts are the event loop's heaviest work, so only so many tables are posted at
    once (here one) and the clicks' answers are not queued behind all of them; the
    other tables wait their turn, and each channel still shows its table as it is."""
    monkeypatch.setattr(announcer_module, "POSTS_AT_ONCE", 1)
    bot = await running.start()
    announcer = announcer_of(bot)
    under_way: list[object] = []
    most = 0
    announce = announcer._announce

    async def counted(*args: object) -> None:
        nonlocal most
        under_way.append(args)
        most = max(most, len(under_way))
        try:
            await announce(*args)
        finally:
            under_way.remove(args)

    announcer._announce = counted
    names = (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"))
    pairs = [(server.member(host), server.member(guest)) for host, guest in names]
    lobbies = []
    for channel, (host, guest) in zip(server.channels, pairs, strict=True):
        lobby = await open_lobby(server.fake, host, channel, game="cross", target=100)
        await guest.click(lobby, "Join")

        def joined(lobby: Message = lobby, guest: Member = guest) -> bool:
            return guest.name in server.fake.messages[lobby.id].text()

        await server.fake.wait_for(joined)
        lobbies.append(lobby)
    starts = [host.click(lobby, "Start") for (host, _), lobby in zip(pairs, lobbies, strict=True)]
    await asyncio.gather(*starts)
    for channel, (host, guest) in zip(server.channels, pairs, strict=True):
        driver = Driver(server.fake, service_of(bot), channel, {host.id: host, guest.id: guest})
        await server.fake.wait_for(driver.settled)
        table = driver.table()
        assert table is not None and driver.latest_version() == table.version
    assert most == 1, "one table posted at a time"
