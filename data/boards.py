"""Members' running totals, ratings and leaderboards.

- **Counted once.** A finished game adds to its members' totals by upserts, in its own
  server and everywhere (``guild_id`` 0; a Discord server's game only); each rating is
  read and rewritten while its name is held (``Session.serialize``), so two games
  ending at once never both start from the same old rating.
- **Leaderboards** read running totals through their indexes, ties broken by more games
  and then the lower user id, so a rank is a position.
- **Names are a server's own.** A Discord nickname is given in one server (a private
  server's may be a real name), so a member's name is kept per server, and a board names
  them as the server it is shown in knows them: never by a name from another.
"""

from __future__ import annotations

from typing import Any

from data.backend import Backend, Row, Session
from data.models import (
    GLOBAL,
    FinishedGame,
    Leaderboard,
    LeaderboardEntry,
    Stats,
    counts_everywhere,
)
from data.ratings import Rating, ordinal, rate

STAT_COLUMNS = ("games", "wins", "rounds_won", "points", "dominoes", "blocked_wins")
BOARD_ORDERS = {
    "rating": "s.rating",
    "wins": "s.wins",
    "points": "s.points",
}
"""Leaderboard orders: a fixed whitelist of columns, never text from a user."""
_BOARD_WHERE = " WHERE s.game = ? AND s.guild_id = ? AND s.games >= ?"
_BOARD_ROWS = (
    "SELECT s.user_id, s.rating, s.games, s.wins, s.points, n.name, {column} AS score"
    " FROM player_stats s LEFT JOIN member_names n ON n.user_id = s.user_id AND n.guild_id = ?"
)
"""A board's rows, named as the server of the first parameter knows its members."""
_BOARD_COUNT = "SELECT COUNT(*) AS n FROM player_stats s"
"""Counts read the board's index alone: no join with the names they do not show."""


class Boards:
    """The part of :class:`~data.repository.Repository` that reads totals and boards."""

    backend: Backend

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
        shown_in: int | None = None,
    ) -> Leaderboard:
        """Players of ``game`` in one server (or everywhere), best first: by the global
        rating (players with at least ``min_games`` games there), wins or points. Ties go
        to more games, then the older account (lower id), so the order is total and a rank
        is a position: the caller's rank, counted apart, always matches the pages. The
        count, the page and the rank are read in one transaction, so they agree.

        Each player is named by the name they last played under in the board's server;
        on the board of every server, in ``shown_in`` (the server it is shown in), and
        otherwise not at all (an empty name, for the face to name them as it can): a
        nickname from one server never reaches another's."""
        if order not in BOARD_ORDERS:
            raise ValueError(f"unknown leaderboard order {order!r}: one of {list(BOARD_ORDERS)}")
        column = BOARD_ORDERS[order]
        scope = GLOBAL if guild_id is None else guild_id
        named_in = guild_id if guild_id is not None else shown_in
        floor = min_games if order == "rating" else 1
        params = (game, scope, floor)
        named = (GLOBAL if named_in is None else named_in, *params)
        rows_sql = _BOARD_ROWS.format(column=column) + _BOARD_WHERE

        async def query(tx: Session) -> Leaderboard:
            counted = await tx.fetchrow(_BOARD_COUNT + _BOARD_WHERE, params)
            assert counted is not None, "COUNT(*) always returns one row"
            rows = await tx.fetch(
                f"{rows_sql} ORDER BY {column} DESC, s.games DESC, s.user_id LIMIT ? OFFSET ?",
                (*named, page_size, page * page_size),
            )
            entries = [_entry(page * page_size + i + 1, row) for i, row in enumerate(rows)]
            me = None
            if user_id is not None:
                me = next((e for e in entries if e.user_id == user_id), None)
                if me is None:
                    me = await _rank_of(tx, column, named, user_id)
            return Leaderboard(entries, counted["n"], me)

        return await self.backend.read(query)


async def count_game(tx: Session, game: FinishedGame) -> None:
    """Add a rated finished game to its members' totals, in its server and globally (a
    Discord server's game: :func:`~data.models.counts_everywhere`), and move their
    ratings, each computed once from the ratings stored before this game; inside the
    caller's transaction. Computer seats count for nobody. (Their last names
    are kept for every game, rated or not: :func:`keep_names`.)

    Locks are taken in one order everywhere (the table's row, then the members' names in
    sorted order), so two games ending at once wait for each other, never deadlock."""
    members = sorted(
        (p for p in game.participants if p.user_id is not None), key=lambda p: p.user_id or 0
    )
    if not members:
        return
    users = [p.user_id for p in members if p.user_id is not None]
    guilds = (game.guild_id, GLOBAL) if counts_everywhere(game.guild_id) else (game.guild_id,)
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
            for guild in guilds
        ],
    )  # fmt: skip
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


async def keep_names(tx: Session, game: FinishedGame) -> None:
    """Keep the name each member of a finished game played under as their last one in
    its server, inside the caller's transaction, for that server's boards (and the board
    of every server shown there): a Discord nickname is that server's, so no other
    server's board shows it. A game that is not rated keeps them too, or a member who
    has played only such games would be named by digits of their id. (The game itself
    keeps its seats' names, as they played: :func:`~data.games.insert_finished_game`.)
    Rows are written in user id order, as every game writes them, so two games ending
    at once wait for each other, never deadlock (a rated game writes them once its
    ratings' names are held, :func:`count_game`)."""
    await tx.executemany(
        "INSERT INTO member_names (user_id, guild_id, name, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (user_id, guild_id) DO UPDATE SET name = excluded.name,"
        " updated_at = excluded.updated_at",
        sorted(
            (p.user_id, game.guild_id, p.name, game.finished_at)
            for p in game.participants
            if p.user_id is not None and p.name
        ),
    )


async def _ratings(tx: Session, game: str, users: list[int]) -> dict[int, Rating]:
    marks = ", ".join("?" for _ in users)
    rows = await tx.fetch(
        f"SELECT user_id, mu, sigma FROM ratings WHERE game = ? AND user_id IN ({marks})",
        (game, *users),
    )
    return {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}


async def _rank_of(
    tx: Session, column: str, named: tuple[Any, ...], user_id: int
) -> LeaderboardEntry | None:
    """The player's row with its rank: one plus how many rows sort before it under the
    board's full order (score, then games, then user id). None if they do not qualify.
    ``named``: the server whose names the board shows, then the board's parameters."""
    params = named[1:]
    rows_sql = _BOARD_ROWS.format(column=column) + _BOARD_WHERE
    mine = await tx.fetchrow(f"{rows_sql} AND s.user_id = ?", (*named, user_id))
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
