"""A channel where the server's owner has not given the bot what it needs: the member who
asks for a table there is told privately which permissions the bot lacks, and no table
is opened that could never be posted."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Running
from tests.e2e.driver import open_lobby, seated_game, service_of
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
