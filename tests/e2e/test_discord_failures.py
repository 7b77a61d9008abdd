"""When Discord refuses the picture after a move, the move stands, the table is not stuck,
and the channel is told what happened (and which permission is missing)."""

from __future__ import annotations

import asyncio

import pytest

from discord_face import announcer
from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, seated_game, service_of, shown_version, table_messages
from tests.e2e.test_announcing import announcer_of
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import ANSWER_LOST, DROPPED, SEND_MESSAGES

FOLLOW_UP = ("POST", "/webhooks/{webhook_id}/{webhook_token}")
CHANNEL_POST = ("POST", "/channels/{channel_id}/messages")
"""A move made by a click is posted as that click's own follow-up."""


@pytest.fixture
async def driver(running: Running, server: Server) -> Driver:
    bot = await running.start()
    return await seated_game(server, service_of(bot), "cross", 2, {"target": 100})


async def play_from_the_last_buttons(driver: Driver, *refusals: int) -> int:
    """The member to move plays from the hand that the last table message's "My hand"
    gives them (a tile: members are played on until one has a tile that fits), while
    Discord answers the post of that move (the click's follow-up) with ``refusals``;
    returns the version the move made."""
    for _ in range(100):
        table = driver.table()
        assert table is not None
        member = driver.mover(table)
        latest = table_messages(driver.fake, driver.channel_id)[-1]
        hand = await (await member.click(latest, "My hand")).reply()
        tiles = [b for b in hand.buttons() if b["label"][:1].isdigit()]
        if tiles:
            break
        await driver.play_one()
    else:
        raise AssertionError("nobody could play a tile")
    version = table.version
    driver.fake.fail_next(*FOLLOW_UP, *refusals)
    tile = tiles[0]
    click = await member.click(hand, tile["label"])
    if tile["label"].endswith("…"):
        ends = await click.reply()
        await member.click(ends, ends.buttons()[0]["label"])

    def moved() -> int | None:
        now = driver.table()
        return now.version if now is not None and now.version > version else None

    return int(await driver.fake.wait_for(moved))


async def play_by_slash(
    driver: Driver, *refusals: int, refused: tuple[str, str] = CHANNEL_POST
) -> int:
    """The member to move plays with ``/domino play`` (posted in the channel, not as a
    follow-up), while Discord answers that post (or the request ``refused``) with
    ``refusals``."""
    for _ in range(100):
        table = driver.table()
        assert table is not None
        member = driver.mover(table)
        tiles = [m for m in table.legal_for(member.id) if m.tile is not None]
        if tiles:
            break
        await driver.play_one()
    else:
        raise AssertionError("nobody could play a tile")
    move = tiles[-1]
    driver.fake.fail_next(*refused, *refusals)
    options = {"tile": str(move.tile)} | ({"end": move.end_name} if move.end_name else {})
    await member.slash("domino play", driver.channel_id, **options)

    def moved() -> int | None:
        now = driver.table()
        return now.version if now is not None and now.version > table.version else None

    return int(await driver.fake.wait_for(moved))


async def test_a_refused_follow_up_is_posted_in_the_channel_and_nothing_wrong_is_told(
    driver: Driver,
) -> None:
    """A click's follow-up refused (its token, not the channel): the channel takes it."""
    version = await play_from_the_last_buttons(driver, 403)
    await driver.fake.wait_for(lambda: driver.latest_version() == version)
    said = [m.content for m in driver.fake.public(driver.channel_id)]
    assert not any("I need" in text or "did not take" in text for text in said), said


async def test_a_post_or_follow_up_discord_never_answered_is_made_all_the_same(
    driver: Driver,
) -> None:
    """The connection drops with no answer at all (a reset, a blip): a channel post is
    tried again as a refused one is, and a click's follow-up goes to the channel; the
    table shows the move, its player to move is told (not as a refusal)."""
    version = await play_by_slash(driver, DROPPED)
    await driver.fake.wait_for(lambda: driver.latest_version() == version)
    version = await play_from_the_last_buttons(driver, DROPPED)
    await driver.fake.wait_for(lambda: driver.latest_version() == version)
    said = [m.content for m in driver.fake.public(driver.channel_id)]
    assert not any("I need" in text or "did not take" in text for text in said), said


@pytest.mark.parametrize("lost", [CHANNEL_POST, FOLLOW_UP], ids=["post", "follow-up"])
async def test_a_post_discord_made_but_never_answered_is_not_posted_twice(
    driver: Driver, monkeypatch: pytest.MonkeyPatch, lost: tuple[str, str]
) -> None:
    """The connection drops just as Discord answers, the message made: the bot, unsure,
    reads the channel before it tries again, finds the move shown there, and posts it
    no second time; only that message keeps live buttons."""
    monkeypatch.setattr(announcer, "RETRY_FIRST", 0.01)
    before = len(table_messages(driver.fake, driver.channel_id))
    if lost == CHANNEL_POST:
        version = await play_by_slash(driver, ANSWER_LOST)
    else:
        version = await play_from_the_last_buttons(driver, ANSWER_LOST)

    def live() -> list[int | None]:
        messages = table_messages(driver.fake, driver.channel_id)
        return [shown_version(m) for m in messages if m.buttons()]

    await driver.fake.wait_for(lambda: live() == [version])
    posted = [shown_version(m) for m in table_messages(driver.fake, driver.channel_id)]
    assert posted[before:].count(version) == 1, posted


async def test_a_missing_permission_is_told_and_the_game_goes_on(driver: Driver) -> None:
    before = len(table_messages(driver.fake, driver.channel_id))
    version = await play_by_slash(driver, 403)
    told = await driver.fake.wait_for(
        lambda: [m for m in driver.fake.public(driver.channel_id) if "I need" in m.content]
    )
    assert "Attach Files" in told[0].content and "/domino status" in told[0].content
    stored = await driver.service.store.load_active_tables()
    assert [row.version for row in stored] == [version], "the move stands"
    assert len(table_messages(driver.fake, driver.channel_id)) == before
    previous = table_messages(driver.fake, driver.channel_id)[-1]
    assert previous.buttons(), "the last table message kept its buttons"
    after = await play_from_the_last_buttons(driver)  # the next member, from those buttons
    await driver.fake.wait_for(lambda: driver.latest_version() == after)


async def test_a_server_error_is_told_and_status_posts_the_table_again(driver: Driver) -> None:
    version = await play_by_slash(driver, 503)
    await driver.fake.wait_for(
        lambda: any("(503)" in m.content for m in driver.fake.public(driver.channel_id))
    )
    waiter = next(iter(driver.members.values()))
    reply = await (await waiter.slash("domino status", driver.channel_id)).reply()
    assert reply.visible_to == waiter.id
    await driver.fake.wait_for(lambda: driver.latest_version() == version)
    await driver.play_one()


async def test_a_stored_move_whose_private_answer_fails_is_never_doubted(
    running: Running, driver: Driver
) -> None:
    """``/domino play`` stored the move; then Discord refuses the private "You played …":
    the table shows the move, and nobody is told it may not have been made."""
    version = await play_by_slash(driver, 403, refused=FOLLOW_UP)
    await driver.fake.wait_for(lambda: driver.latest_version() == version)
    assert running.bot is not None
    await asyncio.gather(*running.bot.in_flight)  # the command's handling is over
    said = [m.content for m in driver.fake.messages.values()]
    assert not any("may not have been done" in text for text in said), said


async def test_a_rate_limit_is_waited_out_and_the_picture_posted(driver: Driver) -> None:
    version = await play_from_the_last_buttons(driver, 429)
    await driver.fake.wait_for(lambda: driver.latest_version() == version)
    assert not any("did not take" in m.content for m in driver.fake.public(driver.channel_id))


async def test_a_closed_tables_end_refused_until_it_is_let_go_is_not_tried_for_ever(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner takes Send Messages away and the table is ended: its closing notice is
    tried again while the service keeps its end (a day), then let go, not tried for as
    long as the bot runs (nor posted days late once the permission comes back)."""
    monkeypatch.setattr(announcer, "RETRY_FIRST", 0.01)
    monkeypatch.setattr(announcer, "RETRY_LONGEST", 0.01)
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    await driver.fake.deny(driver.channel_id, SEND_MESSAGES)
    host = next(iter(driver.members.values()))
    await (await host.slash("domino end", driver.channel_id)).reply()
    service, table_id = driver.service, driver.table_id
    assert service.find(table_id) is None and service.waits_for_end(table_id)
    feeds = announcer_of(bot)._feeds
    await driver.fake.wait_for(lambda: table_id in feeds and feeds[table_id].failures > 1)
    service.keep_closed = 0.0
    trying = feeds[table_id].task
    assert trying is not None
    await service._prune_once()  # a day on: the service lets its end go
    await asyncio.wait_for(trying, 10)  # its worker stops trying, and lets the table go
    assert table_id not in feeds
