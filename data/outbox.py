"""What each channel has been shown of its table: the outbox's notes.

The version a channel shows (and its message) is written with the table's next action,
or, for a table that waits, within :data:`ANNOUNCE_DELAY` seconds by a write of its own
shared by every such table: a channel being shown a move never costs a commit, and a lost
note (a crash within the delay) only means the move is shown once more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from data.backend import Backend, Session
from data.errors import StoreError
from data.models import TableRow

log = logging.getLogger(__name__)

ANNOUNCE_DELAY = 0.5
"""Seconds a note of what a channel shows may wait for a write to join."""
ANNOUNCE_RETRY = 5.0
"""Seconds before notes that could not be written are tried again."""
_ANNOUNCE = (
    "UPDATE active_tables SET message_id = COALESCE(?, message_id), announced_version = ?"
    " WHERE id = ? AND (announced_version IS NULL OR announced_version <= ?)"
)
"""Never moves a channel's version back (a note written twice, or after a newer one)."""

Note = tuple[int | None, int]
"""(message, version): what a table's channel shows, not yet written."""


class Outbox:
    """The notes of what channels show, kept until a write carries them."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._notes: dict[str, Note] = {}
        """table id → what its channel shows."""
        self._flusher: asyncio.Task[None] | None = None
        self._closed = False

    def note(self, table_id: str, message_id: int | None, version: int) -> None:
        """The channel now shows ``version``, in ``message_id`` (None: unchanged); written
        within :data:`ANNOUNCE_DELAY` seconds unless an action of the table carries it
        first."""
        if self._closed:
            raise StoreError("unavailable", "the store is closed")
        self._keep(table_id, message_id, version)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_later(ANNOUNCE_DELAY))

    def pending(self, table_id: str) -> Note | None:
        """The note waiting for this table, taken before its row is written."""
        return self._notes.get(table_id)

    def written_with(self, row: TableRow, noted: Note | None) -> None:
        """``row`` is stored, carrying what it says its channel shows: the note taken
        before the write is dropped if the row covers it and no newer note came since."""
        shown = row.announced_version
        if noted is None or self._notes.get(row.id) is not noted or shown is None:
            return
        message, version = noted
        if version <= shown and message in (None, row.message_id):
            del self._notes[row.id]

    async def flush(self) -> None:
        """Write every note now (one transaction)."""
        await self._write()

    async def close(self) -> None:
        """Write the notes still waiting; later notes are refused. A note that cannot be
        written is logged: its channel is shown the table once more after the next
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
            log.warning("what %d channels show was not stored (%s)", len(self._notes), error)

    def _keep(self, table_id: str, message_id: int | None, version: int) -> None:
        """Keep the newest version and the latest message known (None: unchanged)."""
        noted = self._notes.get(table_id)
        if noted is None:
            self._notes[table_id] = (message_id, version)
        elif version >= noted[1]:
            self._notes[table_id] = (noted[0] if message_id is None else message_id, version)
        elif noted[0] is None:
            self._notes[table_id] = (message_id, noted[1])

    async def _flush_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self._write()
        except StoreError as error:
            log.warning("could not store what %d channels show (%s); trying again in %.0f s",
                        len(self._notes), error.fault, ANNOUNCE_RETRY)  # fmt: skip
            self._flusher = asyncio.create_task(self._flush_later(ANNOUNCE_RETRY))

    async def _write(self) -> None:
        """The notes taken are put back if the write fails (unless newer ones came)."""
        if not self._notes:
            return
        taken, self._notes = self._notes, {}

        async def store(tx: Session) -> None:
            await tx.executemany(
                _ANNOUNCE,
                [(message, version, table, version)
                 for table, (message, version) in sorted(taken.items())],
            )  # fmt: skip

        try:
            await self.backend.write(store)
        except BaseException:
            newer, self._notes = self._notes, taken
            for table, (message, version) in newer.items():
                self._keep(table, message, version)
            raise
