"""The rules of storage, written once for every database: what the table service and the
standings read and write, as SQL both SQLite and PostgreSQL run, through the backend seam
of ``data.backend`` (how a transaction runs, how faults are named).

:class:`Repository` is the one object the service holds; it is made of one part per
concern, each in its own module with its own rules:

- :mod:`data.active_tables`: open tables by compare-and-swap on their version, their
  actions, pruning closed ones;
- :mod:`data.outbox`: what each face has shown of each table, noted without a commit of
  its own;
- :mod:`data.games`: finished games, counted once, their history and series;
- :mod:`data.boards`: running totals, ratings and leaderboards;
- :mod:`data.guilds`: servers' settings;
- :mod:`data.privacy`: what is stored about a member, and forgetting it;
- :mod:`data.tournaments`: tournaments by compare-and-swap, their log, their tables;
- :mod:`data.analyses`: the coach's analyses of finished games, each stored once.
"""

from __future__ import annotations

from data.active_tables import ActiveTables
from data.analyses import Analyses
from data.backend import Backend, Session
from data.boards import Boards
from data.errors import ChannelInUse, StoreError, VersionConflict
from data.games import FinishedGames
from data.guilds import Guilds
from data.outbox import Outbox
from data.privacy import Privacy
from data.schema import migrate
from data.tournaments import Tournaments

__all__ = ["ChannelInUse", "Repository", "StoreError", "VersionConflict"]


class Repository(ActiveTables, FinishedGames, Boards, Guilds, Privacy, Tournaments, Analyses):
    """What the table service and the standings need from storage, over one backend.
    Open one with :func:`data.open_store`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.outbox = Outbox(backend)

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
        """Write the notes of what channels show still waiting, then close the backend; a
        second call does nothing. A note that cannot be written is logged: its channel is
        shown the table once more after the next start."""
        try:
            await self.outbox.close()
        finally:
            await self.backend.close()

    async def __aenter__(self) -> Repository:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
