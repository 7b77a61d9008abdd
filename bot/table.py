"""One table: its seats, its lobby, and its match — a pure state machine, no I/O.

The service in ``bot.tables`` locks, persists and times tables; the Discord face in
``cogs`` shows them. Here every action either changes the table and returns the events
to announce, or raises :class:`TableError` with a message for the user and changes
nothing.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from bot.engine import (
    EngineError,
    IllegalMove,
    Match,
    MatchOutcome,
    Move,
    Options,
    RoundOutcome,
    ScoreEvent,
    find_variant,
)
from bot.players import LEVELS

AWAY_AFTER_TIMEOUTS = 3
"""After this many turn timeouts in a row a seat is away: the computer plays it."""
TAKEOVER_LEVEL = "normal"


class TableError(Exception):
    """A refused action; ``str(error)`` tells the user what happened and what to do."""


class StaleVersion(TableError):
    """The click was made on controls drawn for an older state of the table."""


class Status(enum.StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(slots=True)
class Seat:
    """A chair at the table: a member (``user_id``) or a computer player (``level``)."""

    name: str
    user_id: int | None = None
    level: str | None = None
    timeouts: int = 0
    """Turn timeouts in a row (R: the turn timer in DESIGN.md)."""
    away: bool = False

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def played_by_computer(self) -> bool:
        return self.is_computer or self.away

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "user_id": self.user_id,
            "level": self.level,
            "timeouts": self.timeouts,
            "away": self.away,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Event:
    """Something to announce. ``kind`` is one of the ``EVENT_*`` names below."""

    kind: str
    seat: int | None = None
    move: str | None = None
    scores: tuple[ScoreEvent, ...] = ()
    round_outcome: RoundOutcome | None = None
    match_outcome: MatchOutcome | None = None


JOINED, LEFT, STARTED, MOVED, ROUND_OVER, GAME_OVER, CANCELLED, AWAY, BACK, TIMED_OUT = (
    "joined", "left", "started", "moved", "round_over", "game_over", "cancelled", "away",
    "back", "timed_out",
)  # fmt: skip


@dataclass
class Table:
    """A table in a channel (or thread): lobby → playing → finished | cancelled."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    options: Options
    seed: int
    seats: list[Seat] = field(default_factory=list)
    status: Status = Status.LOBBY
    version: int = 0
    match: Match | None = None
    deadline: float | None = None
    message_id: int | None = None

    # -- what the lobby and the cogs read --------------------------------------------------

    @property
    def variant_title(self) -> str:
        return find_variant(self.game).title

    @property
    def max_players(self) -> int:
        return max(find_variant(self.game).player_counts)

    @property
    def min_players(self) -> int:
        return min(find_variant(self.game).player_counts)

    @property
    def is_open(self) -> bool:
        return self.status in (Status.LOBBY, Status.PLAYING)

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def turn(self) -> int | None:
        return self.match.turn if self.match and self.status is Status.PLAYING else None

    def legal_for(self, user_id: int) -> tuple[Move, ...]:
        """The moves ``user_id`` may make now (none when it is not their turn)."""
        seat = self.seat_of(user_id)
        if seat is None or seat != self.turn or self.match is None:
            return ()
        return self.match.legal_moves()

    # -- lobby ----------------------------------------------------------------------------

    def join(self, user_id: int, name: str) -> list[Event]:
        self._require(Status.LOBBY, "the game has started already: wait for the next table")
        if self.seat_of(user_id) is not None:
            raise TableError("you are already seated at this table")
        if len(self.seats) >= self.max_players:
            raise TableError(f"the table is full ({self.max_players} seats)")
        self.seats.append(Seat(name=name, user_id=user_id))
        return self._changed(Event(JOINED, len(self.seats) - 1))

    def leave(self, user_id: int) -> list[Event]:
        self._require(Status.LOBBY, "the game has started: ask the host to /domino end it")
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("you are not seated at this table")
        if user_id == self.host_id:
            raise TableError("you are the host: cancel the table instead")
        del self.seats[seat]
        return self._changed(Event(LEFT, seat))

    def add_computer(self, by: int, level: str) -> list[Event]:
        self._require(Status.LOBBY, "the game has started already")
        if self.seat_of(by) is None:
            raise TableError("only players seated at the table can add a computer player")
        if level not in LEVELS:
            raise TableError(f"the computer levels are {', '.join(LEVELS)}")
        if len(self.seats) >= self.max_players:
            raise TableError(f"the table is full ({self.max_players} seats)")
        number = sum(1 for seat in self.seats if seat.is_computer) + 1
        self.seats.append(Seat(name=f"Computer {number} ({level})", level=level))
        return self._changed(Event(JOINED, len(self.seats) - 1))

    def start(self, by: int) -> list[Event]:
        self._require(Status.LOBBY, "the game has started already")
        if by != self.host_id:
            raise TableError("only the host can start the game")
        counts = find_variant(self.game).player_counts
        if len(self.seats) not in counts:
            allowed = " or ".join(str(n) for n in counts)
            raise TableError(
                f"{self.variant_title} needs {allowed} players; {len(self.seats)} seated."
                " Invite others to Join, or Add computer"
            )
        self.match = Match(self.game, len(self.seats), self.options, seed=self.seed)
        self.status = Status.PLAYING
        return self._changed(Event(STARTED))

    def cancel(self, by: int, *, manager: bool = False) -> list[Event]:
        if not self.is_open:
            raise TableError("this table is closed already")
        if by != self.host_id and not manager:
            raise TableError("only the host (or someone with Manage Server) can end this table")
        self.status = Status.CANCELLED
        self.deadline = None
        return self._changed(Event(CANCELLED, self.seat_of(by)))

    # -- play -----------------------------------------------------------------------------

    def play(self, user_id: int, move: Move | str) -> list[Event]:
        """A member's move (a tile, ``draw`` or ``pass``)."""
        self._require(Status.PLAYING, "the game has not started: the host presses Start")
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("you are not playing at this table")
        assert self.match is not None
        if seat != self.match.turn:
            raise TableError(f"it is {self.seats[self.match.turn].name}'s turn, not yours")
        events: list[Event] = []
        chair = self.seats[seat]
        if chair.away:
            chair.away = False
            events.append(Event(BACK, seat))
        chair.timeouts = 0
        return self._apply(seat, move, events)

    def come_back(self, user_id: int) -> list[Event]:
        """An away member acted (asked for their hand): the computer stops playing them."""
        seat = self.seat_of(user_id)
        if seat is None or not self.seats[seat].away:
            raise TableError("you are not away")
        self.seats[seat].away = False
        self.seats[seat].timeouts = 0
        return self._changed(Event(BACK, seat))

    def move_to(self, channel_id: int) -> list[Event]:
        """The table now posts in ``channel_id`` (its own thread)."""
        self.channel_id = channel_id
        return self._changed()

    def seat_to_move(self) -> int:
        self._require(Status.PLAYING, "the game is not running")
        assert self.match is not None and self.match.turn is not None
        return self.match.turn

    def computer_level(self) -> str:
        """The level that plays the seat to move: its own, or the takeover level."""
        return self.seats[self.seat_to_move()].level or TAKEOVER_LEVEL

    def computer_move(self, move: Move) -> list[Event]:
        """The computer's move for the seat to move (a computer seat, or one away)."""
        return self._apply(self.seat_to_move(), move, [])

    def timeout(self, move: Move) -> list[Event]:
        """The turn timer ran out for a member: ``move`` (the computer's) is made for
        them; after :data:`AWAY_AFTER_TIMEOUTS` in a row the seat is away."""
        seat = self.seat_to_move()
        chair = self.seats[seat]
        chair.timeouts += 1
        events = [Event(TIMED_OUT, seat)]
        if chair.timeouts >= AWAY_AFTER_TIMEOUTS and not chair.away:
            chair.away = True
            events.append(Event(AWAY, seat))
        return self._apply(seat, move, events)

    def _apply(self, seat: int, move: Move | str, events: list[Event]) -> list[Event]:
        assert self.match is not None
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except ValueError as error:
                raise TableError(str(error)) from None
        round_before = self.match.round
        scored_before = len(round_before.score_events)
        try:
            ended = self.match.play(move)
        except IllegalMove as error:
            raise TableError(str(error)) from None
        except EngineError as error:  # pragma: no cover - the engine's other refusals
            raise TableError(str(error)) from None
        new_scores = tuple(round_before.score_events[scored_before:])
        events.append(Event(MOVED, seat, move.text, new_scores))
        if ended is not None:
            events.append(Event(ROUND_OVER, seat, round_outcome=ended))
        outcome = self.match.outcome()
        if outcome is not None:
            self.status = Status.FINISHED
            self.deadline = None
            events.append(Event(GAME_OVER, match_outcome=outcome))
        return self._changed(*events)

    # -- helpers --------------------------------------------------------------------------

    def _require(self, status: Status, message: str) -> None:
        if self.status is not status:
            raise TableError(message)

    def _changed(self, *events: Event) -> list[Event]:
        self.version += 1
        return list(events)

    def check_version(self, seen: int) -> None:
        """Refuse a click made on controls drawn for another version of the table."""
        if seen != self.version:
            raise StaleVersion("the table has moved on since those buttons were drawn")

    @property
    def computer_to_move(self) -> bool:
        turn = self.turn
        return turn is not None and self.seats[turn].played_by_computer

    # -- the stored form ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "game": self.game,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "seats": [seat.to_dict() for seat in self.seats],
            "status": self.status.value,
            "version": self.version,
            "match": self.match.to_dict() if self.match else None,
            "deadline": self.deadline,
            "message_id": self.message_id,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        return cls(
            id=data["id"],
            guild_id=data["guild_id"],
            channel_id=data["channel_id"],
            host_id=data["host_id"],
            game=data["game"],
            options=Options(**data["options"]),
            seed=data["seed"],
            seats=[Seat.from_dict(s) for s in data["seats"]],
            status=Status(data["status"]),
            version=data["version"],
            match=Match.from_dict(data["match"]) if data["match"] else None,
            deadline=data["deadline"],
            message_id=data["message_id"],
        )
