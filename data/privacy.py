"""What the store holds about a member, and forgetting it (``/domino privacy``)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from data.backend import Backend, Row, Session
from data.codec import document, dumps, loads
from data.models import Forgotten, Stored
from data.tournaments import OPEN_STATUSES


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
            names = await tx.fetch(
                "SELECT name FROM member_names WHERE user_id = ? ORDER BY updated_at DESC",
                (user_id,),
            )
            assert stats is not None and ratings is not None and games is not None
            return Stored(
                int(stats["n"]), int(ratings["n"]), tuple(dict.fromkeys(r["name"] for r in names)),
                int(games["n"]), await _tournaments_naming(tx, user_id),
            )  # fmt: skip

        return await self.backend.read(query)

    async def seated_at(self, user_id: int, passing: Collection[str] = ()) -> int | None:
        """The channel of an open table that seats ``user_id`` or, a rematch's lobby,
        keeps them a seat or a place in its series, or keeps their name, as stored
        (whichever process plays it: a forget-me is refused there, as at a table of its
        own), but the tables ``passing`` names (the asking process's own, whose
        rematches let them go), if any."""

        async def query(tx: Session) -> list[Row]:
            return await tx.fetch(
                "SELECT id, channel_id, state FROM active_tables"
                " WHERE status IN ('lobby', 'playing') AND state LIKE ? ORDER BY created_at, id",
                (f"%{user_id}%",),
            )

        for row in await self.backend.read(query):
            if row["id"] not in passing and _holds_user(row["state"], user_id):
                return int(row["channel_id"])
        return None

    async def forget(self, user_id: int) -> Forgotten:
        """Delete a member's stats, ratings and names (one per server), and take their id
        and name off the seats of finished games (kept, anonymous), off closed tables
        they sat at or hosted (a tournament's organiser hosts unseated; deleted) and out
        of closed tournaments (kept, anonymous: :func:`_forget_in_tournaments`), in one
        transaction. Open tables and tournaments are the caller's to refuse first."""

        async def work(tx: Session) -> Forgotten:
            stats = await tx.execute("DELETE FROM player_stats WHERE user_id = ?", (user_id,))
            ratings = await tx.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
            names = await tx.execute("DELETE FROM member_names WHERE user_id = ?", (user_id,))
            seats = await tx.execute(
                "UPDATE game_seats SET user_id = NULL, name = '' WHERE user_id = ?", (user_id,)
            )
            closed = await tx.fetch(
                "SELECT id, host_id, state FROM active_tables"
                " WHERE status IN ('finished', 'cancelled')"
            )
            mine = [
                row["id"]
                for row in closed
                if row["host_id"] == user_id or _holds_user(row["state"], user_id)
            ]
            for table_id in mine:
                await tx.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))
                await tx.execute("DELETE FROM active_tables WHERE id = ?", (table_id,))
            tournaments = await _forget_in_tournaments(tx, user_id)
            return Forgotten(stats, ratings, names, seats, len(mine), tournaments)

        return await self.backend.write(work)


async def _tournaments_naming(tx: Session, user_id: int) -> int:
    """How many tournaments, open or ended, name the member in their state or log: the
    rows whose text holds their id, read once, then held to the id itself."""
    like = f"%{user_id}%"
    states = await tx.fetch("SELECT id, state FROM tournaments WHERE state LIKE ?", (like,))
    lines = await tx.fetch(
        "SELECT tournament_id AS id, action AS state FROM tournament_log WHERE action LIKE ?",
        (like,),
    )
    return len({row["id"] for row in (*states, *lines) if _names(document(row["state"]), user_id)})


async def _forget_in_tournaments(tx: Session, user_id: int) -> int:
    """Take the member out of every finished or cancelled tournament that names them,
    keeping its standings whole: in its state and its log, their id becomes a negative
    id no other entrant of that tournament has (:func:`_placeholder`), and their name
    becomes empty (the words show "a former player"). Returns how many tournaments.

    The store does not know the shape of a tournament's state (the service owns it), so
    the member is found the way any shape names them: by their id, an integer wherever
    it is (a Discord id is a snowflake, never equal to a round, a place, points or
    another id), and by their name (:func:`_names_of`). An open tournament is the
    service's to refuse (its state is kept in memory too); a withdrawn member's place
    in one is not touched here. A tournament whose state does not name them may still
    name them in its log or news (an organiser who paused it, a partner chosen who never
    signed up): those are rewritten too."""
    like = f"%{user_id}%"
    closed = await tx.fetch(
        f"SELECT id, state FROM tournaments WHERE {_CLOSED} AND (state LIKE ?"
        " OR id IN (SELECT tournament_id FROM tournament_log WHERE action LIKE ?)"
        " OR id IN (SELECT tournament_id FROM tournament_news"
        " WHERE about LIKE ? OR adjustment LIKE ?))",
        (like, like, like, like),
    )
    changed = 0
    for row in closed:
        try:
            state = loads(row["state"])
        except ValueError:  # a damaged row is the service's to judge, not ours to rewrite
            continue
        placeholder = _placeholder(state)
        names = _names_of(state, user_id)
        named = _names(state, user_id)
        if named:
            await tx.execute(
                "UPDATE tournaments SET state = ? WHERE id = ?",
                (dumps(_without(state, user_id, placeholder, names)), row["id"]),
            )
        named |= await _forget_in_log(tx, row["id"], user_id, placeholder, names)
        named |= await _forget_in_news(tx, row["id"], user_id, placeholder, names)
        changed += 1 if named else 0
    return changed


async def _forget_in_log(
    tx: Session, tournament_id: str, user_id: int, placeholder: int, names: set[str]
) -> bool:
    """The tournament's log lines that name the member, as its state does; whether any."""
    lines = await tx.fetch(
        "SELECT version, action FROM tournament_log WHERE tournament_id = ?", (tournament_id,)
    )
    found = False
    for line in lines:
        try:
            action = loads(line["action"])
        except ValueError:
            continue
        if _names(action, user_id):
            found = True
            await tx.execute(
                "UPDATE tournament_log SET action = ? WHERE tournament_id = ? AND version = ?",
                (dumps(_without(action, user_id, placeholder, names)), tournament_id,
                 line["version"]),
            )  # fmt: skip
    return found


async def _forget_in_news(
    tx: Session, tournament_id: str, user_id: int, placeholder: int, names: set[str]
) -> bool:
    """The tournament's news names the member as its state and its log did: whom each
    piece is about and an organiser's adjustment, posted or not, and the state a piece
    not yet posted keeps (a stop before its herald posted it: it is told as the
    tournament now stands, so they are a former player there too). Whether any did."""
    pieces = await tx.fetch(
        "SELECT version, ordinal, about, adjustment, state FROM tournament_news"
        " WHERE tournament_id = ?",
        (tournament_id,),
    )
    found = False
    for piece in pieces:
        try:
            kept = {
                column: loads(piece[column])
                for column in ("about", "adjustment", "state")
                if piece[column] is not None
            }
        except ValueError:
            continue
        if not any(_names(value, user_id) for value in kept.values()):
            continue
        found = True
        await tx.execute(
            "UPDATE tournament_news SET about = ?, adjustment = ?, state = ?"
            " WHERE tournament_id = ? AND version = ? AND ordinal = ?",
            (*(None if kept.get(column) is None
               else dumps(_without(kept[column], user_id, placeholder, names))
               for column in ("about", "adjustment", "state")),
             tournament_id, piece["version"], piece["ordinal"]),
        )  # fmt: skip
    return found


_CLOSED = "status NOT IN ({})".format(", ".join(f"'{status}'" for status in OPEN_STATUSES))
"""A tournament the service no longer keeps: finished or cancelled."""


def _ints(value: Any) -> Iterator[int]:
    """Every integer in a JSON document (a boolean is none)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _ints(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ints(item)


def _names(document: Any, user_id: int) -> bool:
    """Whether the document holds the member's id anywhere."""
    return any(number == user_id for number in _ints(document))


def _placeholder(state: Any) -> int:
    """A negative id found nowhere in the tournament's state (below every negative id
    there: a computer, a pair, a member forgotten before), so that the forgotten member
    stays one entrant, distinct from every other."""
    return min((number for number in _ints(state) if number < 0), default=0) - 1


def _members_of(value: Any) -> list[list[Any] | dict[str, Any]]:
    """Every list and object of a JSON document, the document first."""
    found: list[list[Any] | dict[str, Any]] = []
    if isinstance(value, list | dict):
        found.append(value)
        for item in value if isinstance(value, list) else value.values():
            found.extend(_members_of(item))
    return found


def _holds(container: list[Any] | dict[str, Any], user_id: int) -> bool:
    """Whether a list or object holds the member's id itself (not deeper)."""
    items = container if isinstance(container, list) else container.values()
    return any(_is_id(item, user_id) for item in items)


def _names_of(state: Any, user_id: int) -> set[str]:
    """The names the state gives the member: the texts of a row that begins with their
    id (``[id, name, …]``, as a tournament's players are kept), and of a name field of
    an object that holds their id."""
    found: set[str] = set()
    for container in _members_of(state):
        if isinstance(container, list):
            if container and _is_id(container[0], user_id):
                found.update(item for item in container[1:] if isinstance(item, str) and item)
        elif _holds(container, user_id):
            found.update(
                item for key, item in container.items()
                if "name" in key and isinstance(item, str) and item
            )  # fmt: skip
    return found


def _is_id(value: Any, user_id: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and value == user_id


def _without(value: Any, user_id: int, placeholder: int, names: set[str]) -> Any:
    """``value`` with the member's id replaced by ``placeholder`` everywhere, and their
    names emptied where they stand beside their id (in a list, or an object's name
    field), so that another entrant of the same name keeps theirs."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return placeholder if value == user_id else value
    if isinstance(value, list):
        beside = _holds(value, user_id)
        return [
            "" if beside and isinstance(item, str) and item in names
            else _without(item, user_id, placeholder, names)
            for item in value
        ]  # fmt: skip
    if isinstance(value, dict):
        beside = _holds(value, user_id)
        return {
            key: "" if beside and "name" in key and isinstance(item, str) and item in names
            else _without(item, user_id, placeholder, names)
            for key, item in value.items()
        }  # fmt: skip
    return value


def _holds_user(state: Any, user_id: int) -> bool:
    """Whether a stored table's state names ``user_id``: seated, a rematch's lobby
    keeping them a seat (``invited``) or a place in its series (``lineup``: ``u<id>``),
    or their name kept beside their id (``unseated``: ``[id, name]``).
    A state that does not read as a table's (a damaged row, kept closed for a developer
    to look at) names them if its text holds their id: it is deleted rather than kept."""
    data = document(state)
    if not isinstance(data, dict):
        return str(user_id) in str(state)
    seats, invited, lineup, unseated = (
        data.get(key) for key in ("seats", "invited", "lineup", "unseated")
    )
    return (
        _seats(seats, user_id)
        or (isinstance(invited, list) and user_id in invited)
        or (isinstance(lineup, list) and f"u{user_id}" in lineup)
        or (isinstance(unseated, list) and any(_named(row, user_id) for row in unseated))
    )


def _named(row: Any, user_id: int) -> bool:
    """Whether one of a stored table's ``unseated`` rows (``[id, name]``) is the member's."""
    return isinstance(row, list) and bool(row) and _is_id(row[0], user_id)


def _seats(seats: Any, user_id: int) -> bool:
    """Whether a stored table's ``seats`` (as its state holds them) seat ``user_id``."""
    return isinstance(seats, list) and any(
        isinstance(seat, dict) and seat.get("user_id") == user_id for seat in seats
    )
