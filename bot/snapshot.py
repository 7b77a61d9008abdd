"""A table as the Discord face reads it: a frozen snapshot of one stored version.

The table service hands these out (``TableService.snapshot``, ``in_channel``, ``of_user``,
and to its listeners) instead of its live tables, so nothing outside the service can
change a table, and a cog holding one across an ``await`` holds a consistent picture of
the version it was taken from — never a half-applied action, never one the store
refused. The game is read through the engine's typed views.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields

from bot.engine import Match, Move, PublicView, Round, SeatView, find_variant
from bot.table import MORE_TIME_MOST, Status, Table, TableState, game_id, lineup_keys

_STATE = tuple(field.name for field in fields(TableState))


class TableSnapshot(TableState):
    """A table's state at one version (every field of :class:`TableState`, shared with
    the table, which never changes them in place), the game as its views show it, and
    nothing that can change either: assigning to a snapshot raises."""

    __slots__ = ("_match", "ended", "variant", "view")
    variant: type[Round]
    view: PublicView | None
    """The game as everyone sees it (None in the lobby)."""
    ended: PublicView | None
    """The last round that ended, as it ended (its final layout; None before one has)."""
    _match: Match | None
    """For seat views only; a published match is never changed (the service applies
    every action to a copy)."""

    def __init__(self, table: Table) -> None:
        state = object.__setattr__
        for name in _STATE:
            state(self, name, getattr(table, name))
        match = table.match
        state(self, "variant", find_variant(table.game))
        state(self, "view", match.view() if match is not None else None)
        state(self, "ended", match.previous_view() if match is not None else None)
        state(self, "_match", match)

    @classmethod
    def of(cls, table: Table) -> TableSnapshot:
        return cls(table)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"a table snapshot does not change: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"a table snapshot does not change: cannot delete {name}")

    @property
    def game_id(self) -> str:
        """The id this table's game is stored under once it is over (``/domino replay``)."""
        return game_id(self.id, self.version)

    @property
    def title(self) -> str:
        return self.variant.title

    @property
    def turn(self) -> int | None:
        """The seat to move while the game runs."""
        if self.status is not Status.PLAYING or self.view is None:
            return None
        return self.view.turn

    @property
    def computer_to_move(self) -> bool:
        """As :attr:`bot.table.Table.computer_to_move`: a turn it began, it finishes."""
        return self._computer_plays(self.turn, self.turn_goes_on)

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

    def seat_view(self, user_id: int) -> SeatView | None:
        """What the member sees of the game: their hand, and on their turn their moves."""
        seat = self.seat_of(user_id)
        if seat is None or self._match is None or self.status is not Status.PLAYING:
            return None
        return self._match.seat_view(seat)

    def more_time_left(self, user_id: int) -> int:
        """How many more times ``user_id`` may take more time now (the faces offer it
        while this is not 0): none unless the turn is theirs to play."""
        turn = self.turn
        if turn is None or self.seats[turn].user_id != user_id or self.computer_to_move:
            return 0
        if not self.more_time:
            return 0
        return MORE_TIME_MOST - self.seats[turn].more_time

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
