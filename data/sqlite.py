"""The aiosqlite store: WAL, foreign keys, a busy timeout, one statement at a time.

Durability: ``synchronous=FULL``. Under WAL, ``NORMAL`` only syncs the log at checkpoints,
so a power cut or an OS crash can lose the last commits, moves that the bot has already
announced in the channel; the table would then come back older than what players saw,
and their buttons would name versions the store never kept. ``FULL`` syncs the log at
every commit, so a saved action survives those too. It costs one fsync per move (a
fraction of a millisecond on the benchmark machine, see ``benchmarks/store.py``), which is
nothing next to a human's pace of play.

Every statement runs under one asyncio lock, reads included: the store has one
connection, and without the lock a read started by one task would run inside another
task's open transaction and see writes that may yet be rolled back.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from data.models import (
    GLOBAL,
    FinishedGame,
    GuildSettings,
    Leaderboard,
    LeaderboardEntry,
    Stats,
    TableRow,
)
from data.ratings import Rating, ordinal, rate
from data.repository import ChannelInUse, StoreError, VersionConflict

DEFAULT_DATABASE_PATH = Path("var/domino.db")
BUSY_TIMEOUT_SECONDS = 5.0
"""How long a statement waits for another connection's lock before failing."""
OPEN_STATUSES = ("lobby", "playing")
STAT_COLUMNS = ("games", "wins", "rounds_won", "points", "dominoes", "blocked_wins")
BOARD_ORDERS = {
    "rating": "s.rating",
    "wins": "s.wins",
    "points": "s.points",
}
"""Leaderboard orders: a fixed whitelist of columns, never text from a user."""
_BOARD_WHERE = " WHERE s.game = ? AND s.guild_id = ? AND s.games >= ?"
_BOARD_ROWS = (
    "SELECT s.user_id, s.rating, s.games, s.wins, s.points, n.name, {column} AS score"
    " FROM player_stats s LEFT JOIN player_names n ON n.user_id = s.user_id"
)
_BOARD_COUNT = "SELECT COUNT(*) AS n FROM player_stats s"
"""Counts read the board's index alone: no join with the names they do not show."""


_FAULTS = {
    "SQLITE_FULL": "full",
    "SQLITE_BUSY": "busy",
    "SQLITE_LOCKED": "busy",
    "SQLITE_READONLY": "read-only",
}


def store_error(error: sqlite3.DatabaseError) -> StoreError:
    """SQLite's error as the store's :class:`StoreError`, by SQLite's own error name
    (``SQLITE_READONLY_DBMOVED`` and kin fall under their family)."""
    name = getattr(error, "sqlite_errorname", "") or ""
    family = "_".join(name.split("_")[:2])
    return StoreError(_FAULTS.get(family, "unavailable"), str(error))


async def _use_wal(connection: aiosqlite.Connection) -> None:
    """Switch the file to WAL, trying again while another connection is switching it.

    The switch reads the file's header and then upgrades to the write lock to change it.
    SQLite refuses such an upgrade at once ("database is locked", without waiting out the
    busy timeout) while another connection holds a read lock, since two readers each
    waiting for the other to let go would wait forever. Two processes starting on a new
    file at the same moment can both be refused; trying again after the other has
    switched finds the file in WAL already, which needs no write."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + BUSY_TIMEOUT_SECONDS
    while True:
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            busy = error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY
            if not busy or loop.time() >= give_up:
                raise
        await asyncio.sleep(0.01)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class SqliteStore:
    """Implements :class:`data.repository.Repository` over one aiosqlite connection."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str = DEFAULT_DATABASE_PATH) -> SqliteStore:
        """Open (creating the file and its folder) and bring the schema up to date.

        The busy timeout is given to the connect itself, so it holds from the first
        statement. If anything after connecting fails, the connection is closed before the
        error goes on: its worker thread is not a daemon, and one left running would keep
        the process from ever exiting.

        A database that cannot be written is refused here, with :class:`StoreError`
        naming why, rather than at the first move a player makes."""
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            connection = await aiosqlite.connect(
                str(path), isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS
            )
        except OSError as error:
            raise StoreError("unavailable", str(error)) from error
        except sqlite3.DatabaseError as error:
            raise store_error(error) from error
        try:
            connection.row_factory = aiosqlite.Row
            await _use_wal(connection)
            await connection.execute("PRAGMA synchronous=FULL")
            await connection.execute("PRAGMA foreign_keys=ON")
            store = cls(connection)
            await store.migrate()
            await store.check_writable()
        except sqlite3.DatabaseError as error:
            await connection.close()
            raise store_error(error) from error
        except BaseException:
            await connection.close()
            raise
        return store

    async def check_writable(self) -> None:
        """Write and roll back, so a read-only file (or folder) is found before any
        player's move depends on it: StoreError, ``read-only``, if it cannot be written."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    await self._db.execute(
                        "UPDATE schema_migrations SET applied_at = applied_at"
                        " WHERE name = (SELECT MAX(name) FROM schema_migrations)"
                    )
                finally:
                    await self._db.execute("ROLLBACK")
            except sqlite3.DatabaseError as error:
                raise store_error(error) from error

    async def close(self) -> None:
        """Close the connection and stop its worker thread; a second call does nothing."""
        await self._db.close()

    async def __aenter__(self) -> SqliteStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction at a time, rolled back whole if anything fails, the
        commit included (else the connection would stay inside the failed transaction).
        SQLite's own failures leave as :class:`StoreError`, naming the fault."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN")
                try:
                    yield self._db
                    await self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    raise
            except (sqlite3.IntegrityError, sqlite3.ProgrammingError):
                raise  # our own mistake, not a fault of the database
            except sqlite3.DatabaseError as error:
                raise store_error(error) from error

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """Reads wait for any open transaction, so they see only committed data, and the
        queries inside one ``_reading`` block all see the same data."""
        async with self._lock:
            try:
                yield self._db
            except (sqlite3.IntegrityError, sqlite3.ProgrammingError):
                raise
            except sqlite3.DatabaseError as error:
                raise store_error(error) from error

    # -- migrations -----------------------------------------------------------------------

    async def migrate(self) -> list[str]:
        """Apply the numbered files of ``data/migrations`` not yet applied, in order, each
        in its own transaction. Returns the names applied now.

        Each missing file is first claimed by inserting its name: the insert waits for the
        write lock and then sees every earlier commit, so a second process starting at the
        same moment skips a file the first one has applied instead of failing halfway."""
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations"
            " (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
        )
        async with self._reading() as db, db.execute("SELECT name FROM schema_migrations") as cur:
            done = {row["name"] async for row in cur}
        applied = []
        for name, script in migration_files():
            if name in done:
                continue
            async with self._transaction() as db:
                claim = await db.execute(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)"
                    " ON CONFLICT (name) DO NOTHING",
                    (name, time.time()),
                )
                if claim.rowcount == 0:
                    continue
                for statement in _statements(script):
                    await db.execute(statement)
            applied.append(name)
        return applied

    # -- active tables ----------------------------------------------------------------------

    async def create_table(self, row: TableRow) -> None:
        """The unique index ``active_tables_open_channel`` refuses a second open table in
        one channel, whoever writes it (another task, or another process on this file)."""
        async with self._transaction() as db:
            try:
                await db.execute(
                    "INSERT INTO active_tables (id, guild_id, channel_id, host_id, game, status,"
                    " version, state, record, deadline, message_id, announced_version,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        row.id, row.guild_id, row.channel_id, row.host_id, row.game, row.status,
                        row.version, _dumps(row.state), _dumps(row.record), row.deadline,
                        row.message_id, row.announced_version, row.created_at, row.updated_at,
                    ),
                )  # fmt: skip
            except sqlite3.IntegrityError as error:
                if "channel_id" not in str(error):
                    raise
                raise ChannelInUse(f"channel {row.channel_id} has an open table") from None

    async def save_action(
        self,
        row: TableRow,
        expected_version: int,
        action: dict[str, Any],
        finished: FinishedGame | None = None,
    ) -> None:
        """The compare-and-swap is the ``WHERE version = ?`` of one UPDATE: the database
        checks and writes in one step under its write lock, so of two writers holding the
        same version (two tasks, or two processes on one file) exactly one changes the row.
        ``finished``: the game this action ended, recorded in the same transaction."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE active_tables SET channel_id = ?, status = ?, version = ?, state = ?,"
                " record = ?, deadline = ?, updated_at = ? WHERE id = ? AND version = ?",
                (
                    row.channel_id, row.status, row.version, _dumps(row.state),
                    _dumps(row.record), row.deadline, row.updated_at, row.id, expected_version,
                ),
            )  # fmt: skip
            if cursor.rowcount != 1:
                raise VersionConflict(f"table {row.id} is no longer at version {expected_version}")
            await db.execute(
                "INSERT INTO table_actions (table_id, version, action, at) VALUES (?, ?, ?, ?)",
                (row.id, row.version, _dumps(action), row.updated_at),
            )
            if finished is not None:
                await _insert_finished_game(db, finished)

    async def set_announced(self, table_id: str, message_id: int | None, version: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE active_tables SET message_id = COALESCE(?, message_id),"
                " announced_version = ? WHERE id = ?",
                (message_id, version, table_id),
            )

    async def actions_since(self, table_id: str, version: int) -> list[dict[str, Any]]:
        async with (
            self._reading() as db,
            db.execute(
                "SELECT action FROM table_actions WHERE table_id = ? AND version > ?"
                " ORDER BY version",
                (table_id, version),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [json.loads(row["action"]) for row in rows]

    async def close_unreadable(self, table_id: str, version: int, reason: str) -> None:
        now = time.time()
        async with self._transaction() as db:
            await db.execute(
                "UPDATE active_tables SET status = 'cancelled', version = ?, updated_at = ?"
                " WHERE id = ? AND version = ?",
                (version + 1, now, table_id, version),
            )
            await db.execute(
                "INSERT INTO table_actions (table_id, version, action, at) VALUES (?, ?, ?, ?)",
                (table_id, version + 1, _dumps({"kind": "unreadable", "error": reason}), now),
            )

    async def load_active_tables(self) -> list[TableRow]:
        async with (
            self._reading() as db,
            db.execute(
                "SELECT * FROM active_tables WHERE status IN (?, ?) ORDER BY created_at",
                OPEN_STATUSES,
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [_table_row(row) for row in rows]

    async def get_table(self, table_id: str) -> TableRow | None:
        async with (
            self._reading() as db,
            db.execute("SELECT * FROM active_tables WHERE id = ?", (table_id,)) as cursor,
        ):
            row = await cursor.fetchone()
        return _table_row(row) if row else None

    # -- finished games ---------------------------------------------------------------------

    async def record_finished_game(self, game: FinishedGame) -> bool:
        """The game, its rounds, stats and ratings, in one transaction. Recording a game
        id already stored changes nothing and returns False, so a retry after a doubtful
        failure can never count a game, or move a rating, twice."""
        async with self._transaction() as db:
            return await _insert_finished_game(db, game)

    async def get_rating(self, user_id: int, game: str) -> float | None:
        """The player's rating ordinal for one game kind; None before their first game."""
        async with (
            self._reading() as db,
            db.execute(
                "SELECT ordinal FROM ratings WHERE user_id = ? AND game = ?", (user_id, game)
            ) as cursor,
        ):
            row = await cursor.fetchone()
        return row["ordinal"] if row else None

    # -- stats and leaderboards ---------------------------------------------------------------

    async def get_stats(
        self, user_id: int, game: str | None = None, guild_id: int | None = None
    ) -> list[Stats]:
        """A player's totals per game kind, in one server or (guild_id None) everywhere."""
        query = "SELECT * FROM player_stats WHERE user_id = ? AND guild_id = ?"
        params: list[Any] = [user_id, GLOBAL if guild_id is None else guild_id]
        if game is not None:
            query += " AND game = ?"
            params.append(game)
        async with (
            self._reading() as db,
            db.execute(query + " ORDER BY game", params) as cursor,
        ):
            rows = await cursor.fetchall()
        return [
            Stats(row["user_id"], row["game"], row["guild_id"], *(row[c] for c in STAT_COLUMNS))
            for row in rows
        ]

    async def leaderboard(
        self,
        game: str,
        guild_id: int | None = None,
        order: str = "rating",
        page: int = 0,
        page_size: int = 10,
        min_games: int = 3,
        user_id: int | None = None,
    ) -> Leaderboard:
        """Players of ``game`` in one server (or everywhere), best first: by the global
        rating (players with at least ``min_games`` games there), wins or points. Ties go
        to more games, then the older account (lower id), so the order is total and a rank
        is a position: the caller's rank, counted apart, always matches the pages."""
        if order not in BOARD_ORDERS:
            raise ValueError(f"unknown leaderboard order {order!r}: one of {list(BOARD_ORDERS)}")
        column = BOARD_ORDERS[order]
        scope = GLOBAL if guild_id is None else guild_id
        floor = min_games if order == "rating" else 1
        params = (game, scope, floor)
        rows_sql = _BOARD_ROWS.format(column=column) + _BOARD_WHERE
        async with self._reading() as db:
            async with db.execute(_BOARD_COUNT + _BOARD_WHERE, params) as cursor:
                counted = await cursor.fetchone()
            assert counted is not None, "COUNT(*) always returns one row"
            total = counted["n"]
            async with db.execute(
                f"{rows_sql} ORDER BY {column} DESC, s.games DESC, s.user_id LIMIT ? OFFSET ?",
                (*params, page_size, page * page_size),
            ) as cursor:
                rows = await cursor.fetchall()
            entries = [_entry(page * page_size + i + 1, row) for i, row in enumerate(rows)]
            me = None
            if user_id is not None:
                me = next((e for e in entries if e.user_id == user_id), None)
                if me is None:
                    me = await _rank_of(db, column, params, user_id)
        return Leaderboard(entries, total, me)

    # -- guild settings -------------------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        async with (
            self._reading() as db,
            db.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor,
        ):
            row = await cursor.fetchone()
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(
            guild_id,
            row["turn_timer_seconds"],
            json.loads(row["default_targets"]),
            bool(row["use_threads"]),
            row["language"],
        )

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings"
                " (guild_id, turn_timer_seconds, default_targets, use_threads, language)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " turn_timer_seconds = excluded.turn_timer_seconds,"
                " default_targets = excluded.default_targets, use_threads = excluded.use_threads,"
                " language = excluded.language",
                (settings.guild_id, settings.turn_timer_seconds,
                 _dumps(settings.default_targets), int(settings.use_threads), settings.language),
            )  # fmt: skip


def migration_files() -> list[tuple[str, str]]:
    """(name, SQL) of every file in ``data/migrations``, in the order they apply."""
    folder = resources.files("data") / "migrations"
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".sql")), key=lambda f: f.name)
    return [(f.name, f.read_text()) for f in files]


async def _insert_finished_game(db: aiosqlite.Connection, game: FinishedGame) -> bool:
    """Write a finished game inside the caller's transaction: the game, rounds and seats;
    members' stats in its server and globally; their last names; their ratings, each
    computed once from the ratings stored before this game. Computer seats are kept with
    the game but get no stats, name or rating, so they never reach a leaderboard. False,
    with nothing written, if this game id is already stored."""
    claim = await db.execute(
        "INSERT INTO games (id, table_id, guild_id, game, finished_at, record)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
        (game.id, game.table_id, game.guild_id, game.game, game.finished_at,
         _dumps(game.record)),
    )  # fmt: skip
    if claim.rowcount == 0:
        return False
    await db.executemany(
        "INSERT INTO game_rounds (game_id, number, reason, winner, points) VALUES (?, ?, ?, ?, ?)",
        [(game.id, r.number, r.reason, r.winner, _dumps(r.points)) for r in game.rounds],
    )
    await db.executemany(
        "INSERT INTO game_seats (game_id, seat, team, user_id, computer_level,"
        " final_score, won, rounds_won, points, dominoes, blocked_wins)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game.id, p.seat, p.team, p.user_id, p.computer_level, p.final_score,
             int(p.won), p.rounds_won, p.points, p.dominoes, p.blocked_wins)
            for p in game.participants
        ],
    )  # fmt: skip
    members = [p for p in game.participants if p.user_id is not None]
    if members:
        await db.executemany(
            "INSERT INTO player_stats (user_id, game, guild_id, games, wins,"
            " rounds_won, points, dominoes, blocked_wins, rating)"
            " VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, 0)"
            " ON CONFLICT (user_id, game, guild_id) DO UPDATE SET"
            " games = player_stats.games + 1,"
            " wins = player_stats.wins + excluded.wins,"
            " rounds_won = player_stats.rounds_won + excluded.rounds_won,"
            " points = player_stats.points + excluded.points,"
            " dominoes = player_stats.dominoes + excluded.dominoes,"
            " blocked_wins = player_stats.blocked_wins + excluded.blocked_wins",
            [
                (p.user_id, game.game, guild, int(p.won), p.rounds_won, p.points,
                 p.dominoes, p.blocked_wins)
                for p in members
                for guild in (game.guild_id, GLOBAL)
            ],
        )  # fmt: skip
        await db.executemany(
            "INSERT INTO player_names (user_id, name, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
            " updated_at = excluded.updated_at",
            [(p.user_id, p.name, game.finished_at) for p in members if p.name],
        )
        current = await _ratings(
            db, game.game, [p.user_id for p in members if p.user_id is not None]
        )
        for user_id, rating in rate(game.participants, current).items():
            await db.execute(
                "INSERT INTO ratings (user_id, game, mu, sigma, ordinal) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id, game) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma, ordinal = excluded.ordinal",
                (user_id, game.game, rating[0], rating[1], ordinal(rating)),
            )
            await db.execute(
                "UPDATE player_stats SET rating = ? WHERE user_id = ? AND game = ?",
                (ordinal(rating), user_id, game.game),
            )
    await db.execute("UPDATE active_tables SET status = 'finished' WHERE id = ?", (game.table_id,))
    return True


async def _ratings(db: aiosqlite.Connection, game: str, users: list[int]) -> dict[int, Rating]:
    marks = ", ".join("?" for _ in users)
    async with db.execute(
        f"SELECT user_id, mu, sigma FROM ratings WHERE game = ? AND user_id IN ({marks})",
        (game, *users),
    ) as cursor:
        return {row["user_id"]: (row["mu"], row["sigma"]) async for row in cursor}


async def _rank_of(
    db: aiosqlite.Connection, column: str, params: tuple[Any, ...], user_id: int
) -> LeaderboardEntry | None:
    """The player's row with its rank: one plus how many rows sort before it under the
    board's full order (score, then games, then user id). None if they do not qualify."""
    rows_sql = _BOARD_ROWS.format(column=column) + _BOARD_WHERE
    async with db.execute(f"{rows_sql} AND s.user_id = ?", (*params, user_id)) as cursor:
        mine = await cursor.fetchone()
    if mine is None:
        return None
    before = (
        f" AND ({column} > ? OR ({column} = ? AND s.games > ?)"
        f" OR ({column} = ? AND s.games = ? AND s.user_id < ?))"
    )
    score, games = mine["score"], mine["games"]
    async with db.execute(
        _BOARD_COUNT + _BOARD_WHERE + before,
        (*params, score, score, games, score, games, user_id),
    ) as cursor:
        counted = await cursor.fetchone()
    assert counted is not None, "COUNT(*) always returns one row"
    ahead = counted["n"]
    return _entry(ahead + 1, mine)


def _statements(script: str) -> list[str]:
    """Split a migration file into statements (no semicolons inside our SQL)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _table_row(row: aiosqlite.Row) -> TableRow:
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        game=row["game"],
        status=row["status"],
        version=row["version"],
        state=json.loads(row["state"]),
        record=json.loads(row["record"]),
        deadline=row["deadline"],
        message_id=row["message_id"],
        announced_version=row["announced_version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _entry(rank: int, row: aiosqlite.Row) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank,
        row["user_id"],
        row["rating"],
        row["games"],
        row["wins"],
        row["points"],
        row["name"] or "",
    )
