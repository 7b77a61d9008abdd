"""A tournament's news is kept with the change it tells (the outbox): each piece the
herald is told is stored in that change's transaction, with the tournament as it stood
then, and a start hands the herald again, in order, whatever was not marked done, of an
open tournament or an ended one; old news is passed over. Over a real table service and
store, the herald a test's (:class:`~tests.tournaments.test_service.Venue`)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from bot.refusals import TournamentRefused
from bot.tournaments.marks import FIRST_SECONDS
from bot.tournaments.model import Format, News, Phase, Settings, Tournament
from bot.tournaments.service import NEWS_KEPT, Done
from data.backend import Session
from data.repository import Repository, StoreError
from tests.tables.helpers import Clock
from tests.tournaments.test_service import (
    CHANNEL,
    GUILD,
    ORGANISER,
    PLAYERS,
    Venue,
    driven,
    play_round,
    running,
    started,
    two_stored,
)


def two_rounds(clock: Clock) -> Settings:
    """A Swiss of two rounds at tables of two (five players: a bye each round)."""
    return Settings("cross", Format.SWISS, size=2, rounds=2, target=10,
                    start_at=clock.now + 600, checkin_minutes=10)  # fmt: skip


def named(news: list[News]) -> list[tuple[str, int, int, str, tuple[int, ...]]]:
    return [(n.tournament_id, n.version, n.ordinal, n.what, n.about) for n in news]


async def test_every_piece_told_is_stored_with_its_change_and_told_again_at_a_start(
    store: Repository,
) -> None:
    """A whole Swiss, its herald never marking anything: every piece it was told is
    stored, in order, with the tournament it was told with (a round's end with that
    round's standings, before the next round's byes). Stopped then, a start tells the
    same again, the finished tournament's podium included; marked done, nothing."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    tournament = await started(tournaments, clock, two_rounds(clock), 5)
    await play_round(tables, tournaments, clock, tournament)
    await play_round(tables, tournaments, clock, tournaments.get(tournament.id))
    assert tournament.id not in tournaments.open
    await tournaments.close()
    await tables.close()

    told = [news for _, news in venue.news]
    unposted = await store.unposted_news()
    assert named(told) == [
        (n.tournament_id, n.version, n.ordinal, n.told.what, n.told.about) for n in unposted
    ]
    assert [row.state for row in unposted] == [t.to_dict() for t, _ in venue.news]
    whats = [n.what for n in told]
    assert whats[0] == "created" and whats[-1] == "finished"
    assert whats.count("round") == 2 and whats.count("round-over") == 2
    first_over = next(t for t, n in venue.news if n.what == "round-over")
    assert first_over.round == 1
    assert all(item.round == 1 for item in first_over.record), "no byes of round 2 yet"
    result = whats.index("round-over") - 1
    assert whats[result] == "result" and told[result].version == told[result + 1].version

    again = Venue()
    tables, tournaments = await running(store, clock, again)
    assert named([n for _, n in again.news]) == named(told), "the same, in the same order"
    assert [t.to_dict() for t, _ in again.news] == [t.to_dict() for t, _ in venue.news]
    for _, news in again.news:
        await tournaments.news_done(news)
    await tournaments.close()
    await tables.close()

    after = Venue()
    tables, tournaments = await running(store, clock, after)
    assert after.news == []
    await tournaments.close()
    await tables.close()


async def test_a_start_passes_over_old_news_but_an_open_tournaments_announcement(
    store: Repository,
) -> None:
    """News stored more than :data:`NEWS_KEPT` before a start is marked stale, not told;
    the announcement of a tournament still open is told however old (without it no one
    could sign up), and a newer piece of the same tournament is told."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    cancelled = await tournaments.create(GUILD, CHANNEL, ORGANISER, two_rounds(clock))
    await tournaments.cancel(cancelled.id, ORGANISER)
    # It starts after the second start: no deadline of its falls due in between.
    later = replace(two_rounds(clock), start_at=clock.now + 3 * NEWS_KEPT)
    still = await tournaments.create(GUILD, CHANNEL + 1, ORGANISER, later)
    await tournaments.sign_up(still.id, *PLAYERS[0], rating=1.0)
    clock.now += NEWS_KEPT + 1
    await tournaments.sign_up(still.id, *PLAYERS[1], rating=1.0)
    await tournaments.close()
    await tables.close()

    again = Venue()
    clock.now += 60
    tables, tournaments = await running(store, clock, again)
    assert [(n.tournament_id, n.what, n.about) for _, n in again.news] == [
        (still.id, "created", ()), (still.id, "signed-up", (PLAYERS[1][0],)),
    ]  # fmt: skip
    unposted = await store.unposted_news()
    assert [(n.tournament_id, n.told.what) for n in unposted] == [
        (still.id, "created"), (still.id, "signed-up"),
    ], "the rest marked stale"  # fmt: skip

    async def stale(tx: Session) -> int:
        row = await tx.fetchrow(
            "SELECT COUNT(*) AS n FROM tournament_news WHERE given_up = 'stale'"
        )
        assert row is not None
        return int(row["n"])

    assert await store.backend.read(stale) == 3, "created and cancelled, and a sign-up"
    await tournaments.close()
    await tables.close()


async def test_a_piece_of_news_that_does_not_read_back_is_given_up_and_the_rest_told(
    store: Repository,
) -> None:
    """A piece of news whose row was damaged (hand-edited, half written: whom it is
    about is no list) is given up as unreadable at a start; the other tournaments' news
    is told, and the bot starts."""
    clock = Clock()
    damaged, sound = await two_stored(store, clock, two_rounds(clock))

    async def damage(tx: Session) -> None:
        await tx.execute(
            "UPDATE tournament_news SET about = '[1, 2' WHERE tournament_id = ?", (damaged.id,)
        )

    await store.backend.write(damage)
    again = Venue()
    tables, tournaments = await running(store, clock, again)
    assert [(n.tournament_id, n.what) for _, n in again.news] == [(sound.id, "created")]
    assert damaged.id in tournaments.open, "the tournament itself reads back"

    async def unreadable(tx: Session) -> list[str]:
        rows = await tx.fetch(
            "SELECT tournament_id FROM tournament_news WHERE given_up = 'unreadable'"
        )
        return [row["tournament_id"] for row in rows]

    assert await store.backend.read(unreadable) == [damaged.id]
    await tournaments.close()
    await tables.close()


async def test_a_change_refused_on_its_version_tells_nothing(store: Repository) -> None:
    """Another process moved the tournament on: the sign-up is refused, nothing is told
    or stored of it."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, two_rounds(clock))

    async def moved_on(tx: Session) -> None:
        await tx.execute("UPDATE tournaments SET version = version + 1")

    await store.backend.write(moved_on)
    with pytest.raises(TournamentRefused):
        await tournaments.sign_up(tournament.id, *PLAYERS[0], rating=1.0)
    assert [n.what for _, n in venue.news] == ["created"]
    assert [n.told.what for n in await store.unposted_news()] == ["created"]
    assert tournaments.get(tournament.id).phase is Phase.SIGNUP
    await tournaments.close()
    await tables.close()


class Posting(Venue):
    """A herald that posts each piece at once and marks it done, as Discord's does."""

    def __init__(self) -> None:
        super().__init__()
        self.posting: list[asyncio.Task[None]] = []

    def told(self, tournament: Tournament, news: Sequence[News], done: Done) -> None:
        super().told(tournament, news, done)

        async def post() -> None:
            for piece in news:
                await done(piece, None)

        self.posting.append(asyncio.create_task(post()))

    async def posted(self) -> None:
        """Until every piece told so far is posted and marked (or its mark failed)."""
        await asyncio.gather(*self.posting)


def marks_failing_once(store: Repository, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The store fails the next news mark, once; returns the versions it failed."""
    news_posted = store.news_posted
    failed: list[int] = []

    async def hiccup(tournament_id: str, version: int, *more: Any) -> None:
        if not failed:
            failed.append(version)
            raise StoreError("unavailable", "connection reset")
        await news_posted(tournament_id, version, *more)

    monkeypatch.setattr(store, "news_posted", hiccup)
    return failed


@pytest.mark.parametrize("stop_first", [False, True])
async def test_a_mark_the_store_failed_is_stored_later_and_not_posted_again_at_a_start(
    store: Repository, monkeypatch: pytest.MonkeyPatch, stop_first: bool
) -> None:
    """The announcement is posted and the store fails its mark for a moment: the mark was
    only logged, and the next start (however late: Discord's nonce guards a few minutes)
    posted the announcement again. Now the mark is written again on a backoff (or at
    the stop, if that comes first), and the next start posts nothing."""
    clock, herald = Clock(), Posting()
    tables, tournaments = await driven(store, clock, herald, monkeypatch)
    failed = marks_failing_once(store, monkeypatch)
    await tournaments.create(GUILD, CHANNEL, ORGANISER, two_rounds(clock))
    await herald.posted()
    assert failed and [n.told.what for n in await store.unposted_news()] == ["created"]
    if not stop_first:
        assert tournaments.next_due() == clock.now + FIRST_SECONDS
        clock.now += FIRST_SECONDS
        await tournaments.run_due()
        assert await store.unposted_news() == [], "marked on the backoff"
    await tournaments.close()
    await tables.close()

    again = Posting()
    clock.now += 600  # the next start, ten minutes later
    tables, tournaments = await driven(store, clock, again, monkeypatch)
    await again.posted()
    assert again.heard == [], "nothing posted twice"
    await tournaments.close()
    await tables.close()
