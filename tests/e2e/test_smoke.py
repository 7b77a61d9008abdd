from __future__ import annotations

import dataclasses
from typing import Any

import discord
from discord import app_commands

from bot.client import DominoBot
from tests.e2e.conftest import Running
from tests.e2e.driver import open_lobby
from tests.fakediscord.fixtures import Server


async def test_the_bot_connects_registers_commands_and_opens_a_table(
    running: Running, server: Server
) -> None:
    await running.start()
    assert any(c["name"] == "domino" for c in server.fake.commands[None])
    ann = server.member("Ann")
    lobby = await open_lobby(server.fake, ann, server.channels[0], game="cross")
    assert "Cross" in lobby.text() and "Ann" in lobby.text()


async def test_the_bot_asks_discord_for_no_message_events(running: Running, server: Server) -> None:
    """Everything a player does reaches the bot as an interaction: with the messages
    intent, Discord would send every message posted in its servers' channels (the
    bot's own table posts included) for it to parse and drop."""
    await running.start()
    intents = discord.Intents._from_value(server.fake.gateway.sessions[-1].intents)
    assert intents.guilds
    assert not (intents.guild_messages or intents.dm_messages or intents.guild_typing)
    assert not (intents.members or intents.presences or intents.message_content)


class BotWithOneMoreCommand(DominoBot):
    """The bot after an update that added a command."""

    async def setup_hook(self) -> None:
        async def ping(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        self.tree.add_command(app_commands.Command(name="ping", description="…", callback=ping))
        await super().setup_hook()


async def test_commands_sync_to_the_dev_server_and_only_when_they_change(
    running: Running, server: Server
) -> None:
    running.settings = dataclasses.replace(running.settings, dev_guild_id=server.guild_id)
    await running.start()
    assert [c["name"] for c in server.fake.commands[server.guild_id]] == ["domino"]
    assert None not in server.fake.commands, "nothing was synced globally"
    await running.stop()
    await running.start()
    assert server.fake.sync_count == 1, "the same commands are not synced again"
    await running.stop()
    running.bot_class = BotWithOneMoreCommand
    await running.start()
    assert server.fake.sync_count == 2
    assert {c["name"] for c in server.fake.commands[server.guild_id]} == {"domino", "ping"}


async def test_a_global_sync_keeps_the_activitys_entry_point_command(
    running: Running, server: Server
) -> None:
    """With Activities turned on, Discord refuses an overwrite of the global commands
    that would drop their Entry Point command ("Launch"): it is sent back as it was."""
    launch = server.fake.activities.enable()
    await running.start()
    synced = server.fake.commands[None]
    assert {c["name"] for c in synced} == {"domino", "launch"}
    kept = next(c for c in synced if c["name"] == "launch")
    assert kept["id"] == launch["id"] and kept["handler"] == launch["handler"]
