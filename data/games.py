"""Finished games: each one claimed by its id and written whole (the game, its rounds and
seats) with the totals and ratings it moves, once; read back whole (its record replays
it), a member's history page by page, and the series between the same seats."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from data.backend import Backend, Session
from data.boards import count_game, keep_names
from data.codec import document, dumps
from data.models import FinishedGame, Participant, RoundResult

Seat = tuple[int | None, str | None]
"""A seat of a series: a member's id, or a computer's level."""


class FinishedGames:
    """The part of :class:`~data.repository.Repository` that keeps finished games."""

    backend: Backend

    async def record_finished_game(self, game: FinishedGame) -> bool:
        """The game, its rounds, stats and ratings, in one transaction. False, with
        nothing changed, if a game with this id is already stored: a retry after a
        doubtful failure never counts a game, or moves a rating, twice."""

        async def record(tx: Session) -> bool:
            return await insert_finished_game(tx, game)

        return await self.backend.write(record)

    async def get_game(self, game_id: str) -> FinishedGame | None:
        """A finished game, whole (its record replays it), its seats named as they played."""

        async def query(tx: Session) -> FinishedGame | None:
            games = await _games(tx, "g.id = ?", (game_id,))
            return games[0] if games else None

        return await self.backend.read(query)

    async def game_of_table(self, table_id: str) -> FinishedGame | None:
        """The game a table finished with (a table plays one game), if it was recorded:
        how a tournament learns the end of a table it did not hear (a restart)."""

        async def query(tx: Session) -> FinishedGame | None:
            games = await _games(tx, "g.table_id = ?", (table_id,))
            return games[0] if games else None

        return await self.backend.read(query)

    async def games_of(
        self, user_id: int, guild_id: int, page: int = 0, page_size: int = 10
    ) -> tuple[list[FinishedGame], int]:
        """A member's finished games in one server, newest first: one page, and how many
        there are in all."""
        where = "g.guild_id = ? AND g.id IN (SELECT game_id FROM game_seats WHERE user_id = ?)"

        async def query(tx: Session) -> tuple[list[FinishedGame], int]:
            counted = await tx.fetchrow(
                f"SELECT COUNT(*) AS n FROM games g WHERE {where}", (guild_id, user_id)
            )
            assert counted is not None
            page_of = await _games(
                tx, where, (guild_id, user_id), limit=(page_size, page * page_size)
            )
            return page_of, int(counted["n"])

        return await self.backend.read(query)

    async def series(
        self, guild_id: int, game: str, seats: list[Seat], last: int = 200
    ) -> list[int]:
        """Games won by each of ``seats`` (a member's id, or a computer's level) over the
        finished games of ``game`` in this server played by exactly these seats, in any
        order (the newest ``last`` of the first member's games are looked at). Computers
        of one level are told apart by their order at the table (a rematch seats everyone
        as they sat): the second of them is credited with the second's wins."""
        members = [user for user, _ in seats if user is not None]
        if not members:
            return [0] * len(seats)
        numbered = _numbered(seats)
        wanted = sorted(numbered)
        where = (
            "g.guild_id = ? AND g.game = ? AND g.id IN"
            " (SELECT game_id FROM game_seats WHERE user_id = ?)"
        )

        async def query(tx: Session) -> list[FinishedGame]:
            return await _games(tx, where, (guild_id, game, members[0]), limit=(last, 0))

        wins = [0] * len(seats)
        for played in await self.backend.read(query):
            ordered = sorted(played.participants, key=lambda p: p.seat)
            who = _numbered([(p.user_id, p.computer_level) for p in ordered])
            if sorted(who) != wanted:
                continue
            for p, key in zip(ordered, who, strict=True):
                if p.won:
                    wins[numbered.index(key)] += 1
        return wins


async def insert_finished_game(tx: Session, game: FinishedGame) -> bool:
    """Write a finished game inside the caller's transaction: the game, rounds and seats,
    then what it adds to its members' totals and ratings (:func:`~data.boards.count_game`)
    and their last names in its server (:func:`~data.boards.keep_names`, rated or not).
    Each member's seat keeps the name they played under, so the game is read back as it
    was played, whatever they are called later or elsewhere. Computer seats are kept
    with the game but get no stats, name or rating, so they never reach a leaderboard.
    False, with nothing written, if this game id is already stored: the id is claimed
    first, so a game is counted once however often it is written."""
    claimed = await tx.execute(
        "INSERT INTO games (id, table_id, guild_id, game, finished_at, record, rated, hints,"
        " channel_id, stood_in) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
        (game.id, game.table_id, game.guild_id, game.game, game.finished_at,
         dumps(game.record), int(game.rated), int(game.hints), game.channel_id,
         dumps(list(game.stood_in))),
    )  # fmt: skip
    if claimed == 0:
        return False
    await tx.execute("UPDATE active_tables SET status = 'finished' WHERE id = ?", (game.table_id,))
    await tx.executemany(
        "INSERT INTO game_rounds (game_id, number, reason, winner, points) VALUES (?, ?, ?, ?, ?)",
        [(game.id, r.number, r.reason, r.winner, dumps(r.points)) for r in game.rounds],
    )
    await tx.executemany(
        "INSERT INTO game_seats (game_id, seat, team, user_id, computer_level,"
        " final_score, won, rounds_won, points, dominoes, blocked_wins, name)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game.id, p.seat, p.team, p.user_id, p.computer_level, p.final_score,
             int(p.won), p.rounds_won, p.points, p.dominoes, p.blocked_wins,
             p.name if p.user_id is not None else "")
            for p in game.participants
        ],
    )  # fmt: skip
    if game.rated:  # a game with hints counts for nobody
        await count_game(tx, game)
    await keep_names(tx, game)
    return True


async def _games(
    tx: Session, where: str, params: tuple[Any, ...], limit: tuple[int, int] | None = None
) -> list[FinishedGame]:
    """Finished games matching ``where`` (on ``games g``), newest first, whole: rounds and
    seats, each member's named as they played in it (a computer's as before: unnamed)."""
    paging = " LIMIT ? OFFSET ?" if limit else ""
    games = await tx.fetch(
        "SELECT g.id, g.table_id, g.guild_id, g.game, g.finished_at, g.record, g.rated, g.hints,"
        f" g.channel_id, g.stood_in FROM games g WHERE {where}"
        f" ORDER BY g.finished_at DESC, g.id{paging}",
        (*params, *(limit or ())),
    )
    if not games:
        return []
    ids = [row["id"] for row in games]
    marks = ", ".join("?" for _ in ids)
    seats = await tx.fetch(
        "SELECT s.game_id, s.seat, s.team, s.user_id, s.computer_level, s.final_score, s.won,"
        " s.rounds_won, s.points, s.dominoes, s.blocked_wins, s.name FROM game_seats s"
        f" WHERE s.game_id IN ({marks})"
        " ORDER BY s.game_id, s.seat",
        ids,
    )
    rounds = await tx.fetch(
        "SELECT game_id, number, reason, winner, points FROM game_rounds"
        f" WHERE game_id IN ({marks}) ORDER BY game_id, number",
        ids,
    )
    by_game: dict[str, tuple[list[Participant], list[RoundResult]]] = {i: ([], []) for i in ids}
    for row in seats:
        by_game[row["game_id"]][0].append(
            Participant(
                seat=row["seat"],
                team=row["team"],
                final_score=row["final_score"],
                won=bool(row["won"]),
                user_id=row["user_id"],
                computer_level=row["computer_level"],
                name=row["name"] or "",
                rounds_won=row["rounds_won"],
                points=row["points"],
                dominoes=row["dominoes"],
                blocked_wins=row["blocked_wins"],
            )
        )
    for row in rounds:
        by_game[row["game_id"]][1].append(
            RoundResult(row["number"], row["reason"], row["winner"], _numbers(row["points"]))
        )
    return [
        FinishedGame(
            id=row["id"],
            table_id=row["table_id"],
            guild_id=row["guild_id"],
            game=row["game"],
            finished_at=row["finished_at"],
            record=document(row["record"]),  # text, if not JSON: it does not replay
            rounds=by_game[row["id"]][1],
            participants=by_game[row["id"]][0],
            rated=bool(row["rated"]),
            hints=bool(row["hints"]),
            channel_id=row["channel_id"],
            stood_in=tuple(_numbers(row["stood_in"])),
        )
        for row in games
    ]


def _numbers(value: Any) -> list[int]:
    """A JSON column holding a list of whole numbers (a round's points, the moves the
    computer made for a member), decoded; one that does not read as such (edited by hand,
    half written) reads as none, as for a game stored before the column was kept, so
    that one damaged game never hides a member's history or the series."""
    decoded = document(value)
    if isinstance(decoded, list) and all(
        isinstance(item, int) and not isinstance(item, bool) for item in decoded
    ):
        return decoded
    return []


def _seat_key(seat: Seat) -> tuple[int, str]:
    return (seat[0] or 0, seat[1] or "")


def _numbered(seats: Sequence[Seat]) -> list[tuple[int, str, int]]:
    """Each seat's key, with how many seats of the same key came before it (two
    computers of one level are two seats)."""
    seen: Counter[tuple[int, str]] = Counter()
    numbered = []
    for seat in seats:
        key = _seat_key(seat)
        numbered.append((*key, seen[key]))
        seen[key] += 1
    return numbered
