"""The tournament service over a real table service and store: sign-up and check-in, each
round's tables opened and started when their players sit, an absentee's seat played by
a computer and forfeited, results heard from the tables, the next round, the end; and
a restart in the middle of a round."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from bot.commands import Cancel, Join, Leave, Play, StandIn
from bot.refusals import TournamentRefused, TournamentSeatKept
from bot.service import TableService
from bot.snapshot import TableSnapshot
from bot.table import Status
from bot.tournaments.model import Drawn, Format, News, Phase, Settings, Tournament
from bot.tournaments.results import Result
from bot.tournaments.service import STAND_IN_LEVEL, Done, TournamentService
from bot.tournaments.standings import swiss_standings
from data.models import TournamentRow
from data.repository import Repository
from tests.tables.helpers import Clock

GUILD, CHANNEL, ORGANISER = 5, 6, 7
PLAYERS = [(100 + n, f"P{n}") for n in range(5)]


class Venue:
    """A face's side, as a test sees it: a channel of its own for each table, and what
    it was told."""

    def __init__(self) -> None:
        self.channels = itertools.count(1000)
        self.heard: list[tuple[str, tuple[int, ...]]] = []
        self.news: list[tuple[Tournament, News]] = []
        """Every piece told, with the tournament it was told with (none marked done)."""

    async def place_for(self, tournament: Tournament, drawn: Drawn) -> int:
        return next(self.channels)

    def told(self, tournament: Tournament, news: Sequence[News], done: Done) -> None:
        self.heard.extend((piece.what, piece.about) for piece in news)
        self.news.extend((tournament, piece) for piece in news)


async def running(
    store: Repository, clock: Clock, venue: Venue
) -> tuple[TableService, TournamentService]:
    tables = TableService(store, computer_pace=0.0, clock=clock)
    tournaments = TournamentService(tables, venue, clock=clock)
    await tournaments.resume()
    return tables, tournaments


async def driven(
    store: Repository, clock: Clock, venue: Venue, monkeypatch: pytest.MonkeyPatch
) -> tuple[TableService, TournamentService]:
    """The services, as :func:`running` makes them, but for the deadline loop: the test
    runs what is due (``run_due``), when it chooses."""
    tables = TableService(store, computer_pace=0.0, clock=clock)
    tournaments = TournamentService(tables, venue, clock=clock)
    monkeypatch.setattr(tournaments, "_tick", asyncio.Event().wait)
    await tournaments.resume()
    return tables, tournaments


def round_tables(tables: TableService, tournament: Tournament) -> list[TableSnapshot]:
    found = [tables.find(d.table_id or "") for d in tournament.tables_of(tournament.round)]
    return [table for table in found if table is not None]


def one_round(clock: Clock, game_format: Format = Format.SWISS) -> Settings:
    """A tournament of tables of two, to 10, starting in ten minutes (one round, if a
    Swiss), whose check-in opens at once."""
    rounds = 1 if game_format is Format.SWISS else None
    return Settings("cross", game_format, size=2, rounds=rounds, target=10,
                    start_at=clock.now + 600, checkin_minutes=10)  # fmt: skip


async def entered(
    tournaments: TournamentService, clock: Clock, settings: Settings, players: int
) -> Tournament:
    """A new tournament of ``settings`` with the first ``players`` of :data:`PLAYERS`
    signed up and checked in; the clock at its check-in."""
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    clock.now = settings.checkin_at
    for user, name in PLAYERS[:players]:
        await tournaments.sign_up(tournament.id, user, name, rating=float(user))
        await tournaments.check_in(tournament.id, user)
    return tournament


async def started(
    tournaments: TournamentService, clock: Clock, settings: Settings, players: int
) -> Tournament:
    """The same (:func:`entered`), started at its start time: its first round drawn."""
    tournament = await entered(tournaments, clock, settings, players)
    clock.now = settings.start_at
    await tournaments.run_due()
    return tournaments.get(tournament.id)


async def two_drawn(
    store: Repository, clock: Clock, venue: Venue
) -> tuple[TableService, TournamentService, Tournament, TableSnapshot]:
    """A one-round Swiss of two, started: its services, the tournament and its table."""
    tables, tournaments = await running(store, clock, venue)
    tournament = await started(tournaments, clock, one_round(clock), 2)
    (table,) = round_tables(tables, tournament)
    return tables, tournaments, tournament, table


async def play_round(
    tables: TableService, tournaments: TournamentService, clock: Clock, tournament: Tournament
) -> None:
    """Every table of ``tournament``'s round as it is: its players sit down and it is
    played to its end (:func:`play_out`), each result heard."""
    for seed, table in enumerate(round_tables(tables, tournament)):
        for user in table.invited:
            await tables.act(table.id, Join(user, "here"))
        await tournaments.settled()
        await play_out(tables, clock, table.id, seed)
    await tournaments.settled()


async def play_out(tables: TableService, clock: Clock, table_id: str, seed: int) -> None:
    """Play the table to its end: random legal moves for members, the clock's computer
    moves for computers."""
    picker = random.Random(seed)
    while (table := tables.find(table_id)) is not None and table.status is Status.PLAYING:
        seat = table.seats[table.turn or 0]
        if seat.played_by_computer:
            clock.now += 10
            await asyncio.gather(*tables.run_due())
            continue
        user = seat.user_id or 0
        await tables.act(table_id, Play(user, picker.choice(table.legal_for(user))))


async def test_a_swiss_runs_its_rounds_and_an_absentee_forfeits_to_a_stand_in(
    store: Repository,
) -> None:
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = Settings("cross", Format.SWISS, size=2, rounds=2, target=10,
                        start_at=clock.now + 3600, checkin_minutes=30)  # fmt: skip
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    for user, name in PLAYERS:
        await tournaments.sign_up(tournament.id, user, name, rating=float(user))
    with pytest.raises(TournamentRefused):  # check-in opens 30 minutes before the start
        await tournaments.check_in(tournament.id, PLAYERS[0][0])
    clock.now = settings.checkin_at
    for user, _ in PLAYERS:
        await tournaments.check_in(tournament.id, user)
    clock.now = settings.start_at
    await tournaments.run_due()
    tournament = tournaments.get(tournament.id)
    assert tournament.round == 1 and len(tournament.tables_of(1)) == 2
    assert sum(1 for item in tournament.record if not isinstance(item, Result)) == 1  # a bye
    for seed, table in enumerate(round_tables(tables, tournament)):
        for user in table.invited:
            await tables.act(table.id, Join(user, f"P{user - 100}"))
        await tournaments.settled()
        assert tables.snapshot(table.id).status is Status.PLAYING  # started when all sat
        await play_out(tables, clock, table.id, seed)
    await tournaments.settled()
    tournament = tournaments.get(tournament.id)
    assert tournament.round == 2, "both results were heard and round 2 paired"
    first, second = round_tables(tables, tournament)
    absentee = first.invited[0]
    for user in first.invited[1:]:
        await tables.act(first.id, Join(user, "here"))
    for user in second.invited:
        await tables.act(second.id, Join(user, "here"))
    await tournaments.settled()
    clock.now = tournament.due or 0.0
    await tournaments.run_due()  # the show-up deadline: a computer stands in
    assert tables.snapshot(first.id).status is Status.PLAYING
    assert any(seat.level == "normal" for seat in tables.snapshot(first.id).seats)
    for seed, table in enumerate((first, second), start=10):
        await play_out(tables, clock, table.id, seed)
    await tournaments.settled()
    done = await store.get_tournament(tournament.id)
    assert done is not None and done.status == Phase.FINISHED.value
    ended = Tournament.from_dict(done.state)
    forfeit = next(r for r in ended.record if isinstance(r, Result) and r.round == 2
                   and any(absentee in side for side in r.sides))  # fmt: skip
    lost = next(i for i, side in enumerate(forfeit.sides) if absentee in side)
    assert forfeit.places[lost] == max(forfeit.places), "an absentee is placed last"
    standings = swiss_standings(ended.entrants, ended.record)
    assert sorted(s.entrant for s in standings) == sorted(user for user, _ in PLAYERS)
    assert ("finished", ()) in venue.heard
    await tournaments.close()
    await tables.close()


@pytest.mark.parametrize("game_format", list(Format))
async def test_one_who_checked_in_and_withdrew_before_the_start_is_not_drawn(
    store: Repository, game_format: Format
) -> None:
    """Whoever checked in by the start plays: one who checked in and then withdrew
    before it is in no table, no bye and no standings, and the two left play each
    other (a knockout's bracket and a round robin's schedule are drawn at the start)."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = one_round(clock, game_format)
    tournament = await entered(tournaments, clock, settings, 3)
    gone = PLAYERS[2][0]
    await tournaments.withdraw(tournament.id, gone)
    clock.now = settings.start_at
    await tournaments.run_due()
    tournament = tournaments.get(tournament.id)
    assert {entrant.id for entrant in tournament.starters} == {PLAYERS[0][0], PLAYERS[1][0]}
    (drawn,) = tournament.tables_of(1)
    assert set(drawn.seats) == {PLAYERS[0][0], PLAYERS[1][0]}
    assert tournament.record == (), "no bye"
    await tournaments.close()
    await tables.close()


async def two_stored(
    store: Repository, clock: Clock, settings: Settings
) -> tuple[Tournament, Tournament]:
    """Two tournaments of ``settings`` announced in two channels and stored, the
    services that made them stopped: for a test to damage one in the store, then start
    again."""
    tables, tournaments = await running(store, clock, Venue())
    first = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    second = await tournaments.create(GUILD, CHANNEL + 1, ORGANISER, settings)
    await tournaments.close()
    await tables.close()
    return first, second


async def test_a_stored_result_that_does_not_hold_together_keeps_no_other_from_starting(
    store: Repository,
) -> None:
    """A record damaged in the store (a place of 0) is logged and passed over at a
    start, as any unreadable one is: the other tournaments are taken up, and the bot
    starts."""
    clock, venue = Clock(), Venue()
    good, bad = await two_stored(store, clock, one_round(clock))
    state = bad.to_dict()
    state["record"] = [{"result": [1, 0, [[100], [101]], [0, 1], [3, 4]]}]
    row = TournamentRow(bad.id, GUILD, CHANNEL + 1, "signup", 2, state, bad.due, 0.0, 0.0)
    await store.save_tournament(row, 1, {"kind": "damaged"})
    tables, tournaments = await running(store, clock, venue)
    assert good.id in tournaments.open and bad.id not in tournaments.open
    await tournaments.close()
    await tables.close()


async def test_a_restart_mid_round_takes_up_the_round_and_its_deadline(
    store: Repository,
) -> None:
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = Settings("cross", Format.KNOCKOUT, size=2, target=10, start_at=clock.now,
                        checkin_minutes=10)  # fmt: skip
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    clock.now -= 60
    for user, name in PLAYERS[:4]:
        await tournaments.sign_up(tournament.id, user, name, rating=float(user))
        await tournaments.check_in(tournament.id, user)
    clock.now = settings.start_at
    await tournaments.run_due()
    before = tournaments.get(tournament.id)
    await tournaments.close()
    await tables.close()

    tables, tournaments = await running(store, clock, venue)
    await tables.resume()
    again = tournaments.get(tournament.id)
    assert again.round == 1 and again.due == before.due
    await play_round(tables, tournaments, clock, again)
    final = tournaments.get(tournament.id)
    assert final.round == 2 and len(final.tables_of(2)) == 1, "the winners meet in the final"
    await tournaments.close()
    await tables.close()


async def test_a_number_of_rounds_is_refused_for_a_format_that_decides_its_own(
    store: Repository,
) -> None:
    """A knockout plays until one is left and a round robin until all have met: rounds
    asked of either would be ignored, so the tournament is not made, and a Swiss
    without them is refused as before."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    for game_format, rounds, why in ((Format.KNOCKOUT, 3, "rounds-swiss-only"),
                                     (Format.ROUND_ROBIN, 2, "rounds-swiss-only"),
                                     (Format.SWISS, None, "rounds")):  # fmt: skip
        settings = replace(one_round(clock, game_format), rounds=rounds)
        with pytest.raises(TournamentRefused) as refused:
            await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
        assert refused.value.why == why
    assert not tournaments.open and not venue.heard
    await tournaments.close()
    await tables.close()


async def test_a_member_named_in_an_open_tournament_is_not_forgotten_until_it_ends(
    store: Repository,
) -> None:
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = Settings("cross", Format.SWISS, size=2, rounds=1, start_at=clock.now + 600)
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    await tournaments.sign_up(tournament.id, 100, "Ann", rating=0.0)
    with pytest.raises(TournamentRefused) as refused:
        await tournaments.check_forgettable(100)
    assert refused.value.why == "entered"
    await tournaments.check_forgettable(101)  # never entered: nothing to keep
    await tournaments.withdraw(tournament.id, 100)
    with pytest.raises(TournamentRefused) as refused:
        await tournaments.check_forgettable(100)
    assert refused.value.why == "withdrawn", "named in it until it ends"
    await tournaments.cancel(tournament.id, ORGANISER)
    await tournaments.check_forgettable(100)  # ended: the store takes them out of it
    await tournaments.close()
    await tables.close()


async def test_a_drawn_player_cannot_leave_a_round_table_and_it_starts_at_the_deadline(
    store: Repository,
) -> None:
    """Left, a tournament's seat could be neither taken again (only the drawn players
    sit there) nor filled by a computer (it stands in for the absent): the table would
    wait in its lobby for good. So it is refused, seated or not, and changes nothing."""
    clock, venue = Clock(), Venue()
    tables, tournaments, tournament, table = await two_drawn(store, clock, venue)
    here, later = table.invited
    await tables.act(table.id, Join(here, "here"))
    before = tables.snapshot(table.id)
    for user_id in (here, later):
        with pytest.raises(TournamentSeatKept):
            await tables.act(table.id, Leave(user_id))
    assert tables.snapshot(table.id).version == before.version
    await tournaments.settled()
    clock.now = tournament.due or 0.0
    await tournaments.run_due()
    await tournaments.settled()
    assert tables.snapshot(table.id).status is Status.PLAYING
    assert tournaments.get(tournament.id).tables_of(1)[0].absent == (later,)
    await tournaments.close()
    await tables.close()


async def test_a_round_table_keeps_its_players_names_until_they_sit(store: Repository) -> None:
    """The chat mentions a drawn player; the browser (an Activity), which cannot, names
    them by the names the table keeps, as the tournament has them, until they sit and
    their seat names them. An organiser who is not entered is never named by an id."""
    clock, venue = Clock(), Venue()
    tables, tournaments, _, table = await two_drawn(store, clock, venue)
    assert dict(table.unseated) == {100: "P0", 101: "P1"}
    await tables.act(table.id, Join(100, "P0"))
    assert dict(tables.snapshot(table.id).unseated) == {101: "P1"}
    await tournaments.close()
    await tables.close()


@pytest.mark.parametrize("heard", [True, False], ids=["heard", "after-a-restart"])
async def test_a_cancelled_round_table_is_a_tie_and_its_round_ends(
    store: Repository, heard: bool
) -> None:
    """The organiser hosts each table, so may cancel it: its round does not wait for a
    result that cannot come. The table is a tie with no points (the organiser adjusts it
    if someone should have won), the round ends, and so here does the tournament; also
    when the bot was down as it was cancelled."""
    clock, venue = Clock(), Venue()
    tables, tournaments, tournament, table = await two_drawn(store, clock, venue)
    await tables.act(table.id, Join(table.invited[0], "one"))
    await tournaments.settled()
    if not heard:
        await tournaments.close()
    await tables.act(table.id, Cancel(ORGANISER))
    if heard:
        await tournaments.settled()
    else:
        await tables.close()
        tables, tournaments = await running(store, clock, venue)  # it catches up
    row = await store.get_tournament(tournament.id)
    assert row is not None and row.status == Phase.FINISHED.value
    (result,) = Tournament.from_dict(row.state).record
    assert isinstance(result, Result)
    assert (result.places, result.points) == ((1, 1), (0, 0))
    await tournaments.close()
    await tables.close()


async def test_a_rounds_tables_not_stored_before_a_restart_are_opened_or_taken_up(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pairing a round stores it, opens its tables, then stores which they are; the bot
    may stop in between, or a table's place not be made. After the restart a table that
    never opened is opened, and one opened but not stored is taken up again, not opened
    a second time beside its players' first."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = one_round(clock)
    tournament = await entered(tournaments, clock, settings, 4)
    place_for, places = venue.place_for, 0

    async def stopping(tournament: Tournament, drawn: Drawn) -> int:
        nonlocal places
        places += 1
        if places > 1:
            raise RuntimeError("the bot stopped")
        return await place_for(tournament, drawn)

    save = store.save_tournament

    async def lost(row: TournamentRow, expected: int, action: dict[str, Any], *more: Any) -> None:
        if action["kind"] == "tables":
            raise RuntimeError("the bot stopped")
        await save(row, expected, action, *more)

    venue.place_for = stopping  # type: ignore[method-assign]
    monkeypatch.setattr(store, "save_tournament", lost)
    clock.now = settings.start_at
    await tournaments.run_due()  # round 1 is stored; one table opens, and no id is stored
    paired = tournaments.get(tournament.id)
    assert paired.round == 1 and [d.table_id for d in paired.tables_of(1)] == [None, None]
    (first,) = [tables.snapshot(table_id) for table_id in tables.tables]
    await tournaments.close()
    await tables.close()

    venue.place_for = place_for  # type: ignore[method-assign]
    monkeypatch.undo()
    tables = TableService(store, computer_pace=0.0, clock=clock)
    await tables.resume()  # as the client does: the tables first, then the tournaments
    tournaments = TournamentService(tables, venue, clock=clock)
    monkeypatch.setattr(tournaments, "_tick", asyncio.Event().wait)
    await tournaments.resume()
    again = tournaments.get(tournament.id)
    opened = [d.table_id for d in again.tables_of(1)]
    assert first.id in opened and None not in opened
    assert set(tables.tables) == set(opened), "no second table for the same players"
    for drawn in again.tables_of(1):
        table = tables.snapshot(drawn.table_id or "")
        assert (table.tournament, set(table.invited)) == (tournament.id, set(drawn.seats))
    await tournaments.close()
    await tables.close()


async def test_a_restart_after_a_stand_in_sat_still_forfeits_the_absentee(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The show-up deadline stores the computer's seat, then the absence: a restart
    between the two still finds the absentee (not seated, a computer in their place)
    and marks them absent, so they forfeit the table."""
    clock, venue = Clock(), Venue()
    tables, tournaments, tournament, table = await two_drawn(store, clock, venue)
    here, absentee = table.invited
    await tables.act(table.id, Join(here, "here"))
    await tournaments.settled()
    clock.now = tournament.due or 0.0
    await tables.act(table.id, StandIn(absentee, STAND_IN_LEVEL))  # then the bot stops
    await tournaments.close()
    await tables.close()

    tables = TableService(store, computer_pace=0.0, clock=clock)
    await tables.resume()  # as the client does: the tables first, then the tournaments
    tournaments = TournamentService(tables, venue, clock=clock)
    monkeypatch.setattr(tournaments, "_tick", asyncio.Event().wait)  # the test runs the due
    await tournaments.resume()
    await tournaments.run_due()  # the deadline that passed, as the loop would at once
    again = tournaments.get(tournament.id)
    assert again.tables_of(1)[0].absent == (absentee,)
    assert tables.snapshot(table.id).status is Status.PLAYING
    assert venue.heard.count(("absent", (absentee,))) == 1
    await tournaments.close()
    await tables.close()


async def test_a_process_takes_up_only_the_tournaments_of_its_own_shards(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes share one store, each owning its shards' servers. The other
    process, started again while this one runs a tournament, does not take it up: else
    its deadline loop starts it and opens the round's tables in that process, which
    never hears the players' clicks (Discord sends them to the owner), and the owner's
    copy of the tournament is left behind, every later change refused as moved on."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    monkeypatch.setattr(tournaments, "_tick", asyncio.Event().wait)  # the test runs the due
    tournament = await entered(tournaments, clock, one_round(clock), 2)

    others = TableService(store, computer_pace=0.0, clock=clock)
    await others.resume(owns=lambda guild_id: guild_id != GUILD)
    elsewhere = TournamentService(others, Venue(), clock=clock)
    monkeypatch.setattr(elsewhere, "_tick", asyncio.Event().wait)
    await elsewhere.resume(owns=lambda guild_id: guild_id != GUILD)
    assert elsewhere.open == {}, "another shard's tournament is not this process's"

    clock.now = tournament.settings.start_at
    await elsewhere.run_due()
    await tournaments.run_due()
    started_here = tournaments.get(tournament.id)
    assert started_here.round == 1, "the owner starts it"
    assert len(round_tables(tables, started_here)) == 1, "its table is where the clicks come"
    assert not others.tables
    for service in (elsewhere, tournaments):
        await service.close()
    for table_service in (others, tables):
        await table_service.close()


async def test_a_member_entered_in_another_processs_tournament_is_not_forgotten(
    store: Repository,
) -> None:
    """Forget-me asked on a server of one process while the member is entered in an
    open tournament of another process's server: refused as at home (that tournament's
    tables and standings keep their id, and its games count them again)."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = Settings("cross", Format.SWISS, size=2, rounds=1, start_at=clock.now + 600)
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    await tournaments.sign_up(tournament.id, 100, "Ann", rating=0.0)
    others = TableService(store, computer_pace=0.0, clock=clock)
    elsewhere = TournamentService(others, Venue(), clock=clock)
    await elsewhere.resume(owns=lambda guild_id: guild_id != GUILD)
    with pytest.raises(TournamentRefused) as refused:
        await elsewhere.check_forgettable(100)
    assert refused.value.why == "entered"
    await elsewhere.check_forgettable(101)  # never entered: nothing to keep
    for service in (elsewhere, tournaments):
        await service.close()
    for table_service in (others, tables):
        await table_service.close()


async def test_a_swiss_of_drawn_partners_left_too_few_for_a_table_ends(
    store: Repository,
) -> None:
    """Milo with partners drawn seats four at a table: once withdrawals leave three in,
    no table can be made, and the tournament ends with the rounds it played (as a Swiss
    left with one entrant does), rather than pairing a round of byes alone, which no
    table's end would ever close (the tournament would wait for good)."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = Settings("milo", Format.SWISS, size=4, rounds=3, target=1, teams=True,
                        start_at=clock.now + 600, checkin_minutes=10)  # fmt: skip
    tournament = await started(tournaments, clock, settings, 4)
    assert tournament.round == 1 and len(tournament.tables_of(1)) == 1
    await tournaments.withdraw(tournament.id, PLAYERS[0][0])
    await play_round(tables, tournaments, clock, tournament)
    row = await store.get_tournament(tournament.id)
    assert row is not None and row.status == Phase.FINISHED.value
    ended = Tournament.from_dict(row.state)
    assert ended.round == 1 and all(isinstance(item, Result) for item in ended.record)
    assert ("finished", ()) in venue.heard
    await tournaments.close()
    await tables.close()


def flipped(result: Result) -> Result:
    """A table of two's result with its winner and loser swapped (the points as played)."""
    return Result(result.round, result.table, result.sides, result.places[::-1], result.points)


async def test_a_knockout_result_is_not_changed_once_its_winner_plays_on(
    store: Repository,
) -> None:
    """A knockout's next round is drawn from who went on: a result changed while its
    round is under way draws the next round from the change, but one whose winner is
    already seated in the next round is refused and changes nothing (else the next
    round's table would seat the one the bracket no longer sends on, its result be
    refused by the bracket, and the tournament wait for good). The final then ends it."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    tournament = await started(tournaments, clock, one_round(clock, Format.KNOCKOUT), 4)
    first, second = round_tables(tables, tournament)
    for seed, table in enumerate((first, second)):
        for user in table.invited:
            await tables.act(table.id, Join(user, "here"))
        await tournaments.settled()
        await play_out(tables, clock, table.id, seed)
        await tournaments.settled()
        if seed == 0:  # round one still under way: its first result may change
            played = tournaments.get(tournament.id).result_of(1, 0)
            assert played is not None
            await tournaments.adjust(tournament.id, flipped(played), "scoring", by=ORGANISER)
    final = tournaments.get(tournament.id)
    assert final.round == 2
    changed = final.result_of(1, 0)
    assert changed is not None
    winner = changed.sides[changed.places.index(1)][0]
    assert winner in final.tables_of(2)[0].seats, "the round drawn from the change"

    later = final.result_of(1, 1)
    assert later is not None
    with pytest.raises(TournamentRefused) as refused:
        await tournaments.adjust(tournament.id, flipped(later), "late", by=ORGANISER)
    assert refused.value.why == "plays-on"
    assert tournaments.get(tournament.id) == final, "nothing changed"
    await play_round(tables, tournaments, clock, final)
    row = await store.get_tournament(tournament.id)
    assert row is not None and row.status == Phase.FINISHED.value
    await tournaments.close()
    await tables.close()


async def test_a_cancelled_tournament_closes_its_rounds_tables_still_waiting(
    store: Repository,
) -> None:
    """Only the tournament starts its tables, and a drawn player may not leave one: a
    table still waiting for its players when the tournament is cancelled is closed with
    it, else it would wait for good, and whoever had sat down could neither leave it nor
    sit at another table in the server. A game under way plays on."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    tournament = await started(tournaments, clock, one_round(clock), 4)
    waiting, playing = round_tables(tables, tournament)
    seated = waiting.invited[0]
    await tables.act(waiting.id, Join(seated, "here"))
    for user in playing.invited:
        await tables.act(playing.id, Join(user, "here"))
    await tournaments.settled()
    assert tables.snapshot(playing.id).status is Status.PLAYING
    await tournaments.cancel(tournament.id, ORGANISER)
    row = await store.get_table(waiting.id)
    assert row is not None and row.status == Status.CANCELLED
    assert tables.find(waiting.id) is None
    assert tables.snapshot(playing.id).status is Status.PLAYING, "the game plays on"
    assert tables.of_user(GUILD, seated) is None, "free to sit elsewhere"
    await tournaments.close()
    await tables.close()


async def test_a_tournament_cancelled_while_its_round_opens_leaves_no_table_waiting(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An organiser may cancel while a round's tables are being opened (each needs its
    thread from Discord, which takes a while): the tables opened before the cancel, and
    the one whose thread was being made, are closed with the tournament, and no more
    are opened."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = one_round(clock)
    tournament = await entered(tournaments, clock, settings, 6)
    place_for, asked = venue.place_for, 0
    making, made = asyncio.Event(), asyncio.Event()

    async def slow(tournament: Tournament, drawn: Drawn) -> int:
        nonlocal asked
        asked += 1
        if asked == 2:  # the second table's thread is on its way
            making.set()
            await made.wait()
        return await place_for(tournament, drawn)

    venue.place_for = slow  # type: ignore[method-assign]
    clock.now = settings.start_at
    opening = asyncio.create_task(tournaments.run_due())
    await making.wait()
    (first,) = [tables.snapshot(table_id) for table_id in tables.tables]
    await tables.act(first.id, Join(first.invited[0], "here"))
    await tournaments.cancel(tournament.id, ORGANISER)
    made.set()
    await opening
    assert asked == 2, "no table opened after the cancel"
    assert tables.tables == {}, "none left waiting"
    assert await store.load_active_tables() == [], "nor stored as waiting"
    assert tables.of_user(GUILD, first.invited[0]) is None, "free to sit elsewhere"
    await tournaments.close()
    await tables.close()


async def test_a_restart_closes_the_waiting_tables_of_a_tournament_cancelled_before_the_stop(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cancel is stored before its tables are closed: a stop in between leaves them
    waiting, and the next start closes them."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    tournament = await started(tournaments, clock, one_round(clock), 4)
    waiting = [table.id for table in round_tables(tables, tournament)]

    async def stopped(table_ids: object) -> None:
        raise RuntimeError("the bot stopped")

    monkeypatch.setattr(tournaments, "_close_waiting", stopped)
    with pytest.raises(RuntimeError):
        await tournaments.cancel(tournament.id, ORGANISER)
    await tournaments.close()
    await tables.close()

    monkeypatch.undo()
    tables = TableService(store, computer_pace=0.0, clock=clock)
    await tables.resume()  # as the client does: the tables first, then the tournaments
    assert set(tables.tables) == set(waiting), "still waiting after the stop"
    tournaments = TournamentService(tables, venue, clock=clock)
    await tournaments.resume()
    assert tables.tables == {}
    for table_id in waiting:
        row = await store.get_table(table_id)
        assert row is not None and row.status == Status.CANCELLED
    await tournaments.close()
    await tables.close()
