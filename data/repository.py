"""The rules of storage, written once for every database: what the table service and the
standings read and write, as SQL both SQLite and PostgreSQL run, through the backend seam
of ``data.backend`` (how a transaction runs, how faults are named).

The rules:

- **Compare-and-swap.** An action is stored by one ``UPDATE … WHERE version = ?``: the
  database checks and writes in one step under its row or write lock, so of two writers
  holding the same version (two tasks, or two processes) exactly one moves the table on;
  the other gets :class:`VersionConflict` and writes nothing. The action's audit line,
  and the game it ended, go in the same transaction.
- **Counted once.** A finished game is claimed by its id first: a second record of it
  changes nothing. Members' totals are upserts; each rating is read and rewritten while
  its name is held (``Session.serialize``), so two games ending at once never both start
  from the same old rating.
- **Leaderboards** read running totals through their indexes, ties broken by more
  games and then the lower user id, so a rank is a position.
- **The outbox.** The version each channel has been shown (and its message) is written
  with the table's next action, or, for a table that waits, within
  :data:`ANNOUNCE_DELAY` seconds by a write of its own shared by every such table: a
  channel being shown a move never costs a commit, and a lost note (a crash within the
  delay) only means the move is shown once more.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

import orjson

from data.backend import Backend, Row, Session
from data.models import (
    GLOBAL,
    FinishedGame,
    Forgotten,
    GuildSettings,
    Leaderboard,
    LeaderboardEntry,
    Participant,
    RoundResult,
    Stats,
    Stored,
    TableRow,
)
from data.ratings import Rating, ordinal, rate
from data.schema import migrate

log = logging.getLogger(__name__)

ANNOUNCE_DELAY = 0.5
"""Seconds a note of what a channel shows may wait for a write to join."""
ANNOUNCE_RETRY = 5.0
"""Seconds before notes that could not be written are tried again."""
OPEN_STATUSES = ("lobby", "playing")
STAT_COLUMNS = ("games", "wins", "rounds_won", "points", "dominoes", "blocked_wins")
TABLE_COLUMNS = (
    "id, guild_id, channel_id, host_id, game, status, version, state, record, deadline,"
    " message_id, announced_version, created_at, updated_at"
)
"""Named, not ``*``: a statement prepared before another process adds a column still
reads the same row."""
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
_ANNOUNCE = (
    "UPDATE active_tables SET message_id = COALESCE(?, message_id), announced_version = ?"
    " WHERE id = ? AND (announced_version IS NULL OR announced_version <= ?)"
)
"""Never moves a channel's version back (a note written twice, or after a newer one)."""


class VersionConflict(Exception):
    """Another writer stored a newer version of the table first; nothing was written."""


class ChannelInUse(Exception):
    """Another open table already holds this channel (one open table per channel);
    nothing was written."""


class StoreError(Exception):
    """The database could not carry out a write or a read; nothing was written.

    ``fault`` says why in one word the layers above can act on and tell a user:
    ``full`` (no space left), ``busy`` (another writer held the database too long),
    ``read-only`` (the file or its folder, or the server, refuses writes) or
    ``unavailable`` (anything else: an I/O error, a file gone, a server down)."""

    FAULTS = ("full", "busy", "read-only", "unavailable")

    def __init__(self, fault: str, detail: str = "") -> None:
        super().__init__(f"{fault}: {detail}" if detail else fault)
        self.fault = fault
        self.detail = detail


class Repository:
    """What the table service and the standings need from storage, over one backend.
    Open one with :func:`data.open_store`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._shown: dict[str, tuple[int | None, int]] = {}
        """Notes of what channels show, not yet written: table id → (message, version)."""
        self._flusher: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def open(cls, backend: Backend) -> Repository:
        """Bring the schema up to date and refuse a database that cannot be written
        (:class:`StoreError`, before any player's move depends on it). The backend is
        closed if either fails."""
        store = cls(backend)
        try:
            await migrate(backend)
            await store.check_writable()
        except BaseException:
            await backend.close()
            raise
        return store

    async def migrate(self) -> list[str]:
        """Apply the migrations not yet applied; the names applied now."""
        return await migrate(self.backend)

    async def check_writable(self) -> None:
        """Write a row as it is: a database that refuses writes (a read-only file or
        folder, a read-only server or role) says so here, as ``read-only``."""

        async def touch(tx: Session) -> None:
            await tx.execute(
                "UPDATE schema_migrations SET applied_at = applied_at"
                " WHERE name = (SELECT MAX(name) FROM schema_migrations)"
            )

        await self.backend.write(touch)

    async def close(self) -> None:
        """Write the notes still waiting, then close the backend; a second call does
        nothing. A note that cannot be written is logged: its channel is shown the
        table once more after the next start."""
        if self._closed:
            return
        self._closed = True
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flusher
        try:
            await self._write_shown()
        except StoreError as error:
            log.warning("what %d channels show was not stored (%s)", len(self._shown), error)
        finally:
            await self.backend.close()

    async def __aenter__(self) -> Repository:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- active tables ----------------------------------------------------------------------

    async def create_table(self, row: TableRow) -> None:
        """The unique index ``active_tables_open_channel`` refuses a second open table in
        one channel, whoever writes it: :class:`ChannelInUse`."""

        async def insert(tx: Session) -> None:
            await tx.execute(
                f"INSERT INTO active_tables ({TABLE_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id, row.guild_id, row.channel_id, row.host_id, row.game, row.status,
                    row.version, _dumps(row.state), _dumps(row.record), row.deadline,
                    row.message_id, row.announced_version, row.created_at, row.updated_at,
                ),
            )  # fmt: skip

        await self.backend.write(insert)

    async def save_action(
        self,
        row: TableRow,
        expected_version: int,
        action: dict[str, Any],
        finished: FinishedGame | None = None,
    ) -> None:
        """Store the table's new state and the action in one transaction, only if the
        stored version is still ``expected_version``; else :class:`VersionConflict` and
        nothing written. ``finished``: the game this action ended, recorded in the same
        transaction (as by :meth:`record_finished_game`), so a game over is never stored
        half. What the row says its channel shows is stored with it."""

        async def store(tx: Session) -> None:
            changed = await tx.execute(
                "UPDATE active_tables SET channel_id = ?, status = ?, version = ?, state = ?,"
                " record = ?, deadline = ?, updated_at = ?,"
                " message_id = COALESCE(?, message_id),"
                " announced_version = CASE WHEN announced_version IS NULL"
                " OR announced_version <= ? THEN ? ELSE announced_version END"
                " WHERE id = ? AND version = ?",
                (
                    row.channel_id, row.status, row.version, _dumps(row.state),
                    _dumps(row.record), row.deadline, row.updated_at, row.message_id,
                    row.announced_version, row.announced_version, row.id, expected_version,
                ),
            )  # fmt: skip
            if changed != 1:
                raise VersionConflict(f"table {row.id} is no longer at version {expected_version}")
            await tx.execute(
                "INSERT INTO table_actions (table_id, version, action, at) VALUES (?, ?, ?, ?)",
                (row.id, row.version, _dumps(action), row.updated_at),
            )
            if finished is not None:
                await _insert_finished_game(tx, finished)

        noted = self._shown.get(row.id)
        await self.backend.write(store)
        shown = row.announced_version
        if noted is not None and self._shown.get(row.id) is noted and shown is not None:
            message, version = noted
            if version <= shown and message in (None, row.message_id):
                del self._shown[row.id]  # stored with the action

    async def set_announced(self, table_id: str, message_id: int | None, version: int) -> None:
        """The channel now shows ``version`` of the table, in message ``message_id``
        (None: the message is unchanged). Noted at once and stored with the table's next
        action, or within :data:`ANNOUNCE_DELAY` seconds (:meth:`flush` stores it now):
        it never costs a commit of its own."""
        if self._closed:
            raise StoreError("unavailable", "the store is closed")
        self._note(table_id, message_id, version)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_later(ANNOUNCE_DELAY))

    def _note(self, table_id: str, message_id: int | None, version: int) -> None:
        """Keep the newest version and the latest message known (None: unchanged)."""
        noted = self._shown.get(table_id)
        if noted is None:
            self._shown[table_id] = (message_id, version)
        elif version >= noted[1]:
            self._shown[table_id] = (noted[0] if message_id is None else message_id, version)
        elif noted[0] is None:
            self._shown[table_id] = (message_id, noted[1])

    async def flush(self) -> None:
        """Store every note of what channels show, now (one transaction)."""
        await self._write_shown()

    async def _flush_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self._write_shown()
        except StoreError as error:
            log.warning("could not store what %d channels show (%s); trying again in %.0f s",
                        len(self._shown), error.fault, ANNOUNCE_RETRY)  # fmt: skip
            self._flusher = asyncio.create_task(self._flush_later(ANNOUNCE_RETRY))

    async def _write_shown(self) -> None:
        """The notes taken are put back if the write fails (unless newer ones came)."""
        if not self._shown:
            return
        taken, self._shown = self._shown, {}

        async def store(tx: Session) -> None:
            await tx.executemany(
                _ANNOUNCE,
                [(message, version, table, version)
                 for table, (message, version) in sorted(taken.items())],
            )  # fmt: skip

        try:
            await self.backend.write(store)
        except BaseException:
            newer, self._shown = self._shown, taken
            for table, (message, version) in newer.items():
                self._note(table, message, version)
            raise

    async def actions_since(self, table_id: str, version: int) -> list[dict[str, Any]]:
        """The table's stored actions after ``version``, oldest first: what its channel
        has not been shown yet."""

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                "SELECT action FROM table_actions WHERE table_id = ? AND version > ?"
                " ORDER BY version",
                (table_id, version),
            )

        return [json.loads(row["action"]) for row in await self.backend.read(query)]

    async def close_unreadable(self, table_id: str, version: int, reason: str) -> None:
        """Mark an open table that cannot be read back as cancelled, logging ``reason``
        as its last action; its state and record are kept for a developer to look at."""
        now = time.time()

        async def close(tx: Session) -> None:
            await tx.execute(
                "UPDATE active_tables SET status = 'cancelled', version = ?, updated_at = ?"
                " WHERE id = ? AND version = ?",
                (version + 1, now, table_id, version),
            )
            await tx.execute(
                "INSERT INTO table_actions (table_id, version, action, at) VALUES (?, ?, ?, ?)",
                (table_id, version + 1, _dumps({"kind": "unreadable", "error": reason}), now),
            )

        await self.backend.write(close)

    async def load_active_tables(self) -> list[TableRow]:
        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                f"SELECT {TABLE_COLUMNS} FROM active_tables WHERE status IN (?, ?)"
                " ORDER BY created_at, id",
                OPEN_STATUSES,
            )

        return [_table_row(row) for row in await self.backend.read(query)]

    async def get_table(self, table_id: str) -> TableRow | None:
        async def query(tx: Session) -> Row | None:
            return await tx.fetchrow(
                f"SELECT {TABLE_COLUMNS} FROM active_tables WHERE id = ?", (table_id,)
            )

        row = await self.backend.read(query)
        return _table_row(row) if row else None

    # -- finished games ---------------------------------------------------------------------

    async def record_finished_game(self, game: FinishedGame) -> bool:
        """The game, its rounds, stats and ratings, in one transaction. False, with
        nothing changed, if a game with this id is already stored: a retry after a
        doubtful failure never counts a game, or moves a rating, twice."""

        async def record(tx: Session) -> bool:
            return await _insert_finished_game(tx, game)

        return await self.backend.write(record)

    async def get_rating(self, user_id: int, game: str) -> float | None:
        """The player's rating ordinal for one game kind; None before their first game."""

        async def query(tx: Session) -> Row | None:
            return await tx.fetchrow(
                "SELECT ordinal FROM ratings WHERE user_id = ? AND game = ?", (user_id, game)
            )

        row = await self.backend.read(query)
        return None if row is None else float(row["ordinal"])

    # -- stats and leaderboards ---------------------------------------------------------------

    async def get_stats(
        self, user_id: int, game: str | None = None, guild_id: int | None = None
    ) -> list[Stats]:
        """A player's totals per game kind, in one server or (guild_id None) everywhere."""
        sql = (
            f"SELECT user_id, game, guild_id, {', '.join(STAT_COLUMNS)} FROM player_stats"
            " WHERE user_id = ? AND guild_id = ?"
        )
        params: list[Any] = [user_id, GLOBAL if guild_id is None else guild_id]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(sql + " ORDER BY game", params)

        return [
            Stats(row["user_id"], row["game"], row["guild_id"], *(row[c] for c in STAT_COLUMNS))
            for row in await self.backend.read(query)
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
        is a position: the caller's rank, counted apart, always matches the pages. The
        count, the page and the rank are read in one transaction, so they agree."""
        if order not in BOARD_ORDERS:
            raise ValueError(f"unknown leaderboard order {order!r}: one of {list(BOARD_ORDERS)}")
        column = BOARD_ORDERS[order]
        scope = GLOBAL if guild_id is None else guild_id
        floor = min_games if order == "rating" else 1
        params = (game, scope, floor)
        rows_sql = _BOARD_ROWS.format(column=column) + _BOARD_WHERE

        async def query(tx: Session) -> Leaderboard:
            counted = await tx.fetchrow(_BOARD_COUNT + _BOARD_WHERE, params)
            assert counted is not None, "COUNT(*) always returns one row"
            rows = await tx.fetch(
                f"{rows_sql} ORDER BY {column} DESC, s.games DESC, s.user_id LIMIT ? OFFSET ?",
                (*params, page_size, page * page_size),
            )
            entries = [_entry(page * page_size + i + 1, row) for i, row in enumerate(rows)]
            me = None
            if user_id is not None:
                me = next((e for e in entries if e.user_id == user_id), None)
                if me is None:
                    me = await _rank_of(tx, column, params, user_id)
            return Leaderboard(entries, counted["n"], me)

        return await self.backend.read(query)

    # -- history, replays and rematches ---------------------------------------------------------

    async def get_game(self, game_id: str) -> FinishedGame | None:
        """A finished game, whole (its record replays it), with its seats' last names."""

        async def query(tx: Session) -> FinishedGame | None:
            games = await _games(tx, "g.id = ?", (game_id,))
            return games[0] if games else None

        return await self.backend.read(query)

    async def games_of(
        self, user_id: int, guild_id: int, page: int = 0, page_size: int = 10
    ) -> tuple[list[FinishedGame], int]:
        """A member's finished games in one server, newest first: one page, and how many
        there are in all."""
        where = "g.guild_id = ? AND g.id IN (SELECT game_id FROM game_seats WHERE user_id = ?)"

        async def query(tx: Session) -> tuple[list[FinishedGame], int]:
            counted = await tx.fetchrow(
                f"SELECT COUNT(*) AS n FROM games g WHERE {where}", (guild_id, user_id)
            )
            assert counted is not None
            page_of = await _games(
                tx, where, (guild_id, user_id), limit=(page_size, page * page_size)
            )
            return page_of, int(counted["n"])

        return await self.backend.read(query)

    async def series(
        self, guild_id: int, game: str, seats: list[tuple[int | None, str | None]], last: int = 200
    ) -> list[int]:
        """Games won by each of ``seats`` (a member's id, or a computer's level) over the
        finished games of ``game`` in this server played by exactly these seats, in any
        order (the newest ``last`` of the first member's games are looked at)."""
        members = [user for user, _ in seats if user is not None]
        if not members:
            return [0] * len(seats)
        wanted = sorted(seats, key=_seat_key)
        where = (
            "g.guild_id = ? AND g.game = ? AND g.id IN"
            " (SELECT game_id FROM game_seats WHERE user_id = ?)"
        )

        async def query(tx: Session) -> list[FinishedGame]:
            return await _games(tx, where, (guild_id, game, members[0]), limit=(last, 0))

        wins = [0] * len(seats)
        for played in await self.backend.read(query):
            who = [(p.user_id, p.computer_level) for p in played.participants]
            if sorted(who, key=_seat_key) != wanted:
                continue
            for p in played.participants:
                if p.won:
                    wins[seats.index((p.user_id, p.computer_level))] += 1
        return wins

    # -- privacy -----------------------------------------------------------------------------

    async def stored_about(self, user_id: int) -> Stored:
        async def query(tx: Session) -> Stored:
            stats = await tx.fetchrow(
                "SELECT COUNT(*) AS n FROM player_stats WHERE user_id = ?", (user_id,)
            )
            ratings = await tx.fetchrow(
                "SELECT COUNT(*) AS n FROM ratings WHERE user_id = ?", (user_id,)
            )
            games = await tx.fetchrow(
                "SELECT COUNT(*) AS n FROM game_seats WHERE user_id = ?", (user_id,)
            )
            name = await tx.fetchrow("SELECT name FROM player_names WHERE user_id = ?", (user_id,))
            assert stats is not None and ratings is not None and games is not None
            return Stored(
                int(stats["n"]), int(ratings["n"]), name["name"] if name else None,
                int(games["n"]),
            )  # fmt: skip

        return await self.backend.read(query)

    async def forget(self, user_id: int) -> Forgotten:
        """Delete a member's stats, ratings and name, and take their id off the seats of
        finished games (kept, anonymous) and off closed tables (deleted), in one
        transaction. Open tables are the caller's to refuse first."""

        async def work(tx: Session) -> Forgotten:
            stats = await tx.execute("DELETE FROM player_stats WHERE user_id = ?", (user_id,))
            ratings = await tx.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
            names = await tx.execute("DELETE FROM player_names WHERE user_id = ?", (user_id,))
            seats = await tx.execute(
                "UPDATE game_seats SET user_id = NULL WHERE user_id = ?", (user_id,)
            )
            closed = await tx.fetch(
                "SELECT id, state FROM active_tables WHERE status IN ('finished', 'cancelled')"
            )
            mine = [row["id"] for row in closed if _holds_user(row["state"], user_id)]
            for table_id in mine:
                await tx.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))
                await tx.execute("DELETE FROM active_tables WHERE id = ?", (table_id,))
            return Forgotten(stats, ratings, names, seats, len(mine))

        return await self.backend.write(work)

    async def prune_closed(self, before: float) -> int:
        """Delete finished and cancelled tables (their state and action log) last changed
        before ``before``: their games are recorded apart, so the database does not grow
        with every move ever made. Returns how many."""

        async def work(tx: Session) -> int:
            rows = await tx.fetch(
                "SELECT id FROM active_tables WHERE status IN ('finished', 'cancelled')"
                " AND updated_at < ?",
                (before,),
            )
            for row in rows:
                await tx.execute("DELETE FROM table_actions WHERE table_id = ?", (row["id"],))
                await tx.execute("DELETE FROM active_tables WHERE id = ?", (row["id"],))
            return len(rows)

        return await self.backend.write(work)

    # -- guild settings -------------------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        async def query(tx: Session) -> Row | None:
            return await tx.fetchrow(
                "SELECT turn_timer_seconds, default_targets, use_threads, language"
                " FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            )

        row = await self.backend.read(query)
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
        async def store(tx: Session) -> None:
            await tx.execute(
                "INSERT INTO guild_settings"
                " (guild_id, turn_timer_seconds, default_targets, use_threads, language)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " turn_timer_seconds = excluded.turn_timer_seconds,"
                " default_targets = excluded.default_targets, use_threads = excluded.use_threads,"
                " language = excluded.language",
                (settings.guild_id, settings.turn_timer_seconds,
                 _dumps(settings.default_targets), int(settings.use_threads), settings.language),
            )  # fmt: skip

        await self.backend.write(store)


async def _insert_finished_game(tx: Session, game: FinishedGame) -> bool:
    """Write a finished game inside the caller's transaction: the game, rounds and seats;
    members' stats in its server and globally; their last names; their ratings, each
    computed once from the ratings stored before this game. Computer seats are kept with
    the game but get no stats, name or rating, so they never reach a leaderboard. False,
    with nothing written, if this game id is already stored.

    Locks are taken in one order everywhere (the table's row, then the members' names
    in sorted order), so two games ending at once wait for each other, never deadlock."""
    claimed = await tx.execute(
        "INSERT INTO games (id, table_id, guild_id, game, finished_at, record, rated,"
        " channel_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
        (game.id, game.table_id, game.guild_id, game.game, game.finished_at,
         _dumps(game.record), int(game.rated), game.channel_id),
    )  # fmt: skip
    if claimed == 0:
        return False
    await tx.execute("UPDATE active_tables SET status = 'finished' WHERE id = ?", (game.table_id,))
    await tx.executemany(
        "INSERT INTO game_rounds (game_id, number, reason, winner, points) VALUES (?, ?, ?, ?, ?)",
        [(game.id, r.number, r.reason, r.winner, _dumps(r.points)) for r in game.rounds],
    )
    await tx.executemany(
        "INSERT INTO game_seats (game_id, seat, team, user_id, computer_level,"
        " final_score, won, rounds_won, points, dominoes, blocked_wins)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game.id, p.seat, p.team, p.user_id, p.computer_level, p.final_score,
             int(p.won), p.rounds_won, p.points, p.dominoes, p.blocked_wins)
            for p in game.participants
        ],
    )  # fmt: skip
    members = sorted(
        (p for p in game.participants if p.user_id is not None), key=lambda p: p.user_id or 0
    )
    if not members or not game.rated:  # a game with hints counts for nobody
        return True
    users = [p.user_id for p in members if p.user_id is not None]
    await tx.serialize(f"rating:{game.game}:{user}" for user in users)
    await tx.executemany(
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
    await tx.executemany(
        "INSERT INTO player_names (user_id, name, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
        " updated_at = excluded.updated_at",
        [(p.user_id, p.name, game.finished_at) for p in members if p.name],
    )
    current = await _ratings(tx, game.game, users)
    updated = sorted(rate(game.participants, current).items())
    await tx.executemany(
        "INSERT INTO ratings (user_id, game, mu, sigma, ordinal) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (user_id, game) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, ordinal = excluded.ordinal",
        [(user, game.game, mu, sigma, ordinal((mu, sigma))) for user, (mu, sigma) in updated],
    )
    await tx.executemany(
        "UPDATE player_stats SET rating = ? WHERE user_id = ? AND game = ?",
        [(ordinal(rating), user, game.game) for user, rating in updated],
    )
    return True


async def _games(
    tx: Session, where: str, params: tuple[Any, ...], limit: tuple[int, int] | None = None
) -> list[FinishedGame]:
    """Finished games matching ``where`` (on ``games g``), newest first, whole: rounds and
    seats with the members' last names."""
    paging = " LIMIT ? OFFSET ?" if limit else ""
    games = await tx.fetch(
        "SELECT g.id, g.table_id, g.guild_id, g.game, g.finished_at, g.record, g.rated,"
        f" g.channel_id FROM games g WHERE {where} ORDER BY g.finished_at DESC, g.id{paging}",
        (*params, *(limit or ())),
    )
    if not games:
        return []
    ids = [row["id"] for row in games]
    marks = ", ".join("?" for _ in ids)
    seats = await tx.fetch(
        "SELECT s.game_id, s.seat, s.team, s.user_id, s.computer_level, s.final_score, s.won,"
        " s.rounds_won, s.points, s.dominoes, s.blocked_wins, n.name FROM game_seats s"
        f" LEFT JOIN player_names n ON n.user_id = s.user_id WHERE s.game_id IN ({marks})"
        " ORDER BY s.game_id, s.seat",
        ids,
    )
    rounds = await tx.fetch(
        "SELECT game_id, number, reason, winner, points FROM game_rounds"
        f" WHERE game_id IN ({marks}) ORDER BY game_id, number",
        ids,
    )
    by_game: dict[str, tuple[list[Participant], list[RoundResult]]] = {i: ([], []) for i in ids}
    for row in seats:
        by_game[row["game_id"]][0].append(
            Participant(
                seat=row["seat"],
                team=row["team"],
                final_score=row["final_score"],
                won=bool(row["won"]),
                user_id=row["user_id"],
                computer_level=row["computer_level"],
                name=row["name"] or "",
                rounds_won=row["rounds_won"],
                points=row["points"],
                dominoes=row["dominoes"],
                blocked_wins=row["blocked_wins"],
            )
        )
    for row in rounds:
        by_game[row["game_id"]][1].append(
            RoundResult(row["number"], row["reason"], row["winner"], json.loads(row["points"]))
        )
    return [
        FinishedGame(
            id=row["id"],
            table_id=row["table_id"],
            guild_id=row["guild_id"],
            game=row["game"],
            finished_at=row["finished_at"],
            record=_json(row["record"]),
            rounds=by_game[row["id"]][1],
            participants=by_game[row["id"]][0],
            rated=bool(row["rated"]),
            channel_id=row["channel_id"],
        )
        for row in games
    ]


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def _seat_key(seat: tuple[int | None, str | None]) -> tuple[int, str]:
    return (seat[0] or 0, seat[1] or "")


def _holds_user(state: Any, user_id: int) -> bool:
    """Whether a stored table's state names ``user_id``: seated, or a rematch's lobby
    keeping them a seat (``invited``) or a place in its series (``lineup``: ``u<id>``)."""
    data = _json(state)
    seats = data.get("seats", ())
    return (
        any(isinstance(s, dict) and s.get("user_id") == user_id for s in seats)
        or user_id in data.get("invited", ())
        or f"u{user_id}" in data.get("lineup", ())
    )


async def _ratings(tx: Session, game: str, users: list[int]) -> dict[int, Rating]:
    marks = ", ".join("?" for _ in users)
    rows = await tx.fetch(
        f"SELECT user_id, mu, sigma FROM ratings WHERE game = ? AND user_id IN ({marks})",
        (game, *users),
    )
    return {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}


async def _rank_of(
    tx: Session, column: str, params: tuple[Any, ...], user_id: int
) -> LeaderboardEntry | None:
    """The player's row with its rank: one plus how many rows sort before it under the
    board's full order (score, then games, then user id). None if they do not qualify."""
    rows_sql = _BOARD_ROWS.format(column=column) + _BOARD_WHERE
    mine = await tx.fetchrow(f"{rows_sql} AND s.user_id = ?", (*params, user_id))
    if mine is None:
        return None
    before = (
        f" AND ({column} > ? OR ({column} = ? AND s.games > ?)"
        f" OR ({column} = ? AND s.games = ? AND s.user_id < ?))"
    )
    score, games = mine["score"], mine["games"]
    counted = await tx.fetchrow(
        _BOARD_COUNT + _BOARD_WHERE + before,
        (*params, score, score, games, score, games, user_id),
    )
    assert counted is not None, "COUNT(*) always returns one row"
    return _entry(counted["n"] + 1, mine)


def _dumps(value: Any) -> str:
    """JSON text for a column. orjson, not the json module: a table's state is written
    with every action, on the thread that writes (which holds the interpreter meanwhile),
    and orjson writes it several times faster."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _table_row(row: Row) -> TableRow:
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


def _entry(rank: int, row: Row) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank,
        row["user_id"],
        row["rating"],
        row["games"],
        row["wins"],
        row["points"],
        row["name"] or "",
    )
