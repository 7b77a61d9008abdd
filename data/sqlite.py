"""The aiosqlite store: WAL, foreign keys, a busy timeout, one writer at a time.

``synchronous=NORMAL`` under WAL keeps every committed transaction through a crash of the
process (the operating system holds the log); only a power cut can lose the last commits.
That is the durability a game bot needs, at a fraction of a full sync's cost per move.
"""

from __future__ import annotations

import asyncio
import json
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
from data.repository import VersionConflict

DEFAULT_DATABASE_PATH = Path("var/domino.db")
OPEN_STATUSES = ("lobby", "playing")
STAT_COLUMNS = ("games", "wins", "rounds_won", "points", "dominoes", "blocked_wins")
BOARD_ORDERS = {
    "rating": "s.rating",
    "wins": "s.wins",
    "points": "s.points",
}
"""Leaderboard orders: a fixed whitelist of columns, never text from a user."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class SqliteStore:
    """Implements :class:`data.repository.Repository` over one aiosqlite connection."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str = DEFAULT_DATABASE_PATH) -> SqliteStore:
        """Open (creating the file and its folder) and bring the schema up to date."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = aiosqlite.Row
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=NORMAL",
            "PRAGMA foreign_keys=ON",
            "PRAGMA busy_timeout=5000",
        ):
            await connection.execute(pragma)
        store = cls(connection)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> SqliteStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction at a time; rolled back whole if anything fails."""
        async with self._write:
            await self._db.execute("BEGIN")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    # -- migrations -----------------------------------------------------------------------

    async def migrate(self) -> list[str]:
        """Apply the numbered files of ``data/migrations`` not yet applied, in order, each
        in its own transaction. Returns the names applied now."""
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations"
            " (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
        )
        async with self._db.execute("SELECT name FROM schema_migrations") as cursor:
            done = {row["name"] async for row in cursor}
        applied = []
        folder = resources.files("data") / "migrations"
        for item in sorted(folder.iterdir(), key=lambda f: f.name):
            if not item.name.endswith(".sql") or item.name in done:
                continue
            async with self._transaction() as db:
                for statement in _statements(item.read_text()):
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                    (item.name, time.time()),
                )
            applied.append(item.name)
        return applied

    # -- active tables ----------------------------------------------------------------------

    async def create_table(self, row: TableRow) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO active_tables (id, guild_id, channel_id, host_id, game, status,"
                " version, state, record, deadline, message_id, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id, row.guild_id, row.channel_id, row.host_id, row.game, row.status,
                    row.version, _dumps(row.state), _dumps(row.record), row.deadline,
                    row.message_id, row.created_at, row.updated_at,
                ),
            )  # fmt: skip

    async def save_action(
        self, row: TableRow, expected_version: int, action: dict[str, Any]
    ) -> None:
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

    async def set_message_id(self, table_id: str, message_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE active_tables SET message_id = ? WHERE id = ?", (message_id, table_id)
            )

    async def load_active_tables(self) -> list[TableRow]:
        async with self._db.execute(
            "SELECT * FROM active_tables WHERE status IN (?, ?) ORDER BY created_at",
            OPEN_STATUSES,
        ) as cursor:
            return [_table_row(row) async for row in cursor]

    async def get_table(self, table_id: str) -> TableRow | None:
        async with self._db.execute(
            "SELECT * FROM active_tables WHERE id = ?", (table_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return _table_row(row) if row else None

    # -- finished games ---------------------------------------------------------------------

    async def record_finished_game(self, game: FinishedGame) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO games (id, table_id, guild_id, game, finished_at, record)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game.id, game.table_id, game.guild_id, game.game, game.finished_at,
                 _dumps(game.record)),
            )  # fmt: skip
            await db.executemany(
                "INSERT INTO game_rounds (game_id, number, reason, winner, points)"
                " VALUES (?, ?, ?, ?, ?)",
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
            for p in members:
                for guild in (game.guild_id, GLOBAL):
                    await db.execute(
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
                        (p.user_id, game.game, guild, int(p.won), p.rounds_won, p.points,
                         p.dominoes, p.blocked_wins),
                    )  # fmt: skip
            await db.executemany(
                "INSERT INTO player_names (user_id, name, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
                " updated_at = excluded.updated_at",
                [(p.user_id, p.name, game.finished_at) for p in members if p.name],
            )
            if members:
                users = [p.user_id for p in members if p.user_id is not None]
                current = await self._ratings(db, game.game, users)
                for user_id, rating in rate(game.participants, current).items():
                    await db.execute(
                        "INSERT INTO ratings (user_id, game, mu, sigma, ordinal)"
                        " VALUES (?, ?, ?, ?, ?)"
                        " ON CONFLICT (user_id, game) DO UPDATE SET mu = excluded.mu,"
                        " sigma = excluded.sigma, ordinal = excluded.ordinal",
                        (user_id, game.game, rating[0], rating[1], ordinal(rating)),
                    )
                    await db.execute(
                        "UPDATE player_stats SET rating = ? WHERE user_id = ? AND game = ?",
                        (ordinal(rating), user_id, game.game),
                    )
            await db.execute(
                "UPDATE active_tables SET status = 'finished' WHERE id = ?", (game.table_id,)
            )

    @staticmethod
    async def _ratings(db: aiosqlite.Connection, game: str, users: list[int]) -> dict[int, Rating]:
        marks = ", ".join("?" for _ in users)
        async with db.execute(
            f"SELECT user_id, mu, sigma FROM ratings WHERE game = ? AND user_id IN ({marks})",
            (game, *users),
        ) as cursor:
            return {row["user_id"]: (row["mu"], row["sigma"]) async for row in cursor}

    async def get_rating(self, user_id: int, game: str) -> float | None:
        async with self._db.execute(
            "SELECT ordinal FROM ratings WHERE user_id = ? AND game = ?", (user_id, game)
        ) as cursor:
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
        async with self._db.execute(query + " ORDER BY game", params) as cursor:
            return [
                Stats(row["user_id"], row["game"], row["guild_id"], *(row[c] for c in STAT_COLUMNS))
                async for row in cursor
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
        rating (players with at least ``min_games`` games there), wins or points; ties go
        to more games, then the older account (lower id)."""
        column = BOARD_ORDERS[order]
        scope = GLOBAL if guild_id is None else guild_id
        floor = min_games if order == "rating" else 1
        base = (
            " FROM player_stats s LEFT JOIN player_names n ON n.user_id = s.user_id"
            " WHERE s.game = ? AND s.guild_id = ? AND s.games >= ?"
        )
        params = (game, scope, floor)
        fields = f"SELECT s.user_id, s.rating, s.games, s.wins, s.points, n.name, {column} AS score"
        async with self._db.execute(f"SELECT COUNT(*) AS n{base}", params) as cursor:
            total = (await cursor.fetchone())["n"]
        async with self._db.execute(
            f"{fields}{base} ORDER BY {column} DESC, s.games DESC, s.user_id LIMIT ? OFFSET ?",
            (*params, page_size, page * page_size),
        ) as cursor:
            rows = await cursor.fetchall()
        entries = [_entry(page * page_size + i + 1, row) for i, row in enumerate(rows)]
        me = None
        if user_id is not None:
            me = next((e for e in entries if e.user_id == user_id), None)
            if me is None:
                me = await self._rank_of(fields, base, params, column, user_id)
        return Leaderboard(entries, total, me)

    async def _rank_of(
        self, fields: str, base: str, params: tuple[Any, ...], column: str, user_id: int
    ) -> LeaderboardEntry | None:
        async with self._db.execute(
            f"{fields}{base} AND s.user_id = ?", (*params, user_id)
        ) as cursor:
            mine = await cursor.fetchone()
        if mine is None:
            return None
        better = (
            f" AND ({column} > ? OR ({column} = ? AND s.games > ?)"
            f" OR ({column} = ? AND s.games = ? AND s.user_id < ?))"
        )
        score, games = mine["score"], mine["games"]
        async with self._db.execute(
            f"SELECT COUNT(*) AS n{base}{better}",
            (*params, score, score, games, score, games, user_id),
        ) as cursor:
            ahead = (await cursor.fetchone())["n"]
        return _entry(ahead + 1, mine)

    # -- guild settings -------------------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._db.execute(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(
            guild_id,
            row["turn_timer_seconds"],
            json.loads(row["default_targets"]),
            bool(row["use_threads"]),
        )

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings"
                " (guild_id, turn_timer_seconds, default_targets, use_threads)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " turn_timer_seconds = excluded.turn_timer_seconds,"
                " default_targets = excluded.default_targets, use_threads = excluded.use_threads",
                (settings.guild_id, settings.turn_timer_seconds,
                 _dumps(settings.default_targets), int(settings.use_threads)),
            )  # fmt: skip


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
