"""A restart in the middle of a game loses nothing and old buttons keep working; computer
players fill seats from the lobby and play whole games."""

from __future__ import annotations

import copy
from typing import Any

from bot.commands import AddComputer, Start
from bot.service import NewTable, TableService
from bot.table import Table
from data import open_store
from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, open_lobby, seated_game, service_of, table_messages
from tests.fakediscord.fixtures import Server
from web.identity import LOCAL_SERVER, new_channel_id, new_guest_id


def game_state(table: Table) -> dict[str, Any]:
    """The table's state but for the turn's deadline (a restart gives the member to move
    their whole turn again)."""
    return {k: v for k, v in table.to_dict().items() if k != "deadline"}


async def test_a_restart_mid_game_resumes_the_table_and_old_buttons_still_work(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "maltese-cross", 2, {"target": 10})
    members = driver.members
    channel = server.channels[0]
    for _ in range(3):
        await driver.play_one()
    await server.fake.wait_for(driver.settled)
    latest = copy.deepcopy(table_messages(server.fake, channel)[-1])

    await running.stop()
    before = driver.table()  # as the stopped bot left it: it may note the last post as it stops
    assert before is not None
    state = game_state(before)
    bot = await running.start()

    after = service_of(bot).tables[before.id]
    assert game_state(after) == state, "the table resumed exactly as it was stored"
    assert server.fake.sync_count == 1, "the unchanged commands were not synced again"
    driver = Driver(server.fake, service_of(bot), channel, members)
    mover = driver.mover(after)
    hand = await (await mover.click(latest, "My hand")).reply()
    assert hand.visible_to == mover.id and hand.files.get("hand.png")
    while not driver.finished():
        await driver.play_one()
    final = server.fake.public(channel)[-1]
    assert final.embeds[0]["title"].startswith("Winner:")


async def test_computer_players_take_seats_from_the_lobby_and_play_a_whole_game(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    ann = server.member("Ann")
    channel = server.channels[0]
    lobby = await open_lobby(server.fake, ann, channel, game="milo", target=1)
    for level in ("Easy", "Normal", "Hard"):
        choice = await (await ann.click(lobby, "Add computer")).reply()
        assert choice.visible_to == ann.id
        await ann.click(choice, level)
        seated = f"({level.lower()})"

        def shown(seated: str = seated) -> bool:
            return seated in server.fake.messages[lobby.id].text()

        await server.fake.wait_for(shown)
    assert "partners" in server.fake.messages[lobby.id].text().lower()
    await ann.click(lobby, "Start")
    await server.fake.wait_for(lambda: table_messages(server.fake, channel))
    driver = Driver(server.fake, service_of(bot), channel, {ann.id: ann})
    while not driver.finished():
        await driver.play_one()
    final = server.fake.public(channel)[-1]
    assert final.embeds[0]["title"].startswith("Winner:")
    [row] = await bot.store.get_stats(ann.id, guild_id=server.guild_id)
    assert row.games == 1
    board = await bot.store.leaderboard("milo", guild_id=server.guild_id, order="wins")
    assert [e.user_id for e in board.entries] == [ann.id], "computers are not on leaderboards"


async def test_with_threads_on_each_table_plays_in_its_own_thread(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    boss, ann = server.member("Boss", manager=True), server.member("Ann")
    channel = server.channels[0]
    reply = await (await boss.slash("domino settings", channel, threads=True)).reply()
    assert reply.visible_to == boss.id and "Threads: on" in reply.content
    lobby = await open_lobby(server.fake, boss, channel, game="cross", target=10)
    thread = await server.fake.wait_for(
        lambda: next((c for c in server.fake.channels.values() if c.get("parent_id")), None)
    )
    assert thread["parent_id"] == str(channel) and thread["id"] == str(lobby.id)
    await ann.click(lobby, "Join")
    await server.fake.wait_for(lambda: "Ann" in server.fake.messages[lobby.id].text())
    await boss.click(lobby, "Start")
    await server.fake.wait_for(lambda: table_messages(server.fake, lobby.id))
    assert not table_messages(server.fake, channel), "the game is posted in the thread only"
    driver = Driver(server.fake, service_of(bot), lobby.id, {boss.id: boss, ann.id: ann})
    while not driver.finished():
        await driver.play_one()


async def test_browser_tables_wait_while_the_bot_does_not_serve_the_browser_table(
    running: Running, server: Server
) -> None:
    """A guest's game against a computer, left open at the browser table; then a token
    goes into .env with WEB_PORT empty (as .env.example has it), and the bot starts in
    Discord alone. Their table waits, as a Discord table waits while only the browser
    table runs: its turns are not timed out and played where nobody can see them."""
    async with await open_store(running.settings.database_url) as store:
        local = TableService(store, computer_pace=0.0)
        await local.resume(owns=lambda guild_id: guild_id == LOCAL_SERVER)
        ann = new_guest_id()
        opened = await local.open_table(
            NewTable(LOCAL_SERVER, new_channel_id(), ann, "Ann", "cross")
        )
        await local.act(opened.id, AddComputer(ann, "easy"))
        await local.act(opened.id, Start(ann))
        await local.close()
    assert running.settings.web_port is None
    bot = await running.start()
    assert service_of(bot).find(opened.id) is None, "not taken up, so not timed"
    assert not bot.owns(LOCAL_SERVER), "nor its coach's or tournaments' work"
