"""Open tables: each one's row, rewritten with every action by compare-and-swap on its
version, and its actions, append-only (what a channel has not been shown yet is read
from them); closed tables are pruned by age.

An action is stored by one ``UPDATE … WHERE version = ?``: the database checks and writes
in one step under its row or write lock, so of two writers holding the same version (two
tasks, or two processes) exactly one moves the table on; the other gets
:class:`VersionConflict` and writes nothing. The action's audit line, and the game it
ended, go in the same transaction.

A table's game record is stored once, in its state (the match's ``record``): a row is
read back with the record its state carries.
"""

from __future__ import annotations

import time
from typing import Any

from data.backend import Backend, Row, Session
from data.codec import dumps, loads
from data.errors import VersionConflict
from data.games import insert_finished_game
from data.models import FinishedGame, TableRow
from data.outbox import Outbox

OPEN_STATUSES = ("lobby", "playing")
TABLE_COLUMNS = (
    "id, guild_id, channel_id, host_id, game, status, version, state, deadline, message_id,"
    " announced_version, created_at, updated_at"
)
"""Named, not ``*``: a statement prepared before another process adds a column still
reads the same row."""


class ActiveTables:
    """The part of :class:`~data.repository.Repository` that keeps open tables."""

    backend: Backend
    outbox: Outbox

    async def create_table(self, row: TableRow) -> None:
        """The unique index ``active_tables_open_channel`` refuses a second open table in
        one channel, whoever writes it: :class:`~data.errors.ChannelInUse`."""

        async def insert(tx: Session) -> None:
            await tx.execute(
                f"INSERT INTO active_tables ({TABLE_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id, row.guild_id, row.channel_id, row.host_id, row.game, row.status,
                    row.version, dumps(row.state), row.deadline, row.message_id,
                    row.announced_version, row.created_at, row.updated_at,
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
        transaction (as by ``record_finished_game``), so a game over is never stored
        half. What the row says its channel shows is stored with it."""

        async def store(tx: Session) -> None:
            changed = await tx.execute(
                "UPDATE active_tables SET channel_id = ?, status = ?, version = ?, state = ?,"
                " deadline = ?, updated_at = ?,"
                " message_id = COALESCE(?, message_id),"
                " announced_version = CASE WHEN announced_version IS NULL"
                " OR announced_version <= ? THEN ? ELSE announced_version END"
                " WHERE id = ? AND version = ?",
                (
                    row.channel_id, row.status, row.version, dumps(row.state), row.deadline,
                    row.updated_at, row.message_id, row.announced_version,
                    row.announced_version, row.id, expected_version,
                ),
            )  # fmt: skip
            if changed != 1:
                raise VersionConflict(f"table {row.id} is no longer at version {expected_version}")
            await tx.execute(
                "INSERT INTO table_actions (table_id, version, action, at) VALUES (?, ?, ?, ?)",
                (row.id, row.version, dumps(action), row.updated_at),
            )
            if finished is not None:
                await insert_finished_game(tx, finished)

        noted = self.outbox.pending(row.id)
        await self.backend.write(store)
        self.outbox.written_with(row, noted)

    async def set_announced(self, table_id: str, message_id: int | None, version: int) -> None:
        """The channel now shows ``version`` of the table, in message ``message_id``
        (None: the message is unchanged). Noted at once and stored with the table's next
        action, or within :data:`~data.outbox.ANNOUNCE_DELAY` seconds (:meth:`flush`
        stores it now): it never costs a commit of its own."""
        self.outbox.note(table_id, message_id, version)

    async def flush(self) -> None:
        """Store every note of what channels show, now (one transaction)."""
        await self.outbox.flush()

    async def actions_since(self, table_id: str, version: int) -> list[dict[str, Any]]:
        """The table's stored actions after ``version``, oldest first: what its channel
        has not been shown yet."""

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                "SELECT action FROM table_actions WHERE table_id = ? AND version > ?"
                " ORDER BY version",
                (table_id, version),
            )

        return [loads(row["action"]) for row in await self.backend.read(query)]

    async def close_unreadable(self, table_id: str, version: int, reason: str) -> None:
        """Mark an open table that cannot be read back as cancelled, logging ``reason``
        as its last action; its state (with the game's record) is kept for a developer to
        look at."""
        now = time.time()

        async def close(tx: Session) -> None:
            await tx.execute(
                "UPDATE active_tables SET status = 'cancelled', version = ?, updated_at = ?"
                " WHERE id = ? AND version = ?",
                (version + 1, now, table_id, version),
            )
            await tx.execute(
                "INSERT INTO table_actions (table_id, version, action, at) VALUES (?, ?, ?, ?)",
                (table_id, version + 1, dumps({"kind": "unreadable", "error": reason}), now),
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


def _table_row(row: Row) -> TableRow:
    state = loads(row["state"])
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        game=row["game"],
        status=row["status"],
        version=row["version"],
        state=state,
        deadline=row["deadline"],
        message_id=row["message_id"],
        announced_version=row["announced_version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )

