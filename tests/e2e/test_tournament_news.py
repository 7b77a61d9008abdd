"""A tournament's news survives a stop, end to end through the fake Discord: the last
table of a Swiss's last round ends, which stores the round's end and the podium, and the
bot stops before its herald posts them, or after it posted the podium and before it
marked it posted. Started again, the bot posts the round's standings and the podium
exactly once: what was not posted is taken up from the store, and what was posted and
not marked is sent again with the same nonces, which Discord (the fake, as Discord does)
answers with the messages it made the first time."""

from __future__ import annotations

import asyncio

import pytest

from bot.client import DominoBot
from bot.tournaments.model import News, Tournament
from tests.e2e.conftest import Running
from tests.e2e.test_tournaments import (
    announce,
    deadline_then_next_round,
    entered,
    podium_of,
    started,
    with_picture,
)
from tests.fakediscord.fixtures import Server

ENDING = ("round-over", "finished")
"""The news the last table's end tells: the round's standings, then the podium and the
final standings."""


def stop_at_the_end(bot: DominoBot, posted: bool) -> asyncio.Event:
    """Make the bot hang at the tournament's end as a stop there would leave it: its
    herald posts nothing of the end (``posted`` False), or posts the podium and is never
    done with it (True). The event is set when it hangs."""
    herald, service = bot.herald, bot.tournaments
    assert herald is not None and service is not None
    there = asyncio.Event()
    if not posted:
        post = herald._post

        async def hanging_post(tournament: Tournament, news: News) -> str | None:
            if news.what in ENDING:
                there.set()
                await asyncio.Event().wait()
            return await post(tournament, news)

        herald._post = hanging_post  # type: ignore[method-assign]
    else:
        mark = service.news_done

        async def hanging_mark(news: News, given_up: str | None = None) -> None:
            if news.what == "finished":
                there.set()
                await asyncio.Event().wait()
            await mark(news, given_up)

        service.news_done = hanging_mark  # type: ignore[method-assign]
    return there


@pytest.mark.parametrize("posted", [False, True], ids=["before-posting", "before-marking"])
async def test_the_podium_is_posted_once_after_a_stop_at_the_end(
    running: Running, server: Server, posted: bool
) -> None:
    entrants = await entered(running, server, ["P0", "P1"], format="swiss", rounds=1,
                             start_in=60, checkin=30)  # fmt: skip
    bot, clock, tournament_id = entrants.bot, entrants.clock, entrants.tournament_id
    assert bot.tournaments is not None
    fake, channel = server.fake, server.channels[0]
    clock.now = bot.tournaments.get(tournament_id).settings.start_at
    there = stop_at_the_end(bot, posted)
    await bot.tournaments.run_due()
    # Nobody comes: the computers play the one table at once, and its end ends it all.
    assert await deadline_then_next_round(server, bot, clock, tournament_id) is None
    await asyncio.wait_for(there.wait(), 60)
    unposted = [n.told.what for n in await bot.store.unposted_news()]
    assert unposted == (["finished"] if posted else list(ENDING))
    assert (podium_of(fake, channel) is not None) is posted
    await running.stop()

    bot = await running.start()
    assert bot.herald is not None
    await bot.herald.settled()
    podiums = [m for m in fake.public(channel) if m.embeds and "podium" in m.embeds[0]["title"]]
    assert len(podiums) == 1, "the podium, once"
    assert len(with_picture(fake, channel, "standings.png")) == 2, "the round's, and final"
    assert await bot.store.unposted_news() == []
    assert tournament_id not in bot.herald._latest, "an ended tournament's news is all posted"


async def test_an_announcement_edit_that_failed_for_now_is_made_when_tried_again(
    running: Running, server: Server
) -> None:
    """Discord fails the edit that adds a member to the announcement's entrants for now
    (503): the herald tries the piece of news again, and the announcement lists them."""
    bot, _ = await started(running)
    assert bot.herald is not None
    bot.herald.retry_seconds = 0.0
    fake = server.fake
    boss, ann = server.member("Boss", manager=True), server.member("Ann")
    announcement, _ = await announce(server, boss, game="cross", format="swiss", rounds=1,
                                     seats=2, target=10, start_in=60, checkin=30)  # fmt: skip
    await bot.herald.settled()
    fake.fail_next("PATCH", "/channels/{channel_id}/messages/{message_id}", 503)
    reply = await (await ann.click(announcement, "Sign up")).reply()
    assert "signed up" in reply.content, reply.content
    await bot.herald.settled()
    assert "Ann" in fake.messages[announcement.id].text()
    assert await bot.store.unposted_news() == []


async def test_a_post_discord_refuses_for_good_is_given_up_and_the_next_is_posted(
    running: Running, server: Server
) -> None:
    """Discord refuses the post of "paused" (403: the bot may not write there): the
    herald gives it up (marked, not tried again) and posts the next piece, "resumed"."""
    bot, _ = await started(running)
    assert bot.herald is not None
    fake, channel = server.fake, server.channels[0]
    boss = server.member("Boss", manager=True)
    await announce(server, boss, game="cross", format="swiss", rounds=1, seats=2, target=10,
                   start_in=60, checkin=30)  # fmt: skip
    await bot.herald.settled()
    fake.fail_next("POST", "/channels/{channel_id}/messages", 403)
    await (await boss.slash("domino tournament pause", channel)).reply()
    await bot.herald.settled()
    await (await boss.slash("domino tournament resume", channel)).reply()
    await bot.herald.settled()
    said = [m.content for m in fake.public(channel)]
    assert "The tournament is resumed." in said and "The tournament is paused." not in said
    assert await bot.store.unposted_news() == []
