"""Where the slash commands are: synced for whichever application's token the bot is
started with."""

from __future__ import annotations

from tests.e2e.conftest import Running
from tests.fakediscord.fixtures import Server


async def test_another_applications_token_gets_the_commands(
    running: Running, server: Server
) -> None:
    await running.start()
    await running.stop()
    server.fake.another_application()  # a new token in .env, the same folder
    await running.start()
    assert running.bot is not None and running.bot.application_id == server.fake.application_id
    assert [c["name"] for c in server.fake.commands[None]] == ["domino"]
