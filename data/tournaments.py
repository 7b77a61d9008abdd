"""Tournaments, kept the way open tables are (``data.active_tables``): one row each whose
state is the tournament service's own JSON document, rewritten by compare-and-swap on its
version, with an append-only log of what was done to it; and the index from the table
service's tables to the tournament tables they are.

The store never reads inside a tournament's state: the service owns its shape. A state
that does not parse is handed back as its text, so one damaged row neither hides nor
blocks the others at start-up; the service decides what becomes of it.

Each method is one transaction: a save moves the row on, logs the action, maps the
round's new tables and keeps the news the change tells (``tournament_news``, the
tournaments' outbox: what the herald posts, marked once posted) together, or writes
nothing. A tournament is open while its status is
one of :data:`OPEN_STATUSES`; the partial index ``tournaments_due`` is written with the
same list, so the queries name the open statuses rather than exclude the closed ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from data.backend import Backend, Row, Session
from data.codec import document, dumps, loads
from data.errors import VersionConflict
from data.models import NewsRow, Told, TournamentRow

OPEN_STATUSES = ("signup", "running", "paused")
_OPEN = "status IN ({})".format(", ".join(f"'{status}'" for status in OPEN_STATUSES))
"""Written out, not bound: a database uses a partial index only where the query's own
text implies the index's condition."""
TOURNAMENT_COLUMNS = "id, guild_id, channel_id, status, version, state, due, created_at, updated_at"
"""Named, not ``*``, as the tables' columns are: a statement prepared before another
process adds a column still reads the same row."""


class Tournaments:
    """The part of :class:`~data.repository.Repository` that keeps tournaments."""

    backend: Backend

    async def create_tournament(
        self, row: TournamentRow, action: dict[str, Any], news: Sequence[Told] = ()
    ) -> None:
        """Store a new tournament with the action that made it as its first log line (at
        the row's version), and the ``news`` it tells. An id already taken is a bug of
        the caller's and is raised as the driver names it."""

        state = dumps(row.state)

        async def insert(tx: Session) -> None:
            await tx.execute(
                f"INSERT INTO tournaments ({TOURNAMENT_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id, row.guild_id, row.channel_id, row.status, row.version,
                    state, row.due, row.created_at, row.updated_at,
                ),
            )  # fmt: skip
            await _log(tx, row, action)
            await _keep_news(tx, row, state, news)

        await self.backend.write(insert)

    async def save_tournament(
        self,
        row: TournamentRow,
        expected_version: int,
        action: dict[str, Any],
        tables: Sequence[tuple[str, int, int]] = (),
        news: Sequence[Told] = (),
    ) -> None:
        """Store the tournament's new state, its log line, the tables this action
        opened (``(table_id, round, position)`` each) and the ``news`` it tells (in
        order) in one transaction, only if the stored version is still
        ``expected_version``; else :class:`VersionConflict` and nothing written, so a
        round's tables are never known without the state that seated them, nor the other
        way round, and no news is kept of a change that was not."""

        state = dumps(row.state)

        async def store(tx: Session) -> None:
            changed = await tx.execute(
                "UPDATE tournaments SET channel_id = ?, status = ?, version = ?, state = ?,"
                " due = ?, updated_at = ? WHERE id = ? AND version = ?",
                (
                    row.channel_id, row.status, row.version, state, row.due,
                    row.updated_at, row.id, expected_version,
                ),
            )  # fmt: skip
            if changed != 1:
                raise VersionConflict(
                    f"tournament {row.id} is no longer at version {expected_version}"
                )
            await _log(tx, row, action)
            if tables:  # most actions open none: no statement to send
                await tx.executemany(
                    "INSERT INTO tournament_tables (table_id, tournament_id, round, position)"
                    " VALUES (?, ?, ?, ?)",
                    [(table, row.id, number, position) for table, number, position in tables],
                )
            await _keep_news(tx, row, state, news)

        await self.backend.write(store)

    async def load_open_tournaments(self) -> list[TournamentRow]:
        """Every open tournament, oldest first: what the service resumes at start-up."""

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE {_OPEN}"
                " ORDER BY created_at, id"
            )

        return [_tournament_row(row) for row in await self.backend.read(query)]

    async def get_tournament(self, tournament_id: str) -> TournamentRow | None:
        """The tournament, open or closed; None if there is none by that id."""

        async def query(tx: Session) -> Row | None:
            return await tx.fetchrow(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
            )

        found = await self.backend.read(query)
        return None if found is None else _tournament_row(found)

    async def unposted_news(
        self, owns: Callable[[int], bool] = lambda guild_id: True
    ) -> list[NewsRow]:
        """The news not yet posted (nor given up) of the tournaments of the servers
        ``owns`` accepts, open or ended: each tournament's in the order it was told,
        the tournaments oldest first. What a start hands the herald again."""

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                "SELECT n.tournament_id, t.guild_id, n.version, n.ordinal, n.what, n.about,"
                " n.adjustment, n.state, n.created_at FROM tournament_news n"
                " JOIN tournaments t ON t.id = n.tournament_id WHERE n.posted_at IS NULL"
                " ORDER BY t.created_at, t.id, n.version, n.ordinal"
            )

        return [
            NewsRow(
                tournament_id=row["tournament_id"],
                guild_id=row["guild_id"],
                version=row["version"],
                ordinal=row["ordinal"],
                told=told or Told(row["what"]),
                state=document(row["state"]),
                created_at=row["created_at"],
                readable=told is not None,
            )
            for row in await self.backend.read(query)
            if owns(row["guild_id"])
            for told in (_told(row),)
        ]

    async def news_posted(
        self, tournament_id: str, version: int, ordinal: int, at: float, given_up: str | None = None
    ) -> None:
        """The piece of news is done with at ``at``: posted, or ``given_up`` (why it
        never will be). Its copy of the tournament's state goes: only news still to post
        needs one."""

        async def mark(tx: Session) -> None:
            await tx.execute(
                "UPDATE tournament_news SET posted_at = ?, given_up = ?, state = NULL"
                " WHERE tournament_id = ? AND version = ? AND ordinal = ? AND posted_at IS NULL",
                (at, given_up, tournament_id, version, ordinal),
            )

        await self.backend.write(mark)

    async def tournament_log(self, tournament_id: str) -> list[dict[str, Any]]:
        """What was done to the tournament, oldest first: each line's ``version``, ``at``
        (Unix time) and ``action`` (the document the service stored, or its text if it
        does not parse)."""

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                "SELECT version, at, action FROM tournament_log WHERE tournament_id = ?"
                " ORDER BY version",
                (tournament_id,),
            )

        return [
            {"version": row["version"], "at": row["at"], "action": document(row["action"])}
            for row in await self.backend.read(query)
        ]


async def _log(tx: Session, row: TournamentRow, action: dict[str, Any]) -> None:
    """The log line of the row's version, stamped with the row's time of change."""
    await tx.execute(
        "INSERT INTO tournament_log (tournament_id, version, at, action) VALUES (?, ?, ?, ?)",
        (row.id, row.version, row.updated_at, dumps(action)),
    )


async def _keep_news(tx: Session, row: TournamentRow, state: str, news: Sequence[Told]) -> None:
    """The news of the row's version, in order, each with the row's ``state`` (its text)
    and time."""
    if news:  # most changes tell something; some tell nothing
        await tx.executemany(
            "INSERT INTO tournament_news (tournament_id, version, ordinal, what, about,"
            " adjustment, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (row.id, row.version, ordinal, told.what, dumps(list(told.about)),
                 None if told.adjustment is None else dumps(told.adjustment), state,
                 row.updated_at)
                for ordinal, told in enumerate(news)
            ],
        )  # fmt: skip


def _told(row: Row) -> Told | None:
    """A piece of news as stored; None when whom it is about (a list of ids) or its
    adjustment (JSON) does not read back."""
    try:
        about = tuple(int(entrant) for entrant in loads(row["about"]))
        adjustment = None if row["adjustment"] is None else loads(row["adjustment"])
    except (TypeError, ValueError):
        return None
    return Told(row["what"], about, adjustment)


def _tournament_row(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=row["status"],
        version=row["version"],
        state=document(row["state"]),
        due=row["due"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
