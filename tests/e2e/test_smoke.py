from __future__ import annotations

from tests.fakediscord.fixtures import Server


async def test_the_bot_connects_registers_commands_and_opens_a_table(
    running, server: Server
) -> None:
    await running.start()
    assert any(c["name"] == "domino" for c in server.fake.commands[None])
    ann = server.member("Ann")
    sent = await ann.slash("domino new", server.channels[0], game="cross")
    reply = await sent.reply()
    assert reply.visible_to is None and "Cross" in reply.text()
