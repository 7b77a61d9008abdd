"""A restart never posts a move twice nor leaves an old message with live buttons: the
bot stopped (or killed) just after a table message went out, before it noted it, finds
the message in the channel when it comes back. And the member to move gets their whole
turn again after a restart."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.commands import Join
from bot.events import Cancelled, Event, GameOver
from bot.service import TableService
from bot.service.clock import REMIND_AT
from bot.table import Table
from data import open_store, parse_url
from data.models import TableRow
from data.repository import Repository
from discord_face import acting
from tests.e2e.conftest import Running
from tests.e2e.driver import (
    ENGLISH,
    Driver,
    Words,
    lobby_messages,
    seated_game,
    service_of,
    shown_version,
    table_messages,
)
from tests.e2e.process import bot_process, connected, start_game, take_turn
from tests.fakediscord.fixtures import Server, make_server, serving
from tests.fakediscord.server import FakeDiscord, Message
from words import i18n


def posted_version(message: Message) -> int | None:
    """The table version a message was posted for (its buttons may be gone since)."""
    buttons = [c for row in message.posted_with for c in row.get("components", [])]
    return int(buttons[0]["custom_id"].split(":")[2]) if buttons else None


def posted_twice(messages: list[Message]) -> list[int]:
    """The table versions posted in more than one message."""
    versions = Counter(posted_version(m) for m in messages)
    return [v for v, n in versions.items() if v is not None and n > 1]


async def only_the_last_is_live(fake: FakeDiscord, channel: int) -> list[Message]:
    """Once the bot has finished posting, only the game's last message has buttons (it
    fails, after a while, if an older one keeps live buttons); the table's messages."""
    await fake.wait_for(
        lambda: not any(m.buttons() for m in table_messages(fake, channel)[:-1]), 10
    )
    return table_messages(fake, channel)


async def test_a_post_not_noted_before_a_stop_is_found_not_posted_again(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    service = service_of(bot)
    driver = await seated_game(server, service, "cross", 2, {"target": 10})
    channel = server.channels[0]
    for _ in range(2):
        await driver.play_one()
    await server.fake.wait_for(driver.settled)

    async def forgetful(self: TableService, *args: object) -> None:
        """The bot stops between a post and noting it."""

    service.remember_message = forgetful.__get__(service)  # type: ignore[method-assign]
    await driver.play_one()
    await server.fake.wait_for(driver.settled)
    unnoted = shown_version(table_messages(server.fake, channel)[-1])
    await running.stop()
    table = driver.table()
    assert table is not None
    assert driver.service.shown("discord", table.id).version < table.version, "not noted"
    bot = await running.start()
    driver = Driver(server.fake, service_of(bot), channel, driver.members)
    while not driver.finished():
        await driver.play_one()
    messages = await only_the_last_is_live(server.fake, channel)
    assert sum(1 for m in messages if posted_version(m) == unnoted) == 1
    assert posted_twice(messages) == []


async def test_a_game_end_stored_but_not_posted_before_a_stop_is_posted_after_it(
    running: Running, server: Server
) -> None:
    """The bot stopped between storing the game's last move and telling any face: after
    the restart the channel gets the game-over card, once, and the last table message
    keeps no live buttons; a later restart posts nothing more."""
    bot = await running.start()
    service = service_of(bot)
    driver = await seated_game(server, service, "cross", 2, {"target": 10})
    channel = server.channels[0]
    stops_before_telling(service, GameOver)
    while driver.table() is not None:
        await driver.play_one(shown=False)
    assert not driver.finished(), "the end was stored, not posted"
    await running.stop()

    driver.service = service_of(await running.start())
    await server.fake.wait_for(driver.finished)
    messages = await only_the_last_is_live(server.fake, channel)
    assert posted_twice(messages) == []
    winner = driver.words.says("Winner: {name}")
    ends = [m for m in messages if any(winner.fullmatch(e.get("title", "")) for e in m.embeds)]
    assert len(ends) == 1
    await running.stop()  # lets the post under way finish and note what it showed
    assert await ends_unshown(running) == [], "a restart posts no more"


async def test_a_post_caught_up_after_a_restart_speaks_the_servers_preferred_language(
    running: Running, server: Server
) -> None:
    """A server that chose no language is spoken to in its preferred locale, which the
    bot reads from the server as Discord sends it. After a restart the bot catches its
    channels up before it has connected to Discord: what it posts then waits for the
    server to be known, and is in its language (Brazilian Portuguese here), not English."""
    bot = await running.start()
    service = service_of(bot)
    driver = await seated_game(server, service, "cross", 2, {"target": 10})
    stops_before_telling(service, GameOver)
    while driver.table() is not None:
        await driver.play_one(shown=False)
    await running.stop()
    server.fake.guilds[server.guild_id]["preferred_locale"] = "pt-BR"

    driver.service = service_of(await running.start())
    driver.words = Words(i18n.for_locale("pt-BR"))
    await server.fake.wait_for(driver.finished)  # "Vencedor: …": in English, it never comes


async def test_a_cancel_stored_but_not_posted_before_a_stop_is_posted_after_it(
    running: Running, server: Server
) -> None:
    """The host closed a table in play and the bot stopped before telling any face: after
    the restart the channel is told the table is closed, once, and the table message
    loses its buttons."""
    service = service_of(await running.start())
    driver = await seated_game(server, service, "cross", 2, {"target": 10})
    channel = server.channels[0]
    await driver.play_one()
    stops_before_telling(service, Cancelled)
    host = next(iter(driver.members.values()))
    await (await host.slash("domino end", channel)).reply()
    assert driver.table() is None, "the cancel was stored"
    await running.stop()
    assert [row.id for row in await ends_unshown(running)] == [driver.table_id]

    await running.start()
    closed = driver.words.says("The {game} table was closed.")

    def notices() -> list[Message]:
        return [m for m in server.fake.public(channel) if closed.fullmatch(m.content)]

    await server.fake.wait_for(notices)
    assert not any(m.buttons() for m in table_messages(server.fake, channel))
    await running.stop()
    assert len(notices()) == 1
    assert await ends_unshown(running) == []


async def opened_unposted(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann opens a table in the first channel (answered privately), and the bot stops
    before it posts the lobby."""
    await running.start()

    async def stopped(*args: object) -> None:
        """The bot stops before the lobby is posted."""

    monkeypatch.setattr(acting, "post_lobby", stopped)
    await (await server.member("Ann").slash("domino new", server.channels[0], game="cross")).reply()
    await running.stop()
    monkeypatch.undo()


async def test_a_lobby_opened_but_not_posted_before_a_stop_is_posted_after_it(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopped between opening a table (its host answered privately) and
    posting its lobby: the channel was taken by a table nobody could see or join. After
    the restart the channel gets the lobby, once, and its Join button seats a member."""
    channel, bob = server.channels[0], server.member("Bob")
    await opened_unposted(running, server, monkeypatch)
    assert lobby_messages(server.fake, channel) == []
    await running.start()
    [lobby] = await server.fake.wait_for(lambda: lobby_messages(server.fake, channel))
    await bob.click(lobby, ENGLISH.label("join"))
    await server.fake.wait_for(lambda: "Bob" in server.fake.messages[lobby.id].text())
    await running.stop()
    assert len(lobby_messages(server.fake, channel)) == 1


async def test_an_action_stored_while_the_bot_posts_a_lobby_itself_is_shown_in_it(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lobby nobody's command posted (one opened before a stop, or a rematch asked for
    in the Activity) is posted by the bot itself; a join stored while Discord is still
    taking that post (from the Activity, here straight through the core) is shown in
    the lobby once it is up, not noted as shown and left out."""
    channel, bob = server.channels[0], server.member("Bob")
    await opened_unposted(running, server, monkeypatch)
    held = server.fake.hold_next("POST", "/channels/{channel_id}/messages")
    bot = await running.start()
    await asyncio.wait_for(held.arrived.wait(), 10)
    table = service_of(bot).in_channel(channel)
    assert table is not None
    await service_of(bot).act(table.id, Join(bob.id, "Bob"))
    held.release.set()
    [lobby] = await server.fake.wait_for(lambda: lobby_messages(server.fake, channel))
    await server.fake.wait_for(lambda: "Bob" in server.fake.messages[lobby.id].text())
    assert shown_version(server.fake.messages[lobby.id]) == table.version + 1


@pytest.mark.parametrize("threads", [False, True], ids=["in-the-channel", "threads-on"])
async def test_a_lobby_posted_but_not_noted_before_a_stop_is_not_posted_again(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch, threads: bool
) -> None:
    """The bot stopped between posting a lobby and noting it (the store had not kept
    the note): after the restart the lobby is found, so it is kept, not posted a second
    time beside the first (nor in the thread it started, with threads on: its table
    plays there, but the lobby stays in the channel), and a Join edits it."""
    await running.start()
    channel = server.channels[0]
    ann, bob = server.member("Ann"), server.member("Bob")
    if threads:
        boss = server.member("Boss", manager=True)
        await (await boss.slash("domino settings", channel, threads=True)).reply()
    stored = Repository.set_shown

    async def lost(store: Repository, table_id: str, face: str, *args: Any) -> None:
        """The bot knows what the channel shows, but the store never gets the note."""
        if face != acting.FACE:
            await stored(store, table_id, face, *args)

    monkeypatch.setattr(Repository, "set_shown", lost)
    await (await ann.slash("domino new", channel, game="cross")).reply()
    [posted] = await server.fake.wait_for(lambda: lobby_messages(server.fake, channel))
    if threads:
        await server.fake.wait_for(lambda: posted.id in server.fake.channels)
    await running.stop()
    monkeypatch.undo()
    await running.start()
    await bob.click(posted, ENGLISH.label("join"))
    await server.fake.wait_for(lambda: "Bob" in server.fake.messages[posted.id].text())
    await running.stop()
    assert lobby_messages(server.fake, channel) == [server.fake.messages[posted.id]]
    assert lobby_messages(server.fake, posted.id) == [], "none in its thread"


def stops_before_telling(service: TableService, kind: type[Event]) -> None:
    """The bot stops between storing an action that caused ``kind`` and telling any
    face of it."""
    tell = service.tell

    def stopped(table: Table, events: Sequence[Event], via: object | None) -> None:
        if not any(isinstance(event, kind) for event in events):
            tell(table, events, via)

    service.tell = stopped  # type: ignore[method-assign]


async def ends_unshown(running: Running) -> list[TableRow]:
    """The closed tables whose end the channel has not been shown, as the stopped bot's
    store says: what its next start hands back."""
    async with await open_store(running.settings.database_url) as store:
        return await store.load_unshown_ends(["discord"], 0)


async def test_killed_right_after_each_of_several_posts_nothing_is_posted_twice(
    tmp_path: Path,
) -> None:
    async with serving(FakeDiscord()) as fake:
        server = make_server(fake)
        channel = server.channels[0]
        sessions = 0
        with bot_process(fake, tmp_path) as bot:
            await connected(fake, server, sessions)
            await start_game(server)
            assert await take_turn(fake, server)
            bot.kill()  # SIGKILL the moment the table message is in the channel
            await asyncio.to_thread(bot.wait)
        for _ in range(2):  # again, right after the first post of the restarted bot
            sessions = len(fake.gateway.sessions)
            with bot_process(fake, tmp_path) as bot:
                await connected(fake, server, sessions)
                assert await take_turn(fake, server)
                bot.kill()
                await asyncio.to_thread(bot.wait)
        sessions = len(fake.gateway.sessions)
        with bot_process(fake, tmp_path):
            await connected(fake, server, sessions)
            for _ in range(300):
                if not await take_turn(fake, server):
                    break
            messages = await only_the_last_is_live(fake, channel)
    assert messages[-1].embeds[0]["title"].startswith("Winner:"), "the game reached its end"
    assert posted_twice(messages) == []


async def test_after_a_restart_the_member_to_move_has_a_whole_turn_again(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 10})
    await driver.play_one()
    await server.fake.wait_for(driver.settled)
    await running.stop()
    path = parse_url(running.settings.database_url).path
    assert path is not None
    with sqlite3.connect(path) as db:  # the bot was down for most of the turn
        db.execute(
            "UPDATE active_tables SET state = json_set(state, '$.deadline', ?) WHERE id = ?",
            (time.time() + 5, driver.table_id),
        )
    restarted = time.time()
    service = service_of(await running.start())
    timer = (await service.settings(server.guild_id)).turn_timer_seconds
    table = service.tables[driver.table_id]
    assert table.deadline is not None and table.deadline >= restarted + timer
    reminder = service.tables.scheduled(driver.table_id, reminder=True)
    assert reminder is not None and reminder >= restarted + timer * (1 - REMIND_AT)
