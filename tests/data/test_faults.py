"""A database that refuses a write, for real (read-only, full, held by another process):
the store names the fault in one word, the write changes nothing, and the store works
again once the database does."""

from __future__ import annotations

import asyncpg
import pytest

from data.models import TableRow
from data.postgres import translate
from data.repository import Repository, StoreError
from tests.data.databases import Database, break_store, count, database_held


def row(version: int) -> TableRow:
    return TableRow(
        id="t1", guild_id=10, channel_id=20, host_id=1, game="cross", status="playing",
        version=version, state={"version": version},
        created_at=1.0, updated_at=1.0,
    )  # fmt: skip


@pytest.mark.parametrize("fault", ["read-only", "full"])
async def test_a_write_the_database_refuses_is_named_and_changes_nothing(
    store: Repository, fault: str
) -> None:
    await store.create_table(row(1))
    await break_store(store, fault)
    version = 1
    for _ in range(200):  # a full database still takes writes that fit in its pages
        try:
            await store.save_action(row(version + 1), version, {"pad": "x" * 2000})
        except StoreError as refused:
            assert refused.fault == fault
            break
        version += 1
    else:
        raise AssertionError("the database never refused a write")
    stored = await store.get_table("t1")
    assert stored is not None and stored.version == version
    assert await count(store, "table_actions") == version - 1


async def test_a_database_held_too_long_by_another_process_is_named_busy(
    database: Database, store: Repository
) -> None:
    await store.create_table(row(1))
    async with database_held(store, database.url):
        with pytest.raises(StoreError) as refused:
            await store.save_action(row(2), 1, {"kind": "play"})
        assert refused.value.fault == "busy"
        stored = await store.get_table("t1")  # reads go on meanwhile
        assert stored is not None and stored.version == 1
    await store.save_action(row(2), 1, {"kind": "play"})  # and the store works again
    stored = await store.get_table("t1")
    assert stored is not None and stored.version == 2


def test_a_connection_lost_as_a_transaction_starts_is_the_store_unavailable() -> None:
    """asyncpg reports a connection the server dropped, found as a transaction starts,
    as its own client error: the member is told the store is unavailable for a moment,
    as for any lost connection, not given the generic apology."""
    lost = asyncpg.InternalClientError("cannot switch to state 15; another operation (2)")
    translated = translate(lost)
    assert isinstance(translated, StoreError) and translated.fault == "unavailable"
    refused = translate(asyncpg.exceptions.SyntaxOrAccessError("a mistake of ours"))
    assert not isinstance(refused, StoreError), "a mistake in our SQL is not hidden"
