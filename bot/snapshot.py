"""A table as the Discord face reads it: a frozen snapshot of one stored version.

The table service hands these out (``TableService.snapshot``, ``in_channel``, ``of_user``,
and to its listeners) instead of its live tables, so nothing outside the service can
change a table, and a cog holding one across an ``await`` holds a consistent picture of
the version it was taken from — never a half-applied action, never one the store
refused. The game is read through the engine's typed views.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Match, Move, Options, PublicView, Round, SeatView, find_variant
from bot.table import Status, Table, game_id, lineup_keys


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat: a member (``user_id``) or a computer player (``level``)."""

    name: str
    user_id: int | None
    level: str | None
    away: bool

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def played_by_computer(self) -> bool:
        return self.is_computer or self.away


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    id: str
    guild_id: int
    channel_id: int
    host_id: int
    variant: type[Round]
    options: Options
    status: Status
    version: int
    seats: tuple[SeatInfo, ...]
    message_id: int | None
    announced_version: int
    deadline: float | None
    """When the turn runs out (Unix time), while the game runs."""
    hints: bool
    """Hints are on: the game is not rated."""
    invited: tuple[int, ...]
    """A rematch's members whose seats are kept until they confirm."""
    series: tuple[int, ...]
    """A rematch: games won so far by each seat of ``lineup``, in the same order."""
    lineup: tuple[str, ...]
    view: PublicView | None
    """The game as everyone sees it (None in the lobby)."""
    ended: PublicView | None
    """The last round that ended, as it ended (its final layout; None before one has)."""
    _match: Match | None
    """For seat views only; a published match is never changed (the service applies
    every action to a copy)."""

    @classmethod
    def of(cls, table: Table) -> TableSnapshot:
        match = table.match
        return cls(
            id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=table.host_id,
            variant=find_variant(table.game),
            options=table.options,
            status=table.status,
            version=table.version,
            seats=tuple(SeatInfo(s.name, s.user_id, s.level, s.away) for s in table.seats),
            message_id=table.message_id,
            announced_version=table.announced_version,
            deadline=table.deadline,
            hints=table.hints,
            invited=table.invited,
            series=table.series,
            lineup=table.lineup,
            view=match.view() if match is not None else None,
            ended=match.previous_view() if match is not None else None,
            _match=match,
        )

    @property
    def game_id(self) -> str:
        """The id this table's game is stored under once it is over (``/domino replay``)."""
        return game_id(self.id, self.version)

    @property
    def title(self) -> str:
        return self.variant.title

    @property
    def is_open(self) -> bool:
        return self.status in (Status.LOBBY, Status.PLAYING)

    @property
    def max_players(self) -> int:
        return max(self.variant.player_counts)

    @property
    def turn(self) -> int | None:
        """The seat to move while the game runs."""
        if self.status is not Status.PLAYING or self.view is None:
            return None
        return self.view.turn

    @property
    def computer_to_move(self) -> bool:
        turn = self.turn
        return turn is not None and self.seats[turn].played_by_computer

    @property
    def turn_goes_on(self) -> bool:
        """The seat to move has drawn and must still play the tile or pass (R-CR-5,
        R-MG-5): one turn, not yet over."""
        return self.turn is not None and self.view is not None and self.view.drew

    def series_by_seat(self) -> list[int | None] | None:
        """Games won so far in the series by each seat (a rematch once started); None
        for a seat that was not in those games."""
        if not self.series:
            return None
        keys = lineup_keys(seat.user_id for seat in self.seats)
        won = dict(zip(self.lineup, self.series, strict=False))
        return [won.get(key) for key in keys]

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def seat_view(self, user_id: int) -> SeatView | None:
        """What the member sees of the game: their hand, and on their turn their moves."""
        seat = self.seat_of(user_id)
        if seat is None or self._match is None or self.status is not Status.PLAYING:
            return None
        return self._match.seat_view(seat)

    def moves_to_make(self) -> tuple[Move, ...]:
        """The legal moves of the seat to move (the table's Draw and Pass buttons are
        enabled by them); none when the game is not running."""
        if self._match is None or self.status is not Status.PLAYING:
            return ()
        return self._match.legal_moves()

    def legal_for(self, user_id: int) -> tuple[Move, ...]:
        """The moves ``user_id`` may make now (none when it is not their turn)."""
        view = self.seat_view(user_id)
        return view.legal if view is not None else ()
