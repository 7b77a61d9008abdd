"""The coach's service: a finished game's analysis is made in a worker process, equal to
the coach's own run, stored once however many ask at once, and read back from the store
afterwards without starting a worker. Started with the tables, it analyses each game
with a member's seat at its end, one at a time in the order they ended, and tells its
heralds once; a game of computers alone is never analysed, nor one whose turn comes
more than an hour after it ended; a start takes up the last hour's games that ended
unanalysed or unannounced (a crash), and an announcement that failed is made at the next
start. (Short games and a small budget: the machine is
shared.)"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple

import pytest

from bot.coaching import ANNOUNCED_WITHIN, Coach, members_seats, position
from bot.commands import ComputerMove, Join, StandIn, Start
from bot.players.coach import Analysis, analyse
from bot.service import NewTable, TableService, TournamentSeats
from data.models import FinishedGame, Participant, RoundResult
from data.repository import Repository
from tests.data.databases import count
from tests.players.test_coach import BLUNDER_ACTIONS, BLUNDER_DEAL, SMALL, record
from tests.tables.helpers import ANN, BOB, CHANNEL, GUILD, Clock, play_one
from words.coaching import marked_moves

MEMBER = 5


def milo_game() -> FinishedGame:
    """The coach tests' Milo round where seat 1 (a member) gives the round away; the
    other seats are computers."""
    seats = [
        Participant(seat=seat, team=seat % 2, final_score=0, won=seat % 2 == 0,
                    user_id=MEMBER if seat == 1 else None,
                    computer_level=None if seat == 1 else "normal")
        for seat in range(4)
    ]  # fmt: skip
    return FinishedGame(
        id="g1", table_id="t1", guild_id=10, game="milo", finished_at=1.0,
        record=record("milo", BLUNDER_DEAL, BLUNDER_ACTIONS),
        rounds=[RoundResult(1, "domino", 0, [1, 0])], participants=seats,
    )  # fmt: skip


async def test_an_analysis_is_made_in_a_worker_stored_once_and_then_read_back(
    store: Repository,
) -> None:
    game = milo_game()
    await store.record_finished_game(game)
    coach = Coach(SMALL)
    try:
        first, again = await asyncio.gather(
            coach.analysis_of(store, game), coach.analysis_of(store, game)
        )
    finally:
        await coach.close()
    assert first == again == analyse(game.record, [1], SMALL)
    assert [seat.seat for seat in first.seats] == members_seats(game) == [1]
    assert await store.get_analysis(game.id) == first.to_dict()
    assert await count(store, "game_analysis") == 1

    reader = Coach(SMALL)
    assert await reader.analysis_of(store, game) == first
    assert reader._pool is None  # the store answered: no worker was started
    await reader.close()


async def test_a_stored_analysis_that_does_not_read_is_made_again_once_and_kept(
    store: Repository,
) -> None:
    """A row damaged, or of a format no longer read: the analysis is made again and
    stored in its place, so the next ask reads it rather than making it once more."""
    game = milo_game()
    await store.record_finished_game(game)
    await store.save_analysis(game.id, {"format": "domino-analysis/0"})
    coach = Coach(SMALL)
    handed = counting(coach)
    try:
        first = await coach.analysis_of(store, game)
        again = await coach.analysis_of(store, game)
    finally:
        await coach.close()
    assert first == again == analyse(game.record, [1], SMALL)
    assert handed == [[1]], "made once"
    assert await store.get_analysis(game.id) == first.to_dict()


async def test_the_moves_the_computer_chose_for_a_member_are_left_out_of_their_analysis(
    store: Repository,
) -> None:
    """A game whose member's blunder (action 24) was the computer's, their turn timer
    having run out: the analysis made in the worker and stored leaves it out, so it is
    neither their costliest move nor marked on the replay."""
    game = dataclasses.replace(milo_game(), stood_in=(24,))
    await store.record_finished_game(game)
    coach = Coach(SMALL)
    try:
        analysis = await coach.analysis_of(store, game)
    finally:
        await coach.close()
    assert analysis == analyse(game.record, [1], SMALL, stood_in=[24])
    assert 24 not in [move.action for move in analysis.seat(1).moves]
    assert 24 not in marked_moves(analysis)
    assert await store.get_analysis(game.id) == analysis.to_dict()


async def test_an_ask_whose_store_read_outlasts_the_analysis_under_way_makes_no_second(
    store: Repository,
) -> None:
    """A member asks while the game's analysis is in the worker (its end, or another
    member's ask), and their read of the store answers "none stored yet" just as that
    analysis ends: the ask shares it, and the game is not analysed a second time."""
    game = milo_game()
    await store.record_finished_game(game)
    coach = Coach(SMALL)
    handed = counting(coach)
    in_worker, handed_over = coach._in_worker, asyncio.Event()

    async def telling(
        record: dict[str, Any], seats: list[int], stood_in: tuple[int, ...]
    ) -> dict[str, Any]:
        handed_over.set()
        return await in_worker(record, seats, stood_in)

    coach._in_worker = telling  # type: ignore[method-assign]
    first = asyncio.ensure_future(coach.analysis_of(store, game))
    await handed_over.wait()
    read = store.get_analysis

    async def slow_read(game_id: str) -> Any:
        found = await read(game_id)  # none yet: the analysis is in the worker
        await asyncio.wait([first])  # which ends while this read is answered
        return found

    store.get_analysis = slow_read  # type: ignore[method-assign]
    try:
        again = await coach.analysis_of(store, game)
        assert again == await first
    finally:
        await coach.close()
    assert handed == [[1]], "one analysis of the game"


async def test_a_record_that_does_not_replay_fails_its_own_analysis_and_no_other() -> None:
    """A game whose record no longer replays (it ended before a rule change, and a start
    takes it up) fails its analysis with the engine's reason, and the analysis the worker
    has queued after it (a member's ask for another game) is still made: the worker is
    not lost with it."""
    game = milo_game()
    actions = game.record["actions"]
    broken = {**game.record, "actions": [[actions[0][0], "0-0 N"], *actions]}
    coach = Coach(SMALL)
    try:
        results = await asyncio.gather(
            coach._in_worker(broken, [1], ()), coach._in_worker(game.record, [1], ()),
            return_exceptions=True,
        )  # fmt: skip
        failed, made = results
    finally:
        await coach.close()
    assert not isinstance(failed, BrokenProcessPool) and "action 0" in str(failed)
    assert made == analyse(game.record, [1], SMALL).to_dict()


def test_a_judged_moves_position_is_the_seats_own_view_before_it() -> None:
    game = milo_game()
    judged = analyse(game.record, [1], SMALL).seat(1).moves[-1]
    view = position(game, 1, judged)
    assert view.seat == 1 and judged.played in view.legal and judged.better in view.legal
    assert len(view.public.history) == judged.index


async def test_closing_ends_an_analysis_under_way_at_once() -> None:
    """A stop does not wait out an analysis (seconds of work): the worker is ended, and
    the analysis fails rather than finishing (a budget that would take it minutes)."""
    coach = Coach(budget=200.0)
    game = milo_game()
    under_way = asyncio.ensure_future(coach._in_worker(game.record, [1], ()))
    await asyncio.sleep(0)  # it is handed to the worker's queue
    await asyncio.wait_for(coach.close(), 30)
    with pytest.raises(BrokenProcessPool):
        await under_way


async def test_ctrl_c_in_the_terminal_is_left_to_the_bot_not_the_worker(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """Ctrl-C reaches every process of the terminal's group, the worker too: the worker
    leaves it to the bot (which stops it), so it neither dies mid-analysis nor prints
    "Process SpawnProcess-1:" and a KeyboardInterrupt under the bot's last line."""
    game = milo_game()
    coach = Coach(SMALL)
    try:
        await coach._in_worker(game.record, [1], ())
        assert coach._pool is not None
        (worker,) = coach._pool._processes.values()
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGINT)
        # No wait: the signal is the idle worker's before the next game reaches it, so a
        # worker that did not ignore it dies before or while analysing that one.
        made = await coach._in_worker(game.record, [1], ())
        assert worker.is_alive(), "the worker ended on Ctrl-C"
    finally:
        await coach.close()
    assert made == analyse(game.record, [1], SMALL).to_dict()
    errors = capfd.readouterr().err
    assert "KeyboardInterrupt" not in errors and "Process " not in errors, errors


# -- at every game's end ------------------------------------------------------------------


class Told:
    """A herald that keeps what the coach tells it: (game id, analysis, again)."""

    def __init__(self) -> None:
        self.told: list[tuple[str, Analysis, bool]] = []
        self.failing = False

    async def analysed(self, game: FinishedGame, analysis: Analysis, again: bool) -> None:
        if self.failing:
            raise ConnectionError("the face could not say it")
        self.told.append((game.id, analysis, again))


def counting(coach: Coach) -> list[list[int]]:
    """The seats of each analysis the coach's worker is handed, in order."""
    handed: list[list[int]] = []
    in_worker = coach._in_worker

    async def counted(
        record: dict[str, Any], seats: list[int], stood_in: tuple[int, ...]
    ) -> dict[str, Any]:
        handed.append(seats)
        return await in_worker(record, seats, stood_in)

    coach._in_worker = counted  # type: ignore[method-assign]
    return handed


async def play_out(service: TableService, table_id: str) -> str:
    """Play the table to its end (members and computers their first legal move); the
    game's id."""
    while table_id in service.tables:
        live = service.tables[table_id]
        if live.computer_to_move:
            assert live.match is not None
            await service.act(table_id, ComputerMove(live.match.legal_moves()[0]))
        else:
            await play_one(service, table_id)
    game = await service.store.game_of_table(table_id)
    assert game is not None
    return game.id


async def members_game(service: TableService, channel: int = CHANNEL) -> str:
    """Ann and Bob play a Cross game to 10; its id."""
    table = await service.open_table(NewTable(GUILD, channel, ANN, "Ann", "cross", target=10))
    await service.act(table.id, Join(BOB, "Bob"))
    await service.act(table.id, Start(ANN))
    return await play_out(service, table.id)


async def computers_game(service: TableService) -> str:
    """A tournament's table whose two players never came: computers stand in for both
    and play it out; its id."""
    table = await service.open_table(
        NewTable(GUILD, CHANNEL, 99, "Org", "cross", target=10),
        drawn=TournamentSeats("t0000001", (ANN, BOB)),
    )
    for absent in (ANN, BOB):
        await service.act(table.id, StandIn(absent, "easy"))
    await service.act(table.id, Start(99))
    return await play_out(service, table.id)


class Coached(NamedTuple):
    service: TableService
    coach: Coach
    told: Told


@pytest.fixture
async def coached(store: Repository, clock: Clock) -> AsyncIterator[Coached]:
    """The table service with a started coach (a small budget) and a herald."""
    service = TableService(store, clock=clock)
    coach = Coach(SMALL, clock=clock)
    told = Told()
    coach.add_herald(told)
    assert await coach.start(service) == 0
    yield Coached(service, coach, told)
    await service.close()  # which closes the coach, one of its listeners


async def test_a_members_game_is_analysed_at_its_end_once_and_told_once(coached: Coached) -> None:
    """Queued at the game's end, and asked for twice meanwhile (two members at once):
    one analysis in the worker, stored once, told once, noted as told."""
    service, coach, told = coached
    handed = counting(coach)
    game_id = await members_game(service)
    game = await service.store.get_game(game_id)
    assert game is not None
    first, again = await asyncio.gather(
        coach.analysis_of(service.store, game), coach.analysis_of(service.store, game)
    )
    await coach.settled()
    assert handed == [[0, 1]], "one analysis, of both members' seats"
    assert first == again == analyse(game.record, [0, 1], SMALL)
    assert told.told == [(game_id, first, False)]
    assert await service.store.get_analysis(game_id) == first.to_dict()
    assert await service.store.announcement_due(game_id) is False
    assert await count(service.store, "game_analysis") == 1
    later = Coach(SMALL, clock=service.clock)
    assert await later.start(service) == 0, "a later start finds nothing left to say"
    await later.close()


async def test_a_game_of_computers_alone_is_not_analysed(coached: Coached) -> None:
    service, coach, told = coached
    handed = counting(coach)
    game_id = await computers_game(service)
    await coach.settled()
    assert handed == [] and told.told == []
    assert await service.store.get_analysis(game_id) is None
    assert coach._pool is None, "no worker was even started"


async def test_games_are_analysed_one_at_a_time_in_the_order_they_ended(coached: Coached) -> None:
    service, coach, told = coached
    first = await members_game(service, CHANNEL)
    second = await members_game(service, CHANNEL + 1)
    await coach.settled()
    assert [game_id for game_id, _, _ in told.told] == [first, second]


async def test_a_game_whose_turn_comes_after_the_hour_is_passed_over(
    coached: Coached, clock: Clock
) -> None:
    """The coach fell behind (many tables ended at once): a game whose turn comes more
    than an hour after its end is neither analysed nor announced, and is left for a
    member to ask for."""
    service, coach, told = coached
    handed = counting(coach)
    await service.store.record_finished_game(ended("late", clock.now))
    clock.now += ANNOUNCED_WITHIN + 1
    coach._queue("late")
    await coach.settled()
    assert handed == [] and told.told == []
    assert await service.store.get_analysis("late") is None


# -- after a crash --------------------------------------------------------------------------


def ended(game_id: str, when: float, guild_id: int = 10, members: bool = True) -> FinishedGame:
    """The Milo round of the tests above, as the game ``game_id`` that ended at ``when``
    (seat 1 a member's, unless ``members`` is False)."""
    game = milo_game()
    seats = game.participants
    if not members:
        seats = [dataclasses.replace(p, user_id=None, computer_level="easy") for p in seats]
    return dataclasses.replace(
        game, id=game_id, table_id=f"t-{game_id}", guild_id=guild_id, finished_at=when,
        participants=seats,
    )  # fmt: skip


async def test_a_start_takes_up_the_last_hours_games_left_unanalysed_or_unannounced(
    store: Repository, clock: Clock
) -> None:
    """The bot stopped with games queued, and with an analysis stored but not told: the
    next start analyses the one and tells both, in the order they ended (the stored one
    as told perhaps already, for a face that posts to look first). Older games, games of
    computers alone, games already told and another shard's servers' are left alone."""
    hour_ago = clock.now - ANNOUNCED_WITHIN
    games = {
        "unanalysed": ended("unanalysed", clock.now - 60),
        "unannounced": ended("unannounced", clock.now - 120),
        "announced": ended("announced", clock.now - 30),
        "old": ended("old", hour_ago - 1),
        "computers": ended("computers", clock.now - 10, members=False),
        "elsewhere": ended("elsewhere", clock.now - 20, guild_id=11),
    }
    for game in games.values():
        await store.record_finished_game(game)
    stored = analyse(games["unannounced"].record, [1], SMALL)
    await store.save_analysis("unannounced", stored.to_dict())
    await store.save_analysis("announced", stored.to_dict())
    await store.mark_announced("announced", clock.now - 29)

    service = TableService(store, clock=clock)
    coach = Coach(SMALL, clock=clock)
    told = Told()
    coach.add_herald(told)
    try:
        assert await coach.start(service, owns=lambda guild_id: guild_id == 10) == 2
        await coach.settled()
    finally:
        await service.close()
    made = analyse(games["unanalysed"].record, [1], SMALL)
    assert told.told == [("unannounced", stored, True), ("unanalysed", made, False)]
    for game_id in ("unannounced", "unanalysed"):
        assert await store.announcement_due(game_id) is False
    for game_id in ("old", "computers", "elsewhere"):
        assert await store.get_analysis(game_id) is None


async def test_an_announcement_that_failed_is_made_at_the_next_start(
    store: Repository, clock: Clock
) -> None:
    game = ended("g1", clock.now - 60)
    await store.record_finished_game(game)
    told = Told()
    told.failing = True
    for attempt in range(2):
        service = TableService(store, clock=clock)
        coach = Coach(SMALL, clock=clock)
        coach.add_herald(told)
        try:
            assert await coach.start(service) == 1
            await coach.settled()
        finally:
            await service.close()
        assert await store.announcement_due("g1") is (attempt == 0)
        told.failing = False
    assert told.told == [("g1", analyse(game.record, [1], SMALL), True)]
