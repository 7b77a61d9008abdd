"""A channel where the server's owner has not given the bot what it needs: the member who
asks for a table there is told privately which permissions the bot lacks, and no table
is opened that could never be posted."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence

import pytest

from bot.client import DominoBot
from bot.events import Event
from bot.service import TableService
from bot.snapshot import TableSnapshot
from bot.table import Status, Table
from discord_face.announcer import Announcer
from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, open_lobby, seated_game, service_of
from tests.e2e.test_discord_failures import play_by_slash
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)

NAMES = {
    VIEW_CHANNEL: "View Channel",
    SEND_MESSAGES: "Send Messages",
    EMBED_LINKS: "Embed Links",
    ATTACH_FILES: "Attach Files",
    READ_MESSAGE_HISTORY: "Read Message History",
    CREATE_PUBLIC_THREADS: "Create Public Threads",
    SEND_MESSAGES_IN_THREADS: "Send Messages in Threads",
}


@pytest.mark.parametrize(
    "denied",
    [(SEND_MESSAGES,), (ATTACH_FILES,), (EMBED_LINKS, READ_MESSAGE_HISTORY), (VIEW_CHANNEL,)],
)
async def test_a_table_is_not_opened_where_the_bot_cannot_post_it(
    running: Running, server: Server, denied: tuple[int, ...]
) -> None:
    bot = await running.start()
    ann = server.member("Ann")
    channel = server.channels[0]
    await server.fake.deny(channel, *denied)
    reply = await (await ann.slash("domino new", channel, game="cross")).reply()
    assert reply.visible_to == ann.id
    for permission, name in NAMES.items():
        assert (name in reply.content) == (permission in denied), reply.content
    assert "Something went wrong" not in reply.content
    assert service_of(bot).in_channel(channel) is None, "no table was opened"
    assert service_of(bot).of_user(server.guild_id, ann.id) is None
    assert server.fake.public(channel) == []


async def test_with_threads_on_the_thread_permissions_are_needed_too(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    boss = server.member("Boss", manager=True)
    channel = server.channels[0]
    await (await boss.slash("domino settings", channel, threads=True)).reply()
    await server.fake.deny(channel, SEND_MESSAGES_IN_THREADS)
    reply = await (await boss.slash("domino new", channel, game="cross")).reply()
    assert reply.visible_to == boss.id and "Send Messages in Threads" in reply.content
    assert "Create Public Threads" not in reply.content, reply.content
    assert service_of(bot).in_channel(channel) is None
    await server.fake.deny(channel)  # given back: the table opens, in a thread
    lobby = await open_lobby(server.fake, boss, channel, game="cross")
    await server.fake.wait_for(lambda: service_of(bot).in_channel(lobby.id))


async def test_status_says_what_is_missing_instead_of_promising_a_post(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    ann = next(iter(driver.members.values()))
    posts = len(server.fake.public(driver.channel_id))
    await server.fake.deny(driver.channel_id, ATTACH_FILES)
    reply = await (await ann.slash("domino status", driver.channel_id)).reply()
    assert reply.visible_to == ann.id and "Attach Files" in reply.content, reply.content
    assert "posted again" not in reply.content
    assert service_of(bot).in_channel(driver.channel_id) is not None, "the table stays open"
    assert len(server.fake.public(driver.channel_id)) == posts


class Closings:
    """A listener of the table service (no face of Discord's) that notes each table that
    closes, so a test can wait for a close that posts nothing."""

    face = "test"
    catches_up = False

    def shows(self, guild_id: int) -> bool:
        return True

    def forgotten(self, user_id: int) -> None:
        return None

    def __init__(self) -> None:
        self.closed: dict[str, asyncio.Event] = {}

    def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
        if not table.is_open:
            self.closed.setdefault(table.id, asyncio.Event()).set()

    async def close(self) -> None:
        """Nothing under way."""

    async def of(self, table_id: str) -> None:
        await asyncio.wait_for(self.closed.setdefault(table_id, asyncio.Event()).wait(), 10)


def announcing(bot: DominoBot, table_id: str) -> bool:
    """Whether the tables' announcer still has something of ``table_id`` to post (and so
    tries again until Discord takes it)."""
    announcer = getattr(bot.get_cog("Tables"), "announcer", None)
    assert isinstance(announcer, Announcer)
    return table_id in announcer._feeds


async def a_move_in(running: Running, server: Server) -> tuple[DominoBot, Driver, Table]:
    """The bot started, and a two-seat Cross game one move in."""
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    await driver.play_one()
    table = driver.table()
    assert table is not None
    return bot, driver, table


async def closed_by(service: TableService, table: Table, cause: Awaitable[None]) -> None:
    """``cause`` closes ``table``, stored as it stood and then closed, one version on."""
    closings = Closings()
    service.add_listener(closings)
    await cause
    await closings.of(table.id)
    stored = await service.store.get_table(table.id)
    assert stored is not None and stored.status == Status.CANCELLED
    assert stored.version == table.version + 1, "the game as it stood, then its close"


@pytest.mark.parametrize("in_thread", [False, True])
async def test_a_table_whose_channel_is_deleted_closes_with_its_state_stored(
    running: Running, server: Server, in_thread: bool
) -> None:
    """A moderator deletes the channel (or the thread the table plays in) mid-game: the
    table is closed and stored so, its players are free to sit elsewhere, and the bot
    stops posting there rather than trying again for ever."""
    if in_thread:  # the table is opened in a thread of the first channel
        thread = server.fake.add_channel(
            server.guild_id, "domino", kind=11, parent=server.channels[0]
        )
        server.channels.insert(0, thread)
    bot, driver, table = await a_move_in(running, server)
    service = service_of(bot)
    await closed_by(service, table, server.fake.delete_channel(driver.channel_id))
    assert all(service.of_user(server.guild_id, m) is None for m in driver.members)
    assert not announcing(bot, table.id)
    ann = next(iter(driver.members.values()))
    await open_lobby(server.fake, ann, server.channels[-1], game="cross")


async def test_a_channel_deleted_unseen_is_found_gone_by_the_next_post(
    running: Running, server: Server
) -> None:
    """The channel was deleted while the bot was not told (it was restarting): the next
    post's 404 Unknown Channel closes the table as the event would have."""
    bot = await running.start()
    service = service_of(bot)
    driver = await seated_game(server, service, "cross", 2, {"target": 100})
    table = driver.table()
    assert table is not None
    closings = Closings()
    service.add_listener(closings)
    await play_by_slash(driver, 404)
    await closings.of(table.id)
    stored = await service.store.get_table(table.id)
    assert stored is not None and stored.status == Status.CANCELLED
    assert all(service.of_user(server.guild_id, m) is None for m in driver.members)
    assert not announcing(bot, table.id)


async def test_the_tables_of_a_server_the_bot_is_removed_from_close(
    running: Running, server: Server
) -> None:
    """Removed from a server mid-game, the bot can post there no more and its members
    can end nothing: each of its tables is closed, stored as it stood, and nothing more
    is posted or tried again for it."""
    bot, _, table = await a_move_in(running, server)
    service = service_of(bot)
    await closed_by(service, table, server.fake.remove_bot(server.guild_id))
    assert service.in_guild(server.guild_id) == []
    assert not announcing(bot, table.id)


async def closed_at_start(running: Running, table: Table) -> DominoBot:
    """The bot started again: ``table`` is closed as it starts (waited for, if not yet),
    and stored so."""
    bot = await running.start()
    service = service_of(bot)
    closings = Closings()
    service.add_listener(closings)
    if service.find(table.id) is not None:  # not closed yet: wait for it
        await closings.of(table.id)
    stored = await service.store.get_table(table.id)
    assert stored is not None and stored.status == Status.CANCELLED
    return bot


async def test_the_tables_of_a_server_that_removed_the_bot_while_it_was_down_close(
    running: Running, server: Server
) -> None:
    """Removed while the bot was stopped, it is told nothing; at its start Discord lists
    the servers it is in, without that one, and the server's tables close then."""
    bot, _, table = await a_move_in(running, server)
    await running.stop()
    await server.fake.remove_bot(server.guild_id)
    bot = await closed_at_start(running, table)
    assert not announcing(bot, table.id)


async def test_a_table_whose_channel_was_deleted_while_the_bot_was_down_closes_at_its_start(
    running: Running, server: Server
) -> None:
    """Nobody was connected to be told: at its start the bot looks up the channels it
    does not know of its tables, and closes the one Discord no longer has, its players
    free to sit elsewhere at once (not after a turn's time, or a lobby's idle hour)."""
    _, driver, table = await a_move_in(running, server)
    await running.stop()
    await server.fake.delete_channel(driver.channel_id)
    await closed_at_start(running, table)
    ann = next(iter(driver.members.values()))
    await open_lobby(server.fake, ann, server.channels[-1], game="cross")
