"""A write the store kept though its answer was lost (the connection cut as the database
answered: the store says ``unavailable``): the member is told it was not saved, and the
service asks the store again, so that a move, a cancel or a new table kept after all is
told to every face (marked ``Resumed``, as after a restart) instead of never. A write
that was not kept is told to nobody; a version conflict met first takes it up too."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.commands import Cancel, Play
from bot.events import Cancelled, Moved
from bot.refusals import NotSaved, StaleVersion
from bot.service import NewTable, Resumed, TableService
from bot.table import Table
from data.repository import Repository, StoreError
from tests.tables.helpers import ANN, BOB, CHANNEL, GUILD, PACE, Clock, Heard, started


def answer_lost(
    monkeypatch: pytest.MonkeyPatch, store: Repository, name: str, *, kept: bool
) -> None:
    """The store's next ``name`` write is cut off as it answers: kept or not."""
    write: Callable[..., Awaitable[Any]] = getattr(store, name)

    async def cut(*args: Any, **kwargs: Any) -> None:
        monkeypatch.setattr(store, name, write)  # once
        if kept:
            await write(*args, **kwargs)
        raise StoreError("unavailable", "connection lost")

    monkeypatch.setattr(store, name, cut)


async def listening(store: Repository, clock: Clock) -> tuple[TableService, Heard]:
    service = TableService(store, computer_pace=PACE, clock=clock)
    service.settling.first_seconds = 0.0
    heard = Heard()
    service.add_listener(heard)
    return service, heard


def first_move(table: Table) -> Play:
    mover = table.seats[table.seat_to_move()].user_id
    assert mover is not None
    return Play(mover, table.legal_for(mover)[0])


async def test_a_move_kept_though_its_answer_was_lost_is_told_to_the_faces(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, heard = await listening(store, clock)
    table = await started(service)
    answer_lost(monkeypatch, store, "save_action", kept=True)
    with pytest.raises(NotSaved) as refused:
        await service.act(table.id, first_move(table))
    assert refused.value.fault == "unavailable"
    await service.settling.settled()
    version, events, via = heard.told[-1]
    assert (version, via) == (table.version + 1, Resumed(table.version + 1))
    assert [type(event) for event in events] == [Moved], "the move, told once"
    assert service.tables[table.id].version == table.version + 1
    await service.close()


async def test_a_cancel_kept_though_its_answer_was_lost_closes_the_table_on_every_face(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, heard = await listening(store, clock)
    table = await started(service)
    answer_lost(monkeypatch, store, "save_action", kept=True)
    with pytest.raises(NotSaved):
        await service.act(table.id, Cancel(ANN))
    await service.settling.settled()
    assert [e for e in heard.events if isinstance(e, Cancelled)], "the faces are told"
    assert service.find(table.id) is None and service.in_channel(CHANNEL) is None
    await service.close()


async def test_a_table_kept_though_its_opening_was_not_answered_is_shown(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Else the channel holds a table nobody is shown, and every new one is refused."""
    service, heard = await listening(store, clock)
    answer_lost(monkeypatch, store, "create_table", kept=True)
    with pytest.raises(NotSaved):
        await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    await service.settling.settled()
    table = service.in_channel(CHANNEL)
    assert table is not None and table.seat_of(ANN) is not None
    assert heard.told == [(table.version, [], Resumed(table.version))], "its lobby, once"
    await service.close()


async def test_a_write_not_kept_is_told_to_nobody(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, heard = await listening(store, clock)
    table = await started(service)
    told = list(heard.told)
    answer_lost(monkeypatch, store, "save_action", kept=False)
    with pytest.raises(NotSaved):
        await service.act(table.id, first_move(table))
    await service.settling.settled()
    assert heard.told == told and service.tables[table.id].version == table.version
    await service.act(table.id, first_move(table))  # the member tries again: stored
    assert heard.told[-1][0] == table.version + 1 and heard.told[-1][2] is None
    await service.close()


async def test_a_conflict_met_before_the_store_is_asked_again_tells_the_kept_move(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, heard = await listening(store, clock)
    service.settling.first_seconds = 3600.0  # the member clicks again first
    table = await started(service)
    move = first_move(table)
    answer_lost(monkeypatch, store, "save_action", kept=True)
    with pytest.raises(NotSaved):
        await service.act(table.id, move)
    with pytest.raises(StaleVersion):
        await service.act(table.id, move, seen_version=table.version)
    assert [(v, via) for v, _, via in heard.told[-1:]] == [
        (table.version + 1, Resumed(table.version + 1))
    ]
    await service.settling.settled()  # its question was dropped: nothing more told
    assert len([e for e in heard.events if isinstance(e, Moved)]) == 1
    assert BOB in {seat.user_id for seat in service.tables[table.id].seats}
    await service.close()


async def test_a_kept_opening_whose_host_sat_down_elsewhere_meanwhile_is_closed_unseen(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Told it was not saved, Ann opens a table in the next channel before the store is
    asked again: one seat a server, so the first, kept after all, is closed (nobody was
    shown it), not taken up beside her new table."""
    service, heard = await listening(store, clock)
    service.settling.first_seconds = 3600.0  # asked once she has sat down elsewhere
    answer_lost(monkeypatch, store, "create_table", kept=True)
    with pytest.raises(NotSaved):
        await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    second = await service.open_table(NewTable(GUILD, CHANNEL + 1, ANN, "Ann", "cross"))
    [kept] = [row for row in await store.load_active_tables() if row.channel_id == CHANNEL]
    await service.take_up(kept.id)  # the store asked again
    assert [t.id for t in service.in_guild(GUILD)] == [second.id]
    assert [row.channel_id for row in await store.load_active_tables()] == [CHANNEL + 1]
    assert heard.told == [], "nothing shown of the first"
    await service.close()
    again, after = await listening(store, clock)
    await again.resume()  # a restart: its close is not handed back to be posted
    assert [table for table, _, _ in after.told] == [second.version]
    await again.close()


async def test_a_restart_before_the_store_is_asked_seats_nobody_twice_either(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, but the bot restarts before it asks the store again: the kept lobby,
    shown by no face, is closed as it is read back, and Ann keeps the table whose
    lobby was posted."""
    service, heard = await listening(store, clock)
    service.settling.first_seconds = 3600.0
    answer_lost(monkeypatch, store, "create_table", kept=True)
    with pytest.raises(NotSaved):
        await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    second = await service.open_table(NewTable(GUILD, CHANNEL + 1, ANN, "Ann", "cross"))
    await service.remember_message(heard.face, second.id, 1, second.version)  # posted
    await service.close()
    await store.flush()  # as a stop does
    again, after = await listening(store, clock)
    await again.resume()
    assert [t.id for t in again.in_guild(GUILD)] == [second.id]
    seated = again.of_user(GUILD, ANN)
    assert seated is not None and seated.id == second.id
    assert [row.channel_id for row in await store.load_active_tables()] == [CHANNEL + 1]
    assert after.told == [], "nothing handed back: the one posted is up to date"
    await again.close()
