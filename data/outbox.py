"""What each face has been shown of each table: the outbox's notes.

The version a face shows (and, for one that posts, its message) is written with the
table's next action, or, for a table that waits, within :data:`ANNOUNCE_DELAY` seconds by
a write of its own shared by every such table: a face being shown a move never costs a
commit, and a lost note (a crash within the delay) only means the move is shown once
more. Each face's notes are its own (``table_faces``, by table and face), so a second
face following a table never moves the first one's on or back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from data.backend import Backend, Session
from data.errors import StoreError

log = logging.getLogger(__name__)

ANNOUNCE_DELAY = 0.5
"""Seconds a note of what a face shows may wait for a write to join."""
ANNOUNCE_RETRY = 5.0
"""Seconds before notes that could not be written are tried again."""
_SHOW = (
    "INSERT INTO table_faces (table_id, face, version, message_id) SELECT ?, ?, ?, ?"
    " WHERE EXISTS (SELECT 1 FROM active_tables WHERE id = ?)"
    " ON CONFLICT (table_id, face) DO UPDATE SET version = excluded.version,"
    " message_id = COALESCE(excluded.message_id, table_faces.message_id)"
    " WHERE table_faces.version <= excluded.version"
)
"""Never moves a face's version back (a note written twice, or after a newer one), and
notes nothing of a table no longer stored (a closed table's end noted as shown after
forget-me or pruning deleted the table: there is nothing left to hand back)."""

Note = tuple[int | None, int]
"""(message, version): what a face shows of a table, not yet written."""
Key = tuple[str, str]
"""(table id, face)."""


async def write_notes(tx: Session, notes: dict[Key, Note]) -> None:
    """Store ``notes`` in the transaction ``tx`` (in one order, so that two writers
    never wait for each other's rows)."""
    if notes:
        await tx.executemany(
            _SHOW,
            [(table, face, version, message, table)
             for (table, face), (message, version) in sorted(notes.items())],
        )  # fmt: skip


class Outbox:
    """The notes of what faces show, kept until a write carries them."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._notes: dict[str, dict[str, Note]] = {}
        """table id → face → what the face shows of the table (by table: an action takes
        its table's at once)."""
        self._flusher: asyncio.Task[None] | None = None
        self._closed = False

    def note(self, table_id: str, face: str, message_id: int | None, version: int) -> None:
        """``face`` now shows ``version`` of the table, in ``message_id`` (None:
        unchanged); written within :data:`ANNOUNCE_DELAY` seconds unless an action of the
        table carries it first."""
        if self._closed:
            raise StoreError("unavailable", "the store is closed")
        self._keep((table_id, face), message_id, version)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_later(ANNOUNCE_DELAY))

    def pending(self, table_id: str) -> dict[Key, Note]:
        """The notes waiting for this table (every face's), taken to be written with its
        next action."""
        return {(table_id, face): note for face, note in self._notes.get(table_id, {}).items()}

    def written(self, taken: dict[Key, Note]) -> None:
        """The notes ``taken`` are stored: each is dropped unless a newer one came
        meanwhile."""
        for (table_id, face), note in taken.items():
            notes = self._notes.get(table_id, {})
            if notes.get(face) is note:
                del notes[face]
                if not notes:
                    del self._notes[table_id]

    async def flush(self) -> None:
        """Write every note now (one transaction)."""
        await self._write()

    async def close(self) -> None:
        """Write the notes still waiting; later notes are refused. A note that cannot be
        written is logged: its face is shown the table once more after the next
        start."""
        if self._closed:
            return
        self._closed = True
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flusher
        try:
            await self._write()
        except StoreError as error:
            log.warning("what faces show of %d tables was not stored (%s)", len(self._notes),
                        error)  # fmt: skip

    def _keep(self, key: Key, message_id: int | None, version: int) -> None:
        """Keep the newest version and the latest message known (None: unchanged)."""
        table_id, face = key
        notes = self._notes.setdefault(table_id, {})
        noted = notes.get(face)
        if noted is None:
            notes[face] = (message_id, version)
        elif version >= noted[1]:
            notes[face] = (noted[0] if message_id is None else message_id, version)
        elif noted[0] is None:
            notes[face] = (message_id, noted[1])

    async def _flush_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self._write()
        except StoreError as error:
            log.warning("could not store what faces show of %d tables (%s); trying again in %.0f s",
                        len(self._notes), error.fault, ANNOUNCE_RETRY)  # fmt: skip
            self._flusher = asyncio.create_task(self._flush_later(ANNOUNCE_RETRY))

    async def _write(self) -> None:
        """The notes taken are put back if the write fails (unless newer ones came)."""
        if not self._notes:
            return
        kept, self._notes = self._notes, {}
        taken = {
            (table, face): note for table, notes in kept.items() for face, note in notes.items()
        }

        async def store(tx: Session) -> None:
            await write_notes(tx, taken)

        try:
            await self.backend.write(store)
        except BaseException:
            newer, self._notes = self._notes, kept
            for table, notes in newer.items():
                for face, (message, version) in notes.items():
                    self._keep((table, face), message, version)
            raise
