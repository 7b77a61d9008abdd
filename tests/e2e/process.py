"""The bot as its own process (``python -m bot``, pointed at the fake Discord by
``tests.e2e.shard_process``), and a member's whole turn played from what the fake shows:
for the tests that kill, stop or shard the bot, where nothing of it runs in the test's
own process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from data import sqlite_url
from tests.e2e.driver import ENGLISH, open_lobby, table_messages
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import FakeDiscord, Message

ROOT = Path(__file__).resolve().parents[2]
YOUR_TURN = re.compile(r"<@(\d+)>, your turn")
TILE = re.compile(r"^\d-\d")


@contextmanager
def bot_process(
    fake: FakeDiscord, folder: Path, *, capture: bool = False, **settings: str
) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m bot`` started in ``folder`` against ``fake``, with the token the fake
    knows and a SQLite file in ``folder/var`` unless ``settings`` (environment variables)
    say otherwise; ``capture`` keeps its output. Stopped with SIGTERM at the end if it
    still runs (killed if it does not stop)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN=fake.token,
        DATABASE_URL=sqlite_url(folder / "var" / "domino.db"),
        COMPUTER_PACE_SECONDS="0",
        LOG_LEVEL="WARNING",
        FAKE_DISCORD_API=fake.api_base,
        FAKE_DISCORD_GATEWAY=fake.gateway_url,
    )
    env.update(settings)
    folder.mkdir(parents=True, exist_ok=True)
    output = subprocess.PIPE if capture else None
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.e2e.shard_process"],
        cwd=folder,
        env=env,
        stdout=output,
        stderr=output,
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
        def drew(hand: Message = hand) -> bool | None:
            return ENGLISH.drew(hand.content) or None

        await fake.wait_for(drew, 30)
    await fake.wait_for(lambda: len(table_messages(fake, channel)) > posts or None, 30)
    return True


async def start_game(server: Server) -> Message:
    """Ann opens a Cross table to 10 in the server's first channel, Bob joins, Ann starts;
    returns the lobby once the first table message is up."""
    ann, bob = server.member("Ann"), server.member("Bob")
    channel = server.channels[0]
    lobby = await open_lobby(server.fake, ann, channel, game="cross", target=10)
    await bob.click(lobby, "Join")
    await server.fake.wait_for(lambda: "Bob" in server.fake.messages[lobby.id].text(), 30)
    await ann.click(lobby, "Start")
    await server.fake.wait_for(lambda: table_messages(server.fake, channel) or None, 30)
    return lobby
