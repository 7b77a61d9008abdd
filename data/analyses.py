"""The coach's analyses of finished games: one JSON document per game, stored once and
read back as it was written. The store does not read it (the coach's own format checks
it, ``bot.players.coach``); it only keeps the first one given for a game."""

from __future__ import annotations

import time
from typing import Any

from data.backend import Backend, Row, Session
from data.codec import dumps, loads


class Analyses:
    """The part of :class:`~data.repository.Repository` that keeps games' analyses."""

    backend: Backend

    async def save_analysis(self, game_id: str, data: dict[str, Any]) -> bool:
        """Keep ``data`` as the analysis of the finished game ``game_id``; False, with
        nothing changed, if the game already has one (the first one stays: an analysis is
        made once, and a second of the same game is the same)."""

        async def store(tx: Session) -> bool:
            written = await tx.execute(
                "INSERT INTO game_analysis (game_id, analysis, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO NOTHING",
                (game_id, dumps(data), time.time()),
            )
            return written > 0

        return await self.backend.write(store)

    async def get_analysis(self, game_id: str) -> dict[str, Any] | None:
        """The stored analysis of ``game_id``, or None when it has none yet."""

        async def query(tx: Session) -> Row | None:
            return await tx.fetchrow(
                "SELECT analysis FROM game_analysis WHERE game_id = ?", (game_id,)
            )

        row = await self.backend.read(query)
        if row is None:
            return None
        return _document(row)

    async def analyses_of(self, game_ids: list[str]) -> dict[str, dict[str, Any]]:
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


def _document(row: Row) -> dict[str, Any]:
    data = loads(row["analysis"])
    assert isinstance(data, dict), "an analysis is stored as a JSON object"
    return data
