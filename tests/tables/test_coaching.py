"""The coach's service: a finished game's analysis is made in a worker process, equal to
the coach's own run, stored once however many ask at once, and read back from the store
afterwards without starting a worker. (A short Milo round and a small budget: the
machine is shared.)"""

from __future__ import annotations

import asyncio
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.coaching import Coach, members_seats, position
from bot.players.coach import analyse
from data.models import FinishedGame, Participant, RoundResult
from data.repository import Repository
from tests.data.databases import count
from tests.players.test_coach import BLUNDER_ACTIONS, BLUNDER_DEAL, SMALL, record

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
    under_way = asyncio.ensure_future(coach._in_worker(game.record, [1]))
    await asyncio.sleep(0)  # it is handed to the worker's queue
    await asyncio.wait_for(coach.close(), 30)
    with pytest.raises(BrokenProcessPool):
        await under_way
