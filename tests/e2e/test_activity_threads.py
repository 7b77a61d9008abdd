"""The Activity where a server plays its tables in threads, against the fake Discord:
``/domino new`` posts the lobby in the channel, starts a thread from it and moves the
table there. Discord promises no order between its answer to "start a thread" and its
gateway event about the new thread, so an Activity open in the channel must follow its
lobby into the thread whichever comes first."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.config import Settings
from data import sqlite_url
from tests.browser.harness import free_port
from tests.e2e.conftest import Running
from tests.e2e.driver import open_lobby, service_of
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import Member
from tests.web.conftest import Page


@pytest.fixture
async def with_activity(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Running]:
    """The bot with its web server and the Activity set up (not started yet)."""
    fake_discord.activities.enable()
    settings = Settings(
        discord_token="fake-token",
        database_url=sqlite_url(tmp_path / "var" / "domino.db"),
        computer_pace_seconds=0.0,
        web_host="127.0.0.1",
        web_port=free_port(),
        web_secret="activity-threads",
        discord_client_secret=fake_discord.activities.client_secret,
    )
    run = Running(fake_discord, settings)
    yield run
    await run.stop()


async def open_activity(
    fake: FakeDiscord, port: int, member: Member, channel_id: int, pages: list[Page]
) -> Page:
    """``member`` opens the Activity in ``channel_id``, and their page signs in as the
    page's SDK does: a code exchanged for a token, then the token and instance sent."""
    instance = fake.activities.launch(fake.application_id, channel_id, member.guild_id, member.id)
    headers = {"Origin": f"https://{fake.application_id}.discordsays.com"}
    session = aiohttp.ClientSession()
    code = fake.activities.authorize(member.id)
    base = f"http://127.0.0.1:{port}"
    async with session.post(f"{base}/api/token", json={"code": code}, headers=headers) as answer:
        token = (await answer.json())["access_token"]
    page = Page(session, await session.ws_connect(f"{base}/ws", headers=headers), None)
    pages.append(page)
    await page.next("hello")
    await page.send(type="activity", token=token, instance=instance)
    return page


async def answer_to(page: Page) -> dict[str, Any]:
    """The next table or refusal ``page`` is sent."""
    while True:
        frame = await page.next()
        if frame["type"] in ("table", "refused"):
            return frame


async def test_the_activity_follows_its_lobby_to_the_thread_before_discord_tells_of_it(
    with_activity: Running, server: Server, error_log: object
) -> None:
    """Ann has the Activity open in the channel when Bob opens a table there: the page
    goes on showing the lobby as it moves to its thread, while Discord has not yet said
    the thread exists (its THREAD_CREATE is held back all along), and Ann's Join from the
    page seats her, with nobody else acting at the table in between."""
    fake = with_activity.fake
    bot = await with_activity.start()
    channel = server.channels[0]
    boss, ann, bob = server.member("Boss", manager=True), server.member("Ann"), server.member("Bob")
    await (await boss.slash("domino settings", channel, threads=True)).reply()
    port = with_activity.settings.web_port
    assert port is not None
    pages: list[Page] = []
    thread_events = fake.hold_events("THREAD_CREATE")
    try:
        page = await open_activity(fake, port, ann, channel, pages)
        assert "no table" in (await page.next("refused"))["text"].lower()
        await open_lobby(fake, bob, channel, game="cross")
        posted = await page.next("table")
        [table] = service_of(bot).in_guild(server.guild_id)
        assert posted["id"] == table.id and posted["status"] == "lobby"

        try:
            moved = await page.next("table")
        except TimeoutError:
            pytest.fail("the page was left on the channel's lobby once it moved to its thread")
        [made] = thread_events
        thread_id = int(made["id"])
        assert service_of(bot).snapshot(table.id).channel_id == thread_id
        assert bot.get_channel(thread_id) is None, "discord.py has not heard of the thread yet"
        assert (moved["id"], moved["version"]) == (table.id, posted["version"] + 1)

        await page.send(type="act", table=table.id, version=moved["version"], action="join")
        answer = await answer_to(page)
        assert answer["type"] == "table", f"Ann's Join was refused: {answer.get('text')}"
        assert [seat["name"] for seat in answer["seats"]] == ["Bob", "Ann"]
        assert service_of(bot).snapshot(table.id).seat_of(ann.id) is not None
    finally:
        await fake.release_events("THREAD_CREATE")
        for page in pages:
            await page.socket.close()
            await page.session.close()
