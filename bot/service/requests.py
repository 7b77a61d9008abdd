"""What a face asks the service to open."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TournamentSeats:
    """A tournament's table: the ``players`` its round drew to it, in the order they sit
    (partners across), for whom its seats are kept; the tournament's organiser hosts it
    without a seat (named by ``NewTable.host_name``, or "" when the tournament does
    not know their name), and the tournament starts it."""

    tournament: str
    players: tuple[int, ...]
    rated: bool = True
    names: tuple[tuple[int, str], ...] = ()
    """Each player's name, by id: the table names them by these until they sit (a face
    that cannot mention a member: the browser)."""


@dataclass(frozen=True, slots=True)
class NewTable:
    """What ``/domino new`` asks for; the options are checked by the engine."""

    guild_id: int
    channel_id: int
    host_id: int
    host_name: str
    game: str
    target: int | None = None
    keep_last_two: bool | None = None
    match_games: int | None = None
    hints: bool = False
    """Members may ask for a hint; the game is then not rated."""
