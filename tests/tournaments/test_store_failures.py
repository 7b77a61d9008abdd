"""A write the store fails (busy, full, gone for a moment): an organiser's or a player's
is refused as not saved, nothing changed; one the tournament makes of itself (a table's
result, the next round, the round's tables, its end) is made again on the backoff the
deadline loop keeps for places, as a restart would make it, so the tournament goes on
without waiting for one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest

from bot.commands import Join
from bot.refusals import NotSaved
from bot.service import NewTable, TableService, TournamentSeats
from bot.snapshot import TableSnapshot
from bot.table import Status
from bot.tournaments.model import Phase, Tournament
from bot.tournaments.results import Result
from bot.tournaments.service import PLACE_RETRY_SECONDS, TournamentService
from data.models import TableRow, TournamentRow
from data.repository import Repository, StoreError
from tests.tables.helpers import Clock
from tests.tournaments.test_service import (
    GUILD,
    ORGANISER,
    PLAYERS,
    Venue,
    driven,
    entered,
    one_round,
    play_out,
    play_round,
    round_tables,
    started,
)


def counting_opens(tables: TableService, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the tables ``tables`` opens from now on, in order (a table opened twice
    for the same players shows here)."""
    opened: list[str] = []
    open_table = tables.open_table

    async def counted(request: NewTable, *, drawn: TournamentSeats | None = None) -> TableSnapshot:
        table = await open_table(request, drawn=drawn)
        opened.append(table.id)
        return table

    monkeypatch.setattr(tables, "open_table", counted)
    return opened


def failing_once(
    store: Repository, monkeypatch: pytest.MonkeyPatch, kind: str
) -> list[dict[str, Any]]:
    """The store fails the first save of a tournament whose action is ``kind``; returns
    the actions it failed (one, once it has)."""
    save = store.save_tournament
    failed: list[dict[str, Any]] = []

    async def busy(row: TournamentRow, expected: int, action: dict[str, Any], *more: Any) -> None:
        if action["kind"] == kind and not failed:
            failed.append(action)
            raise StoreError("busy")
        await save(row, expected, action, *more)

    monkeypatch.setattr(store, "save_tournament", busy)
    return failed


def table_action_failing_once(
    store: Repository, monkeypatch: pytest.MonkeyPatch, kind: str
) -> list[dict[str, Any]]:
    """The store fails the first save of a table's action of ``kind``; returns the
    actions it failed (one, once it has)."""
    save_action = store.save_action
    failed: list[dict[str, Any]] = []

    async def busy(row: TableRow, expected: int, action: dict[str, Any], **more: Any) -> None:
        if action["kind"] == kind and not failed:
            failed.append(action)
            raise StoreError("busy")
        await save_action(row, expected, action, **more)

    monkeypatch.setattr(store, "save_action", busy)
    return failed


@dataclass
class Unkept:
    """A one-round tournament of two, started, whose store failed to keep its round's
    table: its clock, its services (the test runs what is due), and the tables opened
    (the one, open with its players invited, its id not stored; and any opened later)."""

    clock: Clock
    tables: TableService
    tournaments: TournamentService
    tournament: Tournament
    opened: list[str]


async def tables_unkept(store: Repository, monkeypatch: pytest.MonkeyPatch) -> Unkept:
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    opened = counting_opens(tables, monkeypatch)
    settings = one_round(clock)
    tournament = await entered(tournaments, clock, settings, 2)
    failed = failing_once(store, monkeypatch, "tables")
    clock.now = settings.start_at
    await tournaments.run_due()
    assert failed and tournaments.get(tournament.id).tables_of(1)[0].table_id is None
    return Unkept(clock, tables, tournaments, tournament, opened)


@pytest.mark.parametrize("kind", ["round", "tables", "result", "finish"])
async def test_a_change_the_store_failed_is_made_again_later_and_the_tournament_goes_on(
    store: Repository, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """A Swiss of two rounds whose store fails once: pairing round 1 at the start, or
    storing its tables, or a result of round 1, or the end. The tournament waited for
    good (until a restart): no deadline, no retry, nothing to hear. Now it is taken up
    again after :data:`PLACE_RETRY_SECONDS`: each table is opened once (one opened and
    not stored is taken up), each result recorded and told once."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    opened = counting_opens(tables, monkeypatch)
    settings = replace(one_round(clock), rounds=2)
    tournament = await entered(tournaments, clock, settings, 4)
    failed = failing_once(store, monkeypatch, kind)

    def current() -> Tournament:
        return tournaments.get(tournament.id)

    async def moved_on(done: Callable[[], bool]) -> None:
        """Done at once, or once the deadline loop takes the tournament up again."""
        if not done():
            assert tournaments.next_due() == clock.now + PLACE_RETRY_SECONDS
            clock.now += PLACE_RETRY_SECONDS
            await tournaments.run_due()
        assert done()

    def open_round(number: int) -> Callable[[], bool]:
        def is_open() -> bool:
            now = current()
            return now.round == number and all(d.table_id for d in now.tables_of(number))

        return is_open

    clock.now = settings.start_at
    await tournaments.run_due()
    await moved_on(open_round(1))
    await play_round(tables, tournaments, clock, current())
    await moved_on(open_round(2))
    await play_round(tables, tournaments, clock, current())
    await moved_on(lambda: tournament.id not in tournaments.open)
    assert failed, f"the store failed a {kind!r}"

    row = await store.get_tournament(tournament.id)
    assert row is not None and row.status == Phase.FINISHED.value
    ended = Tournament.from_dict(row.state)
    assert len([r for r in ended.record if isinstance(r, Result)]) == 4
    assert sorted(opened) == sorted(d.table_id or "" for d in ended.drawn), "each opened once"
    assert [what for what, _ in venue.heard].count("result") == 4
    assert [what for what, _ in venue.heard].count("round") == 2
    await tournaments.close()
    await tables.close()


async def test_a_result_the_store_failed_while_paused_is_recorded_once_resumed(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tables under way play on while their tournament is paused: a result the store
    failed to keep then is taken up once the organiser resumes (by the deadline loop,
    on its backoff), as a running tournament's is; it was never recorded, and the round
    never ended."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = one_round(clock)
    tournament = await started(tournaments, clock, settings, 2)
    await tournaments.pause(tournament.id, ORGANISER, True)
    failed = failing_once(store, monkeypatch, "result")
    await play_round(tables, tournaments, clock, tournaments.get(tournament.id))
    assert failed and tournaments.get(tournament.id).record == ()
    assert tournaments.next_due() is None, "nothing is due while paused"
    await tournaments.pause(tournament.id, ORGANISER, False)
    assert tournaments.next_due() == clock.now + PLACE_RETRY_SECONDS
    clock.now += PLACE_RETRY_SECONDS
    await tournaments.run_due()
    row = await store.get_tournament(tournament.id)
    assert row is not None and row.status == Phase.FINISHED.value
    assert [what for what, _ in venue.heard].count("result") == 1
    await tournaments.close()
    await tables.close()


async def test_a_stand_in_the_store_fails_keeps_the_table_and_its_deadline_for_a_retry(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table of three whose third player never sits down: at the show-up deadline the
    store fails the computer's seat. The table was started anyway with the two seated,
    its game's end held two results for a table drawn for three and could not be
    recorded (an IndexError), and the round waited for good. Now it is not started, the
    deadline is kept and run again after the backoff (not at once, again and again):
    the computer stands in then, the absentee forfeits and the round plays on."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = replace(one_round(clock), size=3)
    tournament = await started(tournaments, clock, settings, 3)
    [table] = round_tables(tables, tournaments.get(tournament.id))
    *here, absentee = table.invited
    for user in here:
        await tables.act(table.id, Join(user, "here"))
    await tournaments.settled()
    failed = table_action_failing_once(store, monkeypatch, "stand-in")
    due = tournaments.get(tournament.id).due
    assert due is not None
    clock.now = due
    await tournaments.run_due()
    assert failed
    waiting = tables.snapshot(table.id)
    assert waiting.status is Status.LOBBY and waiting.invited == (absentee,)
    kept = tournaments.get(tournament.id)
    assert kept.due == due and kept.tables_of(1)[0].absent == (), "not yet counted absent"
    assert tournaments.next_due() == clock.now + PLACE_RETRY_SECONDS, "not again at once"
    clock.now += PLACE_RETRY_SECONDS
    await tournaments.run_due()
    assert tables.snapshot(table.id).status is Status.PLAYING
    assert tournaments.get(tournament.id).tables_of(1)[0].absent == (absentee,)
    await play_out(tables, clock, table.id, seed=1)
    await tournaments.settled()
    row = await store.get_tournament(tournament.id)
    assert row is not None and row.status == Phase.FINISHED.value
    await tournaments.close()
    await tables.close()


async def test_an_absentee_whose_absence_the_store_failed_still_forfeits(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer stood in for the absentee, which filled the table and started it;
    then the store failed the absence. Run again, the deadline looks at the table under
    way too: the absentee is counted absent and forfeits, and the face is told once."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    tournament = await started(tournaments, clock, one_round(clock), 2)
    [table] = round_tables(tables, tournaments.get(tournament.id))
    here, absentee = table.invited
    await tables.act(table.id, Join(here, "here"))
    await tournaments.settled()
    failed = failing_once(store, monkeypatch, "absent")
    clock.now = tournaments.get(tournament.id).due or 0.0
    await tournaments.run_due()
    await tournaments.settled()
    assert failed and tables.snapshot(table.id).status is Status.PLAYING
    assert tournaments.get(tournament.id).tables_of(1)[0].absent == ()
    clock.now += PLACE_RETRY_SECONDS
    await tournaments.run_due()
    assert tournaments.get(tournament.id).tables_of(1)[0].absent == (absentee,)
    assert [about for what, about in venue.heard if what == "absent"] == [(absentee,)]
    await play_out(tables, clock, table.id, seed=1)
    await tournaments.settled()
    row = await store.get_tournament(tournament.id)
    assert row is not None and row.status == Phase.FINISHED.value
    (result,) = Tournament.from_dict(row.state).record
    assert isinstance(result, Result) and result.places[result.sides.index((absentee,))] == 2
    await tournaments.close()
    await tables.close()


async def test_a_table_whose_storing_failed_begins_only_once_its_tournament_keeps_it(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store fails to keep a round's tables: each is open (its thread made), and its
    players may sit down before the retry takes it up. It began when they all had, and
    a game that ended before the retry was no drawn table's: its result was lost, and
    the retry, finding the table closed, opened another for the same players. Now it
    waits, and begins once its tournament keeps it."""
    unkept = await tables_unkept(store, monkeypatch)
    clock, tables, tournaments = unkept.clock, unkept.tables, unkept.tournaments
    tournament, opened = unkept.tournament, unkept.opened
    [stray] = opened
    for user in tables.snapshot(stray).invited:
        await tables.act(stray, Join(user, "here"))
    await tournaments.settled()
    assert tables.snapshot(stray).status is Status.LOBBY, "not begun before it is kept"
    clock.now += PLACE_RETRY_SECONDS
    await tournaments.run_due()
    assert tournaments.get(tournament.id).tables_of(1)[0].table_id == stray
    assert tables.snapshot(stray).status is Status.PLAYING, "begun once kept"
    await play_out(tables, clock, stray, seed=2)
    await tournaments.settled()
    row = await store.get_tournament(tournament.id)
    assert row is not None and row.status == Phase.FINISHED.value
    assert opened == [stray], "no second table for the same players"
    await tournaments.close()
    await tables.close()


async def test_a_members_action_the_store_fails_is_refused_as_not_saved(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused in the words a table's failed write has ("not saved"), nothing changed;
    the store's own error went out of the service, and the face took it for a bug of
    ours."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    tournament = await entered(tournaments, clock, one_round(clock), 1)
    before = tournaments.get(tournament.id)
    failing_once(store, monkeypatch, "sign-up")
    user, name = PLAYERS[1]
    with pytest.raises(NotSaved) as refused:
        await tournaments.sign_up(tournament.id, user, name, rating=1.0)
    assert refused.value.fault == "busy"
    assert tournaments.get(tournament.id) == before
    stored = await store.get_tournament(tournament.id)
    assert stored is not None and Tournament.from_dict(stored.state) == before
    await tournaments.sign_up(tournament.id, user, name, rating=1.0)  # the store is back
    assert tournaments.get(tournament.id).player(user) is not None
    await tournaments.close()
    await tables.close()


async def test_a_waiting_table_the_store_failed_to_close_with_its_tournament_is_closed_later(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cancelled tournament closes its round's tables still waiting for their players;
    one whose cancel the store failed waited until the next start, its seated player
    unable to sit anywhere else in the server. It is tried again on the backoff."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = one_round(clock)
    tournament = await started(tournaments, clock, settings, 2)
    [table] = round_tables(tables, tournaments.get(tournament.id))
    seated = table.invited[0]
    await tables.act(table.id, Join(seated, "here"))
    await tournaments.settled()
    failed = table_action_failing_once(store, monkeypatch, "cancel")
    await tournaments.cancel(tournament.id, ORGANISER)
    assert failed and tables.snapshot(table.id).status is Status.LOBBY
    assert tournaments.next_due() == clock.now + PLACE_RETRY_SECONDS
    clock.now += PLACE_RETRY_SECONDS
    await tournaments.run_due()
    assert tables.find(table.id) is None
    assert tables.of_user(GUILD, seated) is None, "free to sit elsewhere"
    assert tournaments.next_due() is None, "nothing more to try"
    await tournaments.close()
    await tables.close()


async def test_a_table_whose_storing_failed_is_closed_with_its_cancelled_tournament(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cancel closes the round's tables still waiting, and also one whose storing
    failed (a stray no retry takes up now): it waited until the next start, its seated
    player unable to sit anywhere else in the server."""
    unkept = await tables_unkept(store, monkeypatch)
    tables, tournaments, tournament = unkept.tables, unkept.tournaments, unkept.tournament
    [stray] = unkept.opened
    seated = tables.snapshot(stray).invited[0]
    await tables.act(stray, Join(seated, "here"))
    await tournaments.cancel(tournament.id, ORGANISER)
    assert tables.find(stray) is None
    assert tables.of_user(GUILD, seated) is None, "free to sit elsewhere"
    await tournaments.close()
    await tables.close()
