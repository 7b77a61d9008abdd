"""The coach at a game's end, through the fake Discord: nobody asks, and once a game of
members ends its analysis is made and stored, and each member's accuracy, as the stored
analysis holds it, is posted once in the game's channel, after the game-over card (no
move, hand or tile in it), and shown beside the game in ``/domino history``. A restart
between storing the analysis and posting it posts it once after the restart; a post the
bot made but did not note before it stopped is found in the channel and not made
again."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

from bot.client import DominoBot
from bot.players.coach import Analysis
from data import parse_url
from discord_face.coaching import AccuracyHerald
from tests.e2e.conftest import Running
from tests.e2e.test_after_the_game import finished, is_game_over
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import Message

SAID = "The coach · accuracy: "


def herald_of(bot: DominoBot) -> AccuracyHerald:
    herald = getattr(bot.get_cog("Coaching"), "herald", None)
    assert isinstance(herald, AccuracyHerald)
    return herald


async def play(bot: DominoBot, server: Server) -> str:
    """Ann and Bob play a Cross game to 10 in the first channel; its id."""
    return (await finished(bot, server)).game_id


def coach_posts(server: Server) -> list[Message]:
    """Every message of the coach's word, in any channel."""
    return [m for m in server.fake.messages.values() if m.content.startswith(SAID)]


async def expected(bot: DominoBot, game_id: str) -> str:
    """The coach's word on the game, from its stored analysis: each member's accuracy,
    a whole percentage, in seat order."""
    stored = await bot.store.get_analysis(game_id)
    assert stored is not None, "the analysis is stored before it is announced"
    analysis = Analysis.from_dict(stored)
    ann, bob = (round(analysis.seat(seat).accuracy or 0) for seat in (0, 1))
    return (
        f"{SAID}Ann {ann}%, Bob {bob}%. Your costliest moves, shown to you alone:"
        f" /domino analysis game:{game_id}"
    )


async def test_a_finished_game_gets_its_accuracies_once_after_its_last_card(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    game_id = await play(bot, server)
    await bot.coach.settled()
    [post] = coach_posts(server)
    assert post.content == await expected(bot, game_id)
    assert post.channel_id == server.channels[0] and post.visible_to is None
    assert not post.embeds and not post.attachments and not post.components
    public = server.fake.public(server.channels[0])
    card = next(i for i, m in enumerate(public) if is_game_over(m))
    assert public.index(post) > card, "after the game-over card"
    assert await bot.store.announcement_due(game_id) is False
    ann = server.members["Ann"]
    history = await (await ann.slash("domino history", server.channels[0])).reply()
    accuracies = post.content.removeprefix(SAID).split(".")[0]  # nobody asked for them
    assert f"{game_id}" in history.content and f"accuracy: {accuracies}" in history.content


def hang(bot: DominoBot, posting: bool) -> asyncio.Event:
    """Make the Discord herald hang when it is told of an analysis (stored by then), as
    a crash there would leave the bot: before it posts, or after (``posting``), so the
    coach never notes the announcement. The event is set when it hangs."""
    herald = herald_of(bot)
    post, there = herald.analysed, asyncio.Event()

    async def hanging(game: Any, analysis: Analysis, again: bool) -> None:
        if posting:
            await post(game, analysis, again)
        there.set()
        await asyncio.Event().wait()

    herald.analysed = hanging  # type: ignore[method-assign]
    return there


async def test_a_restart_between_storing_and_posting_posts_once_after_it(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    there = hang(bot, posting=False)
    game_id = await play(bot, server)
    await asyncio.wait_for(there.wait(), 60)
    assert await bot.store.announcement_due(game_id) is True
    assert coach_posts(server) == []
    await running.stop()

    bot = await running.start()
    await bot.coach.settled()
    [post] = coach_posts(server)
    assert post.content == await expected(bot, game_id)
    assert await bot.store.announcement_due(game_id) is False


async def test_a_post_made_but_not_noted_before_a_stop_is_not_made_again(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    there = hang(bot, posting=True)
    game_id = await play(bot, server)
    await asyncio.wait_for(there.wait(), 60)
    assert len(coach_posts(server)) == 1
    await running.stop()

    bot = await running.start()
    await bot.coach.settled()
    [post] = coach_posts(server)
    assert post.content == await expected(bot, game_id)
    assert await bot.store.announcement_due(game_id) is False


async def test_a_post_found_after_a_stop_is_not_made_again_though_a_name_changed(
    running: Running, server: Server
) -> None:
    """The post is found in the channel whoever it names: a game whose words changed
    while the bot was down (its seat's name, as an older release read it from the
    member's last name anywhere) does not make it twice."""
    bot = await running.start()
    there = hang(bot, posting=True)
    game_id = await play(bot, server)
    await asyncio.wait_for(there.wait(), 60)
    await running.stop()
    path = parse_url(running.settings.database_url).path
    assert path is not None
    with sqlite3.connect(path) as db:
        renamed = db.execute("UPDATE game_seats SET name = 'Annabel' WHERE name = 'Ann'").rowcount
    assert renamed == 1

    bot = await running.start()
    await bot.coach.settled()
    [post] = coach_posts(server)
    assert "Ann " in post.content, "the post made before the stop, as it was"
    assert await bot.store.announcement_due(game_id) is False
