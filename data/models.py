"""Plain values the store reads and writes; nothing here knows the rules of dominoes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

GLOBAL = 0
"""The ``guild_id`` under which stats add up across every server: every Discord server
(a positive id). The browser's local server (a negative id, as its guests' are) keeps
its own board only: its guests are named by a cookie anyone can make, not by Discord."""


def counts_everywhere(guild_id: int) -> bool:
    """Whether a game of this server adds to the board of every server (:data:`GLOBAL`)."""
    return guild_id > GLOBAL


@dataclass(slots=True)
class TableRow:
    """An open (or just closed) table: its whole state (which carries its game record)
    and its version."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    status: str
    """``lobby``, ``playing``, ``finished`` or ``cancelled``."""
    version: int
    state: Any
    """The decoded state (a JSON object, as the service writes it); text stored there that
    is not JSON comes back as that text, for the service to set aside (one bad row never
    keeps the other tables from loading)."""
    deadline: float | None = None
    """Unix time when the current turn runs out (stored, so timers survive restarts)."""
    created_at: float = 0.0
    updated_at: float = 0.0
    shown: dict[str, FaceShown] = field(default_factory=dict)
    """What each face has shown of the table, by the face's name (read back with the
    open tables; written by the outbox, never with the row)."""


@dataclass(frozen=True, slots=True)
class FaceShown:
    """The version of a table a face shows and, for a face that posts messages, its
    latest one (the lobby, then the latest table message)."""

    version: int
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class Participant:
    """One seat of a finished game. ``user_id`` None: a computer player (``computer_level``),
    stored with the game but given no stats, rating or leaderboard row."""

    seat: int
    team: int
    """The scoring side: the seat itself, or the Milo partnership (seat % 2)."""
    final_score: int
    won: bool
    user_id: int | None = None
    computer_level: str | None = None
    name: str = ""
    """The member's display name in the game's server when it ended: kept with the game
    (it is read back so), and as their name on that server's boards."""
    rounds_won: int = 0
    points: int = 0
    dominoes: int = 0
    blocked_wins: int = 0


@dataclass(frozen=True, slots=True)
class RoundResult:
    number: int
    reason: str
    """``domino``, ``blocked`` or ``target``."""
    winner: int | None
    points: list[int]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    id: str
    table_id: str
    guild_id: int
    game: str
    finished_at: float
    record: Any
    """The game's record (a JSON object, ``domino-record/1``); text stored there that is
    not JSON comes back as that text, which does not replay."""
    rounds: list[RoundResult]
    participants: list[Participant]
    rated: bool = True
    """False for a game played with hints, or in an unrated tournament: kept, listed and
    replayable, never rated."""
    hints: bool = False
    """Whether its players could ask for hints (a rematch plays again as it was)."""
    channel_id: int | None = None
    """The channel or thread it was played in (None for games stored before it was)."""
    stood_in: tuple[int, ...] = ()
    """The index in ``record``'s actions of each move the computer chose in a member's
    seat (a timeout, a seat away): not the member's, so the coach does not grade it.
    Empty for games stored before it was kept."""


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What ``Repository.forget`` removed or made anonymous for one member."""

    stats: int
    ratings: int
    names: int
    """Their names deleted: one per server they played in."""
    seats: int
    """Seats of finished games that no longer name the member (their id and name)."""
    closed_tables: int
    tournaments: int
    """Finished or cancelled tournaments that no longer name the member."""


@dataclass(frozen=True, slots=True)
class Stored:
    """What the store holds about one member (``/domino privacy``)."""

    stats: int
    """Rows of totals (per game kind, per server and overall)."""
    ratings: int
    names: tuple[str, ...]
    """The names they last played under, one per server (the same name once), newest
    first."""
    games: int
    """Finished games they sat at (each keeps the name they played under)."""
    tournaments: int = 0
    """Tournaments that name them (entered, chose a partner, ran one), open or ended."""


@dataclass(frozen=True, slots=True)
class Stats:
    """A player's totals for one game kind, in one server or (``guild_id`` 0) everywhere."""

    user_id: int
    game: str
    guild_id: int
    games: int = 0
    wins: int = 0
    rounds_won: int = 0
    points: int = 0
    dominoes: int = 0
    blocked_wins: int = 0


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    user_id: int
    rating: float
    """The openskill ordinal (mu − 3σ): a cautious estimate of skill."""
    games: int
    wins: int
    points: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class Leaderboard:
    entries: list[LeaderboardEntry]
    total: int
    """How many players qualify for this board."""
    me: LeaderboardEntry | None = None
    """The caller's own row, even when it is not on this page."""


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    turn_timer_seconds: int = 120
    default_targets: dict[str, int] = field(default_factory=dict)
    use_threads: bool = False
    language: str | None = None
    """The language of the server's tables (a Discord locale code such as ``es-ES``);
    None: the server's own preferred locale."""
    tournament_role: int | None = None
    """The role (a Discord role id) whose members may organise the server's tournaments
    besides those with Manage Server; None: no such role."""
    more_time: bool = True
    """Whether the member to move at the server's tables may take a whole turn more on
    their clock (``bot.commands.MoreTime``); a table keeps what this was when it opened."""


@dataclass(slots=True)
class TournamentRow:
    """A tournament as stored: its state is the tournament service's own JSON document,
    which the store writes and reads back without looking inside, and its version moves
    on by compare-and-swap."""

    id: str
    """Eight hex characters, chosen by the service."""
    guild_id: int
    channel_id: int
    status: str
    """``signup``, ``running``, ``paused``, ``finished`` or ``cancelled``."""
    version: int
    state: Any
    """The decoded document; text stored there that is not JSON comes back as that text,
    for the service to judge (one bad row never keeps the others from loading)."""
    due: float | None = None
    """Unix time of the next thing the service must do (check-in opens, a round's
    deadline); None: nothing is waiting on the clock."""
    created_at: float = 0.0
    updated_at: float = 0.0


@dataclass(frozen=True, slots=True)
class Told:
    """One piece of news a tournament's change tells, handed to the store with the change
    (``Tournaments.save_tournament``), which keeps it at the change's version."""

    what: str
    about: tuple[int, ...] = ()
    adjustment: Any = None
    """The organiser's adjustment as the service writes it (a JSON object), or None."""


@dataclass(frozen=True, slots=True)
class NewsRow:
    """A piece of a tournament's news as stored, not yet posted: what the herald is told
    again at a start."""

    tournament_id: str
    guild_id: int
    version: int
    ordinal: int
    """Its place among the pieces of its version."""
    told: Told
    state: Any
    """The tournament as the news tells it (its state at ``version``); text stored there
    that is not JSON comes back as that text, for the service to judge."""
    created_at: float
    readable: bool = True
    """False when whom it is about or its adjustment does not read back (a hand-edited
    or half-written row: ``told`` is then its ``what`` alone), for the service to give
    it up; one bad row never keeps the others from being read."""
