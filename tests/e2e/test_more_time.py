"""More time through the fake Discord: the member to move finds it under their private
hand; pressed, their clock gets a whole turn more, the hand is drawn again in its place
with buttons that still play (the action moved the table on), and the channel is told.
A member whose turn it is not is offered none."""

from __future__ import annotations

from bot.table import MORE_TIME_MOST
from tests.e2e.conftest import Running
from tests.e2e.driver import ENGLISH, seated_game, service_of, table_messages
from tests.fakediscord.fixtures import Server


async def test_more_time_under_the_hand_adds_a_turn_and_the_hand_still_plays(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {})
    fake = server.fake
    table = driver.service.in_channel(driver.channel_id)
    assert table is not None and table.turn is not None and table.deadline is not None
    mover = driver.members[table.seats[table.turn].user_id or 0]
    other = next(m for m in driver.members.values() if m.id != mover.id)
    latest = table_messages(fake, driver.channel_id)[-1]
    waiting = await (await other.click(latest, ENGLISH.label("hand"))).reply()
    assert ENGLISH.label("more_time") not in [b["label"] for b in waiting.buttons()]

    hand = await (await mover.click(latest, ENGLISH.label("hand"))).reply()
    await mover.click(hand, ENGLISH.label("more_time"))
    await fake.wait_for(lambda: fake.messages[hand.id].content.startswith("A whole turn more"))
    rewritten = fake.messages[hand.id]
    longer = driver.service.in_channel(driver.channel_id)
    assert longer is not None and longer.version == table.version + 1
    assert longer.deadline is not None and longer.deadline > table.deadline
    said = f"{mover.name} takes more time: a whole turn more ({MORE_TIME_MOST - 1} more allowed"
    told = await fake.wait_for(
        lambda: [m for m in fake.public(driver.channel_id) if said in m.content]
    )
    assert f"<@{mover.id}>" not in told[0].content, "no ping for the member's own action"

    tile = next(b for b in rewritten.buttons() if b["label"] != ENGLISH.label("more_time"))
    await mover.click(rewritten, tile["label"])
    await fake.wait_for(lambda: (now := driver.service.in_channel(driver.channel_id)) is not None
                        and now.version > longer.version)  # fmt: skip


async def test_the_more_time_command_answers_privately_and_refuses_banking_time(
    running: Running, server: Server
) -> None:
    """``/domino more-time`` does what the button does, answered privately; asked again
    at once (more than a whole turn left) or by the member who is waiting, it is
    refused in words and changes nothing."""
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {})
    table = driver.table()
    assert table is not None and table.turn is not None
    mover = driver.members[table.seats[table.turn].user_id or 0]
    other = next(m for m in driver.members.values() if m.id != mover.id)
    given = await (await mover.slash("domino more-time", driver.channel_id)).reply()
    assert given.visible_to == mover.id and given.content.startswith("A whole turn more: ")
    again = await (await mover.slash("domino more-time", driver.channel_id)).reply()
    assert again.content == (
        "You have more than a whole turn left already: ask again when less is left."
    )
    waiting = await (await other.slash("domino more-time", driver.channel_id)).reply()
    assert waiting.content == f"It is {mover.name}'s turn, not yours."
    now = driver.table()
    assert now is not None and now.version == table.version + 1, "one turn more, once"


async def test_a_server_that_turns_more_time_off_is_offered_none(
    running: Running, server: Server
) -> None:
    """``/domino settings more_time:False``: the settings say so, the next table's
    member to move finds no More time under their hand, and the command is refused in
    words, changing nothing."""
    bot = await running.start()
    boss = server.member("Boss", manager=True)
    said = await (await boss.slash("domino settings", server.channels[0], more_time=False)).reply()
    assert "More time: off" in said.content
    driver = await seated_game(server, service_of(bot), "cross", 2, {})
    table = driver.table()
    assert table is not None and table.turn is not None
    mover = driver.members[table.seats[table.turn].user_id or 0]
    latest = table_messages(server.fake, driver.channel_id)[-1]
    hand = await (await mover.click(latest, ENGLISH.label("hand"))).reply()
    assert ENGLISH.label("more_time") not in [b["label"] for b in hand.buttons()]
    refused = await (await mover.slash("domino more-time", driver.channel_id)).reply()
    assert refused.content == "This server's tables give no more time: its settings turned it off."
    now = driver.table()
    assert now is not None and now.version == table.version
