"""The table service over a real store and a settable clock: every action is stored
before it is announced, a failed write changes nothing, the turn timer plays for a member
and makes them away after three timeouts, and deadlines survive a restart."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

import bot.service.clock
from bot.commands import Cancel, ComeBack, Join, MoreTime, Start
from bot.engine import DRAW
from bot.events import Away, Back, Event, Moved, Reminder, TimeAdded, TimedOut
from bot.players import computer_player
from bot.refusals import (
    ChannelTaken,
    MoreTimeOff,
    NoMoreTime,
    NotSaved,
    NotYourTurn,
    SeatedElsewhere,
    StaleVersion,
    StillSeated,
    TimeEnough,
)
from bot.service import NewTable, TableService
from bot.snapshot import TableSnapshot
from bot.table import AWAY_AFTER_TIMEOUTS, MORE_TIME_MOST, Status
from data.backend import Session
from data.models import TableRow
from data.repository import Repository, StoreError
from tests.tables.helpers import (
    ANN,
    BOB,
    CHANNEL,
    GUILD,
    PACE,
    TURN_TIMER,
    Clock,
    Heard,
    expire,
    play_one,
    started,
)


async def test_every_action_is_stored_before_it_is_announced(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    order: list[str] = []
    save = store.save_action

    async def saving(row: TableRow, *args: Any, **kwargs: Any) -> None:
        await save(row, *args, **kwargs)
        order.append(f"stored {row.version}")

    class Listener(Heard):
        def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
            order.append(f"told {table.version}")

    store.save_action = saving  # type: ignore[method-assign]
    service.add_listener(Listener())
    table = await started(service)
    await play_one(service, table.id, via="the click")
    assert order == [f"{what} {v}" for v in (2, 3, 4) for what in ("stored", "told")]


async def test_a_write_that_fails_changes_nothing_and_announces_nothing(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    heard = Heard()
    table = await started(service)
    service.add_listener(heard)
    before = table.to_dict()

    async def broken(*args: object, **kwargs: object) -> None:
        raise StoreError("full", "database or disk is full")

    monkeypatch.setattr(store, "save_action", broken)
    with pytest.raises(NotSaved) as refused:
        await play_one(service, table.id)
    assert (refused.value.fault, refused.value.kind) == ("full", "play")
    assert service.tables[table.id] is table, "the live table was never swapped"
    assert table.to_dict() == before, "nor changed: the move was applied to a copy"
    assert heard.told == []


async def test_the_turn_timer_plays_for_a_member_and_three_timeouts_make_them_away(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    heard = Heard()
    service.add_listener(heard)
    table = await started(service)
    assert table.deadline == clock.now + TURN_TIMER, "a member has the guild's turn timer"
    seat = table.seat_to_move()
    while not table.seats[seat].away:
        version = table.version
        await expire(service, clock, table)
        table = service.tables[table.id]
        assert table.version == version + 1, "the computer moved for the member"
    # A timed-out turn whose draw brings a tile that fits is finished by the computer at
    # its own pace, a second step of the same timeout: the timeouts are those told.
    told = [e for _, events, _ in heard.told for e in events if isinstance(e, TimedOut)]
    assert sum(e.seat == seat for e in told) == AWAY_AFTER_TIMEOUTS
    row = await store.get_table(table.id)
    assert row is not None and row.state["seats"][seat]["away"], "away is stored"
    while table.seat_to_move() != seat:
        await expire(service, clock, table)
        table = service.tables[table.id]
    assert table.deadline == clock.now + PACE, "an away seat is played at the computer's pace"
    user = table.seats[seat].user_id
    assert user is not None
    events = await service.act(table.id, ComeBack(user))
    assert events == [Back(seat)]
    table = service.tables[table.id]
    assert table.deadline == clock.now + TURN_TIMER, "back: the member has the turn timer again"


async def test_a_timeout_is_announced_with_the_computers_move(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    heard = Heard()
    service.add_listener(heard)
    table = await started(service)
    heard.told.clear()
    await expire(service, clock, table)
    [(_, events, via)] = [t for t in heard.told if not isinstance(t[1][0], Reminder)]
    assert isinstance(events[0], TimedOut) and any(isinstance(e, Moved) for e in events)
    assert not any(isinstance(e, Away) for e in events) and via is None


async def test_a_restarted_service_gives_the_member_to_move_a_whole_turn_from_then(
    store: Repository, clock: Clock
) -> None:
    first = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(first)
    version = table.version
    await first.close()

    clock.now += TURN_TIMER - 10  # down for most of the turn
    second = TableService(store, computer_pace=PACE, clock=clock)
    assert await second.resume() == 1
    resumed = second.tables[table.id]
    deadline = resumed.deadline
    assert deadline == clock.now + TURN_TIMER and resumed.status is Status.PLAYING
    clock.now = deadline - 1
    assert second.run_due() == [], "not due before its time"
    await expire(second, clock, resumed)
    assert second.tables[table.id].version == version + 1
    await second.close()


async def test_a_restart_keeps_the_more_time_a_member_took(store: Repository, clock: Clock) -> None:
    """The whole turn from the restart, or what the member had if more: the time they
    took is still theirs (and the press still counted)."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(first)
    mover = table.seats[table.seat_to_move()].user_id
    assert mover is not None and table.deadline is not None
    clock.now = table.deadline - 10
    await first.act(table.id, MoreTime(mover))
    taken = first.tables[table.id].deadline
    await first.close()
    clock.now += 5  # a quick restart: more than a whole turn was left
    second = TableService(store, computer_pace=PACE, clock=clock)
    await second.resume()
    assert second.tables[table.id].deadline == taken == clock.now + TURN_TIMER + 5
    assert second.snapshot(table.id).more_time_left(mover) == MORE_TIME_MOST - 1
    await second.close()


async def test_one_table_per_channel_and_one_seat_per_server(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "milo"))
    with pytest.raises(ChannelTaken):
        await service.open_table(NewTable(GUILD, CHANNEL, BOB, "Bob", "cross"))
    with pytest.raises(SeatedElsewhere) as refused:
        await service.open_table(NewTable(GUILD, CHANNEL + 1, ANN, "Ann", "cross"))
    assert refused.value.channel_id == CHANNEL
    other_server = await service.open_table(NewTable(GUILD + 1, CHANNEL + 2, ANN, "Ann", "cross"))
    assert other_server.seat_of(ANN) == 0, "a seat in another server is allowed"


async def test_a_newer_version_in_the_store_wins_and_the_click_is_told_to_look_again(
    store: Repository, clock: Clock
) -> None:
    """Memory can fall behind the store (a commit that landed for a cancelled caller, or
    a second process): the stale action is refused, and the table is read back."""
    mine = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(mine)
    other = TableService(store, computer_pace=PACE, clock=clock)
    await other.resume()
    await play_one(other, table.id)
    await other.close()
    with pytest.raises(StaleVersion):
        await play_one(mine, table.id)
    assert mine.tables[table.id].to_dict() == other.tables[table.id].to_dict()


async def test_a_failing_computer_player_is_logged_and_a_legal_move_made_instead(
    store: Repository,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Broken:
        def choose(self, view: object) -> object:
            raise RuntimeError("a bug in the normal player")

    def broken(level: str, seed: int) -> object:
        return Broken() if level == "normal" else computer_player(level, seed)

    monkeypatch.setattr(bot.service.clock, "computer_player", broken)
    service = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(service)
    version = table.version
    await expire(service, clock, table)
    assert service.tables[table.id].version == version + 1, "the turn was played all the same"
    assert "the normal player failed" in caplog.text


async def test_a_stored_table_that_no_longer_reads_back_is_closed_and_its_channel_freed(
    store: Repository, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    """A table stored by a release whose record the corrected rules no longer replay."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(first)
    await first.close()
    row = await store.get_table(table.id)
    assert row is not None
    broken = dict(row.state, match={"record": {"format": "domino-record/1", "game": "chess"}})

    async def overwrite(tx: Session) -> None:
        await tx.execute(
            "UPDATE active_tables SET state = ? WHERE id = ?", (json.dumps(broken), table.id)
        )

    await store.backend.write(overwrite)
    second = TableService(store, computer_pace=PACE, clock=clock)
    assert await second.resume() == 0
    assert f"table {table.id} cannot be read back" in caplog.text
    reopened = await second.open_table(NewTable(GUILD, CHANNEL, BOB, "Bob", "milo"))
    assert second.in_channel(CHANNEL) is reopened, "the channel is free again"
    await second.close()


async def test_a_stored_table_whose_state_is_not_json_is_set_aside_and_the_rest_resume(
    store: Repository, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    """A state half-written or edited by hand: that table is closed, the others resume."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    damaged = await first.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    kept = await first.open_table(NewTable(GUILD, CHANNEL + 1, BOB, "Bob", "cross"))
    await first.close()

    async def overwrite(tx: Session) -> None:
        await tx.execute("UPDATE active_tables SET state = 'not json' WHERE id = ?", (damaged.id,))

    await store.backend.write(overwrite)
    second = TableService(store, computer_pace=PACE, clock=clock)
    assert await second.resume() == 1
    assert second.find(kept.id) is not None
    assert f"table {damaged.id} cannot be read back" in caplog.text
    assert second.in_channel(CHANNEL) is None, "the damaged table's channel is free again"
    await second.close()


async def test_a_process_loads_and_times_only_the_tables_of_its_shards(
    store: Repository, clock: Clock
) -> None:
    """Discord routes each server to one shard; a process owns those servers' tables."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    for guild in (4 << 22, 5 << 22):  # two servers, on shards 0 and 1 of 2
        await first.open_table(NewTable(guild, guild + 7, ANN, "Ann", "cross"))
    await first.close()
    second = TableService(store, computer_pace=PACE, clock=clock)
    assert await second.resume(owns=lambda guild_id: (guild_id >> 22) % 2 == 1) == 1
    [table] = second.tables.values()
    assert (table.guild_id >> 22) % 2 == 1
    await second.close()


async def test_a_member_seated_in_another_process_is_not_forgotten(
    store: Repository, clock: Clock
) -> None:
    """Forget-me asked on a server of one process while the member plays on a server of
    another: refused as at home, else the game they play on ends there and counts them
    again (their stats, rating and name are back after they were told all was gone)."""
    playing = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(playing)
    elsewhere = TableService(store, computer_pace=PACE, clock=clock)
    await elsewhere.resume(owns=lambda guild_id: guild_id != GUILD)
    with pytest.raises(StillSeated) as refused:
        await elsewhere.forget(ANN)
    assert refused.value.channel_id == table.channel_id
    await elsewhere.close()
    await playing.close()


async def test_a_member_is_reminded_once_when_a_quarter_of_their_time_is_left(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, computer_pace=PACE, clock=clock)
    heard = Heard()
    service.add_listener(heard)
    table = await started(service)
    due = service.tables.scheduled(table.id, reminder=True)
    assert table.deadline is not None and due == table.deadline - TURN_TIMER / 4
    heard.told.clear()
    clock.now = due - 1
    assert service.run_due() == [] and heard.told == [], "not before its time"
    clock.now = due
    service.run_due()
    assert heard.events == [Reminder(table.seat_to_move(), table.deadline)]
    assert service.tables[table.id].version == table.version, "a reminder changes nothing"
    service.run_due()
    assert len(heard.events) == 1, "once"
    await play_one(service, table.id)  # the next member's turn has a reminder of its own
    moved_on = service.tables[table.id]
    assert service.tables.scheduled(table.id, reminder=True) == (
        moved_on.deadline - TURN_TIMER / 4  # type: ignore[operator]
    )


async def test_more_time_adds_a_whole_turn_is_stored_and_runs_out_after_ten(
    store: Repository, clock: Clock
) -> None:
    """The member to move takes more time: their clock gets a whole turn more (and its
    reminder moves with it), stored and told as any action; another member may not ask
    for it, nor they while more than a whole turn is left, and after
    :data:`MORE_TIME_MOST` in a game it is refused, changing nothing."""
    service = TableService(store, computer_pace=PACE, clock=clock)
    heard = Heard()
    service.add_listener(heard)
    table = await started(service)
    seat = table.seat_to_move()
    mover, other = table.seats[seat].user_id, table.seats[1 - seat].user_id
    assert mover is not None and other is not None and table.deadline is not None
    with pytest.raises(NotYourTurn):
        await service.act(table.id, MoreTime(other))
    clock.now += 30
    deadline = table.deadline
    events = await service.act(table.id, MoreTime(mover))
    assert events == [TimeAdded(seat, MORE_TIME_MOST - 1)] and heard.events[-1] == events[0]
    table = service.tables[table.id]
    assert table.deadline == deadline + TURN_TIMER, "a whole turn more than was left"
    assert service.tables.scheduled(table.id) == table.deadline
    assert service.tables.scheduled(table.id, reminder=True) == table.deadline - TURN_TIMER / 4
    row = await store.get_table(table.id)
    assert row is not None and row.deadline == table.deadline
    assert row.state["seats"][seat]["more_time"] == 1
    with pytest.raises(TimeEnough):  # more than a whole turn is left: none is banked
        await service.act(table.id, MoreTime(mover))
    for _ in range(MORE_TIME_MOST - 1):
        clock.now = service.tables[table.id].deadline - TURN_TIMER / 2  # type: ignore[operator]
        await service.act(table.id, MoreTime(mover))
    table = service.tables[table.id]
    with pytest.raises(NoMoreTime) as refused:
        await service.act(table.id, MoreTime(mover))
    assert refused.value.used == MORE_TIME_MOST
    assert service.tables[table.id].version == table.version
    assert service.snapshot(table.id).more_time_left(mover) == 0


async def test_a_server_that_turns_more_time_off_gives_none_at_its_next_tables(
    store: Repository, clock: Clock
) -> None:
    """The server's setting is read when a table opens: a table opened after it was
    turned off refuses more time in words and changes nothing (its faces offer none);
    one opened before keeps what it opened with."""
    service = TableService(store, computer_pace=PACE, clock=clock)
    before = await started(service)
    await service.change_settings(GUILD, more_time=False)
    table = await service.open_table(NewTable(GUILD, CHANNEL + 1, 3, "Cy", "cross"))
    await service.act(table.id, Join(4, "Di"))
    await service.act(table.id, Start(3))
    after = service.tables[table.id]
    mover = after.seats[after.seat_to_move()].user_id
    assert mover is not None
    assert service.snapshot(table.id).more_time_left(mover) == 0
    with pytest.raises(MoreTimeOff):
        await service.act(table.id, MoreTime(mover))
    assert service.tables[table.id].version == after.version
    kept = before.seats[before.seat_to_move()].user_id
    assert kept is not None and service.snapshot(before.id).more_time_left(kept) == MORE_TIME_MOST
    await service.act(before.id, MoreTime(kept))
    await service.close()


async def test_closed_tables_are_pruned_once_older_than_the_setting(
    store: Repository, clock: Clock
) -> None:
    first = TableService(store, computer_pace=PACE, clock=clock)
    table = await first.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    await first.act(table.id, Cancel(ANN))
    await first.close()
    assert await store.get_table(table.id) is not None, "kept a while"
    clock.now += 3600 + 1
    second = TableService(store, computer_pace=PACE, clock=clock, keep_closed=3600)
    await second.resume()
    await second.close()  # the first pruning runs as it starts
    assert await store.get_table(table.id) is None


async def test_a_timed_out_turn_with_a_draw_is_played_whole_at_the_computers_pace(
    store: Repository, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer draws for a member whose time ran out; the tile drawn fits, and the
    turn goes on: the computer places it too, at its own pace, and the turn counts as
    one timeout (not a second whole turn timer, nor a second timeout toward away)."""
    service = TableService(store, computer_pace=PACE, clock=clock)
    for seed in range(20):  # the first deal where a member must draw and the tile fits
        monkeypatch.setattr("bot.service.core.secrets.randbits", lambda bits, s=seed: s)
        table = await started(service)
        while table.match is not None and table.match.legal_moves() != (DRAW,):
            await play_one(service, table.id)  # the members play their own turns
            table = service.tables[table.id]
        seat = table.seat_to_move()
        await expire(service, clock, table)  # nobody draws: the time runs out
        table = service.tables[table.id]
        if table.seat_to_move() == seat:
            break
        await service.act(table.id, Cancel(ANN))  # the tile fitted nowhere: another deal
    else:
        pytest.fail("no deal in range had a timed-out draw whose tile fits")
    assert table.seats[seat].timeouts == 1 and not table.seats[seat].away
    assert table.deadline == clock.now + PACE, "the computer finishes the turn it began"
    await expire(service, clock, table)
    table = service.tables[table.id]
    assert table.seat_to_move() != seat, "the tile drawn is placed"
    assert table.seats[seat].timeouts == 1, "one turn, one timeout"
    await service.close()


async def test_a_member_coming_back_on_anothers_turn_leaves_that_turns_clock_as_it_was(
    store: Repository, clock: Clock
) -> None:
    """Cat, away, asks for her hand while Bob is to move: Bob's turn runs out when it
    did, and he is not reminded a second time."""
    cat = 3
    service = TableService(store, computer_pace=PACE, clock=clock)
    heard = Heard()
    service.add_listener(heard)
    table = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    for user, name in ((BOB, "Bob"), (cat, "Cat")):
        await service.act(table.id, Join(user, name))
    await service.act(table.id, Start(ANN))
    live = service.tables[table.id]
    seat = live.seat_of(cat)
    assert seat is not None
    while not (live.seats[seat].away and live.seat_to_move() != seat):
        if live.seat_to_move() == seat:
            await expire(service, clock, live)  # Cat's time runs out, three times
        else:
            await play_one(service, table.id)
        live = service.tables[table.id]
    deadline = live.deadline
    assert deadline is not None and not live.computer_to_move
    clock.now = deadline - 1
    heard.told.clear()
    service.run_due()
    assert [e for e in heard.events if isinstance(e, Reminder)] != [], "reminded once"
    await service.act(table.id, ComeBack(cat))
    assert service.tables[table.id].deadline == deadline, "the same turn, the same clock"
    service.run_due()
    assert len([e for e in heard.events if isinstance(e, Reminder)]) == 1, "not twice"
    await service.close()
