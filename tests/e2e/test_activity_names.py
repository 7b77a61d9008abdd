"""Who an Activity's page speaks for, as the Discord face confirms it against the fake
Discord (``discord_face/activity.py``, with the bot's own intents): the member is named
as the chat's buttons name them, by their name in that server, asked of Discord each
time; a member Discord cannot look up is refused, never named otherwise."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest
from discord.ext import commands

import discord_face.acting
from bot.refusals import NotConfirmed, NotInActivity
from discord_face.activity import DiscordActivities, RefusalsCounted
from tests.fakediscord.activities import CLIENT_SECRET
from tests.fakediscord.fixtures import Server, make_server, start_bot, stop_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import Member
from web.activity import Participant

MEMBER_ROUTE = "/guilds/{guild_id}/members/{user_id}"


@dataclass
class Confirming:
    """The fake with a server, and the Discord face's Activities on a bot client
    connected to it."""

    fake: FakeDiscord
    server: Server
    activities: DiscordActivities

    async def participant(self, member: Member, guild_id: int | None = None) -> Participant:
        """``member`` opens the Activity in a channel of their server (or of
        ``guild_id``), their page signs in, and the face confirms them."""
        fake = self.fake
        guild_id = guild_id or self.server.guild_id
        channel = fake.guilds[guild_id]["channels"][0]
        instance = fake.activities.launch(fake.application_id, channel, guild_id, member.id)
        token = await self.activities.exchange(fake.activities.authorize(member.id))
        return await self.activities.participant(token, instance)


@pytest.fixture
async def confirming(fake_discord: FakeDiscord) -> AsyncIterator[Confirming]:
    server = make_server(fake_discord)
    # Ready once the fake's servers are in (discord.py's own wait for more is 2 s).
    client = commands.Bot(
        command_prefix="!", intents=discord.Intents(guilds=True), guild_ready_timeout=0.05
    )
    task = await start_bot(client)
    activities = DiscordActivities(client, str(fake_discord.application_id), CLIENT_SECRET)
    try:
        yield Confirming(fake_discord, server, activities)
    finally:
        await activities.close()
        await stop_bot(client, task)


async def test_a_member_is_named_by_their_name_in_the_server(confirming: Confirming) -> None:
    ann = confirming.server.member("Ann", nick="Annie")
    bob = confirming.server.member("Bob")
    annie = await confirming.participant(ann)
    assert (annie.user_id, annie.name) == (ann.id, "Annie")
    assert (annie.guild_id, annie.channel_id) == (ann.guild_id, confirming.server.channels[0])
    assert (await confirming.participant(bob)).name == "Bob"  # no nickname: the global name


async def test_a_nickname_changed_or_removed_is_the_name_at_the_next_asking(
    confirming: Confirming,
) -> None:
    ann = confirming.server.member("Ann", nick="Annie")
    assert (await confirming.participant(ann)).name == "Annie"
    confirming.fake.set_nick(ann.guild_id, ann.id, "Ann the Bold")
    assert (await confirming.participant(ann)).name == "Ann the Bold"
    confirming.fake.set_nick(ann.guild_id, ann.id, None)
    assert (await confirming.participant(ann)).name == "Ann"


async def test_a_member_discord_does_not_answer_for_is_refused(confirming: Confirming) -> None:
    """Discord refusing the lookup (here a 403) is "not confirmed", as Discord not
    answering for the token is: the page is told to open the Activity again."""
    ann = confirming.server.member("Ann", nick="Annie")
    confirming.fake.fail_next("GET", MEMBER_ROUTE, 403)
    with pytest.raises(NotConfirmed):
        await confirming.participant(ann)
    assert (await confirming.participant(ann)).name == "Annie"


async def test_no_longer_a_member_or_a_server_the_bot_is_not_in_has_no_table(
    confirming: Confirming,
) -> None:
    fake = confirming.fake
    ann = confirming.server.member("Ann", nick="Annie")
    channel = confirming.server.channels[0]
    instance = fake.activities.launch(fake.application_id, channel, ann.guild_id, ann.id)
    token = await confirming.activities.exchange(fake.activities.authorize(ann.id))
    fake.guilds[ann.guild_id]["members"].remove(ann.id)  # she left, her Activity still open
    with pytest.raises(NotInActivity):
        await confirming.activities.participant(token, instance)

    elsewhere = fake.add_guild("Without the bot", channels=1)  # made after the bot connected
    cy = Member(fake, elsewhere["id"], "Cy")
    with pytest.raises(NotInActivity):
        await confirming.participant(cy, elsewhere["id"])


async def test_forged_tokens_stop_reaching_discord_before_it_bars_the_bot(
    confirming: Confirming,
) -> None:
    """Any page can send forged tokens as fast as it likes, and each is a request Discord
    refuses; enough of those in ten minutes and Discord bars the bot's address from its
    whole API. Past the share the face allows itself, a page is refused without asking
    (a member too, for that while), and asked about again once the oldest refusals are
    ten minutes old."""
    fake = confirming.fake
    now = [0.0]
    activities = DiscordActivities(
        confirming.activities.client,
        str(fake.application_id),
        CLIENT_SECRET,
        RefusalsCounted(most=3, seconds=600.0, clock=lambda: now[0]),
    )
    ann = confirming.server.member("Ann")
    channel = confirming.server.channels[0]
    instance = fake.activities.launch(fake.application_id, channel, ann.guild_id, ann.id)

    def asked() -> int:
        return sum(1 for method, path, _ in fake.requests if path == "/oauth2/@me")

    try:
        token = await activities.exchange(fake.activities.authorize(ann.id))
        for _ in range(5):
            with pytest.raises(NotConfirmed):
                await activities.participant("forged", instance)
        assert asked() == 3
        with pytest.raises(NotConfirmed):
            await activities.participant(token, instance)
        assert asked() == 3
        now[0] = 600.0
        assert (await activities.participant(token, instance)).user_id == ann.id
    finally:
        await activities.close()


async def test_a_member_signing_in_before_the_bot_knows_its_servers_is_confirmed_after(
    fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The browser's server takes pages before the bot has connected to Discord, and a
    restart brings every open Activity page back at once: a member signing in then is
    confirmed once the bot knows its servers, not told they are in no Activity; if it
    takes too long, they are told to try again."""
    server = make_server(fake_discord)
    client = commands.Bot(
        command_prefix="!", intents=discord.Intents(guilds=True), guild_ready_timeout=0.05
    )
    await client.login("fake-token")  # as the bot stands in its setup_hook
    activities = DiscordActivities(client, str(fake_discord.application_id), CLIENT_SECRET)
    confirming = Confirming(fake_discord, server, activities)
    ann = server.member("Ann", nick="Annie")
    connecting: asyncio.Task[None] | None = None
    try:
        monkeypatch.setattr(discord_face.acting, "READY_SECONDS", 0.05)
        with pytest.raises(NotConfirmed):
            await confirming.participant(ann)
        monkeypatch.setattr(discord_face.acting, "READY_SECONDS", 20.0)
        asking = asyncio.create_task(confirming.participant(ann))
        connecting = asyncio.create_task(client.connect())
        assert (await asking).name == "Annie"
    finally:
        await activities.close()
        if connecting is not None:
            await stop_bot(client, connecting)
        else:
            await client.close()
