"""What the store holds about a member, and forgetting it (``/domino privacy``)."""

from __future__ import annotations

from typing import Any

from data.backend import Backend, Session
from data.codec import loads
from data.models import Forgotten, Stored


class Privacy:
    """The part of :class:`~data.repository.Repository` that answers for a member's data."""

    backend: Backend

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


def _holds_user(state: Any, user_id: int) -> bool:
    """Whether a stored table's state names ``user_id``: seated, or a rematch's lobby
    keeping them a seat (``invited``) or a place in its series (``lineup``: ``u<id>``)."""
    data = loads(state)
    seats = data.get("seats", ())
    return (
        any(isinstance(s, dict) and s.get("user_id") == user_id for s in seats)
        or user_id in data.get("invited", ())
        or f"u{user_id}" in data.get("lineup", ())
    )
