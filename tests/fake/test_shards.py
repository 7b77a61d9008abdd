"""The fake serves sharded gateways as Discord does: each connection that IDENTIFYs with
``shard: [id, count]`` is told of, and sent the events and interactions of, only the
guilds on its shard; a connection without ``shard`` gets everything; a shard that is asked
to reconnect resumes its own session and is sent what it missed."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord.fixtures import Server, make_server, serving
from tests.fakediscord.gateway import guild_of, shard_of
from tests.fakediscord.server import FakeDiscord

TIMEOUT = 10.0


class Recorder:
    """What reaches a discord.py client over its gateway connections, counted by
    (event, guild id); it answers every interaction with the client's label, so a
    member's reply names the client that got the interaction."""

    def __init__(self, client: discord.Client, label: str) -> None:
        self.label = label
        self.received: Counter[tuple[str, int | None]] = Counter()
        self._arrived = asyncio.Condition()
        client.event(self.on_socket_raw_receive)
        client.event(self.on_interaction)

    async def on_socket_raw_receive(self, message: str) -> None:
        payload = json.loads(message)
        if payload["op"] == 0:
            self.received[payload["t"], guild_of(payload["t"], payload["d"])] += 1
            async with self._arrived:
                self._arrived.notify_all()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"answered by {self.label}")

    def guilds(self, event: str = "GUILD_CREATE") -> set[int]:
        return {guild for (name, guild) in self.received if name == event and guild}

    async def until(self, predicate: Callable[[], bool]) -> None:
        async with self._arrived:
            await asyncio.wait_for(self._arrived.wait_for(predicate), TIMEOUT)

    async def until_guilds(self, expected: set[int], event: str = "GUILD_CREATE") -> None:
        """Until ``event`` has come for exactly the ``expected`` guilds."""
        await self.until(lambda: self.guilds(event) == expected)


class NoPauseAutoShardedClient(discord.AutoShardedClient):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No pause between shards' IDENTIFYs (discord.py waits 5 s for Discord's
        identify limit, which the fake does not have)."""


def recording_client(
    label: str, client_class: type[discord.Client] = discord.Client, **options: Any
) -> tuple[discord.Client, Recorder]:
    client = client_class(intents=discord.Intents.default(), enable_debug_events=True, **options)
    return client, Recorder(client, label)


@contextlib.asynccontextmanager
async def connected(*clients: discord.Client) -> AsyncIterator[None]:
    tasks = [asyncio.create_task(client.start("fake-token")) for client in clients]
    try:
        yield
    finally:
        for client in clients:
            await client.close()
        for outcome in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(outcome, BaseException):
                raise outcome


@pytest.fixture
async def fake(error_log: Any) -> AsyncIterator[FakeDiscord]:
    async with serving(FakeDiscord(shards=2)) as fake:
        fake.commands[None] = [{"id": str(fake.new_id()), "name": "ping", "type": 1}]
        yield fake


@pytest.fixture
def servers(fake: FakeDiscord) -> list[Server]:
    """Two servers on each of the two shards."""
    return [make_server(fake, f"Server {n}", 1, shard=n % 2) for n in range(4)]


def on_shard(servers: list[Server], shard_id: int) -> set[int]:
    return {s.guild_id for s in servers if shard_of(s.guild_id, 2) == shard_id}


async def ping(server: Server, name: str = "Ann") -> str:
    """A member runs /ping in the server; the reply's words."""
    member = server.members.get(name) or server.member(name)
    reply = await (await member.slash("ping", server.channels[0])).reply()
    return reply.content


def test_new_guilds_take_turns_over_the_shards_or_go_where_asked() -> None:
    fake = FakeDiscord(shards=3)
    ids = [fake.add_guild(f"Server {n}", 0)["id"] for n in range(3)]
    ids.append(fake.add_guild("Asked", 0, shard=1)["id"])
    assert [shard_of(guild, 3) for guild in ids] == [0, 1, 2, 1]
    assert ids == sorted(ids) and fake.new_id() > ids[-1], "snowflakes still only grow"
    with pytest.raises(ValueError, match="no shard 3"):
        fake.add_guild("Nowhere", 0, shard=3)


async def test_gateway_bot_recommends_the_fakes_shard_count(fake: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{fake.api_base}/gateway/bot") as response,
    ):
        answer = await response.json()
    assert answer["shards"] == 2 and answer["url"] == fake.gateway_url
    assert answer["session_start_limit"]["remaining"] > 0


async def identify(socket: aiohttp.ClientWebSocketResponse, shard: list[int]) -> dict[str, Any]:
    """IDENTIFY on a raw socket; READY's body."""
    hello = await socket.receive_json()
    assert hello["op"] == 10
    await socket.send_json({"op": 2, "d": {"token": "fake-token", "intents": 1, "shard": shard}})
    ready = await socket.receive_json()
    assert ready["t"] == "READY"
    return ready["d"]  # type: ignore[no-any-return]


async def test_ready_lists_only_the_shards_guilds_and_guild_creates_follow_for_them(
    fake: FakeDiscord, servers: list[Server]
) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as socket:
        ready = await identify(socket, [1, 2])
        created = [await socket.receive_json() for _ in on_shard(servers, 1)]
    assert ready["shard"] == [1, 2]
    assert {int(g["id"]) for g in ready["guilds"]} == on_shard(servers, 1)
    assert [c["t"] for c in created] == ["GUILD_CREATE", "GUILD_CREATE"]
    assert {int(c["d"]["id"]) for c in created} == on_shard(servers, 1)
    [session_] = fake.gateway.sessions
    assert session_.events["GUILD_CREATE", servers[0].guild_id] == 0, "shard 0's guild"


async def test_a_shard_outside_the_count_is_refused_with_close_code_4010(
    fake: FakeDiscord,
) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as socket:
        await socket.receive_json()
        await socket.send_json({"op": 2, "d": {"token": "fake-token", "shard": [2, 2]}})
        closing = await socket.receive()
    assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4010
    assert fake.gateway.sessions == []


async def test_a_session_its_client_closed_cannot_be_resumed(
    fake: FakeDiscord, servers: list[Server]
) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(fake.gateway_url) as socket:
            ready = await identify(socket, [0, 2])
            await socket.close(code=1000)
        await fake.wait_for(lambda: fake.gateway.live() == [])
        async with session.ws_connect(fake.gateway_url) as socket:
            await socket.receive_json()
            resume = {"token": "fake-token", "session_id": ready["session_id"], "seq": 1}
            await socket.send_json({"op": 6, "d": resume})
            answer = await socket.receive_json()
    assert answer == {"op": 9, "d": False, "s": None, "t": None}


async def test_each_shard_client_gets_exactly_its_guilds_and_their_interactions(
    fake: FakeDiscord, servers: list[Server]
) -> None:
    pairs = [recording_client(f"shard {n}", shard_id=n, shard_count=2) for n in (0, 1)]
    async with connected(*(client for client, _ in pairs)):
        for n, (_, recorder) in enumerate(pairs):
            await recorder.until_guilds(on_shard(servers, n))
        sessions = sorted(fake.gateway.live(), key=lambda s: s.shard or (0, 0))
        assert [s.shard for s in sessions] == [(0, 2), (1, 2)]
        for n, session in enumerate(sessions):
            assert session.guilds() == on_shard(servers, n)
            assert all(session.events["GUILD_CREATE", g] == 1 for g in on_shard(servers, n))
        for server in servers:
            assert await ping(server) == f"answered by shard {shard_of(server.guild_id, 2)}"
        for n, (_, recorder) in enumerate(pairs):
            await recorder.until_guilds(on_shard(servers, n), "INTERACTION_CREATE")
            assert sessions[n].guilds("INTERACTION_CREATE") == on_shard(servers, n)
            assert recorder.received["GUILD_CREATE", None] == 0
            assert sum(c for (e, _), c in recorder.received.items() if e == "GUILD_CREATE") == 2


@pytest.mark.parametrize("shard_count", [2, None], ids=["given", "from /gateway/bot"])
async def test_one_auto_sharded_client_runs_both_shards(
    fake: FakeDiscord, servers: list[Server], shard_count: int | None
) -> None:
    client, recorder = recording_client("auto", NoPauseAutoShardedClient, shard_count=shard_count)
    async with connected(client):
        everything = {s.guild_id for s in servers}
        await recorder.until_guilds(everything)
        sessions = sorted(fake.gateway.live(), key=lambda s: s.shard or (0, 0))
        assert [s.shard for s in sessions] == [(0, 2), (1, 2)]
        for server in servers:
            assert await ping(server) == "answered by auto"
        for n, session in enumerate(sessions):
            assert session.guilds() == on_shard(servers, n)
            assert session.guilds("INTERACTION_CREATE") == on_shard(servers, n)
    assert client.shard_count == 2


async def test_a_connection_without_a_shard_gets_every_guild(
    fake: FakeDiscord, servers: list[Server]
) -> None:
    client, recorder = recording_client("unsharded")
    async with connected(client):
        everything = {s.guild_id for s in servers}
        await recorder.until_guilds(everything)
        for server in servers:
            assert await ping(server) == "answered by unsharded"
    [session] = fake.gateway.sessions
    assert session.shard is None and session.guilds("INTERACTION_CREATE") == everything


async def test_a_reconnected_shard_resumes_its_session_and_is_sent_what_it_missed(
    fake: FakeDiscord, servers: list[Server]
) -> None:
    pairs = [recording_client(f"shard {n}", shard_id=n, shard_count=2) for n in (0, 1)]
    away = next(s for s in servers if shard_of(s.guild_id, 2) == 1)
    staying = next(s for s in servers if shard_of(s.guild_id, 2) == 0)
    async with connected(*(client for client, _ in pairs)):
        for n, (_, recorder) in enumerate(pairs):
            await recorder.until_guilds(on_shard(servers, n))
        [asked] = await fake.gateway.reconnect(1)
        sent = await away.member("Bob").slash("ping", away.channels[0])
        assert asked.socket is None, "the interaction was dispatched while shard 1 was away"
        assert (await sent.reply()).content == "answered by shard 1"
        assert asked.resumes == 1
        assert await ping(staying) == "answered by shard 0"
        recorder = pairs[1][1]
        await recorder.until(lambda: recorder.received["RESUMED", None] == 1)
        assert recorder.received["READY", None] == 1, "resumed, not identified again"
    assert {s.shard: s.resumes for s in fake.gateway.sessions} == {(0, 2): 0, (1, 2): 1}
