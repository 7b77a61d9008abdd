"""The coach's analyses of finished games: one JSON document per game, stored once and
read back as it was written, and when it was announced. The store does not read it (the
coach's own format checks it, ``bot.players.coach``); it only keeps the first one given
for a game, and notes its announcement once (an analysis is stored before it is
announced: a crash between the two leaves it to announce at the next start)."""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from data.backend import Backend, Row, Session
from data.codec import document, dumps


class Unsaid(NamedTuple):
    """A finished game whose analysis is not stored yet or not announced yet."""

    game_id: str
    guild_id: int


class Analyses:
    """The part of :class:`~data.repository.Repository` that keeps games' analyses."""

    backend: Backend

    async def save_analysis(
        self, game_id: str, data: dict[str, Any], *, replacing: bool = False
    ) -> bool:
        """Keep ``data`` as the analysis of the finished game ``game_id``; False, with
        nothing changed, if the game already has one (the first one stays: an analysis is
        made once, and a second of the same game is the same). ``replacing``: the one
        kept did not read (a row damaged, or of a format no longer read), and ``data``,
        made again, takes its place, or every ask would make it again."""
        on_conflict = (
            "DO UPDATE SET analysis = excluded.analysis, created_at = excluded.created_at"
            if replacing
            else "DO NOTHING"
        )

        async def store(tx: Session) -> bool:
            written = await tx.execute(
                "INSERT INTO game_analysis (game_id, analysis, created_at) VALUES (?, ?, ?)"
                f" ON CONFLICT (game_id) {on_conflict}",
                (game_id, dumps(data), time.time()),
            )
            return written > 0

        return await self.backend.write(store)

    async def get_analysis(self, game_id: str) -> Any:
        """The stored analysis of ``game_id`` (a JSON object, as the coach wrote it; see
        :func:`_document`), or None when it has none yet."""

        async def query(tx: Session) -> Row | None:
            return await tx.fetchrow(
                "SELECT analysis FROM game_analysis WHERE game_id = ?", (game_id,)
            )

        row = await self.backend.read(query)
        if row is None:
            return None
        return _document(row)

    async def analyses_of(self, game_ids: list[str]) -> dict[str, Any]:
        """The stored analyses of those of ``game_ids`` that have one, by game id (a page
        of history reads its games' analyses at once)."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                f"SELECT game_id, analysis FROM game_analysis WHERE game_id IN ({marks})",
                game_ids,
            )

        return {row["game_id"]: _document(row) for row in await self.backend.read(query)}

    async def announcement_due(self, game_id: str) -> bool | None:
        """Whether ``game_id``'s analysis is still to be announced: None when none is
        stored, True when one is and it was not announced, False once it was."""

        async def query(tx: Session) -> Row | None:
            return await tx.fetchrow(
                "SELECT announced_at FROM game_analysis WHERE game_id = ?", (game_id,)
            )

        row = await self.backend.read(query)
        return None if row is None else row["announced_at"] is None

    async def mark_announced(self, game_id: str, at: float) -> bool:
        """Note that ``game_id``'s stored analysis was announced at ``at``; False, with
        nothing changed, if it was noted already (or none is stored)."""

        async def store(tx: Session) -> bool:
            written = await tx.execute(
                "UPDATE game_analysis SET announced_at = ?"
                " WHERE game_id = ? AND announced_at IS NULL",
                (at, game_id),
            )
            return written > 0

        return await self.backend.write(store)

    async def unsaid_since(self, since: float) -> list[Unsaid]:
        """The games finished at ``since`` or later with a member's seat (a game of
        computers alone is never analysed) whose analysis is not stored or not
        announced, the oldest first: what a start takes up after a crash."""

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                "SELECT g.id, g.guild_id FROM games g"
                " LEFT JOIN game_analysis a ON a.game_id = g.id"
                " WHERE g.finished_at >= ? AND a.announced_at IS NULL AND EXISTS"
                " (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.user_id IS NOT NULL)"
                " ORDER BY g.finished_at, g.id",
                (since,),
            )

        return [Unsaid(row["id"], row["guild_id"]) for row in await self.backend.read(query)]


def _document(row: Row) -> Any:
    """The stored analysis, decoded; a row that is not JSON comes back as its text (the
    coach's format refuses it, and a page of history still reads its other games)."""
    return document(row["analysis"])
