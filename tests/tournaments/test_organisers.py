"""Who may manage a tournament (issue 34: "Manage Server, or a role the server
chooses"): its creator, or any member the face vouches for as the server's organiser
(``staff``: Manage Server or the server's tournament role). Anyone else is refused
``organiser-only`` and nothing is stored."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from bot.commands import Join
from bot.refusals import TournamentRefused
from bot.service import TableService
from bot.table import Status
from bot.tournaments.model import Drawn, Format, News, Phase, Settings, Tournament
from bot.tournaments.results import Result
from bot.tournaments.service import Done, TournamentService
from data.models import TournamentRow
from data.repository import Repository, StoreError
from tests.tables.helpers import Clock
from tests.tournaments.test_service import (
    CHANNEL,
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
    running,
    started,
    two_drawn,
)

STAFF, STRANGER, NEWCOMER = 300, 301, 302


async def under_way(store: Repository) -> tuple[TableService, TournamentService, Tournament]:
    """A Swiss of four in its first round, one table played to its end."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = Settings("cross", Format.SWISS, size=2, rounds=2, target=10,
                        start_at=clock.now + 600, checkin_minutes=10)  # fmt: skip
    created = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    for user, name in PLAYERS[:4]:
        await tournaments.sign_up(created.id, user, name, rating=float(user))
    clock.now = settings.checkin_at
    for user, _ in PLAYERS[:4]:
        await tournaments.check_in(created.id, user)
    clock.now = settings.start_at
    await tournaments.run_due()
    first = round_tables(tables, tournaments.get(created.id))[0]
    for user in first.invited:
        await tables.act(first.id, Join(user, "here"))
    await tournaments.settled()
    await play_out(tables, clock, first.id, seed=1)
    await tournaments.settled()
    return tables, tournaments, tournaments.get(created.id)


def reversed_result(tournament: Tournament) -> Result:
    """The played table's result with its places swapped."""
    played = next(r for r in tournament.record if isinstance(r, Result))
    return Result(played.round, played.table, played.sides, played.places[::-1], played.points)


async def test_a_member_who_is_neither_creator_nor_staff_changes_nothing(
    store: Repository,
) -> None:
    tables, tournaments, tournament = await under_way(store)
    log = await store.tournament_log(tournament.id)
    one, two = PLAYERS[0][0], PLAYERS[1][0]
    attempts: list[Callable[[], Awaitable[None]]] = [
        lambda: tournaments.pause(tournament.id, STRANGER, True),
        lambda: tournaments.cancel(tournament.id, STRANGER),
        lambda: tournaments.withdraw(tournament.id, one, by=STRANGER),
        lambda: tournaments.replace_player(tournament.id, two, NEWCOMER, "New", 0.0, by=STRANGER),
        lambda: tournaments.adjust(
            tournament.id, reversed_result(tournament), "why not", by=STRANGER
        ),
    ]
    for attempt in attempts:
        with pytest.raises(TournamentRefused) as refused:
            await attempt()
        assert refused.value.why == "organiser-only"
    assert tournaments.get(tournament.id) == tournament
    assert await store.tournament_log(tournament.id) == log, "nothing stored"
    await tournaments.close()
    await tables.close()


async def test_a_bot_is_not_named_to_play_in_a_members_place(store: Repository) -> None:
    """It would never join its tables and would lose each for its side: refused, with
    nothing changed or stored."""
    tables, tournaments, tournament = await under_way(store)
    log = await store.tournament_log(tournament.id)
    with pytest.raises(TournamentRefused) as refused:
        await tournaments.replace_player(tournament.id, PLAYERS[1][0], NEWCOMER, "Robo", 0.0,
                                         by=ORGANISER, new_is_bot=True)  # fmt: skip
    assert refused.value.why == "replace-bot"
    assert tournaments.get(tournament.id) == tournament
    assert await store.tournament_log(tournament.id) == log, "nothing stored"
    await tournaments.close()
    await tables.close()


async def test_an_organiser_naming_the_wrong_member_is_told_of_that_member(
    store: Repository,
) -> None:
    """Dropping or replacing someone who is not playing, or seating someone already
    entered, is refused for what is wrong with the member named (not "You are not in
    this tournament.", which is about the organiser), with nothing changed or stored."""
    tables, tournaments, tournament = await under_way(store)
    log = await store.tournament_log(tournament.id)
    one, two = PLAYERS[0][0], PLAYERS[1][0]
    attempts: list[tuple[Callable[[], Awaitable[None]], str]] = [
        (lambda: tournaments.withdraw(tournament.id, STRANGER, by=ORGANISER), "not-a-player"),
        (
            lambda: tournaments.replace_player(
                tournament.id, STRANGER, NEWCOMER, "New", 0.0, by=ORGANISER
            ),
            "not-a-player",
        ),
        (
            lambda: tournaments.replace_player(tournament.id, one, two, "Two", 0.0, by=ORGANISER),
            "newcomer-entered",
        ),
    ]
    for attempt, why in attempts:
        with pytest.raises(TournamentRefused) as refused:
            await attempt()
        assert refused.value.why == why
    with pytest.raises(TournamentRefused) as themselves:
        await tournaments.withdraw(tournament.id, STRANGER)
    assert themselves.value.why == "not-entered", "a member leaving is told of themselves"
    assert tournaments.get(tournament.id) == tournament
    assert await store.tournament_log(tournament.id) == log, "nothing stored"
    await tournaments.close()
    await tables.close()


async def test_staff_manage_any_tournament_and_the_creator_keeps_theirs(
    store: Repository,
) -> None:
    tables, tournaments, tournament = await under_way(store)
    one, two = PLAYERS[0][0], PLAYERS[1][0]
    await tournaments.pause(tournament.id, STAFF, True, staff=True)
    assert tournaments.get(tournament.id).phase is Phase.PAUSED
    await tournaments.pause(tournament.id, ORGANISER, False)  # the creator, not staff
    assert tournaments.get(tournament.id).phase is Phase.RUNNING
    await tournaments.withdraw(tournament.id, one, by=STAFF, staff=True)
    await tournaments.replace_player(tournament.id, two, NEWCOMER, "New", 0.0, by=STAFF,
                                     staff=True)  # fmt: skip
    changed = reversed_result(tournament)
    await tournaments.adjust(tournament.id, changed, "a misdeal", by=STAFF, staff=True)
    now = tournaments.get(tournament.id)
    player_one, player_two = now.player(one), now.player(two)
    assert player_one is not None and player_one.out and player_one.dropped
    assert player_two is not None and player_two.out and now.player(NEWCOMER) is not None
    assert player_two.dropped, "replaced by an organiser: dropped, not withdrawn"
    assert now.result_of(changed.round, changed.table) == changed
    await tournaments.cancel(tournament.id, STAFF, staff=True)
    stored = await store.get_tournament(tournament.id)
    assert stored is not None and stored.status == Phase.CANCELLED.value
    log = [line["action"] for line in await store.tournament_log(tournament.id)]
    kinds = ["pause", "resume", "drop", "replace", "adjust", "cancel"]
    assert [(a["kind"], a["by"]) for a in log[-6:]] == [
        (kind, ORGANISER if kind == "resume" else STAFF) for kind in kinds
    ], "the log says which organiser did each"
    await tournaments.close()
    await tables.close()


async def test_a_pause_stops_the_show_up_clock_and_a_player_who_comes_meanwhile_plays(
    store: Repository,
) -> None:
    """Paused a minute before the round's show-up deadline, nobody forfeits while the
    pause lasts, however long; resumed, the deadline is a minute off again (said with
    the resume), so the late player can still sit down. Past it, the absent forfeit as
    before. The pause's clock is stored: a restart keeps it."""
    clock, venue = Clock(), Venue()
    tables, tournaments, tournament, table = await two_drawn(store, clock, venue)
    here, later = table.invited
    await tables.act(table.id, Join(here, "here"))
    await tournaments.settled()
    deadline = tournament.due or 0.0
    clock.now = deadline - 60
    await tournaments.pause(tournament.id, ORGANISER, True)
    clock.now = deadline + 3600
    await tournaments.run_due()
    await tournaments.settled()
    assert tables.snapshot(table.id).status is Status.LOBBY, "nobody stood in meanwhile"
    stored = await store.get_tournament(tournament.id)
    assert stored is not None
    assert Tournament.from_dict(stored.state).paused_at == deadline - 60
    await tournaments.pause(tournament.id, ORGANISER, False)
    resumed = tournaments.get(tournament.id)
    assert resumed.due == clock.now + 60 and resumed.paused_at is None
    await tournaments.run_due()
    await tournaments.settled()
    assert tables.snapshot(table.id).status is Status.LOBBY, "a minute left to show up"
    clock.now += 60
    await tournaments.run_due()
    await tournaments.settled()
    assert tables.snapshot(table.id).status is Status.PLAYING
    assert tournaments.get(tournament.id).tables_of(1)[0].absent == (later,)
    await tournaments.close()
    await tables.close()


def pause_held(store: Repository, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """The store takes its time over a pause: it is written once the event returned is
    set (the organiser pressed Pause just as a deadline came)."""
    written = asyncio.Event()
    save = store.save_tournament

    async def slow(row: TournamentRow, before: int, action: dict[str, Any], *rest: Any) -> None:
        if action.get("kind") == "pause":
            await written.wait()
        await save(row, before, action, *rest)

    monkeypatch.setattr(store, "save_tournament", slow)
    return written


@pytest.mark.parametrize("deadline", ["start", "show-up"])
async def test_a_pause_being_stored_as_a_deadline_comes_holds(
    store: Repository, monkeypatch: pytest.MonkeyPatch, deadline: str
) -> None:
    """The deadline loop finds the start (or the round's show-up deadline) due while an
    organiser's pause is being stored: the pause holds, as the organiser is told. The
    round does not start, and nobody forfeits or is stood in for while it lasts."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    tournament = await entered(tournaments, clock, one_round(clock), 2)
    clock.now = tournament.settings.start_at
    if deadline == "show-up":
        await tournaments.run_due()
        tournament = tournaments.get(tournament.id)
        (table,) = round_tables(tables, tournament)
        await tables.act(table.id, Join(table.invited[0], "here"))
        await tournaments.settled()
        clock.now = tournament.due or 0.0
    written = pause_held(store, monkeypatch)
    pausing = asyncio.create_task(tournaments.pause(tournament.id, ORGANISER, True))
    due = asyncio.create_task(tournaments.run_due())  # it sees the tournament as it was
    written.set()
    await pausing
    await due
    await tournaments.settled()
    paused = tournaments.get(tournament.id)
    assert paused.phase is Phase.PAUSED
    if deadline == "start":
        assert paused.round == 0 and ("round", ()) not in venue.heard
    else:
        assert tables.snapshot(table.id).status is Status.LOBBY, "nobody stood in"
        assert not any(d.absent for d in paused.drawn)
    await tournaments.close()
    await tables.close()


async def test_a_tournament_paused_before_its_start_resumes_open_for_sign_up(
    store: Repository,
) -> None:
    """Paused during sign-up, no one can sign up; resumed, it is open for sign-up again
    and draws no round before its start time (it starts then, as if never paused)."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = Settings("cross", Format.SWISS, size=2, rounds=2, target=10,
                        start_at=clock.now + 600, checkin_minutes=10)  # fmt: skip
    created = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    (one, first), (two, second) = PLAYERS[:2]
    await tournaments.sign_up(created.id, one, first, rating=1.0)
    await tournaments.pause(created.id, ORGANISER, True)
    with pytest.raises(TournamentRefused):
        await tournaments.sign_up(created.id, two, second, rating=2.0)
    await tournaments.pause(created.id, ORGANISER, False)
    resumed = tournaments.get(created.id)
    assert resumed.phase is Phase.SIGNUP and resumed.round == 0 and not resumed.drawn
    await tournaments.sign_up(created.id, two, second, rating=2.0)
    clock.now = settings.checkin_at
    for user in (one, two):
        await tournaments.check_in(created.id, user)
    clock.now = settings.start_at
    await tournaments.run_due()
    assert tournaments.get(created.id).round == 1, "started at its start time"
    await tournaments.close()
    await tables.close()


async def test_a_tournament_paused_once_started_before_its_first_round_starts_again(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start stores the tournament as running, then pairs its first round: paused in
    between (the organiser's pause came as it started, or the store could not keep the
    round), it is resumed open for sign-up, as before its start, and starts at its start
    time, at once since that passed. It was resumed with no start time, and nothing
    ever started it."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await driven(store, clock, venue, monkeypatch)
    settings = one_round(clock)
    tournament = await entered(tournaments, clock, settings, 2)
    save = store.save_tournament
    failed: list[dict[str, Any]] = []

    async def busy(row: TournamentRow, expected: int, action: dict[str, Any], *more: Any) -> None:
        if action["kind"] == "round" and not failed:
            failed.append(action)
            raise StoreError("busy")
        await save(row, expected, action, *more)

    monkeypatch.setattr(store, "save_tournament", busy)
    clock.now = settings.start_at
    await tournaments.run_due()
    started_only = tournaments.get(tournament.id)
    assert failed and (started_only.phase, started_only.round) == (Phase.RUNNING, 0)
    await tournaments.pause(tournament.id, ORGANISER, True)
    clock.now += 60
    await tournaments.pause(tournament.id, ORGANISER, False)
    resumed = tournaments.get(tournament.id)
    assert resumed.phase is Phase.SIGNUP and resumed.due == settings.start_at
    await tournaments.run_due()  # what the deadline loop runs at once
    again = tournaments.get(tournament.id)
    assert again.phase is Phase.RUNNING and again.round == 1
    assert len(round_tables(tables, again)) == 1
    await tournaments.close()
    await tables.close()


async def test_a_paused_tournament_whose_time_passes_does_not_keep_the_deadlines_busy(
    store: Repository,
) -> None:
    """Paused past its start, a tournament does nothing until resumed: the deadline loop
    waits for the next tournament's due (or a change), not for the paused one's, which
    has passed and would wake it at once, again and again, for nothing."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = Settings("cross", Format.SWISS, size=2, rounds=1, start_at=clock.now + 600)
    created = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    later = replace(settings, start_at=clock.now + 3600)
    await tournaments.create(GUILD, CHANNEL + 1, ORGANISER, later)
    await tournaments.pause(created.id, ORGANISER, True)
    clock.now = settings.start_at + 1
    assert tournaments.next_due() == later.start_at
    await tournaments.run_due()
    assert tournaments.get(created.id).phase is Phase.PAUSED
    await tournaments.close()
    await tables.close()


async def test_a_tournament_that_fails_leaves_the_others_their_results_and_deadlines(
    store: Repository,
) -> None:
    """A face that fails as a result is told (after it was stored), and a place for a
    table that cannot be made (the face's request refused) fails a start: each is
    logged, and the service goes on hearing tables and keeping deadlines."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = one_round(clock)
    swiss = await started(tournaments, clock, settings, 4)
    told = venue.told
    failures = 0

    def failing(tournament: Tournament, news: Sequence[News], done: Done) -> None:
        nonlocal failures
        if news[0].what == "result" and not failures:
            failures += 1
            raise RuntimeError("the face failed")
        told(tournament, news, done)

    venue.told = failing  # type: ignore[method-assign]
    await play_round(tables, tournaments, clock, swiss)
    assert failures == 1
    assert swiss.id not in tournaments.open, "the other table was heard: it finished"
    row = await store.get_tournament(swiss.id)
    assert row is not None and row.status == Phase.FINISHED.value

    later = replace(settings, start_at=clock.now + 600)
    other = await tournaments.create(GUILD, CHANNEL + 1, ORGANISER, later)
    clock.now = later.checkin_at
    for user, name in PLAYERS[:2]:
        await tournaments.sign_up(other.id, user, name, rating=float(user))
        await tournaments.check_in(other.id, user)

    async def refused(tournament: Tournament, drawn: Drawn) -> int:
        raise RuntimeError("the face could not make a place")

    venue.place_for = refused  # type: ignore[method-assign]
    clock.now = later.start_at
    await tournaments.run_due()  # what the deadline loop runs: it logs, and goes on
    assert tournaments._timer is not None and not tournaments._timer.done()
    await tournaments.close()
    await tables.close()


@pytest.mark.parametrize("format_", [Format.KNOCKOUT, Format.ROUND_ROBIN])
async def test_no_one_takes_a_players_place_in_a_fixed_draw(
    store: Repository, format_: Format
) -> None:
    """A knockout's bracket and a round robin's schedule are drawn once, from everyone
    who checked in: a newcomer in a player's place would make another draw under the
    results so far (a knockout could pair no further round). The organiser drops the
    player instead; nothing changes."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    before = await started(tournaments, clock, one_round(clock, format_), 4)
    with pytest.raises(TournamentRefused) as refused:
        await tournaments.replace_player(before.id, PLAYERS[0][0], NEWCOMER, "New", 0.0,
                                         by=ORGANISER)  # fmt: skip
    assert refused.value.why == "fixed-draw"
    assert tournaments.get(before.id) == before
    await tournaments.close()
    await tables.close()


async def test_a_drop_is_kept_apart_from_a_withdrawal_and_read_back_as_stored(
    store: Repository,
) -> None:
    """Whether a player left by themselves or an organiser dropped them is the
    tournament's (the standings say it after a restart too): stored, read back, and a
    row stored before it was kept reads its players who left as having withdrawn."""
    tables, tournaments, tournament = await under_way(store)
    dropped, withdrew = PLAYERS[0][0], PLAYERS[1][0]
    await tournaments.withdraw(tournament.id, dropped, by=ORGANISER)
    await tournaments.withdraw(tournament.id, withdrew)
    row = await store.get_tournament(tournament.id)
    assert row is not None
    stored = Tournament.from_dict(row.state)
    assert stored == tournaments.get(tournament.id)
    left = {p.user_id: (p.out, p.dropped) for p in stored.players}
    assert left[dropped] == (True, True) and left[withdrew] == (True, False)
    older = stored.to_dict()
    older["players"] = [player[:5] for player in older["players"]]
    assert not any(p.dropped for p in Tournament.from_dict(older).players)
    assert [p.out for p in Tournament.from_dict(older).players] == [p.out for p in stored.players]
    await tournaments.close()
    await tables.close()
