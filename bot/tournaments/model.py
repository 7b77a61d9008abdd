"""A tournament as the service keeps it: its settings, its players, its tables round by
round, and its record (results and byes, the pure core's values), with the one way each
is kept as JSON in the store's ``state``.

Frozen values: the service makes a changed copy, stores it (compare-and-swap on
``version``), and only then keeps it, as it does for tables.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from statistics import fmean
from typing import Any

from bot.refusals import TournamentRefused
from bot.tournaments import bracket as brackets
from bot.tournaments.errors import BadResult
from bot.tournaments.results import Adjustment, Result
from bot.tournaments.seating import Bye, Entrant, Seating, Table


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

PAIR_IDS_BELOW = -(2**53)
"""A pair's entrant id is below this (the first pair's is one less, the next one less
again): a member's id is a positive snowflake, a guest's and a local table's channel
are negative but no lower than −2**52 (``web.identity``), so a pair's id is never
anyone else's; a member forgotten from an ended tournament is given one below them all
(``data.privacy``)."""


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
    """Milo: four seats are two sides of partners, drawn each round unless ``pairs``."""
    pairs: bool = False
    """Milo: partners sign up together; each pair is one entrant, and a table seats two
    pairs, each pair's members across from each other."""

    @property
    def seating(self) -> Seating:
        if self.pairs:
            return Seating(2)
        return Seating(self.size, self.smaller, drawn_partners=self.teams)

    @property
    def least_entrants(self) -> int:
        """How many entrants a round needs: two (two pairs, when pairs sign up), or four
        members when partners are drawn."""
        return 4 if self.teams and not self.pairs else 2

    @property
    def checkin_at(self) -> float:
        return self.start_at - 60.0 * self.checkin_minutes


@dataclass(frozen=True, slots=True)
class Player:
    """A member who signed up: ``rating`` seeds them; ``checked_in`` once they said they
    are here; ``out`` once they withdrew or were dropped (they keep what they earned),
    and ``dropped`` when an organiser took them out: the standings say which for as long
    as they are shown, so it is kept with the tournament rather than by a face."""

    user_id: int
    name: str
    rating: float
    checked_in: bool = False
    out: bool = False
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class Pair:
    """Two members who signed up together (Milo by pairs): one entrant to the core, by
    ``id`` (below :data:`PAIR_IDS_BELOW`). ``members`` in the order they sit: the first
    in the pair's first seat, the second across from them. A replacement takes the place
    of the member they replace; the id stays, as do the pair's results."""

    id: int
    members: tuple[int, int]


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

    def side_of(self, seat: int) -> int:
        """The side (its index in ``sides``) that seat ``seat`` plays for: the side that
        names its member; at a table of pairs each side is a pair's id instead, and its
        members sit across (seats 0 and 2 for the first pair, 1 and 3 for the second, as
        the engine's Milo pairs them)."""
        member = self.seats[seat]
        named = next((i for i, side in enumerate(self.sides) if member in side), None)
        return named if named is not None else seat % len(self.sides)


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
    pairs: tuple[Pair, ...] = ()
    """Milo by pairs: the pairs entered (both members chose each other)."""
    asked: tuple[tuple[int, int], ...] = ()
    """Milo by pairs: (member, partner) for each member who chose a partner who has not
    chosen them back yet (a pending pair; the member is a player meanwhile)."""
    paused_at: float | None = None
    """When an organiser paused it, while paused: a round's show-up deadline waits as
    long as the pause lasts, so no one forfeits a table for the organiser's pause."""

    @property
    def started(self) -> bool:
        """Whether it has started: paused before its first round, it has not (resumed,
        it is open for sign-up again, and starts at its start time)."""
        return self.round > 0 or self.phase is Phase.RUNNING

    def player(self, user_id: int) -> Player | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def keeps(self, user_id: int, now: float) -> bool:
        """Whether the member is kept for this tournament's tables at ``now``, and so
        takes no seat elsewhere in its server: entered and not out, from the moment
        check-in opens (a round's table may open for them from the start on); once it
        has started, only while they play in it (checked in, by pairs both of the pair,
        and in a knockout not yet knocked out), until it ends."""
        player = self.player(user_id)
        if self.phase not in OPEN_PHASES or player is None or player.out:
            return False
        pair = self.pair_of(user_id)
        if pair is not None and self.pair_out(pair):
            return False
        if not self.started:
            return now >= self.settings.checkin_at
        entrant = self.entrant_of(user_id)
        if entrant not in {e.id for e in self.entrants}:
            return False
        return self.settings.format is not Format.KNOCKOUT or entrant not in self._knocked_out()

    def _knocked_out(self) -> set[int]:
        """The knockout's entrants whose run has ended (placed by the bracket so far)."""
        bracket = brackets.knockout(self.starters, self.settings.seating)
        results = [r for r in self.record if isinstance(r, Result)]
        return {entrant for _, entrant in brackets.placings(bracket, results)}

    def check_manager(self, by: int, staff: bool) -> None:
        """Who may manage the tournament: the member who created it (even if they have
        since lost the right to create one), or any of the server's organisers, whom the
        face vouches for with ``staff`` (it reads the server's permissions and roles:
        Manage Server, or the role the server chose). Anyone else is refused; a face
        that reads the tournament for a command asks this first, so that who a member
        is is answered before what they named."""
        if not staff and by != self.organiser_id:
            raise TournamentRefused("organiser-only")

    def name_of(self, user_id: int) -> str:
        player = self.player(user_id)
        return player.name if player is not None else str(user_id)

    # -- pairs ------------------------------------------------------------------------------

    def pair_of(self, user_id: int) -> Pair | None:
        """The pair the member plays in (a member is in one pair at most)."""
        return next((p for p in self.pairs if user_id in p.members), None)

    def pair_out(self, pair: Pair) -> bool:
        """A pair plays no more once either member is out (a withdrawal takes both)."""
        return any(self._out(member) for member in pair.members)

    def pair_checked_in(self, pair: Pair) -> bool:
        """A pair plays only when both members have checked in."""
        return all(self._checked_in(member) for member in pair.members)

    def asked_by(self, user_id: int) -> int | None:
        """The partner the member chose who has not chosen them back, if any."""
        return next((partner for member, partner in self.asked if member == user_id), None)

    def members_of(self, entrant: int) -> tuple[int, ...]:
        """The members an entrant stands for: a pair's two, else the member."""
        pair = next((p for p in self.pairs if p.id == entrant), None)
        return pair.members if pair is not None else (entrant,)

    def entrant_of(self, user_id: int) -> int:
        """The entrant a member plays as: their pair's id, else their own."""
        pair = self.pair_of(user_id)
        return pair.id if pair is not None else user_id

    def seats_of(self, table: Table) -> tuple[int, ...]:
        """Which member sits in each seat of a core's table: at a table of pairs, each
        pair's members across from each other (first pair: seats 0 and 2)."""
        if not self.settings.pairs:
            return table.seats
        first, second = (self.members_of(entrant) for entrant in table.seats)
        return (first[0], second[0], first[1], second[1])

    def next_pair_id(self) -> int:
        return min((pair.id for pair in self.pairs), default=PAIR_IDS_BELOW) - 1

    def _entrant(self, pair: Pair) -> Entrant:
        """A pair as the core seeds it: the mean of its members' ratings."""
        ratings = [p.rating for p in self.players if p.user_id in pair.members]
        return Entrant(pair.id, fmean(ratings) if ratings else 0.0)

    def _out(self, user_id: int) -> bool:
        player = self.player(user_id)
        return player is None or player.out

    def _checked_in(self, user_id: int) -> bool:
        player = self.player(user_id)
        return player is not None and player.checked_in

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """Who plays the next round: checked in (once the start has passed), not out; by
        pairs, the pairs both of whose members checked in and neither is out."""
        if self.settings.pairs:
            return tuple(
                self._entrant(pair)
                for pair in self.pairs
                if self.pair_checked_in(pair) and not self.pair_out(pair)
            )
        return tuple(
            Entrant(p.user_id, p.rating) for p in self.players if p.checked_in and not p.out
        )

    @property
    def starters(self) -> tuple[Entrant, ...]:
        """Everyone who checked in (by pairs: both members): a knockout's bracket and a
        round robin's schedule are drawn once, from them (one who leaves later is absent
        from their tables, and forfeits them)."""
        if self.settings.pairs:
            return tuple(self._entrant(pair) for pair in self.pairs if self.pair_checked_in(pair))
        return tuple(Entrant(p.user_id, p.rating) for p in self.players if p.checked_in)

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
                "pairs": settings.pairs,
            },
            "phase": self.phase.value,
            "players": [
                [p.user_id, p.name, p.rating, p.checked_in, p.out, p.dropped] for p in self.players
            ],
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
            "pairs": [[pair.id, *pair.members] for pair in self.pairs],
            "asked": [list(asked) for asked in self.asked],
            "paused_at": self.paused_at,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        """The tournament :meth:`to_dict` stored (KeyError, TypeError or ValueError if
        the data is not one). One stored before pairs could sign up has no pairs and
        draws its Milo partners; one stored before a drop was kept has its players who
        left as having withdrawn (what was said of them then, after a restart); one
        paused before the pause was timed keeps its show-up deadline as it was."""
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
            pairs=bool(stored.get("pairs", False)),
        )
        return cls(
            id=str(data["id"]),
            guild_id=int(data["guild_id"]),
            channel_id=int(data["channel_id"]),
            organiser_id=int(data["organiser_id"]),
            settings=settings,
            phase=Phase(data["phase"]),
            players=tuple(_player_from_json(p) for p in data["players"]),
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
            pairs=tuple(Pair(int(i), (int(a), int(b))) for i, a, b in data.get("pairs", ())),
            asked=tuple((int(a), int(b)) for a, b in data.get("asked", ())),
            paused_at=None if data.get("paused_at") is None else float(data["paused_at"]),
        )


@dataclass(frozen=True, slots=True)
class News:
    """A piece of a tournament's news, stored with the change it tells (the outbox):
    ``what`` happened (``signed-up``, ``round``, ``finished`` …: see ``Herald.told``),
    ``about`` whom, and an organiser's ``adjustment``. It is named by the ``version``
    of that change and its ``ordinal`` among the change's pieces, which is also the
    order it is told in."""

    tournament_id: str
    version: int
    ordinal: int
    what: str
    about: tuple[int, ...] = ()
    adjustment: Adjustment | None = None


class NoPlace(Exception):
    """A face could not make a round's table its place (``Herald.place_for``: a thread,
    in Discord). For now (the platform failed or was busy: the service tries again
    later), or ``for_good`` when no retry changes it (the channel is gone, or the bot
    may not make threads there): then the tournament waits for an organiser. Here, not
    in the service, so that a face may raise it without reaching the store."""

    def __init__(self, why: str, *, for_good: bool = False) -> None:
        super().__init__(why)
        self.why = why
        self.for_good = for_good


def adjustment_to_json(adjustment: Adjustment) -> dict[str, Any]:
    """An adjustment as news keeps it (its result as the record keeps one)."""
    return {**_item_to_json(adjustment.result), "reason": adjustment.reason}


def adjustment_from_json(data: dict[str, Any]) -> Adjustment:
    """The adjustment :func:`adjustment_to_json` kept (KeyError, TypeError or ValueError
    if the data is not one)."""
    result = _item_from_json(data)
    if not isinstance(result, Result):
        raise ValueError("an adjustment changes a result")
    return Adjustment(result, str(data["reason"]))


def _player_from_json(data: list[Any]) -> Player:
    """A player as :meth:`Tournament.to_dict` keeps one (``dropped`` last, absent from a
    row stored before it was kept: withdrawn)."""
    user_id, name, rating, checked_in, out, *dropped = data
    if len(dropped) > 1:
        raise ValueError("a player is six fields at most")
    return Player(int(user_id), str(name), float(rating), bool(checked_in), bool(out), any(dropped))


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
    try:
        return Result(
            int(round_), int(table), tuple(tuple(int(e) for e in s) for s in sides),
            tuple(int(p) for p in places), tuple(int(p) for p in points),
        )  # fmt: skip
    except BadResult as error:  # stored, but no result that holds together: data that
        raise ValueError(str(error)) from None  # is not one, as its readers are told
