"""Hints through the fake Discord: at a table opened with the hints option, the member to
move finds a Hint button under their private hand and ``/domino hint`` answers too, with
a move they can make and the one reason for it, privately; asking changes nothing.
Anywhere else the hint is refused with the reason."""

from __future__ import annotations

import re

from bot.engine import Move
from bot.snapshot import TableSnapshot
from tests.e2e.conftest import Running
from tests.e2e.driver import ENGLISH, Driver, seated_game, service_of, table_messages
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import Message
from tests.fakediscord.users import Member

HINT = re.compile(r"\*\*Hint\*\* from the (normal|hard) player: (.+?) — (.+)")


def to_move(driver: Driver) -> tuple[Member, Member, TableSnapshot]:
    """The member whose turn it is, another member, and the table as it is."""
    table = driver.service.in_channel(driver.channel_id)
    assert table is not None and table.turn is not None
    user = table.seats[table.turn].user_id
    other = next(m for m in driver.members.values() if m.id != user)
    return driver.members[user or 0], other, table


def advised(message: Message, member: Member, level: str) -> str:
    """The move a private hint names, as the bot worded it."""
    assert message.visible_to == member.id, "a hint is private"
    found = HINT.fullmatch(message.content)
    assert found, message.content
    assert found[1] == level and found[3].endswith("."), message.content
    return found[2]


def wording_of(move: Move) -> str:
    if move.tile is None:
        return move.text
    return f"play {move.tile} on {move.end_name}" if move.end_name else f"lead {move.tile}"


async def test_the_hint_button_and_command_name_a_legal_move_and_change_nothing(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"hints": True})
    member, other, table = to_move(driver)
    legal = {wording_of(move) for move in table.legal_for(member.id)}
    latest = table_messages(server.fake, driver.channel_id)[-1]
    hand = await (await member.click(latest, ENGLISH.label("hand"))).reply()

    hint = await (await member.click(hand, ENGLISH.label("hint"))).reply(30)
    assert advised(hint, member, "normal") in legal
    command = await (await member.slash("domino hint", driver.channel_id)).reply(30)
    assert advised(command, member, "normal") == advised(hint, member, "normal")
    hard = await (await member.slash("domino hint", driver.channel_id, level="hard")).reply(30)
    assert advised(hard, member, "hard") in legal

    refused = await (await other.slash("domino hint", driver.channel_id)).reply()
    assert refused.visible_to == other.id
    assert refused.content == f"It is {member.name}'s turn, not yours.", refused.content
    after = driver.service.in_channel(driver.channel_id)
    assert after is not None and after.version == table.version, "asking changes nothing"


async def test_a_table_without_hints_shows_no_hint_button_and_refuses_the_command(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "milo", 4, {})
    member, _, table = to_move(driver)
    latest = table_messages(server.fake, driver.channel_id)[-1]
    hand = await (await member.click(latest, ENGLISH.label("hand"))).reply()
    assert ENGLISH.label("hint") not in [b["label"] for b in hand.buttons()]
    refused = await (await member.slash("domino hint", driver.channel_id)).reply()
    assert refused.visible_to == member.id
    assert refused.content.startswith("This table has no hints"), refused.content
    after = driver.service.in_channel(driver.channel_id)
    assert after is not None and after.version == table.version
