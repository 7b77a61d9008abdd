"""A member's draw through the real client: one click, answered in the private hand
clicked, with the draws and the pass the rules then leave no choice about made by the
bot (R-CR-5: one draw, then the pass if it fits nowhere; R-MG-5: draws until a tile
fits)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.engine import DRAW, Tile
from tests.e2e.conftest import Running
from tests.e2e.driver import DRAW_ENDED_ROUND, Driver, seated_game, service_of, table_messages
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import Message


async def draw_from_the_hand(driver: Driver) -> tuple[Message, list[Tile], int]:
    """The member to move, with nothing to play but a draw, clicks My hand, then Draw in
    it: the hand message once answered, the tiles held before, and their seat."""
    table = driver.table()
    assert table is not None and table.match is not None
    seat = table.seat_to_move()
    member = driver.mover(table)
    held = table.match.round.hand(seat)
    latest = table_messages(driver.fake, driver.channel_id)[-1]
    hand = await (await member.click(latest, driver.words.label("hand"))).reply()
    labels = [driver.words.label(action) for action in ("draw", "more_time")]
    assert [b["label"] for b in hand.buttons()] == labels
    before = len(driver.fake.messages)
    sent = await member.click(hand, driver.words.label("draw"))
    await sent.acknowledged()
    await driver.fake.wait_for(lambda: driver.words.drew(hand.content) or None)
    assert not [m for m in list(driver.fake.messages.values())[before:] if m.visible_to]
    return hand, held, seat


async def play_until(driver: Driver, enough: Callable[[list[Drew]], bool]) -> None:
    """Play the game by buttons, each draw made from the hand and checked, until the
    draws made are ``enough``."""
    made: list[Drew] = []
    for _ in range(400):
        table = driver.table()
        assert table is not None and table.match is not None
        if table.match.legal_moves() == (DRAW,):
            made.append(await draw_and_check(driver))
            if enough(made):
                return
            await driver.fake.wait_for(driver.settled, 15)
        else:
            await driver.play_one()
        assert not driver.finished(), f"a whole game, and only these draws: {made}"
    raise AssertionError(f"400 turns, and only these draws: {made}")


@dataclass(frozen=True)
class Drew:
    tiles: int
    passed: bool


async def draw_and_check(driver: Driver) -> Drew:
    """A draw from the hand; what its answer says and offers is what the table stored."""
    hand, held, seat = await draw_from_the_hand(driver)
    table = driver.table()  # stored before the click was answered
    assert table is not None and table.match is not None
    if driver.words.says(DRAW_ENDED_ROUND).match(hand.content):
        return Drew(0, passed=True)
    drawn = set(table.match.round.hand(seat)) - set(held)
    assert drawn and all(str(tile) in hand.content for tile in drawn), hand.content
    if table.turn == seat:  # the last tile drawn fits: the member places it
        assert driver.words.drew(hand.content, passed=False), hand.content
        legal = {m.text for m in table.match.legal_moves()}
        labels = {b["label"] for b in hand.buttons()} - {driver.words.label("more_time")}
        assert labels and labels <= legal
        assert len(hand.buttons()) == len(labels) + 1, "and More time: the turn goes on"
        assert [a["filename"] for a in hand.attachments] == ["hand.png"]
        member = driver.members[table.seats[seat].user_id or 0]
        played = await member.click(hand, next(iter(sorted(labels))))
        await played.acknowledged()
        await driver.fake.wait_for(
            lambda: driver.settled() and table.version != driver.latest_version(), 15
        )
        return Drew(len(drawn), passed=False)
    assert driver.words.drew(hand.content, passed=True), hand.content
    assert not hand.buttons() and not hand.attachments  # nothing is left to click
    await driver.fake.wait_for(driver.settled, 15)
    latest = table_messages(driver.fake, driver.channel_id)[-1]
    assert f"{table.seats[seat].name} draws" in latest.text(), latest.text()
    assert "and passes" in latest.text(), latest.text()
    return Drew(len(drawn), passed=True)


async def test_r_cr_5_a_draw_that_fits_nowhere_passes_in_the_same_click(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    await play_until(driver, lambda made: {d.passed for d in made if d.tiles} == {True, False})


async def test_r_mg_5_one_click_draws_until_a_tile_fits(running: Running, server: Server) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "merry-go-round", 2, {"target": 61})
    await play_until(driver, lambda made: any(d.tiles > 1 for d in made))
