"""Many writes at once: each caller is told only once its own write is committed; one
write that fails does not fail the others; reads never wait behind writes; what a
face was shown rides along with the writes instead of costing commits of its own.

On SQLite the writes waiting are committed together (one transaction, one sync, each
write under its own savepoint); on PostgreSQL each is its own transaction. Both must
keep every promise here."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from data import open_store
from data.models import FaceShown, TableRow
from data.repository import Repository, VersionConflict
from tests.data.databases import (
    Database,
    count,
    sqlite_of,
    write_in_flight,
    writes_waiting,
)

TABLES = 40


def row(table_id: str, version: int, channel: int) -> TableRow:
    return TableRow(
        id=table_id, guild_id=10, channel_id=channel, host_id=1, game="cross",
        status="playing", version=version, state={"version": version},
        created_at=1.0, updated_at=1.0,
    )  # fmt: skip


@pytest.fixture
async def other(database: Database, store: Repository) -> AsyncIterator[Repository]:
    """A second store on the same database: another process's view of it."""
    opened = await open_store(database.url)
    yield opened
    await opened.close()


async def open_tables(store: Repository) -> list[str]:
    ids = [f"t{n}" for n in range(TABLES)]
    for channel, table_id in enumerate(ids):
        await store.create_table(row(table_id, 1, channel))
    return ids


async def test_each_of_many_concurrent_actions_is_told_only_once_it_is_committed(
    store: Repository, other: Repository
) -> None:
    """Every caller, the moment it is told, finds its action in the database from
    another connection (another process would see it too): told after its commit, never
    before. On SQLite the actions share commits: fewer syncs than actions."""
    ids = await open_tables(store)
    commits_before = sqlite_of(store).commits if store.backend.kind == "sqlite" else 0

    async def act(table_id: str, channel: int) -> None:
        for version in (2, 3, 4):
            await store.save_action(row(table_id, version, channel), version - 1, {"v": version})
            stored = await other.get_table(table_id)
            assert stored is not None and stored.version == version, "told before committed"

    await asyncio.gather(*(act(table_id, channel) for channel, table_id in enumerate(ids)))
    assert await count(other, "table_actions") == 3 * TABLES
    if store.backend.kind == "sqlite":
        assert sqlite_of(store).commits - commits_before < 3 * TABLES, "no write was grouped"


async def test_a_stale_action_fails_alone_and_its_neighbours_are_stored(
    store: Repository,
) -> None:
    """Among writes committed together, one made on an old version (and one that breaks
    halfway, after its UPDATE) are rolled back to their own savepoints; the others are
    stored, and on SQLite all of them went in one transaction."""
    ids = await open_tables(store)
    await store.save_action(row("t0", 2, 0), 1, {"v": 2})
    await store.create_table(row("broken", 1, TABLES))
    async with writes_waiting(store) as release:
        commits_before = sqlite_of(store).commits if store.backend.kind == "sqlite" else 0
        writes = [
            asyncio.ensure_future(store.save_action(row(table_id, 2, channel), 1, {"v": 2}))
            for channel, table_id in enumerate(ids)
        ]  # t0 is at version 2 already: stale
        writes.append(
            asyncio.ensure_future(store.save_action(row("broken", 2, TABLES), 1, {"bad": object()}))
        )  # its UPDATE goes through, then its action fails in json.dumps (a table of its
        # own: on PostgreSQL the writes run at once, in no set order)
        # The tasks queue their writes in their first step, which runs before this:
        asyncio.get_running_loop().call_soon(release)
        results = await asyncio.gather(*writes, return_exceptions=True)
    assert isinstance(results[0], VersionConflict)
    assert isinstance(results[-1], TypeError)
    assert results[1:-1] == [None] * (TABLES - 1)
    if store.backend.kind == "sqlite":
        assert sqlite_of(store).commits - commits_before == 1, "one group, one commit"
    for table_id in ids:
        stored = await store.get_table(table_id)
        assert stored is not None and stored.version == 2, table_id
    assert [a["v"] for a in await store.actions_since("t0", 0)] == [2]
    assert [a["v"] for a in await store.actions_since("t1", 0)] == [2]
    broken = await store.get_table("broken")
    assert broken is not None and broken.version == 1, "its UPDATE rolled back with it"
    assert await store.actions_since("broken", 0) == []


async def test_a_read_is_answered_while_a_write_is_in_flight_and_sees_none_of_it(
    store: Repository,
) -> None:
    await store.create_table(row("t1", 1, 20))
    async with write_in_flight(store, "t1", 7):
        stored = await asyncio.wait_for(store.get_table("t1"), timeout=30)  # a hang guard
        assert stored is not None and stored.version == 1, "read what is not committed"
        board = await asyncio.wait_for(store.leaderboard("cross", order="wins"), timeout=30)
        assert board.total == 0
    stored = await store.get_table("t1")
    assert stored is not None and stored.version == 7


async def test_what_faces_were_shown_is_stored_with_the_tables_next_action(
    store: Repository, other: Repository
) -> None:
    """No write of its own: the notes wait, and the table's next action stores them
    (every face's, each apart); nothing is left to flush."""
    await store.create_table(row("t1", 1, 20))
    await store.set_shown("t1", "discord", 555, 1)
    stored = await other.get_table("t1")
    assert stored is not None and stored.shown == {}, "noted, not yet written"
    await store.save_action(row("t1", 2, 20), 1, {"v": 2})
    stored = await other.get_table("t1")
    assert stored is not None and stored.shown == {"discord": FaceShown(1, 555)}
    await store.set_shown("t1", "discord", None, 2)
    await store.set_shown("t1", "browser", None, 1)
    await store.save_action(row("t1", 3, 20), 2, {"v": 3})
    stored = await other.get_table("t1")
    assert stored is not None
    assert stored.shown == {"discord": FaceShown(2, 555), "browser": FaceShown(1, None)}
    if store.backend.kind == "sqlite":
        commits = sqlite_of(store).commits
        await store.flush()
        assert sqlite_of(store).commits == commits, "the notes were written with the action"


async def test_a_note_of_what_a_face_shows_outlives_a_failed_action_and_a_restart(
    database: Database, store: Repository
) -> None:
    """The action it would have ridden on fails: the note is still written, at the
    latest when the store closes; and a stale note never moves the version back."""
    await store.create_table(row("t1", 1, 20))
    await store.create_table(row("t2", 1, 21))
    await store.set_shown("t1", "discord", 777, 1)
    with pytest.raises(VersionConflict):
        await store.save_action(row("t1", 5, 20), 4, {"v": 5})
    await store.set_shown("t2", "discord", 888, 3)
    await store.set_shown("t2", "discord", 887, 2)  # older: ignored
    await store.close()
    async with await open_store(database.url) as again:
        one, two = await again.get_table("t1"), await again.get_table("t2")
        assert one is not None and one.shown == {"discord": FaceShown(1, 777)}
        assert two is not None and two.shown == {"discord": FaceShown(3, 888)}
