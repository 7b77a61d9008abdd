"""A lobby where nothing happens is closed by the clock, as a cancel with its reason, so
that one whose host has gone (a browser guest's page closed, their cookie lost) neither
stays open for good nor keeps its channel: its deadline is stored with it, any action
in it gives it the whole time again, a restart keeps it, and a tournament's table (whose
tournament starts it at its own show-up deadline) has none."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.commands import Join, Leave, StandIn
from bot.engine import Options, find_variant
from bot.events import Cancelled, Event
from bot.service import NewTable, TableService, TournamentSeats
from bot.service import clock as clock_module
from bot.service.clock import LOBBY_IDLE_SECONDS
from bot.service.rematches import KEEP_SEATS_SECONDS
from bot.service.rows import row_of
from bot.snapshot import TableSnapshot
from bot.table import Status, Table
from data.repository import Repository
from tests.tables.helpers import ANN, BOB, CHANNEL, GUILD, PACE, Clock, Heard
from tests.tables.test_rematch import finished

CLOSED = Cancelled(None, LOBBY_IDLE_SECONDS)


async def _idle(service: TableService, clock: Clock, seconds: float) -> None:
    """Let ``seconds`` pass and wait for what the clock starts then."""
    clock.now += seconds
    await asyncio.gather(*service.run_due())


async def test_a_lobby_where_nothing_happens_is_closed_and_every_face_told_why(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    heard = Heard()
    service.add_listener(heard)
    table = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    await _idle(service, clock, LOBBY_IDLE_SECONDS - 1)
    assert service.find(table.id) is not None, "open until its whole idle time has passed"
    await _idle(service, clock, 1)
    assert service.find(table.id) is None and service.in_channel(CHANNEL) is None
    assert heard.events == [CLOSED], "told once, with the time it waited"
    row = await store.get_table(table.id)
    assert row is not None and row.status == Status.CANCELLED.value
    again = await service.open_table(NewTable(GUILD, CHANNEL, BOB, "Bob", "cross"))
    assert service.find(again.id) is not None, "the channel is free for a new table"
    await service.close()


async def test_each_action_in_the_lobby_gives_it_the_whole_time_again(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    table = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    await _idle(service, clock, LOBBY_IDLE_SECONDS / 2)
    await service.act(table.id, Join(BOB, "Bob"))
    await _idle(service, clock, LOBBY_IDLE_SECONDS / 2)
    await service.act(table.id, Leave(BOB))
    await _idle(service, clock, LOBBY_IDLE_SECONDS - 1)
    assert service.find(table.id) is not None
    await _idle(service, clock, 1)
    assert service.find(table.id) is None
    await service.close()


async def test_a_restart_keeps_the_lobbys_deadline(store: Repository, clock: Clock) -> None:
    first = TableService(store, computer_pace=PACE, clock=clock)
    await first.resume()
    table = await first.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    deadline = first.tables[table.id].deadline
    assert deadline == clock.now + LOBBY_IDLE_SECONDS
    await first.close()
    clock.now += LOBBY_IDLE_SECONDS / 2
    second = TableService(store, computer_pace=PACE, clock=clock)
    heard = Heard()
    second.add_listener(heard)
    await second.resume()
    assert second.tables[table.id].deadline == deadline, "not a whole idle time again"
    await _idle(second, clock, LOBBY_IDLE_SECONDS / 2)
    assert second.find(table.id) is None
    assert heard.events[-1] == CLOSED
    await second.close()


async def test_a_lobby_stored_without_a_deadline_is_closed_after_its_idle_time_from_a_start(
    store: Repository, clock: Clock
) -> None:
    """A lobby an earlier release stored (with no deadline) is not left open for good."""
    options = Options.for_game(find_variant("cross"), 4)
    lobby = Table(id="0000abcd", guild_id=GUILD, channel_id=CHANNEL, host_id=ANN,
                  game="cross", options=options, seed=1)  # fmt: skip
    lobby.apply(Join(ANN, "Ann"))
    await store.create_table(row_of(lobby, clock.now))
    service = TableService(store, computer_pace=PACE, clock=clock)
    await service.resume()
    await _idle(service, clock, LOBBY_IDLE_SECONDS)
    assert service.find(lobby.id) is None
    await service.close()


async def test_a_rematchs_lobby_is_closed_an_idle_time_after_its_kept_seats_are_freed(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    game_id = await finished(service)
    lobby, _ = await service.rematch(game_id, GUILD, CHANNEL, BOB, "Bob")
    await _idle(service, clock, KEEP_SEATS_SECONDS)
    assert service.tables[lobby.id].invited == (), "Ann's seat kept for its own time only"
    await _idle(service, clock, LOBBY_IDLE_SECONDS - 1)
    assert service.find(lobby.id) is not None
    await _idle(service, clock, 1)
    assert service.find(lobby.id) is None
    await service.close()


async def test_a_tournaments_lobby_waits_for_its_tournament(
    store: Repository, clock: Clock
) -> None:
    """Its tournament starts it at the round's show-up deadline (a computer standing in
    for whoever has not come), paused meanwhile perhaps: the clock never closes it."""
    service = TableService(store, computer_pace=PACE, clock=clock)
    table = await service.open_table(
        NewTable(GUILD, CHANNEL, 99, "Org", "cross"), drawn=TournamentSeats("t0000001", (ANN, BOB))
    )
    await service.act(table.id, Join(ANN, "Ann"))
    await service.act(table.id, StandIn(BOB, "normal"))
    assert service.tables[table.id].deadline is None
    await _idle(service, clock, 10 * LOBBY_IDLE_SECONDS)
    assert service.find(table.id) is not None
    await service.close()


async def test_the_running_clock_closes_a_lobby_nobody_touched_after_opening_it(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a quiet bot the clock sleeps with nothing due: a lobby opened then must wake
    it, or its idle deadline would wait for some other table's action."""
    monkeypatch.setattr(clock_module, "LOBBY_IDLE_SECONDS", 0.05)
    service = TableService(store, computer_pace=PACE)  # the real clock and its loop
    closed = asyncio.Event()

    class Closing(Heard):
        def stored(self, table: TableSnapshot, events: Sequence[Event], via: object) -> None:
            if any(isinstance(event, Cancelled) for event in events):
                closed.set()

    service.add_listener(Closing())
    await service.resume()
    table = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    await asyncio.wait_for(closed.wait(), 10)
    assert service.find(table.id) is None
    await service.close()
