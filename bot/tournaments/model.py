"""A tournament as the service keeps it: its settings, its players, its tables round by
round, and its record (results and byes, the pure core's values), with the one way each
is kept as JSON in the store's ``state``.

Frozen values: the service makes a changed copy, stores it (compare-and-swap on
``version``), and only then keeps it, as it does for tables.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from bot.tournaments.results import Result
from bot.tournaments.seating import Bye, Entrant, Seating


class Format(enum.StrEnum):
    KNOCKOUT = "knockout"
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"


class Phase(enum.StrEnum):
    SIGNUP = "signup"
    """Open for sign-up (and, from ``checkin_at``, check-in) until the start."""
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"


OPEN_PHASES = (Phase.SIGNUP, Phase.RUNNING, Phase.PAUSED)


@dataclass(frozen=True, slots=True)
class Settings:
    """What the organiser chose: the game and its target, the format (``rounds`` for a
    Swiss), the seats per table (and smaller tables the game allows, for a round that
    does not divide), when it starts and how long before it check-in opens, how long a
    round's players have to sit down, and whether its games are rated."""

    game: str
    format: Format
    size: int
    smaller: tuple[int, ...] = ()
    rounds: int | None = None
    target: int | None = None
    start_at: float = 0.0
    checkin_minutes: int = 15
    show_up_minutes: int = 5
    rated: bool = True
    teams: bool = False
    """Milo: four seats are two sides of partners, drawn each round."""

    @property
    def seating(self) -> Seating:
        return Seating(self.size, self.smaller, drawn_partners=self.teams)

    @property
    def checkin_at(self) -> float:
        return self.start_at - 60.0 * self.checkin_minutes


@dataclass(frozen=True, slots=True)
class Player:
    """A member who signed up: ``rating`` seeds them; ``checked_in`` once they said they
    are here; ``out`` once they withdrew or were dropped (they keep what they earned)."""

    user_id: int
    name: str
    rating: float
    checked_in: bool = False
    out: bool = False


@dataclass(frozen=True, slots=True)
class Drawn:
    """One table of a round: its ``position`` in the round (the core's table index), who
    sits where (``seats``, the pairing's order: partners across) and the sides as the
    core counts them, the table service's table once opened, and who never came."""

    round: int
    position: int
    seats: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    table_id: str | None = None
    absent: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    guild_id: int
    channel_id: int
    organiser_id: int
    settings: Settings
    phase: Phase = Phase.SIGNUP
    players: tuple[Player, ...] = ()
    round: int = 0
    """The round being played (0 before the first)."""
    drawn: tuple[Drawn, ...] = ()
    """Every round's tables so far."""
    record: tuple[Result | Bye, ...] = ()
    due: float | None = None
    """When the service must next act: the start, or the round's show-up deadline."""
    version: int = 0
    message_id: int | None = None
    """The announcement (a face's, kept so that its list of entrants can be edited)."""

    def player(self, user_id: int) -> Player | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def name_of(self, user_id: int) -> str:
        player = self.player(user_id)
        return player.name if player is not None else str(user_id)

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """Who plays the next round: checked in (once the start has passed), not out."""
        return tuple(
            Entrant(p.user_id, p.rating) for p in self.players if p.checked_in and not p.out
        )

    def tables_of(self, round: int) -> tuple[Drawn, ...]:
        return tuple(d for d in self.drawn if d.round == round)

    def result_of(self, round: int, position: int) -> Result | None:
        return next(
            (r for r in self.record
             if isinstance(r, Result) and (r.round, r.table) == (round, position)),
            None,
        )  # fmt: skip

    def with_player(self, player: Player) -> Tournament:
        kept = tuple(p for p in self.players if p.user_id != player.user_id)
        return replace(self, players=(*kept, player))

    # -- the stored form --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        settings = self.settings
        return {
            "id": self.id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "organiser_id": self.organiser_id,
            "settings": {
                "game": settings.game,
                "format": settings.format.value,
                "size": settings.size,
                "smaller": list(settings.smaller),
                "rounds": settings.rounds,
                "target": settings.target,
                "start_at": settings.start_at,
                "checkin_minutes": settings.checkin_minutes,
                "show_up_minutes": settings.show_up_minutes,
                "rated": settings.rated,
                "teams": settings.teams,
            },
            "phase": self.phase.value,
            "players": [[p.user_id, p.name, p.rating, p.checked_in, p.out] for p in self.players],
            "round": self.round,
            "drawn": [
                [
                    d.round,
                    d.position,
                    list(d.seats),
                    [list(s) for s in d.sides],
                    d.table_id,
                    list(d.absent),
                ]
                for d in self.drawn
            ],
            "record": [_item_to_json(item) for item in self.record],
            "due": self.due,
            "version": self.version,
            "message_id": self.message_id,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        """The tournament :meth:`to_dict` stored (KeyError, TypeError or ValueError if
        the data is not one)."""
        stored = data["settings"]
        settings = Settings(
            game=str(stored["game"]),
            format=Format(stored["format"]),
            size=int(stored["size"]),
            smaller=tuple(int(n) for n in stored["smaller"]),
            rounds=None if stored["rounds"] is None else int(stored["rounds"]),
            target=None if stored["target"] is None else int(stored["target"]),
            start_at=float(stored["start_at"]),
            checkin_minutes=int(stored["checkin_minutes"]),
            show_up_minutes=int(stored["show_up_minutes"]),
            rated=bool(stored["rated"]),
            teams=bool(stored["teams"]),
        )
        return cls(
            id=str(data["id"]),
            guild_id=int(data["guild_id"]),
            channel_id=int(data["channel_id"]),
            organiser_id=int(data["organiser_id"]),
            settings=settings,
            phase=Phase(data["phase"]),
            players=tuple(
                Player(int(u), str(n), float(r), bool(c), bool(o))
                for u, n, r, c, o in data["players"]
            ),
            round=int(data["round"]),
            drawn=tuple(
                Drawn(
                    int(r), int(p), tuple(seats), tuple(tuple(s) for s in sides), t, tuple(absent)
                )
                for r, p, seats, sides, t, absent in data["drawn"]
            ),
            record=tuple(_item_from_json(item) for item in data["record"]),
            due=None if data["due"] is None else float(data["due"]),
            version=int(data["version"]),
            message_id=None if data["message_id"] is None else int(data["message_id"]),
        )


def _item_to_json(item: Result | Bye) -> dict[str, Any]:
    if isinstance(item, Bye):
        return {"bye": [item.round, item.entrant, item.points]}
    return {
        "result": [item.round, item.table, [list(s) for s in item.sides], list(item.places),
                   list(item.points)]
    }  # fmt: skip


def _item_from_json(data: dict[str, Any]) -> Result | Bye:
    if "bye" in data:
        round_, entrant, points = data["bye"]
        return Bye(int(round_), int(entrant), int(points))
    round_, table, sides, places, points = data["result"]
    return Result(
        int(round_), int(table), tuple(tuple(int(e) for e in s) for s in sides),
        tuple(int(p) for p in places), tuple(int(p) for p in points),
    )  # fmt: skip
