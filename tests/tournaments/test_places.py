"""A round's table whose place (its thread, in Discord) the face could not make: failed
for now, it is tried again on a backoff from the deadline timer, and the round is told
(its pairings, its players pinged) and its show-up deadline counted only once its last
table is open; refused for good, the tournament is paused and its organiser told, and
a resume opens what is missing."""

from __future__ import annotations

import pytest

from bot.tournaments.model import Drawn, NoPlace, Phase, Tournament
from bot.tournaments.service import PLACE_RETRY_SECONDS
from data.repository import Repository
from tests.tables.helpers import Clock
from tests.tournaments.test_service import ORGANISER, Venue, driven, one_round, started


class Failing(Venue):
    """A venue whose places fail as ``failures`` says, one call at a time (None: the
    place is made), then are made."""

    def __init__(self, *failures: NoPlace | None) -> None:
        super().__init__()
        self.failures = list(failures)
        self.asked = 0

    async def place_for(self, tournament: Tournament, drawn: Drawn) -> int:
        self.asked += 1
        failure = self.failures.pop(0) if self.failures else None
        if failure is not None:
            raise failure
        return await super().place_for(tournament, drawn)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def unopened(tournament: Tournament) -> list[int]:
    return [d.position for d in tournament.tables_of(tournament.round) if d.table_id is None]


async def test_a_place_that_fails_for_now_is_tried_again_later_and_the_round_waits_for_it(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    venue = Failing(None, NoPlace("503"), NoPlace("503"))
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = one_round(clock)
    tournament = await started(tournaments, clock, settings, 4)
    assert unopened(tournament) == [1], "the table that opened is kept"
    assert ("round", ()) not in venue.heard, "nobody is pinged to a round not all open"
    assert tournament.due is None, "no show-up deadline for a table that does not exist"
    assert tournaments.next_due() == clock.now + PLACE_RETRY_SECONDS

    clock.now += PLACE_RETRY_SECONDS - 1
    await tournaments.run_due()
    assert venue.asked == 2, "not before its time"
    clock.now += 1
    await tournaments.run_due()  # fails again: the wait doubles
    assert venue.asked == 3 and unopened(tournaments.get(tournament.id)) == [1]
    assert tournaments.next_due() == clock.now + 2 * PLACE_RETRY_SECONDS

    clock.now += 2 * PLACE_RETRY_SECONDS
    await tournaments.run_due()
    opened = tournaments.get(tournament.id)
    assert unopened(opened) == [] and len(tables.tables) == 2
    assert venue.heard.count(("round", ())) == 1
    assert opened.due == clock.now + 60 * settings.show_up_minutes, "counted from now"
    assert tournaments.next_due() == opened.due, "nothing more to try"
    stored = await store.get_tournament(tournament.id)
    assert stored is not None and Tournament.from_dict(stored.state) == opened
    await tournaments.close()
    await tables.close()


async def test_a_place_refused_for_good_pauses_the_tournament_until_an_organiser_resumes(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    venue = Failing(None, NoPlace("forbidden", for_good=True))
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = one_round(clock)
    tournament = await started(tournaments, clock, settings, 4)
    assert tournament.phase is Phase.PAUSED and unopened(tournament) == [1]
    assert ("unopened", (ORGANISER,)) in venue.heard and ("round", ()) not in venue.heard
    assert tournament.due is None and tournaments.next_due() is None, "nothing is retried"
    clock.now += 3600
    await tournaments.run_due()
    assert venue.asked == 2

    clock.now += 60
    await tournaments.pause(tournament.id, ORGANISER, False)
    resumed = tournaments.get(tournament.id)
    assert resumed.phase is Phase.RUNNING and unopened(resumed) == []
    assert venue.heard.count(("round", ())) == 1
    assert resumed.due == clock.now + 60 * settings.show_up_minutes
    await tournaments.close()
    await tables.close()
