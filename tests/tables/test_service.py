"""The table service over a real store and a settable clock: every action is stored
before it is announced, a failed write changes nothing, the turn timer plays for a member
and makes them away after three timeouts, and deadlines survive a restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.tables
from bot.players import computer_player
from bot.table import (
    AWAY,
    AWAY_AFTER_TIMEOUTS,
    BACK,
    TIMED_OUT,
    Event,
    StaleVersion,
    Status,
    Table,
    TableError,
)
from bot.tables import NewTable, TableService
from data.sqlite import SqliteStore

GUILD, CHANNEL, ANN, BOB = 10, 20, 1, 2
TURN_TIMER = 120.0
PACE = 1.5


class Clock:
    """Time that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    store = await SqliteStore.open(tmp_path / "domino.db")
    yield store
    await store.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def started(service: TableService, game: str = "cross") -> Table:
    """Ann's table in CHANNEL with Bob seated, started."""
    table = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", game))
    await service.act(table.id, lambda t: t.join(BOB, "Bob"))
    await service.act(table.id, lambda t: t.start(ANN))
    return service.tables[table.id]


async def expire(service: TableService, clock: Clock, table: Table) -> None:
    """Let the table's deadline pass and wait for what the clock starts."""
    assert table.deadline is not None
    clock.now = table.deadline
    tasks = service.run_due()
    assert tasks, "the deadline was due"
    await asyncio.gather(*tasks)


async def test_every_action_is_stored_before_it_is_announced(
    store: SqliteStore, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    seen: list[tuple[int, int]] = []

    async def announce(table: Table, events: list[Event]) -> None:
        row = await store.get_table(table.id)
        assert row is not None
        seen.append((table.version, row.version))

    service.add_announcer(announce)
    table = await started(service)
    move = table.legal_for(table.seats[table.seat_to_move()].user_id)[0]  # type: ignore[arg-type]
    await service.act(table.id, lambda t: t.play(t.seats[t.seat_to_move()].user_id, move))  # type: ignore[arg-type]
    assert len(seen) == 3 and all(memory == stored for memory, stored in seen)


async def test_a_write_that_fails_changes_nothing_and_announces_nothing(
    store: SqliteStore, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    announced: list[list[Event]] = []

    async def announce(table: Table, events: list[Event]) -> None:
        announced.append(events)

    table = await started(service)
    service.add_announcer(announce)
    before = table.to_dict()

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "save_action", broken)
    mover = table.seats[table.seat_to_move()].user_id
    move = table.legal_for(mover)[0]  # type: ignore[arg-type]
    with pytest.raises(OSError):
        await service.act(table.id, lambda t: t.play(mover, move))  # type: ignore[arg-type]
    assert service.tables[table.id].to_dict() == before
    assert announced == []


async def test_the_turn_timer_plays_for_a_member_and_three_timeouts_make_them_away(
    store: SqliteStore, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(service)
    assert table.deadline == clock.now + TURN_TIMER, "a member has the guild's turn timer"
    seat = table.seat_to_move()
    timeouts = 0
    while not table.seats[seat].away:
        version = table.version
        mover = table.seat_to_move()
        await expire(service, clock, table)
        table = service.tables[table.id]
        assert table.version == version + 1, "the computer moved for the member"
        timeouts += mover == seat
    assert timeouts == AWAY_AFTER_TIMEOUTS
    row = await store.get_table(table.id)
    assert row is not None and row.state["seats"][seat]["away"], "away is stored"
    while table.seat_to_move() != seat:
        await expire(service, clock, table)
        table = service.tables[table.id]
    assert table.deadline == clock.now + PACE, "an away seat is played at the computer's pace"
    user = table.seats[seat].user_id
    assert user is not None
    events = await service.act(table.id, lambda t: t.come_back(user))
    assert [e.kind for e in events] == [BACK]
    assert table.deadline == clock.now + TURN_TIMER, "back: the member has the turn timer again"


async def test_a_timeout_is_announced_with_the_computers_move(
    store: SqliteStore, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    kinds: list[str] = []

    async def announce(table: Table, events: list[Event]) -> None:
        kinds.extend(e.kind for e in events)

    service.add_announcer(announce)
    table = await started(service)
    kinds.clear()
    await expire(service, clock, table)
    assert kinds[0] == TIMED_OUT and "moved" in kinds and AWAY not in kinds


async def test_deadlines_are_stored_and_a_restarted_service_keeps_them(
    store: SqliteStore, clock: Clock
) -> None:
    first = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(first)
    deadline, version = table.deadline, table.version
    await first.close()

    second = TableService(store, computer_pace=PACE, clock=clock)
    assert await second.resume() == 1
    resumed = second.tables[table.id]
    assert resumed.deadline == deadline and resumed.status is Status.PLAYING
    clock.now = deadline - 1
    assert second.run_due() == [], "not due before its time"
    await expire(second, clock, resumed)
    assert second.tables[table.id].version == version + 1
    await second.close()


async def test_one_table_per_channel_and_one_seat_per_server(
    store: SqliteStore, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "milo"))
    with pytest.raises(TableError, match="already has a table"):
        await service.open_table(NewTable(GUILD, CHANNEL, BOB, "Bob", "cross"))
    with pytest.raises(TableError, match="another table in this server"):
        await service.open_table(NewTable(GUILD, CHANNEL + 1, ANN, "Ann", "cross"))
    other_server = await service.open_table(NewTable(GUILD + 1, CHANNEL + 2, ANN, "Ann", "cross"))
    assert other_server.seat_of(ANN) == 0, "a seat in another server is allowed"


async def test_a_newer_version_in_the_store_wins_and_the_click_is_told_to_look_again(
    store: SqliteStore, clock: Clock
) -> None:
    """Memory can fall behind the store (a commit that landed for a cancelled caller, or
    a second process): the stale action is refused, and the table is read back."""
    mine = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(mine)
    other = TableService(store, computer_pace=PACE, clock=clock)
    await other.resume()
    theirs = other.tables[table.id]
    mover = theirs.seats[theirs.seat_to_move()].user_id
    assert mover is not None
    await other.act(table.id, lambda t: t.play(mover, t.legal_for(mover)[0]))
    await other.close()
    with pytest.raises(StaleVersion):
        await mine.act(table.id, lambda t: t.play(mover, t.legal_for(mover)[0]))
    assert mine.tables[table.id].to_dict() == theirs.to_dict()


async def test_a_failing_computer_player_is_logged_and_a_legal_move_made_instead(
    store: SqliteStore,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Broken:
        def choose(self, view: object) -> object:
            raise RuntimeError("a bug in the normal player")

    def broken(level: str, seed: int) -> object:
        return Broken() if level == "normal" else computer_player(level, seed)

    monkeypatch.setattr(bot.tables, "computer_player", broken)
    service = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(service)
    version = table.version
    await expire(service, clock, table)
    assert service.tables[table.id].version == version + 1, "the turn was played all the same"
    assert "the normal player failed" in caplog.text
