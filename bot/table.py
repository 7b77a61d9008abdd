"""One table: its seats, its lobby, and its match — a pure state machine, no I/O.

The service in ``bot.service`` locks, persists and times tables; the Discord face in
``cogs`` shows them. Here every command (``bot.commands``) either changes the table and
returns the events to announce, or raises a :class:`bot.refusals.Refusal` saying why
and changes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from bot.commands import (
    AddComputer,
    Cancel,
    CloseIdle,
    ComeBack,
    Command,
    ComputerMove,
    Forget,
    Join,
    Leave,
    MoreTime,
    MoveToThread,
    Play,
    ReleaseSeats,
    StandIn,
    Start,
    Timeout,
)
from bot.engine import (
    EngineError,
    Match,
    Move,
    Options,
    find_variant,
)
from bot.events import (
    Away,
    Back,
    Cancelled,
    Event,
    GameOver,
    Joined,
    Left,
    Moved,
    RoundOver,
    Started,
    TimeAdded,
    TimedOut,
)
from bot.levels import LEVELS
from bot.refusals import (
    AlreadyClosed,
    AlreadySeated,
    HostCannotLeave,
    HostOnly,
    HostOrManagerOnly,
    LobbyClosed,
    MoreTimeOff,
    MoveRefused,
    NoMoreTime,
    NotAway,
    NotSeated,
    NotStarted,
    NotYourTurn,
    SeatedOnly,
    StaleVersion,
    TableFull,
    TournamentSeatKept,
    TournamentSeatsOnly,
    UnknownLevel,
    WrongPlayerCount,
)
from bot.stored import Form, same, stored_fields

AWAY_AFTER_TIMEOUTS = 3
"""After this many turn timeouts in a row a seat is away: the computer plays it."""
TAKEOVER_LEVEL = "normal"
NAME_MOST = 32
"""Characters of a member's name a seat keeps: Discord's own limit for a display name,
so that a longer one (which Discord never sends) cannot push a title past its limits."""
MORE_TIME_MOST = 10
"""How many times a member may take more time in a game, each a whole turn more: the
others wait for it, so it is counted (ten, as WCAG 2.2's "Timing Adjustable" asks of a
time limit that can be extended)."""


def lineup_keys(user_ids: Iterable[int | None]) -> list[str]:
    """Each seat's key in a rematch's ``lineup``, from who sits there (a member's id, or
    None for a computer): ``u<member id>``, or ``c<n>`` for the n-th computer seat. The
    same seats are recognised from one game to the next by these keys."""
    keys, computers = [], 0
    for user_id in user_ids:
        if user_id is not None:
            keys.append(f"u{user_id}")
        else:
            keys.append(f"c{computers}")
            computers += 1
    return keys


def game_id(table_id: str, version: int) -> str:
    """The id a finished game is stored and shown under: its table and final version."""
    return f"{table_id}-{version}"


class Status(enum.StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Seat:
    """A chair at the table: a member (``user_id``) or a computer player (``level``).
    Frozen, so that a table and its snapshots share their seats: a change makes a new
    seat (:meth:`Table._seat_changed`)."""

    name: str
    user_id: int | None = None
    level: str | None = None
    timeouts: int = 0
    """Turn timeouts in a row; :data:`AWAY_AFTER_TIMEOUTS` of them make the seat away."""
    away: bool = False
    more_time: int = 0
    """Times its member took more time this game (:data:`MORE_TIME_MOST`; a match's
    next game starts again from none)."""

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def played_by_computer(self) -> bool:
        return self.is_computer or self.away

    def to_dict(self) -> dict[str, Any]:
        """Each field by name (all plain JSON values); a seat stored before a field was
        added loads with that field's default. ``more_time`` is written only once taken,
        so the release before it still reads the tables where nobody took any."""
        stored = {name: getattr(self, name) for name in _SEAT_FIELDS}
        if not self.more_time:
            del stored["more_time"]
        return stored

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """A seat as stored; a field a later release added is passed over."""
        return cls(**{name: value for name, value in data.items() if name in _SEAT_FIELDS})


_SEAT_FIELDS = tuple(field.name for field in fields(Seat))


@dataclass(slots=True)
class TableState:
    """What a table is at one version, but its match: the fields it is stored with, and
    what can be read from them alone. The live :class:`Table` (which changes them) and
    the snapshot the faces read (:class:`bot.snapshot.TableSnapshot`, which copies them
    and cannot) are both one, so that a field is declared once, here. Every field holds
    a value that is never changed in place (tuples, frozen seats), so a snapshot shares
    them with its table; the match, which is, the table keeps to itself."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    options: Options
    seed: int
    seats: tuple[Seat, ...] = ()
    status: Status = Status.LOBBY
    version: int = 0
    deadline: float | None = None
    hints: bool = False
    """Players may ask what a computer player would do; the game is then not rated."""
    rematch_of: str | None = None
    """The finished game this table plays again, with the same seats."""
    invited: tuple[int, ...] = ()
    """Members of that game not seated yet: the lobby keeps their seats open for them."""
    series: tuple[int, ...] = ()
    """Games won by each seat in earlier games between the same seats (a rematch), in
    ``lineup`` order."""
    lineup: tuple[str, ...] = ()
    """A rematch's seats in the order they sat before (``u<member id>``, ``c<n>`` for the
    n-th computer): the game starts with them in that order again. A tournament's
    table: the order its pairing seats them in (partners across)."""
    rated: bool = True
    """Whether its game counts toward ratings and stats (a tournament may be unrated; a
    game with hints never counts, whatever this says)."""
    tournament: str | None = None
    """The tournament this is a round's table of: only the members it was opened for
    (``invited``) sit here, a computer stands in for one who does not come
    (:class:`~bot.commands.StandIn`), and the tournament (its ``host``) starts it."""
    more_time: bool = True
    """Whether its members may take more time on their turn (:class:`~bot.commands.
    MoreTime`): the server's setting when the table opened."""
    stood_in: tuple[int, ...] = ()
    """The index in the match record's actions of each move the computer chose in a
    member's seat (the turn timer ran out, or the seat was away), in order: the coach
    grades a member's own moves only, and the record says who sat where, not who chose.
    A computer seat's moves are its own, and a move the rules forced chose nothing."""
    unseated: tuple[tuple[int, str], ...] = ()
    """The name of each member it names who has no seat, by id: those whose seats it
    keeps (``invited``) and a tournament's organiser hosting it unseated (when the
    tournament knows their name), as they were named when it opened. The chat mentions
    a member by id; a face that cannot (the browser) names them by these. Only those
    it still names are kept (:meth:`Table._changed`)."""

    @property
    def max_players(self) -> int:
        return max(find_variant(self.game).player_counts)

    @property
    def is_open(self) -> bool:
        return self.status in (Status.LOBBY, Status.PLAYING)

    @property
    def counted(self) -> bool:
        """Whether its game counts toward stats and ratings: the one rule, read where the
        finished game is stored and where its end is worded, so the two never disagree."""
        return self.rated and not self.hints

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def keeps(self, user_id: int) -> bool:
        """Whether the table names ``user_id`` beyond its seats: a rematch's seat kept
        for them (``invited``), their place in its series (``lineup``), or their name
        (``unseated``: a tournament's organiser too)."""
        return (
            user_id in self.invited
            or lineup_keys([user_id])[0] in self.lineup
            or any(member == user_id for member, _ in self.unseated)
        )

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def _computer_plays(self, turn: int | None, drew: bool) -> bool:
        """Whether the computer plays ``turn``, the seat to move (``drew``: it has drawn
        this turn): a computer's, an away member's, or a member's turn the computer began
        when their time ran out (it drew for them: their own moves set their timeouts back
        to none) and finishes, placing the tile drawn, as one turn and one timeout."""
        if turn is None:
            return False
        seat = self.seats[turn]
        return seat.played_by_computer or (seat.timeouts > 0 and drew)


@dataclass
class Table(TableState):
    """A table in a channel (or thread): lobby → playing → finished | cancelled."""

    match: Match | None = None

    # -- what the service reads -----------------------------------------------------------

    @property
    def turn(self) -> int | None:
        return self.match.turn if self.match and self.status is Status.PLAYING else None

    def legal_for(self, user_id: int) -> tuple[Move, ...]:
        """The moves ``user_id`` may make now (none when it is not their turn)."""
        seat = self.seat_of(user_id)
        if seat is None or seat != self.turn or self.match is None:
            return ()
        return self.match.legal_moves()

    # -- the one way to change a table ----------------------------------------------------

    def apply(self, command: Command) -> list[Event]:
        """Carry out ``command``: the events to announce, or a refusal that changed
        nothing. Every check comes before the first change."""
        match command:
            case Join(user_id, name):
                return self._join(user_id, name)
            case Leave(user_id):
                return self._leave(user_id)
            case AddComputer(user_id, level):
                return self._add_computer(user_id, level)
            case Start(user_id):
                return self._start(user_id)
            case Cancel(user_id, manager):
                return self._cancel(user_id, manager)
            case Play(user_id, move):
                return self._play(user_id, move)
            case ComeBack(user_id):
                return self._come_back(user_id)
            case MoreTime(user_id):
                return self._more_time(user_id)
            case MoveToThread(channel_id):
                self.channel_id = channel_id
                return self._changed()
            case ComputerMove(move):
                seat = self.seat_to_move()
                move = self._legal_move(move)
                if not self.seats[seat].is_computer:  # a member's seat, away
                    self._stood_in()
                return self._apply_move(seat, move, [])
            case Timeout(move):
                return self._timeout(move)
            case ReleaseSeats():
                self._require_lobby("release")
                self.invited, self.deadline = (), None
                return self._changed()
            case CloseIdle(idle):
                self._require_lobby("close")
                self.status, self.deadline = Status.CANCELLED, None
                return self._changed(Cancelled(None, idle))
            case StandIn(user_id, level):
                return self._stand_in(user_id, level)
            case Forget(user_id):
                return self._forget(user_id)

    # -- lobby ----------------------------------------------------------------------------

    def _join(self, user_id: int, name: str) -> list[Event]:
        self._require_lobby("join")
        if self.seat_of(user_id) is not None:
            raise AlreadySeated()
        if self.tournament is not None and user_id not in self.invited:
            raise TournamentSeatsOnly()
        kept = sum(1 for invited in self.invited if invited != user_id)
        if len(self.seats) + kept >= self.max_players:  # a rematch keeps its players' seats
            raise TableFull(self.max_players)
        self.seats = (*self.seats, Seat(name=name[:NAME_MOST], user_id=user_id))
        self.invited = tuple(invited for invited in self.invited if invited != user_id)
        return self._changed(Joined(len(self.seats) - 1))

    def _leave(self, user_id: int) -> list[Event]:
        seat = self.seat_of(user_id)
        if seat is None and user_id not in self.invited:
            raise NotSeated()
        self._require_lobby("leave")
        if self.tournament is not None:  # left, the seat could be neither taken nor filled
            raise TournamentSeatKept()
        if seat is None:  # a rematch's member who declines: their seat is not kept
            self.invited = tuple(invited for invited in self.invited if invited != user_id)
            return self._changed()
        if user_id == self.host_id:
            raise HostCannotLeave()
        self.seats = (*self.seats[:seat], *self.seats[seat + 1 :])
        return self._changed(Left(seat))

    def _add_computer(self, by: int, level: str) -> list[Event]:
        self._require_lobby("computer")
        if self.seat_of(by) is None:
            raise SeatedOnly()
        if level not in LEVELS:
            raise UnknownLevel(LEVELS)
        if len(self.seats) + len(self.invited) >= self.max_players:  # seats kept stay kept
            raise TableFull(self.max_players)
        self.seats = (*self.seats, self._computer(level))
        return self._changed(Joined(len(self.seats) - 1))

    def _computer(self, level: str) -> Seat:
        """A new computer seat, numbered after those already seated (the words name it
        in the reader's language from its number and level)."""
        number = sum(1 for seat in self.seats if seat.is_computer) + 1
        return Seat(name=f"Computer {number} ({level})", level=level)

    def _start(self, by: int) -> list[Event]:
        self._require_lobby("start")
        if by != self.host_id:
            raise HostOnly()
        counts = find_variant(self.game).player_counts
        if len(self.seats) not in counts:
            raise WrongPlayerCount(self.game, counts, len(self.seats))
        if self.lineup:
            self._seat_as_before()
        self.invited = ()
        self.match = Match(self.game, len(self.seats), self.options, seed=self.seed)
        self.status = Status.PLAYING
        return self._changed(Started())

    def _stand_in(self, user_id: int, level: str) -> list[Event]:
        self._require_lobby("computer")
        if self.tournament is None or user_id not in self.invited:
            raise NotSeated()
        if level not in LEVELS:
            raise UnknownLevel(LEVELS)
        computers = sum(1 for seat in self.seats if seat.is_computer)
        key = lineup_keys([None] * (computers + 1))[-1]  # the key this computer will have
        member = lineup_keys([user_id])[0]
        self.lineup = tuple(key if kept == member else kept for kept in self.lineup)
        self.invited = tuple(invited for invited in self.invited if invited != user_id)
        self.seats = (*self.seats, self._computer(level))
        return self._changed(Joined(len(self.seats) - 1))

    def _forget(self, user_id: int) -> list[Event]:
        """No seat kept and no series line for ``user_id`` (they are not seated: the
        service refuses to forget a member at an open table): in a rematch's lobby, or
        once it started without them (its lineup and series still name them)."""
        if not self.is_open:
            raise AlreadyClosed()
        key = lineup_keys([user_id])[0]
        kept = [i for i, seat in enumerate(self.lineup) if seat != key]
        if len(self.series) == len(self.lineup):
            self.series = tuple(self.series[i] for i in kept)
        self.lineup = tuple(self.lineup[i] for i in kept)
        self.invited = tuple(invited for invited in self.invited if invited != user_id)
        self.unseated = tuple(named for named in self.unseated if named[0] != user_id)
        return self._changed()

    def _seat_as_before(self) -> None:
        """A rematch sits its players in the order they sat before (partners stay
        partners); whoever was not in that game sits after them."""
        keys = lineup_keys(seat.user_id for seat in self.seats)
        order = {key: index for index, key in enumerate(self.lineup)}
        ranked = sorted(range(len(self.seats)), key=lambda i: order.get(keys[i], len(order) + i))
        self.seats = tuple(self.seats[i] for i in ranked)

    def _cancel(self, by: int, manager: bool) -> list[Event]:
        if not self.is_open:
            raise AlreadyClosed()
        if by != self.host_id and not manager:
            raise HostOrManagerOnly()
        self.status = Status.CANCELLED
        self.deadline, self.invited = None, ()
        return self._changed(Cancelled(self.seat_of(by)))

    # -- play -----------------------------------------------------------------------------

    def _play(self, user_id: int, given: Move | str) -> list[Event]:
        """A member's move (a tile, ``draw`` or ``pass``), or their text for one."""
        if self.status is Status.LOBBY:
            raise NotStarted()
        if self.status is not Status.PLAYING:
            raise AlreadyClosed()
        seat = self.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        turn = self.seat_to_move()
        if seat != turn:
            raise NotYourTurn(turn)
        move = self._legal_move(given)
        events: list[Event] = [Back(seat)] if self.seats[seat].away else []
        self._seat_changed(seat, timeouts=0, away=False)
        return self._apply_move(seat, move, events)

    def _come_back(self, user_id: int) -> list[Event]:
        seat = self.seat_of(user_id)
        if seat is None or not self.seats[seat].away:
            raise NotAway()
        self._seat_changed(seat, timeouts=0, away=False)
        return self._changed(Back(seat))

    def _more_time(self, user_id: int) -> list[Event]:
        """The member to move takes a whole turn more (the service sets the clock)."""
        seat = self.seat_to_move()
        mine = self.seat_of(user_id)
        if mine is None:
            raise NotSeated()
        if mine != seat:
            raise NotYourTurn(seat)
        if not self.more_time:
            raise MoreTimeOff()
        if self.computer_to_move:
            raise NoMoreTime(None)
        used = self.seats[seat].more_time
        if used >= MORE_TIME_MOST:
            raise NoMoreTime(used)
        self._seat_changed(seat, more_time=used + 1)
        return self._changed(TimeAdded(seat, MORE_TIME_MOST - used - 1))

    def seat_to_move(self) -> int:
        """The seat whose turn it is (the game must be running)."""
        if self.status is not Status.PLAYING:
            raise NotStarted() if self.status is Status.LOBBY else AlreadyClosed()
        assert self.match is not None and self.match.turn is not None
        return self.match.turn

    def computer_level(self) -> str:
        """The level that plays the seat to move: its own, or the takeover level."""
        return self.seats[self.seat_to_move()].level or TAKEOVER_LEVEL

    def _timeout(self, move: Move) -> list[Event]:
        """The turn timer ran out for a member: ``move`` (the computer's) is made for
        them; after :data:`AWAY_AFTER_TIMEOUTS` in a row the seat is away."""
        seat = self.seat_to_move()
        move = self._legal_move(move)
        chair = self.seats[seat]
        timeouts = chair.timeouts + 1
        away = timeouts >= AWAY_AFTER_TIMEOUTS
        events: list[Event] = [TimedOut(seat)]
        if away and not chair.away:
            events.append(Away(seat))
        self._seat_changed(seat, timeouts=timeouts, away=chair.away or away)
        self._stood_in()
        return self._apply_move(seat, move, events)

    def _stood_in(self) -> None:
        """Note that the move about to be made is the computer's, in a member's seat
        (:attr:`~TableState.stood_in`): its index is the record's next action's."""
        assert self.match is not None
        self.stood_in = (*self.stood_in, len(self.match.actions))

    def _legal_move(self, given: Move | str) -> Move:
        """The legal move ``given`` names, read by the engine's parser (which fills in
        the one end a tile fits), or the engine's refusal saying why there is none;
        checked before anything about the seat changes."""
        assert self.match is not None
        if isinstance(given, Move) and given in self.match.legal_moves():
            return given
        try:
            return self.match.parse_move(given.text if isinstance(given, Move) else given)
        except EngineError as error:
            raise MoveRefused(error) from None

    def _apply_move(self, seat: int, move: Move, events: list[Event]) -> list[Event]:
        """Make ``seat``'s legal move (see :meth:`_legal_move`), then every move the rules
        leave no choice about (:meth:`Match.forced_move`), whoever's turn it is: the
        draws and the pass that follow a draw, the pass of a seat that can do nothing
        else. A click that could only ever be one button is not asked for, nor waited
        for until the turn timer runs out. Each is a move of its own in the round's
        history, as if clicked, and the channel is shown them all with the move that
        led to them."""
        assert self.match is not None
        while True:
            round_before, game_before = self.match.round, self.match.game_number
            scored_before = len(round_before.score_events)
            ended = self.match.play(move)
            new_scores = tuple(round_before.score_events[scored_before:])
            events.append(Moved(seat, move, new_scores))
            if ended is not None:
                events.append(RoundOver(seat, ended))
            if self.match.game_number != game_before:  # a match's next game: more time anew
                self.seats = tuple(replace(chair, more_time=0) for chair in self.seats)
            outcome = self.match.outcome()
            if outcome is not None:
                self.status = Status.FINISHED
                self.deadline = None
                events.append(GameOver(outcome))
            forced = self.match.forced_move() if ended is None else None
            if forced is None:
                return self._changed(*events)
            seat, move = self.seat_to_move(), forced

    # -- helpers --------------------------------------------------------------------------

    def _seat_changed(self, seat: int, **changed: Any) -> None:
        """``seat`` with ``changed`` fields, a new frozen seat in its place."""
        chair = replace(self.seats[seat], **changed)
        self.seats = (*self.seats[:seat], chair, *self.seats[seat + 1 :])

    def _require_lobby(self, action: str) -> None:
        if self.status is not Status.LOBBY:
            raise LobbyClosed(action) if self.is_open else AlreadyClosed()

    def _changed(self, *events: Event) -> list[Event]:
        """A new version; the names of members it no longer names without a seat (one
        seated, whose seat has their name; one whose kept seat went) are let go, so the
        state keeps no name it does not need."""
        self.version += 1
        self.unseated = tuple(
            (member, name)
            for member, name in self.unseated
            if member in self.invited or (member == self.host_id and self.seat_of(member) is None)
        )
        return list(events)

    def check_version(self, seen: int) -> None:
        """Refuse a click made on controls drawn for another version of the table."""
        if seen != self.version:
            raise StaleVersion()

    @property
    def computer_to_move(self) -> bool:
        """The computer plays the seat to move (:meth:`~TableState._computer_plays`)."""
        return self._computer_plays(self.turn, self.match is not None and self.match.round.drew)

    def copy(self) -> Table:
        """An independent copy: the service applies a command to a copy and keeps it
        only once it is stored, so a refused or unsaved action never shows."""
        return replace(self, match=self.match.copy() if self.match else None)

    # -- the stored form ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The table as the store keeps it: each field by name (:data:`_STORED`)."""
        return {field.name: field.store(getattr(self, field.name)) for field in _STORED}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        """A table as :meth:`to_dict` stored it, or as an earlier release did: a field
        added since takes its default, and one dropped since is ignored (what the Discord
        face had shown, say, which is now a face's, not the table's). Every release
        stored the version: without it the data is no table's (KeyError), never one
        loaded at version 0 that its next action would write over."""
        if "version" not in data:
            raise KeyError("version")
        return cls(
            **{
                field.name: field.load(data[field.name])
                for field in _STORED
                if field.required or field.name in data
            }
        )


_FORMS: dict[object, Form] = {
    str: (same, same),
    str | None: (same, same),
    int: (same, same),
    int | None: (same, same),
    float | None: (same, same),
    bool: (same, bool),
    Status: (lambda status: status.value, Status),
    Options: (Options.to_dict, lambda stored: Options(**stored)),
    tuple[Seat, ...]: (
        lambda seats: [seat.to_dict() for seat in seats],
        lambda stored: tuple(Seat.from_dict(seat) for seat in stored),
    ),
    tuple[int, ...]: (list, tuple),
    tuple[str, ...]: (list, tuple),
    tuple[tuple[int, str], ...]: (
        lambda pairs: [[member, name] for member, name in pairs],
        lambda stored: tuple((int(member), str(name)) for member, name in stored),
    ),
    Match | None: (
        lambda match: match.to_dict() if match is not None else None,
        lambda stored: Match.from_dict(stored) if stored else None,
    ),
}
"""How a value of each type a table's field may have is stored: the only place a
field's type is written down for storage, so that a new field of :class:`TableState`
is stored with no more writing, and one of a type not here is refused when this module
loads (``bot.stored``), never dropped from the stored table (and lost at the
next restart)."""


_STORED = stored_fields(Table, _FORMS)
