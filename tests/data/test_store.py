"""The store: migrations, active tables with compare-and-swap, atomic game records."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
import sqlite3
import threading
import urllib.parse
from contextlib import AsyncExitStack
from pathlib import Path

import asyncpg
import pytest

from data import open_backend, open_store, sqlite_url
from data.backend import Session, Work
from data.models import FaceShown, FinishedGame, GuildSettings, Participant, RoundResult, TableRow
from data.repository import Repository, StoreError, VersionConflict
from data.schema import migration_files, statements
from tests.data.databases import (
    POSTGRES_URL,
    Database,
    break_store,
    count,
    on_sqlite_writer,
    postgres_admin,
    postgres_of,
    postgres_schema,
    rating_of,
    with_settings,
)


def table_row(
    table_id: str = "t1", version: int = 1, status: str = "lobby", channel_id: int = 20
) -> TableRow:
    return TableRow(
        id=table_id, guild_id=10, channel_id=channel_id, host_id=1, game="cross", status=status,
        version=version, state={"seats": ["Ann"], "version": version},
        created_at=1.0, updated_at=1.0,
    )  # fmt: skip


async def written_raw(url: str, work: Work[None]) -> None:
    """``work`` written straight to the database, as an earlier release's code would have
    (no migration runs first)."""
    backend = await open_backend(url)
    try:
        await backend.write(work)
    finally:
        await backend.close()


async def migrated_before(migration: str, tx: Session) -> None:
    """The schema as a release before ``migration`` left it, recorded as applied."""
    await tx.execute(
        "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION)"
    )
    for name, sql in migration_files():
        if name >= migration:
            break
        for statement in statements(sql):
            await tx.execute(statement)
        await tx.execute("INSERT INTO schema_migrations VALUES (?, 0)", (name,))


def finished(game_id: str, participants: list[Participant], table_id: str = "t1") -> FinishedGame:
    return FinishedGame(
        id=game_id, table_id=table_id, guild_id=10, game="cross", finished_at=2.0,
        record={"actions": []}, rounds=[RoundResult(1, "domino", 0, [20, 0])],
        participants=participants,
    )  # fmt: skip


def against_a_computer(user_id: int, name: str = "") -> list[Participant]:
    """A member who beat a computer player."""
    return [
        Participant(seat=0, team=0, final_score=100, won=True, user_id=user_id, name=name),
        Participant(seat=1, team=1, final_score=20, won=False, computer_level="easy"),
    ]


async def test_migrations_from_empty_and_rerun_are_idempotent(database: Database) -> None:
    async with await open_store(database.url) as first:
        await first.create_table(table_row())
    async with await open_store(database.url) as again:
        assert await again.migrate() == []

        async def names(tx: Session) -> list[str]:
            return [r["name"] for r in await tx.fetch("SELECT name FROM schema_migrations")]

        assert sorted(await again.backend.read(names)) == [name for name, _ in migration_files()]
        assert [row.id for row in await again.load_active_tables()] == ["t1"]


async def test_every_commit_is_synced_to_disk_and_waits_out_other_writers(
    store: Repository,
) -> None:
    """SQLite: WAL, ``synchronous=FULL`` (2), foreign keys, a 5 s busy timeout.
    PostgreSQL: ``synchronous_commit`` on even where the URL turns it off, and a 5 s lock
    timeout."""
    if store.backend.kind == "sqlite":
        pragmas = [("journal_mode", "wal"), ("foreign_keys", 1), ("synchronous", 2)]
        for pragma, value in [*pragmas, ("busy_timeout", 5000)]:
            assert await on_sqlite_writer(store, f"PRAGMA {pragma}") == [(value,)], pragma
        return
    lax = with_settings(postgres_of(store).url, synchronous_commit="off")
    async with await open_store(lax) as other:

        async def settings(tx: Session) -> list[str]:
            return [(await tx.fetchrow(f"SHOW {name}"))[name]  # type: ignore[index]
                    for name in ("synchronous_commit", "lock_timeout")]  # fmt: skip

        assert await other.backend.read(settings) == ["on", "5s"]


async def test_a_database_that_is_none_is_refused_and_leaves_nothing_running(
    database: Database, tmp_path: Path
) -> None:
    """SQLite: a file of text (opening fails after the connection is made); PostgreSQL: a
    database the server does not have. The error reaches the caller and every thread
    started is stopped, so a bot pointed at the wrong place exits instead of hanging."""
    if database.kind == "sqlite":
        path = tmp_path / "notes.db"
        path.write_bytes(b"not a database, just some text that is long enough " * 20)
        url = sqlite_url(path)
    else:
        url = POSTGRES_URL.rsplit("/", 1)[0] + f"/no_such_database_{secrets.token_hex(4)}"
    before = set(threading.enumerate())
    with pytest.raises(StoreError, match=r"not a database|does not exist") as refused:
        await open_store(url)
    assert refused.value.fault == "unavailable"
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=5)
        assert not thread.is_alive(), f"{thread.name} still running after the failed open"
    if database.kind == "sqlite":
        assert path.read_bytes().startswith(b"not a database"), "the file is left as it was"


async def test_two_processes_starting_on_a_new_database_apply_each_migration_once(
    database: Database,
) -> None:
    """Both switch a new SQLite file to WAL at once (SQLite refuses one of them at once,
    which must try again), then race to claim each migration; on PostgreSQL both race to
    create the migrations' table itself."""
    for attempt in range(20 if database.kind == "sqlite" else 5):
        await _empty(database)
        opened = await asyncio.gather(
            open_store(database.url), open_store(database.url), return_exceptions=True
        )
        stores = [s for s in opened if isinstance(s, Repository)]
        try:
            assert len(stores) == 2, opened
            one, two = stores
            assert await count(one, "schema_migrations") == len(migration_files())
            await two.create_table(table_row(f"t{attempt}"))
            assert [row.id for row in await one.load_active_tables()] == [f"t{attempt}"]
        finally:
            for store in stores:
                await store.close()


async def test_a_process_started_during_a_long_migration_waits_for_it() -> None:
    """PostgreSQL: processes of a new release started together: the first holds the migrations'
    lock while it applies them (here, for longer than the store's lock timeout, set to
    10 ms), and the second waits for it and then starts, rather than failing to."""
    async with postgres_schema() as url:
        first, watching = await asyncpg.connect(url), await asyncpg.connect(url)
        try:
            migrating = first.transaction()
            await migrating.start()
            await first.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || $1, 0))",
                "schema_migrations",
            )
            name = f"second-{secrets.token_hex(4)}"
            second = asyncio.create_task(
                open_store(with_settings(url, lock_timeout="10", application_name=name))
            )
            waited = (
                "SELECT clock_timestamp() - query_start > interval '100 ms'"
                " FROM pg_stat_activity WHERE wait_event = 'advisory' AND application_name = $1"
            )
            # (asked outside the first's transaction, which would see one snapshot of it)
            while not second.done() and not await watching.fetchval(waited, name):
                await asyncio.sleep(0.01)  # until it has waited ten lock timeouts, or failed
            assert not second.done(), second.exception()
            await migrating.commit()
            async with await second as store:
                assert await count(store, "schema_migrations") == len(migration_files())
        finally:
            await first.close()
            await watching.close()


async def _empty(database: Database) -> None:
    """Make the database new again: no file, or an empty schema."""
    if database.kind == "sqlite":
        Path(database.url.removeprefix("sqlite:///")).unlink(missing_ok=True)
        return
    schema = dict(p.split("=") for p in database.url.split("?", 1)[1].split("&"))["search_path"]
    admin = await postgres_admin()
    try:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE; CREATE SCHEMA {schema}")
    finally:
        await admin.close()


async def test_a_database_from_an_older_release_is_brought_up_to_date(database: Database) -> None:
    """A database with only the first migration and an open table: start-up applies the
    later files, keeps the table, and what they add works."""
    first_name, first_sql = migration_files()[0]

    async def first_release(tx: Session) -> None:
        await tx.execute(
            "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION)"
        )
        for statement in statements(first_sql):
            await tx.execute(statement)
        await tx.execute("INSERT INTO schema_migrations VALUES (?, 0)", (first_name,))
        await tx.execute(
            "INSERT INTO active_tables VALUES ('t1', 10, 20, 1, 'cross', 'playing', 4, '{}',"
            " '{}', NULL, NULL, 1, 1)"
        )

    await written_raw(database.url, first_release)
    store = await open_store(database.url)
    try:
        assert await count(store, "schema_migrations") == len(migration_files())
        [table] = await store.load_active_tables()
        assert (table.id, table.version) == ("t1", 4)
        await store.record_finished_game(finished("g1", against_a_computer(5, name="Ann")))
        board = await store.leaderboard("cross", order="wins", user_id=5, shown_in=10)
        assert [(e.user_id, e.name) for e in board.entries] == [(5, "Ann")]
    finally:
        await store.close()


RECORD = {"format": "domino-record/1", "game": "cross", "seed": 7, "actions": [[0, "6-6"]]}
"""A game record as a table's state carries it (its match's ``record``)."""


async def test_a_table_stored_before_its_record_column_went_loads_from_its_state(
    database: Database,
) -> None:
    """Until migration 0009 a table's game record was written twice: in its state and in
    a column of its own. A table stored then loads after the upgrade with the record its
    state carries, and plays on."""
    state = {"seats": ["Ann"], "version": 4, "match": {"record": RECORD}}

    async def release_0008(tx: Session) -> None:
        await migrated_before("0009", tx)
        await tx.execute(
            "INSERT INTO active_tables (id, guild_id, channel_id, host_id, game, status,"
            " version, state, record, created_at, updated_at)"
            " VALUES ('t1', 10, 20, 1, 'cross', 'playing', 4, ?, ?, 1, 1)",
            (json.dumps(state), json.dumps(RECORD)),
        )

    await written_raw(database.url, release_0008)
    async with await open_store(database.url) as store:
        [table] = await store.load_active_tables()
        assert table.state == state
        await store.save_action(dataclasses.replace(table, version=5), 4, {"kind": "play"})
        again = await store.get_table("t1")
        assert again is not None and again.version == 5
        assert again.state["match"]["record"] == RECORD


async def test_a_game_stored_before_hints_had_a_column_was_unrated_for_its_hints(
    database: Database,
) -> None:
    """Until migration 0015 a game not rated was taken to have had hints (a rematch then
    had them too); the upgrade keeps that reading for those games."""

    async def release_0014(tx: Session) -> None:
        await migrated_before("0015", tx)
        for game_id, rated in (("hinted", 0), ("plain", 1)):
            await tx.execute(
                "INSERT INTO games (id, table_id, guild_id, game, finished_at, record, rated)"
                " VALUES (?, 't1', 10, 'cross', 2, ?, ?)",
                (game_id, json.dumps(RECORD), rated),
            )

    await written_raw(database.url, release_0014)
    async with await open_store(database.url) as store:
        hinted, plain = await store.get_game("hinted"), await store.get_game("plain")
        assert hinted is not None and hinted.hints and not hinted.rated
        assert plain is not None and not plain.hints and plain.rated


async def test_the_moves_the_computer_chose_for_a_member_are_kept_with_the_game(
    database: Database,
) -> None:
    """The coach leaves out the moves the computer chose in a member's seat: the game
    keeps their indices (migration 0016), and a game stored before it read as none."""

    async def release_0015(tx: Session) -> None:
        await migrated_before("0016", tx)
        await tx.execute(
            "INSERT INTO games (id, table_id, guild_id, game, finished_at, record)"
            " VALUES ('old', 't0', 10, 'cross', 1, ?)",
            (json.dumps(RECORD),),
        )

    await written_raw(database.url, release_0015)
    async with await open_store(database.url) as store:
        new = dataclasses.replace(finished("new", against_a_computer(5)), stood_in=(3, 7, 8))
        assert await store.record_finished_game(new)
        old, again = await store.get_game("old"), await store.get_game("new")
        assert old is not None and old.stood_in == ()
        assert again is not None and again.stood_in == (3, 7, 8)
        [listed], _ = await store.games_of(5, 10)
        assert listed.stood_in == (3, 7, 8)


async def test_a_tables_game_record_is_stored_once_in_its_state(store: Repository) -> None:
    """Every action rewrites the table's row; the game record in it is the one its state
    carries, never a second copy beside it."""
    row = dataclasses.replace(table_row(), state={"version": 1, "match": {"record": RECORD}})
    await store.create_table(row)
    moved = dataclasses.replace(row, version=2, state={"version": 2, "match": {"record": RECORD}})
    await store.save_action(moved, 1, {"kind": "play"})

    async def stored(tx: Session) -> list[str]:
        found = await tx.fetchrow("SELECT * FROM active_tables WHERE id = 't1'")
        assert found is not None
        return [str(value) for value in dict(found).values()]  # type: ignore[call-overload]

    assert sum(value.count("domino-record/1") for value in await store.backend.read(stored)) == 1


async def test_save_action_is_compare_and_swap_on_the_version(store: Repository) -> None:
    await store.create_table(table_row())
    await store.save_action(table_row(version=2), 1, {"kind": "join"})
    with pytest.raises(VersionConflict):
        await store.save_action(table_row(version=2), 1, {"kind": "join"})
    stored = await store.get_table("t1")
    assert stored is not None and stored.version == 2 and stored.state["version"] == 2
    assert await count(store, "table_actions") == 1


async def test_two_processes_writing_the_same_version_exactly_one_wins(
    database: Database,
) -> None:
    """Two stores on one database (as two bot processes would be): nothing but the
    database stands between them, and still only one of them moves the table on."""
    async with AsyncExitStack() as stack:
        one = await stack.enter_async_context(await open_store(database.url))
        two = await stack.enter_async_context(await open_store(database.url))
        await one.create_table(table_row())
        for version in range(2, 22):
            results = await asyncio.gather(
                one.save_action(table_row(version=version), version - 1, {"by": "one"}),
                two.save_action(table_row(version=version), version - 1, {"by": "two"}),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["NoneType", "VersionConflict"]
        stored = await two.get_table("t1")
        assert stored is not None and stored.version == 21
        assert await count(one, "table_actions") == 20


async def test_an_interrupted_save_leaves_the_previous_state(store: Repository) -> None:
    """The action fails to serialize after the table row was already updated inside the
    transaction: the update is rolled back with it."""
    await store.create_table(table_row())
    with pytest.raises(TypeError):
        await store.save_action(table_row(version=2), 1, {"not json": object()})
    stored = await store.get_table("t1")
    assert stored is not None and stored.version == 1
    assert await count(store, "table_actions") == 0
    await store.save_action(table_row(version=2), 1, {"kind": "join"})  # the store still works
    assert (await store.get_table("t1")).version == 2  # type: ignore[union-attr]


async def test_an_interrupted_game_record_leaves_no_trace(store: Repository) -> None:
    await store.create_table(table_row(status="playing"))
    twice = [Participant(seat=0, team=0, final_score=100, won=True, user_id=5)] * 2
    unique = (sqlite3.IntegrityError, asyncpg.UniqueViolationError)
    with pytest.raises(unique, match=r"(?i)unique"):
        await store.record_finished_game(finished("g1", twice))
    assert await store.get_stats(5) == []
    assert await rating_of(store, 5, "cross") is None
    assert await count(store, "games") == 0
    assert [row.id for row in await store.load_active_tables()] == ["t1"]


async def test_the_same_finished_game_recorded_twice_counts_once(store: Repository) -> None:
    seats = [
        Participant(seat=0, team=0, final_score=100, won=True, user_id=5, points=100),
        Participant(seat=1, team=1, final_score=30, won=False, user_id=6, points=30),
    ]
    assert await store.record_finished_game(finished("g1", seats)) is True
    ratings = [await rating_of(store, u, "cross") for u in (5, 6)]
    assert await store.record_finished_game(finished("g1", seats)) is False
    assert [await rating_of(store, u, "cross") for u in (5, 6)] == ratings
    [stats] = await store.get_stats(5)
    assert (stats.games, stats.wins, stats.points) == (1, 1, 100)
    assert await count(store, "games") == 1


async def test_the_last_action_and_its_finished_game_are_one_transaction(
    store: Repository,
) -> None:
    await store.create_table(table_row(status="playing"))
    winner = against_a_computer(5)
    done = table_row(version=2, status="finished")
    with pytest.raises(VersionConflict):  # a stale writer records no game either
        await store.save_action(done, 0, {"kind": "play"}, finished=finished("g1", winner))
    assert await store.get_stats(5) == [] and await count(store, "games") == 0
    await store.save_action(done, 1, {"kind": "play"}, finished=finished("g1", winner))
    assert await store.load_active_tables() == []
    [stats] = await store.get_stats(5)
    assert stats.wins == 1 and await rating_of(store, 5, "cross") is not None


async def test_load_active_tables_returns_the_open_ones_intact(store: Repository) -> None:
    for channel, (table_id, status) in enumerate(
        [("a", "lobby"), ("b", "playing"), ("c", "finished"), ("d", "cancelled")]
    ):
        await store.create_table(table_row(table_id, status=status, channel_id=channel))
    await store.set_shown("b", "discord", 12345, 1)
    await store.set_shown("b", "discord", None, 2)
    await store.flush()
    rows = {row.id: row for row in await store.load_active_tables()}
    assert set(rows) == {"a", "b"}
    assert rows["b"].state == {"seats": ["Ann"], "version": 1}
    assert rows["b"].shown == {"discord": FaceShown(2, 12345)} and rows["a"].shown == {}


async def test_the_closed_tables_whose_end_a_face_has_not_shown_are_found(
    store: Repository,
) -> None:
    """A table's end stored but not shown by a face (the bot stopped between the two),
    and closed since the time asked: it is handed back after a restart; an end each
    face shows, an open table, or one closed before that time is not."""
    tables = [("open", "playing", 2), ("shown", "finished", 3), ("unshown", "finished", 3),
              ("half", "cancelled", 4), ("none", "cancelled", 2)]  # fmt: skip
    for channel, (table_id, status, version) in enumerate(tables):
        row = dataclasses.replace(
            table_row(table_id, version, status, channel), updated_at=100.0 + channel
        )
        await store.create_table(row)
        await store.set_shown(table_id, "discord", 700 + channel, version - 1)
    await store.set_shown("shown", "discord", None, 3)
    await store.set_shown("shown", "browser", None, 3)
    await store.set_shown("half", "discord", None, 4)
    await store.flush()
    rows = {row.id: row for row in await store.load_unshown_ends(["browser", "discord"], 101)}
    assert set(rows) == {"unshown", "half", "none"}
    assert rows["unshown"].shown == {"discord": FaceShown(2, 702)}
    assert rows["half"].shown == {"discord": FaceShown(4, 703)}, "the browser has not shown it"
    assert {row.id for row in await store.load_unshown_ends(["discord"], 103)} == {"none"}
    assert await store.load_unshown_ends([], 0) == []


async def test_the_tables_closed_last_are_found_oldest_first(store: Repository) -> None:
    """What a face that keeps the last closed tables takes up after a restart: the
    newest closed ones, never an open one, in the order they closed."""
    closes = [("a", "finished", 30.0), ("b", "cancelled", 10.0), ("c", "playing", 50.0),
              ("d", "finished", 20.0), ("e", "lobby", 40.0)]  # fmt: skip
    for channel, (table_id, status, updated) in enumerate(closes):
        row = table_row(table_id, status=status, channel_id=channel)
        await store.create_table(dataclasses.replace(row, updated_at=updated))
    assert [row.id for row in await store.load_recent_ends(2)] == ["d", "a"]
    assert [row.id for row in await store.load_recent_ends(10)] == ["b", "d", "a"]


async def test_the_action_that_made_each_table_what_it_is_is_read_at_once(
    store: Repository,
) -> None:
    """What a face taking up the tables closed last shows of each: the action of its
    current version, not an older one; a table with no action since it opened has none."""
    await store.create_table(table_row("a", status="playing", channel_id=1))
    await store.create_table(table_row("b", status="playing", channel_id=2))
    for version in (2, 3):
        await store.save_action(table_row("a", version, "playing", 1), version - 1,
                                {"kind": "play", "n": version})  # fmt: skip
    assert await store.last_actions(["a", "b", "gone"]) == {"a": {"kind": "play", "n": 3}}
    assert await store.last_actions([]) == {}


async def test_a_note_of_a_table_deleted_meanwhile_is_dropped_and_the_rest_written(
    store: Repository,
) -> None:
    """A face notes showing a closed table's end just as forget-me (or pruning) deletes
    the table: that note is moot, and must not make the write of the others fail."""
    await store.create_table(table_row("gone", channel_id=1))
    await store.create_table(table_row("kept", channel_id=2))
    await store.set_shown("gone", "discord", 701, 1)
    await store.set_shown("kept", "discord", 702, 1)

    async def delete(tx: Session) -> None:
        await tx.execute("DELETE FROM active_tables WHERE id = 'gone'")

    await store.backend.write(delete)
    await store.flush()
    [row] = await store.load_active_tables()
    assert (row.id, row.shown) == ("kept", {"discord": FaceShown(1, 702)})


async def test_a_table_whose_state_is_not_json_comes_back_as_its_text(
    store: Repository,
) -> None:
    """A half-written or hand-edited state does not keep the other tables from loading:
    its text comes back for the service to set aside."""
    await store.create_table(table_row("t1", channel_id=1))
    await store.create_table(table_row("t2", channel_id=2))

    async def damage(tx: Session) -> None:
        await tx.execute("UPDATE active_tables SET state = '{\"seats\": [' WHERE id = 't1'")

    await store.backend.write(damage)
    damaged, intact = await store.load_active_tables()
    assert (damaged.id, damaged.state) == ("t1", '{"seats": [')
    assert intact.state == table_row("t2", channel_id=2).state
    assert (await store.get_table("t1")).state == '{"seats": ['  # type: ignore[union-attr]


async def test_a_finished_game_closes_its_table_and_counts_members_not_computers(
    store: Repository,
) -> None:
    await store.create_table(table_row(status="playing"))
    await store.record_finished_game(
        finished(
            "g1",
            [
                Participant(seat=0, team=0, final_score=104, won=True, user_id=5, rounds_won=3,
                            points=104, dominoes=2, blocked_wins=1, name="Ann"),
                Participant(seat=1, team=1, final_score=40, won=False, computer_level="hard",
                            name="Computer (hard)"),
            ],
        )
    )  # fmt: skip
    assert await store.load_active_tables() == []
    [here] = await store.get_stats(5, guild_id=10)
    [everywhere] = await store.get_stats(5)
    for stats in (here, everywhere):
        assert (stats.games, stats.wins, stats.rounds_won, stats.points) == (1, 1, 3, 104)
        assert (stats.dominoes, stats.blocked_wins) == (2, 1)
    for guild in (10, None):
        for order in ("rating", "wins", "points"):
            board = await store.leaderboard("cross", guild, order, min_games=1, shown_in=10)
            assert [(e.user_id, e.name) for e in board.entries] == [(5, "Ann")]
            assert board.total == 1
    assert await count(store, "player_stats") == 2  # this server and global, Ann's only
    assert await count(store, "ratings") == 1
    assert await count(store, "member_names") == 1


@pytest.mark.parametrize("damaged", ['{"cross": 1', "[150]", '{"cross": "150"}'])
async def test_a_servers_targets_that_do_not_read_are_none_and_the_rest_stand(
    store: Repository, damaged: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Edited by hand or half written: the server's tables open with each game's own
    target (and a resume that reads its settings goes on), the other settings as set."""
    await store.set_guild_settings(GuildSettings(7, 90, {"cross": 150}, True, "es-ES"))

    async def damage(tx: Session) -> None:
        await tx.execute(
            "UPDATE guild_settings SET default_targets = ? WHERE guild_id = 7", (damaged,)
        )

    await store.backend.write(damage)
    assert await store.get_guild_settings(7) == GuildSettings(7, 90, {}, True, "es-ES")
    assert "server 7: its default targets do not read" in caplog.text


async def test_guild_settings_default_and_update(store: Repository) -> None:
    assert await store.get_guild_settings(7) == GuildSettings(7, 120, {}, False)
    await store.set_guild_settings(GuildSettings(7, 60, {"cross": 150}, True))
    await store.set_guild_settings(GuildSettings(7, 90, {"cross": 150}, True))
    assert await store.get_guild_settings(7) == GuildSettings(7, 90, {"cross": 150}, True)


async def test_a_database_that_cannot_be_written_is_found_at_once(store: Repository) -> None:
    """A read-only database is named before any move depends on it (start-up checks)."""
    await store.check_writable()
    await break_store(store, "read-only")
    with pytest.raises(StoreError) as refused:
        await store.check_writable()
    assert refused.value.fault == "read-only"


async def test_a_read_only_server_is_refused_at_open(database: Database) -> None:
    """PostgreSQL that refuses writes (a standby, a read-only role or database): the
    store does not open, naming why. (SQLite's read-only file cannot be made where the
    tests run as root, who may write any file; ``check_writable`` is tested above.)"""
    if database.kind == "sqlite":
        pytest.skip("root may write any file: a read-only SQLite file cannot be made here")
    async with await open_store(database.url):
        pass  # the schema, made while writable
    with pytest.raises(StoreError) as refused:
        await open_store(with_settings(database.url, default_transaction_read_only="on"))
    assert refused.value.fault == "read-only"


async def test_a_database_that_cannot_be_reached_is_refused_by_name(
    database: Database, tmp_path: Path
) -> None:
    """SQLite: a path through a file where a folder should be; PostgreSQL: a port where
    no server listens."""
    if database.kind == "sqlite":
        blocked = tmp_path / "a-file"
        blocked.write_text("not a folder")
        url = sqlite_url(blocked / "domino.db")
    else:
        url = "postgresql://postgres@127.0.0.1:1/test"
    with pytest.raises(StoreError) as refused:
        await open_store(url)
    assert refused.value.fault == "unavailable"


@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        ({"port": "abc"}, "abc"),
        ({"port": "99999"}, "port"),
        ({"lock_timeout": "banana"}, "lock_timeout"),
        ({"no_such_setting": "1"}, "no_such_setting"),
    ],
)
async def test_a_postgresql_url_the_driver_or_server_refuses_is_refused_by_name(
    wrong: dict[str, str], said: str
) -> None:
    """A URL an operator wrote wrong (a port that is no number, or out of range; a
    setting the server does not take, or a value it refuses) is the database being
    unusable, said in the driver's or the server's words, not a traceback. Needs the
    test PostgreSQL server (the settings are the server's to refuse)."""
    async with postgres_schema() as url:
        if "port" in wrong:
            parts = urllib.parse.urlsplit(url)
            netloc = f"{parts.username}@{parts.hostname}:{wrong['port']}"
            url = parts._replace(netloc=netloc).geturl()
        else:
            url = with_settings(url, **wrong)
        with pytest.raises(StoreError, match=said) as refused:
            await open_store(url)
    assert refused.value.fault == "unavailable"


async def test_the_actions_a_face_has_not_seen_are_read_back_in_order(
    store: Repository,
) -> None:
    """The outbox: what was stored after the version the face last saw."""
    await store.create_table(table_row(status="playing"))
    for version in (2, 3, 4):
        await store.save_action(table_row(version=version, status="playing"), version - 1,
                                {"kind": "play", "n": version})  # fmt: skip
    await store.set_shown("t1", "discord", 99, 2)
    assert [a["n"] for a in await store.actions_since("t1", 2)] == [3, 4]
    await store.flush()
    [row] = await store.load_active_tables()
    assert row.shown == {"discord": FaceShown(2, 99)}


async def test_what_two_faces_show_is_stored_apart_and_survives_a_restart(
    database: Database, store: Repository
) -> None:
    """Each face's version (and message) is its own: one face noting a table never
    moves another's on or back, nor takes its message."""
    await store.create_table(table_row(status="playing", version=5))
    await store.set_shown("t1", "discord", 555, 4)
    await store.set_shown("t1", "browser", None, 1)
    await store.flush()
    await store.set_shown("t1", "discord", None, 5)
    await store.set_shown("t1", "browser", None, 2)
    await store.save_action(table_row(version=6, status="playing"), 5, {"kind": "play"})
    await store.set_shown("t1", "browser", None, 1)  # older than what it noted: ignored
    await store.close()
    async with await open_store(database.url) as again:
        [row] = await again.load_active_tables()
        assert row.shown == {"discord": FaceShown(5, 555), "browser": FaceShown(2, None)}


async def test_what_the_channel_was_shown_before_faces_were_named_is_the_discord_faces(
    database: Database,
) -> None:
    """Until migration 0010 the one face's notes were two columns of the table's row: a
    table stored then loads with them as the Discord face's; one stored before 0005
    noted none and counts as shown up to its version (nothing is posted again)."""

    async def release_0009(tx: Session) -> None:
        await migrated_before("0010", tx)
        for table_id, channel, message, shown in (("t1", 20, 555, 3), ("t2", 21, None, None)):
            await tx.execute(
                "INSERT INTO active_tables (id, guild_id, channel_id, host_id, game, status,"
                " version, state, message_id, announced_version, created_at, updated_at)"
                " VALUES (?, 10, ?, 1, 'cross', 'playing', 4, ?, ?, ?, 1, 1)",
                (table_id, channel, json.dumps({"version": 4}), message, shown),
            )

    await written_raw(database.url, release_0009)
    async with await open_store(database.url) as store:
        rows = {row.id: row for row in await store.load_active_tables()}
        assert rows["t1"].shown == {"discord": FaceShown(3, 555)}
        assert rows["t2"].shown == {"discord": FaceShown(4, None)}
        await store.save_action(dataclasses.replace(rows["t1"], version=5), 4, {"kind": "play"})
        again = await store.get_table("t1")
        assert again is not None and again.version == 5
        assert again.shown == {"discord": FaceShown(3, 555)}
