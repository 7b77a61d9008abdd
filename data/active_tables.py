"""Open tables: each one's row, rewritten with every action by compare-and-swap on its
version, and its actions, append-only (what a face has not been shown yet is read from
them, after the version it has noted: ``data.outbox``); closed tables are pruned by age.

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
from collections.abc import Sequence
from typing import Any

from data.backend import Backend, Row, Session
from data.codec import document, dumps
from data.errors import VersionConflict
from data.games import insert_finished_game
from data.models import FaceShown, FinishedGame, TableRow
from data.outbox import Outbox, write_notes

OPEN_STATUSES = ("lobby", "playing")
TABLE_COLUMNS = (
    "id, guild_id, channel_id, host_id, game, status, version, state, deadline, created_at,"
    " updated_at"
)
FACE_COLUMNS = "table_id, face, version, message_id"
"""Both named, not ``*``: a statement prepared before another process adds a column
still reads the same row."""


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
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id, row.guild_id, row.channel_id, row.host_id, row.game, row.status,
                    row.version, dumps(row.state), row.deadline, row.created_at, row.updated_at,
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
        half. The notes waiting of what faces show of the table are stored with it."""
        noted = self.outbox.pending(row.id)

        async def store(tx: Session) -> None:
            changed = await tx.execute(
                "UPDATE active_tables SET channel_id = ?, status = ?, version = ?, state = ?,"
                " deadline = ?, updated_at = ? WHERE id = ? AND version = ?",
                (
                    row.channel_id, row.status, row.version, dumps(row.state), row.deadline,
                    row.updated_at, row.id, expected_version,
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
            await write_notes(tx, noted)

        await self.backend.write(store)
        self.outbox.written(noted)

    async def set_shown(
        self, table_id: str, face: str, message_id: int | None, version: int
    ) -> None:
        """``face`` now shows ``version`` of the table, in message ``message_id`` (None:
        the message is unchanged). Noted at once and stored with the table's next action,
        or within :data:`~data.outbox.ANNOUNCE_DELAY` seconds (:meth:`flush` stores it
        now): it never costs a commit of its own."""
        self.outbox.note(table_id, face, message_id, version)

    async def flush(self) -> None:
        """Store every note of what faces show, now (one transaction)."""
        await self.outbox.flush()

    async def actions_since(self, table_id: str, version: int) -> list[Any]:
        """The table's stored actions after ``version``, oldest first: what a face that
        shows ``version`` has not been shown yet. A line that is not JSON comes back as
        its text, for the reader to pass over (one damaged line must not keep a table
        from resuming)."""

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                "SELECT action FROM table_actions WHERE table_id = ? AND version > ?"
                " ORDER BY version",
                (table_id, version),
            )

        return [document(row["action"]) for row in await self.backend.read(query)]

    async def last_actions(self, table_ids: Sequence[str]) -> dict[str, Any]:
        """The stored action that made each of ``table_ids`` what it is now (its current
        version's), read as :meth:`actions_since` reads them, in one query; a table
        opened with no action since has none."""
        if not table_ids:
            return {}
        marks = ", ".join("?" for _ in table_ids)

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                "SELECT a.table_id, a.action FROM table_actions a JOIN active_tables t"
                f" ON t.id = a.table_id AND a.version = t.version WHERE t.id IN ({marks})",
                list(table_ids),
            )

        return {row["table_id"]: document(row["action"]) for row in await self.backend.read(query)}

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
        """The open tables, each with what every face has shown of it."""
        return await self._tables_where("t.status IN (?, ?)", OPEN_STATUSES)

    async def load_unshown_ends(self, faces: Sequence[str], since: float) -> list[TableRow]:
        """The tables closed (finished or cancelled) at or after ``since`` whose last
        version one of ``faces`` has not noted showing: the bot stopped between storing
        a table's end and showing it. Each with what every face has shown of it."""
        if not faces:
            return []
        lacking = " OR ".join(
            "NOT EXISTS (SELECT 1 FROM table_faces f WHERE f.table_id = t.id AND f.face = ?"
            " AND f.version >= t.version)"
            for _ in faces
        )
        return await self._tables_where(
            f"t.status IN ('finished', 'cancelled') AND t.updated_at >= ? AND ({lacking})",
            (since, *faces),
        )

    async def load_recent_ends(self, count: int) -> list[TableRow]:
        """The ``count`` tables closed last (finished or cancelled, not yet pruned),
        oldest first: what a face that keeps the last ones shown takes up after a
        restart."""
        return await self._tables_where(
            "t.id IN (SELECT id FROM active_tables WHERE status IN ('finished', 'cancelled')"
            " ORDER BY updated_at DESC, id LIMIT ?)",
            (count,),
            order="updated_at, id",
        )

    async def _tables_where(
        self, where: str, params: Sequence[Any], order: str = "created_at, id"
    ) -> list[TableRow]:
        """The tables (``active_tables t``) that ``where`` holds for, in ``order``
        (oldest first), each with what every face has shown of it."""

        async def query(tx: Session) -> tuple[list[Row], list[Row]]:
            tables = await tx.fetch(
                f"SELECT {TABLE_COLUMNS} FROM active_tables t WHERE {where} ORDER BY {order}",
                params,
            )
            faces = await tx.fetch(
                f"SELECT {FACE_COLUMNS} FROM table_faces WHERE table_id IN"
                f" (SELECT t.id FROM active_tables t WHERE {where})",
                params,
            )
            return tables, faces

        return _table_rows(*await self.backend.read(query))

    async def get_table(self, table_id: str) -> TableRow | None:
        async def query(tx: Session) -> tuple[list[Row], list[Row]]:
            tables = await tx.fetch(
                f"SELECT {TABLE_COLUMNS} FROM active_tables WHERE id = ?", (table_id,)
            )
            faces = await tx.fetch(
                f"SELECT {FACE_COLUMNS} FROM table_faces WHERE table_id = ?", (table_id,)
            )
            return tables, faces

        rows = _table_rows(*await self.backend.read(query))
        return rows[0] if rows else None

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


def _table_rows(tables: list[Row], faces: list[Row]) -> list[TableRow]:
    shown: dict[str, dict[str, FaceShown]] = {}
    for face in faces:
        shown.setdefault(face["table_id"], {})[face["face"]] = FaceShown(
            face["version"], face["message_id"]
        )
    return [_table_row(row, shown.get(row["id"], {})) for row in tables]


def _table_row(row: Row, shown: dict[str, FaceShown]) -> TableRow:
    state = document(row["state"])  # text that is not JSON is the service's to set aside
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
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        shown=shown,
    )
