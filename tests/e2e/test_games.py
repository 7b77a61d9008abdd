"""Whole games of each game through the fake Discord: lobby, buttons and slash commands
to game over, a valid picture after every move, no hand ever public, scores stored."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Running
from tests.e2e.driver import seated_game, service_of
from tests.fakediscord.fixtures import Server

GAMES = [
    ("cross", 3, {"target": 10}),
    ("maltese-cross", 2, {"target": 10}),
    ("merry-go-round", 2, {"keep_last_two": True}),
    ("milo", 4, {"target": 1}),
]


@pytest.mark.parametrize(("game", "count", "options"), GAMES)
async def test_a_whole_game_by_members(
    running: Running, server: Server, game: str, count: int, options: dict[str, int | bool]
) -> None:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), game, count, options)
    players = list(driver.members.values())
    channel = server.channels[0]
    while not driver.finished():
        await driver.play_one()
    for message in server.fake.public(channel)[:-1]:
        ends = [e for e in message.embeds if e.get("title") == "Round over"]
        if ends:  # the round's last move is pictured with its result
            assert ends[-1]["image"]["url"] == "attachment://round.png"
            [picture] = [a for a in message.attachments if a["filename"] == "round.png"]
            assert picture["description"], "the round's final layout has alt text"
    final = server.fake.public(channel)[-1]
    assert final.embeds and final.embeds[0]["title"].startswith("Winner:")
    assert f"Game {driver.table_id}-" in final.embeds[0]["footer"]["text"], "its id, to replay"
    standings = final.embeds[0]["fields"][0]["value"]
    assert all(m.name in standings for m in players)
    stats = {m.name: await bot.store.get_stats(m.id, guild_id=server.guild_id) for m in players}
    assert all(len(rows) == 1 and rows[0].games == 1 for rows in stats.values())
    assert sum(rows[0].wins for rows in stats.values()) == (2 if game == "milo" else 1)
    board = await (
        await players[0].slash("domino leaderboard", channel, game=game, order="wins")
    ).reply()
    winners = [name for name, rows in stats.items() if rows[0].wins]
    assert f"1. {winners[0]}" in board.content and board.files.get("leaderboard.png")
