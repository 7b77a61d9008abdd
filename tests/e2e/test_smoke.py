from __future__ import annotations

from tests.e2e.driver import open_lobby
from tests.fakediscord.fixtures import Server


async def test_the_bot_connects_registers_commands_and_opens_a_table(
    running, server: Server
) -> None:
    await running.start()
    assert any(c["name"] == "domino" for c in server.fake.commands[None])
    ann = server.member("Ann")
    lobby = await open_lobby(server.fake, ann, server.channels[0], game="cross")
    assert "Cross" in lobby.text() and "Ann" in lobby.text()
