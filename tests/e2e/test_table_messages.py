"""What a table message shows: the turn's deadline as a Discord timestamp for a member
to move, no boneyard and no Draw button in Milo (every tile is dealt, R-MI-1), and a
lobby that says the game started once it has; and that a message's buttons leave
nothing behind in the bot once it is sent, not even for the cycle collector."""

from __future__ import annotations

import asyncio
import gc
import re
import threading
from typing import Any

import discord
import pytest

from discord_face import acting
from tests.e2e.conftest import Running
from tests.e2e.driver import open_lobby, seated_game, service_of, table_messages
from tests.e2e.test_forged_and_races import pings, record_mentions
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import Message

RELATIVE_TIME = re.compile(r"<t:(\d+):R>")


async def test_a_members_turn_shows_when_it_runs_out(running: Running, server: Server) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    latest = table_messages(server.fake, driver.channel_id)[-1]
    [stamp] = RELATIVE_TIME.findall(latest.text())
    table = driver.table()
    assert table is not None and table.deadline is not None
    assert int(stamp) == int(table.deadline)


async def test_buttons_sent_leave_nothing_behind_in_the_bot(
    running: Running, server: Server
) -> None:
    """Every click is dispatched from its button's id alone, so nothing of a message's
    buttons needs to stay in memory once it is posted: not the table's, not a member's
    private hand (for which discord.py would otherwise keep the view, with a task of its
    own, for 15 minutes after every "My hand")."""
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    for _ in range(4):
        await driver.play_one()  # by buttons: "My hand", then a tile from it
    gc.collect()
    kept = [o for o in gc.get_objects() if isinstance(o, discord.ui.View)]
    assert kept == []


async def test_buttons_sent_or_clicked_are_freed_without_the_cycle_collector(
    running: Running, server: Server
) -> None:
    """A view and its buttons point at each other: left whole, every message's buttons
    and every view discord.py rebuilds to dispatch a click would wait for the cycle
    collector, whose passes stop the event loop. With the collector off while members
    play, none of them is left for it."""
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(4):
            await driver.play_one()  # by buttons: "My hand", then a tile from it
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, (discord.ui.View, discord.ui.Item))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []


async def test_milo_shows_no_boneyard_and_no_draw(running: Running, server: Server) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "milo", 4, {"target": 1})
    latest = table_messages(server.fake, driver.channel_id)[-1]
    assert "Boneyard" not in latest.text()
    labels = [b["label"] for b in latest.buttons()]
    assert "Draw" not in labels and "Pass" in labels
    lobby = next(m for m in server.fake.public(driver.channel_id) if "Milo —" in m.text())
    assert "game started" in lobby.text() and "table open" not in lobby.text()


async def test_a_rounds_end_is_said_once_and_pictured_as_it_ended(
    running: Running, server: Server
) -> None:
    """The round's last move is shown with its result (R-CR-6 scores it): one sentence, in
    the round's card only, and a picture of the final layout with alt text."""
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})

    def round_over() -> list[Message]:
        return [
            m
            for m in server.fake.public(driver.channel_id)
            if any(e.get("title") == "Round over" for e in m.embeds)
        ]

    while not round_over():
        await driver.play_one()
    message = round_over()[0]
    [card] = [e for e in message.embeds if e.get("title") == "Round over"]
    said = card["description"]
    assert said and said not in message.content, (said, message.content)
    words = [message.content, *(e.get("description", "") for e in message.embeds)]
    assert sum(part.count(said) for part in words) == 1
    [final] = [a for a in message.attachments if a["filename"] == "round.png"]
    assert final["description"].startswith("Cross"), final["description"]
    assert card["image"]["url"] == "attachment://round.png"


async def test_a_member_is_reminded_once_with_a_mention_when_a_quarter_is_left(
    running: Running, server: Server
) -> None:
    """The turn clock: with a quarter of the time left, the member to move gets one line
    that mentions them and says when the turn runs out; nothing else changes."""
    service = service_of(await running.start())
    driver = await seated_game(server, service, "cross", 2, {"target": 100})
    table = driver.table()
    assert table is not None and table.deadline is not None
    member = driver.mover(table)
    when = service.tables.scheduled(table.id, reminder=True)
    assert when is not None and when < table.deadline
    before = len(server.fake.public(driver.channel_id))
    seen: list[tuple[str, dict[str, Any] | None]] = []
    record_mentions(server.fake, seen)
    service.clock = lambda: when  # the reminder's moment, without waiting for it
    service.run_due()
    service.run_due()  # given out once

    def posted() -> list[Message]:
        return server.fake.public(driver.channel_id)[before:]

    await server.fake.wait_for(posted)
    [reminder] = posted()
    assert reminder.content == (
        f"<@{member.id}>, your turn runs out <t:{int(table.deadline)}:R>."
        " More time is under My hand."
    ), reminder.content
    [(content, allowed)] = seen
    assert pings(content, allowed) == {str(member.id)}, "the reminder notifies the member"
    after = driver.table()
    assert after is not None and after.version == table.version, "a reminder changes nothing"


async def test_the_hand_is_the_clicks_answer_and_a_slow_picture_is_acknowledged_first(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "My hand" answers the click with the picture itself (one request); a picture not
    drawn in time has the click acknowledged first, then comes as the follow-up, so the
    member never sees "This interaction failed"."""
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    table = driver.table()
    assert table is not None
    member = driver.mover(table)
    latest = table_messages(server.fake, driver.channel_id)[-1]
    monkeypatch.setattr(acting, "ANSWER_WITHIN", 10.0)  # time enough, however busy
    quick = await member.click(latest, "My hand")
    hand = await quick.reply()
    assert quick.interaction.response_type == 4 and hand.files.get("hand.png")

    release = threading.Event()
    draw = bot.painter.draw_first

    async def slow_draw(*args: Any) -> Any:
        await asyncio.to_thread(release.wait, 10)
        return await draw(*args)

    monkeypatch.setattr(bot.painter, "draw_first", slow_draw)
    monkeypatch.setattr(acting, "ANSWER_WITHIN", 0.01)
    slow = await member.click(latest, "My hand")
    await slow.acknowledged()
    assert slow.interaction.response_type == 5, "acknowledged while the picture is drawn"
    release.set()
    hand = await slow.reply()
    assert hand.visible_to == member.id and hand.files.get("hand.png")


async def test_a_cancelled_lobby_reads_closed(running: Running, server: Server) -> None:
    await running.start()
    ann = server.member("Ann")
    lobby = await open_lobby(server.fake, ann, server.channels[0], game="cross")
    await ann.click(lobby, "Cancel")
    await server.fake.wait_for(lambda: "table closed" in server.fake.messages[lobby.id].text())
    closed = server.fake.messages[lobby.id]
    assert not closed.buttons()
    assert not any(e.get("footer") for e in closed.embeds), "no call to join a closed table"


async def test_a_lobby_where_nothing_happened_is_closed_and_the_channel_told_why(
    running: Running, server: Server
) -> None:
    """Its host gone, a lobby would keep the channel from any other table: the clock
    closes it once nothing has happened in it for its idle time, says why in the
    channel, and the lobby reads closed."""
    service = service_of(await running.start())
    ann = server.member("Ann")
    channel = server.channels[0]
    lobby = await open_lobby(server.fake, ann, channel, game="cross")
    table = service.in_channel(channel)
    assert table is not None and table.deadline is not None
    deadline = table.deadline
    service.clock = lambda: deadline  # its idle time past, without waiting for it
    await asyncio.gather(*service.run_due())
    said = "The Cross table was closed: nobody joined or started it for 1 hour."
    told = await server.fake.wait_for(
        lambda: [m for m in server.fake.public(channel) if m.content == said]
    )
    assert len(told) == 1, "told once"
    closed = server.fake.messages[lobby.id]
    assert "table closed" in closed.text() and not closed.buttons()
    assert service.in_channel(channel) is None, "the channel is free for another table"


async def test_a_member_nicknamed_as_a_computer_is_seated_under_their_username(
    running: Running, server: Server
) -> None:
    """A member whose nickname is a computer seat's name ("Computer 2 (hard)", in any of
    the bot's languages) would look exactly like one, on the picture, in its alt text
    and in the cards: they sit under their username; a member named otherwise keeps
    their nickname."""
    bot = await running.start()
    channel = server.channels[0]
    ann = server.member("Ann", nick="Annie")
    mimic = server.member("Sneaky Pete", nick="Máquina 2 (difícil)")
    lobby = await open_lobby(server.fake, ann, channel, game="cross")
    await mimic.click(lobby, "Join")
    await server.fake.wait_for(lambda: "sneaky" in server.fake.messages[lobby.id].text())
    table = service_of(bot).in_channel(channel)
    assert table is not None and [seat.name for seat in table.seats] == ["Annie", "sneaky_pete"]
    assert "Máquina" not in server.fake.messages[lobby.id].text()
