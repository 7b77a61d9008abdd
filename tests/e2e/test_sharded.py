"""Two bot processes, one shard each, over one PostgreSQL database (needs the server the
storage tests use: see tests/data/databases.py). Games in servers on both shards; one
process killed with SIGKILL mid-game and started again while the other keeps playing;
every table resumes, nothing is lost, and one global leaderboard holds both servers.

The members play only from what the fake Discord shows them (the bots are other
processes): the table message names whose turn it is, and they click."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from data import open_store
from tests.data.databases import postgres_schema
from tests.e2e.driver import ENGLISH, open_lobby, table_messages
from tests.fakediscord.fixtures import Server, make_server, serving
from tests.fakediscord.server import FakeDiscord, Message

ROOT = Path(__file__).resolve().parents[2]
YOUR_TURN = re.compile(r"<@(\d+)>, your turn")
TILE = re.compile(r"^\d-\d")
SHARDS = 2


@contextmanager
def bot_process(
    fake: FakeDiscord, url: str, shard: int, folder: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m bot`` for one shard of two, in its own folder, against the fake."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN="fake-token",
        DATABASE_URL=url,
        SHARD_COUNT=str(SHARDS),
        SHARD_IDS=str(shard),
        COMPUTER_PACE_SECONDS="0",
        LOG_LEVEL="WARNING",
        FAKE_DISCORD_API=fake.api_base,
        FAKE_DISCORD_GATEWAY=fake.gateway_url,
    )
    folder.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.e2e.shard_process"], cwd=folder, env=env
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def connected(fake: FakeDiscord, server: Server, after: int) -> None:
    """A session identified after the first ``after`` was sent the server's guild."""
    await fake.wait_for(
        lambda: any(server.guild_id in s.guilds() for s in fake.gateway.sessions[after:]), 30
    )
    await fake.wait_for(lambda: None in fake.commands, 30)  # the slash commands are there


async def take_turn(fake: FakeDiscord, server: Server) -> bool:
    """The member the latest table message names plays one whole turn from their hand;
    False once the game is over."""
    channel = server.channels[0]
    embeds = [e for m in fake.public(channel) for e in m.embeds]
    if any(e.get("title", "").startswith("Winner:") for e in embeds):
        return False
    latest = table_messages(fake, channel)[-1]
    found = YOUR_TURN.search(latest.content)
    assert found, latest.content
    member = next(m for m in server.members.values() if m.id == int(found[1]))
    posts = len(table_messages(fake, channel))
    hand = await (await member.click(latest, "My hand")).reply(30)
    for _ in range(2):  # a draw, then the tile drawn when it fits (R-CR-5)
        tiles = [b["label"] for b in hand.buttons() if TILE.match(b["label"])]
        if not tiles and not hand.buttons():  # the draw fitted nowhere: the bot passed
            break
        label = tiles[0] if tiles else hand.buttons()[0]["label"]
        sent = await member.click(hand, label)
        if label.endswith("…"):
            ends = await sent.reply(30)
            sent = await member.click(ends, ends.buttons()[0]["label"])
        if label != "Draw":
            break
        # The hand clicked becomes the answer.
        await fake.wait_for(lambda h=hand: ENGLISH.drew(h.content) or None, 30)
    await fake.wait_for(lambda: len(table_messages(fake, channel)) > posts or None, 30)
    return True


async def start_game(server: Server) -> Message:
    ann, bob = server.member("Ann"), server.member("Bob")
    channel = server.channels[0]
    lobby = await open_lobby(server.fake, ann, channel, game="cross", target=10)
    await bob.click(lobby, "Join")
    await server.fake.wait_for(lambda: "Bob" in server.fake.messages[lobby.id].text(), 30)
    await ann.click(lobby, "Start")
    await server.fake.wait_for(lambda: table_messages(server.fake, channel) or None, 30)
    return lobby


async def test_two_shard_processes_share_one_database_and_survive_a_kill(tmp_path: Path) -> None:
    async with postgres_schema() as url:
        async with serving(FakeDiscord(shards=SHARDS)) as fake:
            servers = [make_server(fake, f"Shard {shard}", shard=shard) for shard in range(SHARDS)]
            with (
                bot_process(fake, url, 0, tmp_path / "a") as first,
                bot_process(fake, url, 1, tmp_path / "b"),
            ):
                for server in servers:
                    await connected(fake, server, 0)
                for server in servers:
                    await start_game(server)
                for _ in range(4):
                    for server in servers:
                        assert await take_turn(fake, server), "still playing at the kill"
                first.kill()  # SIGKILL: no goodbye, nothing flushed
                first.wait()
                for _ in range(3):  # the other process keeps playing meanwhile
                    await take_turn(fake, servers[1])
                before = len(table_messages(fake, servers[0].channels[0]))
                sessions = len(fake.gateway.sessions)
                with bot_process(fake, url, 0, tmp_path / "a"):
                    await connected(fake, servers[0], sessions)
                    playing = list(servers)
                    for _ in range(400):
                        playing = [s for s in playing if await take_turn(fake, s)]
                        if not playing:
                            break
                    assert not playing, "both games reached their end"
                    after = len(table_messages(fake, servers[0].channels[0]))
                    assert after > before + 1, "the killed process's table resumed and went on"
                    ann = servers[0].members["Ann"]
                    board = await (
                        await ann.slash(
                            "domino leaderboard",
                            servers[0].channels[0],
                            game="cross",
                            scope="global",
                            order="points",
                        )
                    ).reply(30)
        store = await open_store(url)
        try:
            rows = await store.leaderboard("cross", order="points", page_size=10, min_games=1)
        finally:
            await store.close()
    everyone = {m.id for s in servers for m in s.members.values()}
    assert {e.user_id for e in rows.entries} == everyone, "one board, both servers"
    assert sum(e.games for e in rows.entries) == 4, "two games of two members, each once"
    assert all(name in board.content for name in ("Ann", "Bob"))
