"""Reloading the tables cog (``reload_extension``, discord.py's development loop) leaves
one announcer: the old cog's unload removes its own, so each move is posted once."""

from __future__ import annotations

from tests.e2e.conftest import Running
from tests.e2e.driver import seated_game, service_of, table_messages
from tests.fakediscord.fixtures import Server


async def test_after_a_reload_each_move_is_posted_once(running: Running, server: Server) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    await driver.play_one()
    old = bot.get_cog("Tables")
    await bot.reload_extension("cogs.tables")
    assert bot.get_cog("Tables") is not old
    made = 0
    while made < 8 and not driver.finished():
        before = len(table_messages(server.fake, driver.channel_id))
        await driver.play_one()
        await server.fake.wait_for(driver.settled)
        posted = len(table_messages(server.fake, driver.channel_id)) - before
        assert posted <= 1, f"move {made + 1} was posted {posted} times"
        made += 1
    assert made == 8 or driver.finished()
    await running.stop()
