"""Races and a failing database, at the table service: two requests at the same moment
never break "one table per channel" or "one seat per member in a server", a double click
adds one computer, and a database that cannot write refuses the action by name, changes
nothing, and is not hammered by the computer players."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from pathlib import Path

import pytest

from bot.commands import AddComputer, Join, Play
from bot.refusals import (
    ChannelTaken,
    NotSaved,
    OutOfRange,
    Refusal,
    SeatedElsewhere,
    StaleVersion,
)
from bot.service import NewTable, TableService
from data import open_store, sqlite_url
from data.repository import Repository
from tests.data.databases import break_store, database_held
from tests.tables.helpers import ANN, BOB, CHANNEL, GUILD, PACE, Clock, started

CAT = 3


async def outcomes(*calls: Awaitable[object]) -> list[object]:
    """Run the calls at the same moment; each one's result or refusal."""
    return await asyncio.gather(*calls, return_exceptions=True)


async def test_two_new_tables_in_one_channel_at_once_open_one(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    results = await outcomes(
        service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross")),
        service.open_table(NewTable(GUILD, CHANNEL, BOB, "Bob", "milo")),
    )
    assert sorted(type(r).__name__ for r in results) == ["ChannelTaken", "TableSnapshot"]
    assert len(await store.load_active_tables()) == 1


async def test_one_member_opening_tables_in_two_channels_at_once_hosts_one(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    results = await outcomes(
        service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross")),
        service.open_table(NewTable(GUILD, CHANNEL + 1, ANN, "Ann", "cross")),
    )
    assert sorted(type(r).__name__ for r in results) == ["SeatedElsewhere", "TableSnapshot"]


async def test_joining_two_tables_of_a_server_at_once_seats_the_member_once(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    first = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    second = await service.open_table(NewTable(GUILD, CHANNEL + 1, BOB, "Bob", "cross"))
    results = await outcomes(
        service.act(first.id, Join(CAT, "Cat")), service.act(second.id, Join(CAT, "Cat"))
    )
    assert sum(isinstance(r, SeatedElsewhere) for r in results) == 1
    seated = [t for t in service.tables.values() if t.seat_of(CAT) is not None]
    assert len(seated) == 1


async def test_a_double_click_on_a_computer_level_adds_one_computer(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    table = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    drawn_for = table.version
    results = await outcomes(
        service.act(table.id, AddComputer(ANN, "hard"), seen_version=drawn_for),
        service.act(table.id, AddComputer(ANN, "hard"), seen_version=drawn_for),
    )
    assert sum(isinstance(r, StaleVersion) for r in results) == 1
    assert len(service.tables[table.id].seats) == 2
    with pytest.raises(StaleVersion):  # the same old button, clicked later
        await service.act(table.id, AddComputer(ANN, "hard"), seen_version=drawn_for)


async def test_the_store_refuses_a_second_open_table_in_a_channel_from_another_process(
    tmp_path: Path, clock: Clock
) -> None:
    """Two processes on one file each see no table in memory: the unique index decides."""
    url = sqlite_url(tmp_path / "shared.db")
    one, two = await open_store(url), await open_store(url)
    try:
        await TableService(one, clock=clock).open_table(
            NewTable(GUILD, CHANNEL, ANN, "Ann", "cross")
        )
        with pytest.raises(ChannelTaken):
            await TableService(two, clock=clock).open_table(
                NewTable(GUILD, CHANNEL, BOB, "Bob", "cross")
            )
        assert len(await two.load_active_tables()) == 1
    finally:
        await one.close()
        await two.close()


@pytest.mark.parametrize("fault", ["read-only", "full"])
async def test_a_move_the_database_cannot_store_is_refused_by_name_and_changes_nothing(
    store: Repository, clock: Clock, fault: str
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(service)
    await break_store(store, fault)
    for _ in range(50):  # a full database still takes writes that fit in its pages
        table = service.tables[table.id]
        before = table.to_dict()
        mover = table.seats[table.seat_to_move()].user_id
        assert mover is not None
        try:
            await service.act(table.id, Play(mover, table.legal_for(mover)[0]))
        except NotSaved as refused:
            assert (refused.fault, refused.kind) == (fault, "play")
            break
    else:
        raise AssertionError("the database never refused a write")
    assert service.tables[table.id].to_dict() == before
    row = await store.get_table(table.id)
    assert row is not None and row.version == table.version


async def test_a_busy_database_is_named_as_busy(tmp_path: Path, clock: Clock) -> None:
    url = sqlite_url(tmp_path / "busy.db")
    store = await open_store(url)
    try:
        service = TableService(store, computer_pace=PACE, clock=clock)
        async with database_held(store, url):
            with pytest.raises(NotSaved) as refused:
                await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
        assert refused.value.fault == "busy"
    finally:
        await store.close()


async def test_a_computer_move_that_cannot_be_stored_backs_off_and_logs_one_error(
    store: Repository, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(service)
    await break_store(store, "read-only")
    waits = []
    with caplog.at_level(logging.WARNING, logger="bot.service"):
        for _ in range(4):
            due = service.tables.scheduled(table.id)
            assert due is not None
            clock.now = due
            await asyncio.gather(*service.run_due())
            retry = service.tables.scheduled(table.id)
            assert retry is not None, "the move is tried again later"
            waits.append(retry - clock.now)
    assert waits == sorted(waits) and waits[-1] >= 4 * waits[0], "each wait longer"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, "one error, then warnings"
    assert service.tables[table.id].version == table.version, "nothing was made"


@pytest.mark.parametrize("seconds", [1, 19, 3601, True])
async def test_a_turn_timer_out_of_range_is_refused_and_not_stored(
    store: Repository, clock: Clock, seconds: int
) -> None:
    service = TableService(store, clock=clock)
    with pytest.raises(OutOfRange):
        await service.change_settings(GUILD, turn_timer=seconds)
    assert (await store.get_guild_settings(GUILD)).turn_timer_seconds == 120


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("cross", {"target": 0}),
        ("cross", {"target": 55.5}),
        ("merry-go-round", {"keep_last_two": "yes"}),
        ("cross", {"match_games": 2}),
        ("no-such-game", {}),
    ],
)
async def test_options_discord_would_refuse_open_no_table(
    store: Repository, clock: Clock, game: str, options: dict[str, object]
) -> None:
    """A forged or stale interaction may carry values Discord itself would refuse."""
    service = TableService(store, clock=clock)
    with pytest.raises(Refusal):
        await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", game, **options))  # type: ignore[arg-type]
    assert await store.load_active_tables() == []
