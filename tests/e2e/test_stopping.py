"""Starting and stopping as an operator meets them: a wrong token or an unreachable
Discord said in one line; SIGTERM (``docker stop``, systemd, ``kill``) stopping the bot
cleanly mid-game, leaving a database file that alone holds every stored action; and a
member's forgotten data gone from every file beside the database once the bot stops."""

from __future__ import annotations

import asyncio
import shutil
import signal
import socket
import sqlite3
from pathlib import Path

from bot.commands import Command
from bot.events import Event
from bot.health import NOTE, check
from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, open_and_fill, service_of, shown_version, table_messages
from tests.e2e.process import bot_process, connected, start_game, take_turn
from tests.fakediscord.fixtures import Server, make_server, serving
from tests.fakediscord.server import FakeDiscord

STOPPED_WITHIN = 10.0
"""What ``docker stop`` and systemd give a process before they kill it."""


def _output_lines(stream: bytes | None) -> list[str]:
    return [line for line in (stream or b"").decode().splitlines() if line.strip()]


async def test_a_wrong_token_is_said_in_one_line(tmp_path: Path) -> None:
    async with serving(FakeDiscord()) as fake:
        with bot_process(fake, tmp_path, capture=True, DISCORD_TOKEN="not-the-token") as bot:
            out, err = await asyncio.to_thread(bot.communicate, timeout=60)
    assert bot.returncode not in (0, None)
    lines = _output_lines(out) + _output_lines(err)
    assert len(lines) == 1, lines  # no traceback, no warnings about voice
    assert "refused the bot's token" in lines[0] and "Reset Token" in lines[0]


async def test_an_unreachable_discord_is_said_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    async with serving(FakeDiscord()) as fake:
        with bot_process(
            fake, tmp_path, capture=True, FAKE_DISCORD_API=f"http://127.0.0.1:{closed}/api/v10"
        ) as bot:
            out, err = await asyncio.to_thread(bot.communicate, timeout=60)
    assert bot.returncode not in (0, None)
    lines = _output_lines(out) + _output_lines(err)
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: cannot reach Discord"), lines[0]


async def test_a_browser_port_in_use_with_a_token_is_said_in_one_line(tmp_path: Path) -> None:
    """With a token and WEB_PORT, the browser table listens once the bot has logged in
    to Discord: a port in use there is said as the port, not as Discord out of reach."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        async with serving(FakeDiscord()) as fake:
            with bot_process(fake, tmp_path, capture=True, WEB_PORT=port) as bot:
                out, err = await asyncio.to_thread(bot.communicate, timeout=60)
    assert bot.returncode == 6
    lines = _output_lines(out) + _output_lines(err)
    assert len(lines) == 1, lines
    assert "cannot serve the browser table" in lines[0] and "WEB_PORT" in lines[0], lines[0]


async def test_sigterm_mid_game_stops_cleanly_and_the_database_file_alone_holds_every_move(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "var"
    async with serving(FakeDiscord()) as fake:
        server = make_server(fake)
        with bot_process(fake, tmp_path) as bot:
            await connected(fake, server, 0)
            await start_game(server)
            for _ in range(3):
                assert await take_turn(fake, server), "still playing at the stop"
            announced = shown_version(table_messages(fake, server.channels[0])[-1])
            assert announced is not None
            bot.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(bot.wait, STOPPED_WITHIN) == 0
    assert not (folder / NOTE).exists(), "a stopped bot leaves no health note"
    log = folder / "domino.db-wal"
    assert not log.exists() or log.stat().st_size == 0, "the log was folded into the file"
    backup = tmp_path / "backup.db"
    shutil.copyfile(folder / "domino.db", backup)  # the file alone, as a backup copies it
    with sqlite3.connect(backup) as copy:
        [(version, status)] = copy.execute("SELECT version, status FROM active_tables")
    assert status == "playing"
    assert version >= announced, "every move the channel was shown is in the file"


async def test_a_connected_bot_is_healthy_and_a_stopped_one_is_not(running: Running) -> None:
    """What ``python -m bot.health`` (the container's health check) reads."""
    folder = running.settings.local_folder
    await running.start()
    healthy, why = check(folder)
    assert healthy, why
    await running.stop()
    healthy, why = check(folder)
    assert not healthy and why.startswith("not running"), why


async def test_a_click_under_way_at_the_stop_is_answered_and_later_clicks_are_told_to_retry(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    service = service_of(bot)
    players = [server.member("Ann"), server.member("Bob")]
    await open_and_fill(server, "cross", players, {"target": 10})
    driver = Driver(server.fake, service, server.channels[0], {m.id: m for m in players})
    await server.fake.wait_for(driver.settled)
    act = service.act
    entered, release = asyncio.Event(), asyncio.Event()

    async def held(
        table_id: str,
        command: Command,
        *,
        seen_version: int | None = None,
        via: object | None = None,
    ) -> list[Event]:
        entered.set()
        await release.wait()
        return await act(table_id, command, seen_version=seen_version, via=via)

    service.act = held  # type: ignore[method-assign]
    before = driver.latest_version()
    move = asyncio.create_task(driver.play_one())
    await entered.wait()
    stopping = bot.stop()
    bystander = server.member("Cat")
    refused = await (await bystander.slash("domino status", server.channels[0])).reply()
    assert refused.visible_to == bystander.id
    assert "try again in a moment" in refused.content, refused.content
    release.set()
    await move  # the move under way was made and answered
    await stopping
    assert running.store is not None
    assert await running.store.load_active_tables(), "the table is still stored"
    [row] = await running.store.load_active_tables()
    assert before is not None and row.version > before, "the move under way was stored"


async def test_a_forgotten_member_is_in_no_file_beside_the_database_after_a_stop(
    running: Running, server: Server, tmp_path: Path
) -> None:
    bot = await running.start()
    zoe, bob = server.member("Zoë Forgetmenot"), server.member("Bob")
    await open_and_fill(server, "cross", [zoe, bob], {"target": 10})
    driver = Driver(server.fake, service_of(bot), server.channels[0], {zoe.id: zoe, bob.id: bob})
    await server.fake.wait_for(driver.settled)
    while not driver.finished():
        await driver.play_one()
    ask = await (await zoe.slash("domino forget-me", server.channels[0])).reply()
    await zoe.click(ask, "Delete my data")
    await server.fake.wait_for(lambda: "Done" in server.fake.messages[ask.id].content)
    await running.stop()
    traces = {
        "name": zoe.name.encode(),
        "id": str(zoe.id).encode(),
        "id as a stored integer": zoe.id.to_bytes(8, "big"),
    }
    for path in (tmp_path / "var").rglob("*"):
        if path.is_file():
            content = path.read_bytes()
            left = [what for what, trace in traces.items() if trace in content]
            assert not left, f"{path.name} still holds the forgotten member's {left}"
