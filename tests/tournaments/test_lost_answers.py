"""A tournament's change the store kept though its answer was lost (the connection cut
as the database answered: the store says ``unavailable``). Memory stayed a version
behind the store, and every later change of that tournament (sign-ups, check-ins, the
start, results) was refused as "moved on" until a restart, the start tried again and
again. Now the next change refused on its version takes the stored tournament up (and
tells what the kept change told), and the store is asked again on the backoff, so a
kept change is told, and goes on, without waiting for another."""

from __future__ import annotations

import asyncio

import pytest

from bot.refusals import NotSaved, TournamentRefused
from bot.tournaments.model import Phase
from bot.tournaments.service import PLACE_RETRY_SECONDS
from data.models import TournamentRow
from data.repository import Repository
from tests.tables.helpers import Clock
from tests.tables.test_lost_answers import answer_lost
from tests.tournaments.test_service import (
    CHANNEL,
    GUILD,
    ORGANISER,
    PLAYERS,
    Venue,
    driven,
    entered,
    one_round,
    round_tables,
)

(FIRST, FIRST_NAME), (SECOND, SECOND_NAME) = PLAYERS[:2]


async def test_a_change_after_one_kept_though_unanswered_is_refused_once_then_made(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next sign-up meets the kept one's version: refused as moved on, once, the kept
    sign-up told then; tried again, it is made, and the tournament starts."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = one_round(clock)
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    answer_lost(monkeypatch, store, "save_tournament", kept=True)
    with pytest.raises(NotSaved) as refused:
        await tournaments.sign_up(tournament.id, FIRST, FIRST_NAME, rating=1.0)
    assert refused.value.fault == "unavailable"
    with pytest.raises(TournamentRefused) as moved_on:
        await tournaments.sign_up(tournament.id, SECOND, SECOND_NAME, rating=1.0)
    assert moved_on.value.why == "moved-on"
    assert venue.heard == [("created", ()), ("signed-up", (FIRST,))], "the kept one, told"
    await tournaments.sign_up(tournament.id, SECOND, SECOND_NAME, rating=1.0)  # again
    clock.now = settings.checkin_at
    for user in (FIRST, SECOND):
        await tournaments.check_in(tournament.id, user)
    clock.now = settings.start_at
    await tournaments.run_due()
    (table,) = round_tables(tables, tournaments.get(tournament.id))
    assert set(table.invited) == {FIRST, SECOND}
    assert [what for what, _ in venue.heard] == [
        "created", "signed-up", "signed-up", "checked-in", "checked-in", "round",
    ]  # fmt: skip
    await tournaments.close()
    await tables.close()


async def test_a_sign_up_kept_though_unanswered_is_told_once_the_store_is_asked_again(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody else acts: the store is asked again after the backoff, and the sign-up it
    kept is told, once."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, one_round(clock))
    answer_lost(monkeypatch, store, "save_tournament", kept=True)
    with pytest.raises(NotSaved):
        await tournaments.sign_up(tournament.id, FIRST, FIRST_NAME, rating=1.0)
    assert venue.heard == [("created", ())]
    assert tournaments.next_due() == clock.now + PLACE_RETRY_SECONDS
    clock.now += PLACE_RETRY_SECONDS
    await tournaments.run_due()
    assert venue.heard == [("created", ()), ("signed-up", (FIRST,))]
    assert tournaments.get(tournament.id).player(FIRST) is not None
    clock.now += PLACE_RETRY_SECONDS
    await tournaments.run_due()
    assert len(venue.heard) == 2, "told once"
    await tournaments.close()
    await tables.close()


async def test_a_sign_up_not_kept_is_told_to_nobody_and_made_when_tried_again(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, one_round(clock))
    answer_lost(monkeypatch, store, "save_tournament", kept=False)
    with pytest.raises(NotSaved):
        await tournaments.sign_up(tournament.id, FIRST, FIRST_NAME, rating=1.0)
    clock.now += PLACE_RETRY_SECONDS
    await tournaments.run_due()
    assert venue.heard == [("created", ())]
    assert tournaments.get(tournament.id).player(FIRST) is None
    await tournaments.sign_up(tournament.id, FIRST, FIRST_NAME, rating=1.0)
    assert venue.heard == [("created", ()), ("signed-up", (FIRST,))]
    await tournaments.close()
    await tables.close()


async def test_a_start_kept_though_unanswered_pairs_its_first_round_after_the_backoff(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start was stored, its answer lost: the deadline loop tried the start again
    and again, refused each time. Now the stored start is taken up after the backoff,
    and its first round paired and opened, once."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = one_round(clock)
    tournament = await entered(tournaments, clock, settings, 2)
    answer_lost(monkeypatch, store, "save_tournament", kept=True)
    clock.now = settings.start_at
    await tournaments.run_due()
    assert tournaments.get(tournament.id).phase is Phase.SIGNUP, "not known to be stored"
    assert tournaments.next_due() == clock.now + PLACE_RETRY_SECONDS
    clock.now += PLACE_RETRY_SECONDS
    await tournaments.run_due()
    started = tournaments.get(tournament.id)
    assert started.phase is Phase.RUNNING and started.round == 1
    (table,) = round_tables(tables, started)
    assert set(table.invited) == {FIRST, SECOND}
    assert [what for what, _ in venue.heard].count("round") == 1
    await tournaments.close()
    await tables.close()


async def test_a_creation_kept_though_unanswered_holds_its_channel_and_is_announced(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Told it was not saved, the organiser asks again: the store is asked first, the
    kept tournament taken up and announced, and the second refused its channel, rather
    than stored beside it (two open in one channel after a restart)."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    answer_lost(monkeypatch, store, "create_tournament", kept=True)
    with pytest.raises(NotSaved):
        await tournaments.create(GUILD, CHANNEL, ORGANISER, one_round(clock))
    with pytest.raises(TournamentRefused) as refused:
        await tournaments.create(GUILD, CHANNEL, ORGANISER, one_round(clock))
    assert refused.value.why == "channel-taken"
    [kept] = tournaments.in_guild(GUILD)
    assert venue.heard == [("created", ())], "its announcement, once"
    assert [row.id for row in await store.load_open_tournaments()] == [kept.id]
    await tournaments.close()
    await tables.close()


async def test_a_creation_not_kept_frees_its_channel_once_the_store_is_asked(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    answer_lost(monkeypatch, store, "create_tournament", kept=False)
    with pytest.raises(NotSaved):
        await tournaments.create(GUILD, CHANNEL, ORGANISER, one_round(clock))
    clock.now += PLACE_RETRY_SECONDS  # the deadline loop asks the store
    await tournaments.run_due()
    assert tournaments.next_due() is None and not venue.heard
    made = await tournaments.create(GUILD, CHANNEL, ORGANISER, one_round(clock))
    assert [t.id for t in tournaments.in_guild(GUILD)] == [made.id]
    await tournaments.close()
    await tables.close()


@pytest.mark.parametrize("kept", [True, False])
async def test_a_lost_creation_asked_about_by_the_loop_and_the_organiser_at_once(
    store: Repository, monkeypatch: pytest.MonkeyPatch, kept: bool
) -> None:
    """The deadline loop's question and the organiser's second creation meet the store
    together (it has just come back): one answer is taken, and neither fails."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    answer_lost(monkeypatch, store, "create_tournament", kept=kept)
    with pytest.raises(NotSaved):
        await tournaments.create(GUILD, CHANNEL, ORGANISER, one_round(clock))
    back, read = asyncio.Event(), store.get_tournament

    async def slow(tournament_id: str) -> TournamentRow | None:
        await back.wait()
        return await read(tournament_id)

    monkeypatch.setattr(store, "get_tournament", slow)
    clock.now += PLACE_RETRY_SECONDS
    both = asyncio.gather(
        tournaments.run_due(),
        tournaments.create(GUILD, CHANNEL, ORGANISER, one_round(clock)),
        return_exceptions=True,
    )
    await asyncio.sleep(0)  # each is waiting for the store
    back.set()
    _, created = await both
    if kept:
        assert isinstance(created, TournamentRefused) and created.why == "channel-taken"
    else:
        assert not isinstance(created, BaseException), created
    assert len(tournaments.in_guild(GUILD)) == 1
    await tournaments.close()
    await tables.close()
