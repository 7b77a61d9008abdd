"""Where the slash commands are: synced to the server DEV_GUILD_ID names, or to every
server; a server's copy taken out once DEV_GUILD_ID no longer names it (so it lists
/domino once), the global commands never taken out of their own accord; and synced for
whichever application's token the bot is started with."""

from __future__ import annotations

import dataclasses

import pytest

from tests.e2e.conftest import Running
from tests.e2e.driver import open_lobby
from tests.fakediscord.fixtures import Server
from tests.fakediscord.fixtures import _Collect as Collected


def domino_listed_in(server: Server) -> int:
    """How many /domino commands a member of the server is offered: Discord lists the
    server's own commands beside the global ones."""
    return sum(
        command["name"] == "domino"
        for scope in (server.guild_id, None)
        for command in server.fake.commands.get(scope, [])
    )


async def test_emptying_dev_guild_id_leaves_one_domino_in_the_trial_server(
    running: Running, server: Server
) -> None:
    running.settings = dataclasses.replace(running.settings, dev_guild_id=server.guild_id)
    await running.start()
    assert domino_listed_in(server) == 1
    await running.stop()
    running.settings = dataclasses.replace(running.settings, dev_guild_id=None)  # trial over
    await running.start()
    assert [c["name"] for c in server.fake.commands[None]] == ["domino"]
    assert server.fake.commands[server.guild_id] == [], "the trial server's copy is gone"
    assert domino_listed_in(server) == 1


async def test_setting_dev_guild_id_on_a_bot_synced_globally_leaves_the_other_servers_theirs(
    running: Running, server: Server
) -> None:
    """An owner looks into one server's trouble with DEV_GUILD_ID: every other server
    keeps /domino (that one lists it twice meanwhile), and emptied again, the server's
    copy goes."""
    launch = server.fake.activities.enable()
    await running.start()  # no DEV_GUILD_ID: synced globally
    await running.stop()
    running.settings = dataclasses.replace(running.settings, dev_guild_id=server.guild_id)
    await running.start()
    assert [c["name"] for c in server.fake.commands[server.guild_id]] == ["domino"]
    assert {c["name"] for c in server.fake.commands[None]} == {"domino", "launch"}
    await running.stop()
    running.settings = dataclasses.replace(running.settings, dev_guild_id=None)
    await running.start()  # and back: the server's copy taken out
    assert domino_listed_in(server) == 1
    launched = [c for c in server.fake.commands[None] if c["name"] == "launch"]
    assert [c["id"] for c in launched] == [launch["id"]], "the Entry Point as it was"


async def test_another_applications_token_gets_the_commands(
    running: Running, server: Server
) -> None:
    await running.start()
    await running.stop()
    server.fake.another_application()  # a new token in .env, the same folder
    await running.start()
    assert running.bot is not None and running.bot.application_id == server.fake.application_id
    assert [c["name"] for c in server.fake.commands[None]] == ["domino"]


async def test_a_trial_server_the_bot_was_removed_from_is_let_go(
    running: Running, server: Server
) -> None:
    """Discord refuses the commands of a server the bot is no longer in: it has none of
    ours to take out, and the next starts do not ask again."""
    running.settings = dataclasses.replace(running.settings, dev_guild_id=server.guild_id)
    await running.start()
    await running.stop()
    await server.fake.remove_bot(server.guild_id)  # Discord refuses its commands there now
    running.settings = dataclasses.replace(running.settings, dev_guild_id=None)
    await running.start()
    assert [c["name"] for c in server.fake.commands[None]] == ["domino"]
    await running.stop()
    server.fake.requests.clear()
    await running.start()
    asked = [path for method, path, _ in server.fake.requests if method == "PUT"]
    assert not asked, "nothing is synced or taken out again"


async def test_a_trial_servers_copy_synced_before_markers_named_their_application_goes(
    running: Running, server: Server
) -> None:
    """An operator who tried the bot on a release that kept ``commands-guild-<id>.sha256``
    empties DEV_GUILD_ID after updating: that server's copy is taken out all the same."""
    running.settings = dataclasses.replace(running.settings, dev_guild_id=server.guild_id)
    await running.start()
    await running.stop()
    folder = running.settings.local_folder
    [marker] = folder.glob("commands-*.sha256")
    marker.rename(folder / f"commands-guild-{server.guild_id}.sha256")  # as it was named
    running.settings = dataclasses.replace(running.settings, dev_guild_id=None)
    await running.start()
    assert domino_listed_in(server) == 1
    assert [c["name"] for c in server.fake.commands[None]] == ["domino"]


@pytest.mark.parametrize("trial", [False, True], ids=["live-bot", "trial-bot"])
async def test_a_dev_guild_id_naming_a_server_the_bot_is_not_in_is_told_and_the_bot_runs(
    running: Running, server: Server, error_log: Collected, trial: bool
) -> None:
    """A typo in DEV_GUILD_ID (Discord refuses that server's commands): the bot still
    starts, the commands stay where they were (every server's, or the trial server's),
    and the log names the setting."""
    if trial:
        running.settings = dataclasses.replace(running.settings, dev_guild_id=server.guild_id)
    await running.start()
    await running.stop()
    typo = server.guild_id + 1
    running.settings = dataclasses.replace(running.settings, dev_guild_id=typo)
    await running.start()
    [told] = error_log.records
    assert f"DEV_GUILD_ID={typo} names a server the bot is not in" in told.getMessage()
    error_log.records.clear()
    assert domino_listed_in(server) == 1, "the commands stay where they were"
    await open_lobby(server.fake, server.member("Ann"), server.channels[0], game="cross")
