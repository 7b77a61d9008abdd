"""A computer player is given a seed of its own for its draws, never the deal's: from the
deal's seed (the table's ``seed``, the version close by) a player could work out every
hidden hand and the boneyard's order. Its seed is taken from the deal's one way, so a
game with computers still replays the same."""

from __future__ import annotations

import asyncio

import pytest

import bot.service.clock
from bot.commands import AddComputer, Start
from bot.engine import Match
from bot.players import ComputerPlayer, computer_player
from bot.service import NewTable, TableService
from data.repository import Repository
from tests.tables.helpers import ANN, CHANNEL, GUILD, Clock


async def test_no_computer_is_given_a_seed_the_deal_can_be_worked_out_of(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    given: list[int] = []

    def watched(level: str, seed: int = 0) -> ComputerPlayer:
        given.append(seed)
        return computer_player(level, seed=seed)

    monkeypatch.setattr(bot.service.clock, "computer_player", watched)
    service = TableService(store, computer_pace=1.0, clock=clock)
    table = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    await service.act(table.id, AddComputer(ANN, "normal"))
    await service.act(table.id, Start(ANN))
    for _ in range(6):  # the clock plays the computer's turns, and Ann's once she is late
        live = service.tables[table.id]
        assert live.deadline is not None
        clock.now = live.deadline
        await asyncio.gather(*service.run_due())
    live = service.tables[table.id]
    assert given, "the computer played"
    dealt = Match(live.game, len(live.seats), live.options, seed=live.seed).round.hands
    for seed in given:
        for offset in range(64):  # a version: public, and small
            guessed = Match(live.game, len(live.seats), live.options, seed=seed - offset)
            assert guessed.round.hands != dealt, "the deal is worked out of a player's seed"
    await service.close()
