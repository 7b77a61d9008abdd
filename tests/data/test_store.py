"""The store: migrations, active tables with compare-and-swap, atomic game records."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from data.models import FinishedGame, GuildSettings, Participant, RoundResult, TableRow
from data.repository import VersionConflict
from data.sqlite import SqliteStore


def table_row(table_id: str = "t1", version: int = 1, status: str = "lobby") -> TableRow:
    return TableRow(
        id=table_id, guild_id=10, channel_id=20, host_id=1, game="cross", status=status,
        version=version, state={"seats": ["Ann"], "version": version}, record={"actions": []},
        created_at=1.0, updated_at=1.0,
    )  # fmt: skip


def finished(game_id: str, participants: list[Participant], table_id: str = "t1") -> FinishedGame:
    return FinishedGame(
        id=game_id, table_id=table_id, guild_id=10, game="cross", finished_at=2.0,
        record={"actions": []}, rounds=[RoundResult(1, "domino", 0, [20, 0])],
        participants=participants,
    )  # fmt: skip


async def test_migrations_from_empty_and_rerun_are_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "domino.db"
    first = await SqliteStore.open(path)
    await first.close()
    again = await SqliteStore.open(path)
    assert await again.migrate() == []
    async with again._db.execute("SELECT name FROM schema_migrations") as cursor:
        names = [row["name"] async for row in cursor]
    assert names == ["0001_initial.sql", "0002_player_names.sql"]
    async with again._db.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"
    async with again._db.execute("PRAGMA foreign_keys") as cursor:
        assert (await cursor.fetchone())[0] == 1
    await again.close()


async def test_save_action_is_compare_and_swap_on_the_version(store: SqliteStore) -> None:
    await store.create_table(table_row())
    await store.save_action(table_row(version=2), 1, {"kind": "join"})
    with pytest.raises(VersionConflict):
        await store.save_action(table_row(version=2), 1, {"kind": "join"})
    stored = await store.get_table("t1")
    assert stored is not None and stored.version == 2 and stored.state["version"] == 2


async def test_two_concurrent_writers_of_the_same_version_exactly_one_wins(
    store: SqliteStore,
) -> None:
    await store.create_table(table_row())
    results = await asyncio.gather(
        store.save_action(table_row(version=2), 1, {"by": "a"}),
        store.save_action(table_row(version=2), 1, {"by": "b"}),
        return_exceptions=True,
    )
    assert sum(isinstance(r, VersionConflict) for r in results) == 1
    async with store._db.execute("SELECT COUNT(*) FROM table_actions") as cursor:
        assert (await cursor.fetchone())[0] == 1


async def test_an_interrupted_save_leaves_the_previous_state(store: SqliteStore) -> None:
    await store.create_table(table_row())
    with pytest.raises(TypeError):
        await store.save_action(table_row(version=2), 1, {"not json": object()})
    stored = await store.get_table("t1")
    assert stored is not None and stored.version == 1
    async with store._db.execute("SELECT COUNT(*) FROM table_actions") as cursor:
        assert (await cursor.fetchone())[0] == 0


async def test_an_interrupted_game_record_leaves_no_trace(store: SqliteStore) -> None:
    await store.create_table(table_row(status="playing"))
    twice = [Participant(seat=0, team=0, final_score=100, won=True, user_id=5)] * 2
    with pytest.raises(Exception, match="UNIQUE"):
        await store.record_finished_game(finished("g1", twice))
    assert await store.get_stats(5) == []
    assert await store.get_rating(5, "cross") is None
    async with store._db.execute("SELECT COUNT(*) FROM games") as cursor:
        assert (await cursor.fetchone())[0] == 0
    assert [row.id for row in await store.load_active_tables()] == ["t1"]


async def test_load_active_tables_returns_the_open_ones_intact(store: SqliteStore) -> None:
    for table_id, status in [
        ("a", "lobby"),
        ("b", "playing"),
        ("c", "finished"),
        ("d", "cancelled"),
    ]:
        await store.create_table(table_row(table_id, status=status))
    await store.set_message_id("b", 12345)
    rows = {row.id: row for row in await store.load_active_tables()}
    assert set(rows) == {"a", "b"}
    assert rows["b"].message_id == 12345 and rows["b"].state == {"seats": ["Ann"], "version": 1}


async def test_a_finished_game_closes_its_table_and_counts_members_not_computers(
    store: SqliteStore,
) -> None:
    await store.create_table(table_row(status="playing"))
    await store.record_finished_game(
        finished(
            "g1",
            [
                Participant(seat=0, team=0, final_score=104, won=True, user_id=5, rounds_won=3,
                            points=104, dominoes=2, blocked_wins=1),
                Participant(seat=1, team=1, final_score=40, won=False, computer_level="hard"),
            ],
        )
    )  # fmt: skip
    assert await store.load_active_tables() == []
    [here] = await store.get_stats(5, guild_id=10)
    [everywhere] = await store.get_stats(5)
    for stats in (here, everywhere):
        assert (stats.games, stats.wins, stats.rounds_won, stats.points) == (1, 1, 3, 104)
        assert (stats.dominoes, stats.blocked_wins) == (2, 1)
    async with store._db.execute("SELECT COUNT(*) FROM player_stats") as cursor:
        assert (await cursor.fetchone())[0] == 2  # no rows for the computer


async def test_guild_settings_default_and_update(store: SqliteStore) -> None:
    assert await store.get_guild_settings(7) == GuildSettings(7, 120, {}, False)
    await store.set_guild_settings(GuildSettings(7, 60, {"cross": 150}, True))
    await store.set_guild_settings(GuildSettings(7, 90, {"cross": 150}, True))
    assert await store.get_guild_settings(7) == GuildSettings(7, 90, {"cross": 150}, True)
