"""Typed views of a round: what everyone may see (:class:`PublicView`) and what one seat
may see (:class:`SeatView`), as frozen dataclasses holding :class:`Tile` and
:class:`Move` objects — never strings to parse again. Pictures, messages and computer
players read these (``docs/VIEWS.md``).

A :class:`PublicView` holds no hidden tile (R-ALL-6): hands appear only as their sizes,
the boneyard only as its count, until a round's end reveals the hands in its outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from bot.engine.moves import Move
from bot.engine.options import Options
from bot.engine.outcome import MatchOutcome, RoundOutcome, ScoreEvent, game_winner
from bot.engine.tiles import Tile
from bot.engine.traits import LayoutKind

if TYPE_CHECKING:
    from bot.engine.round import Round


@dataclass(frozen=True, slots=True)
class ArmTile:
    """A tile on a spinner's arm: ``near`` is the number it joins towards the spinner,
    ``far`` the number it shows outwards (a double: both the same, laid crosswise)."""

    tile: Tile
    near: int
    far: int

    def __reduce__(self) -> tuple[type[ArmTile], tuple[Tile, int, int]]:
        """Pickled as its class and fields, as each part of a layout is: a layout is
        sent to the drawing process with every table's picture, and a slotted
        dataclass's own way (``dataclasses.fields`` at each object, both ways) is
        slower."""
        return ArmTile, (self.tile, self.near, self.far)


@dataclass(frozen=True, slots=True)
class Arm:
    """One arm of a spinner layout (R-SP-1)."""

    name: str
    """``N``, ``E``, ``S`` or ``W``: the end a move names."""
    tiles: tuple[ArmTile, ...]
    """From the spinner outwards."""
    open_end: int
    """The number a tile must carry to go on it (the spinner's until it is started)."""
    capped: bool
    """Maltese Cross: capped with a double (R-MC-3)."""
    dead: bool
    """Maltese Cross: dead, nothing more goes on it (R-MC-5)."""

    def __reduce__(self) -> tuple[type[Arm], tuple[Any, ...]]:
        return Arm, (self.name, self.tiles, self.open_end, self.capped, self.dead)


@dataclass(frozen=True, slots=True)
class SpinnerLayout:
    """A double in the middle and four arms (R-SP)."""

    kind: ClassVar[LayoutKind] = LayoutKind.SPINNER
    spinner: Tile
    arms: tuple[Arm, ...]
    """N, E, S, W, in that order."""
    phase: str
    """``cross`` (arms still to start), ``caps`` (Maltese Cross, R-MC-3) or ``open``."""

    def __reduce__(self) -> tuple[type[SpinnerLayout], tuple[Any, ...]]:
        return SpinnerLayout, (self.spinner, self.arms, self.phase)

    def arm(self, name: str) -> Arm:
        return self.arms["NESW".index(name)]

    def laid(self) -> tuple[Tile, ...]:
        """Every tile on the table: the spinner, then each arm's from the spinner out."""
        return (self.spinner, *(placed.tile for arm in self.arms for placed in arm.tiles))


@dataclass(frozen=True, slots=True)
class LineTile:
    """A tile in a line, with the numbers on its left and right."""

    tile: Tile
    left: int
    right: int

    def __reduce__(self) -> tuple[type[LineTile], tuple[Tile, int, int]]:
        return LineTile, (self.tile, self.left, self.right)


@dataclass(frozen=True, slots=True)
class LineLayout:
    """One line with two ends, L and R (R-MI-2)."""

    kind: ClassVar[LayoutKind] = LayoutKind.LINE
    tiles: tuple[LineTile, ...]
    """From left to right."""
    lead_index: int
    """Where the first tile of the round lies in ``tiles``."""

    def __reduce__(self) -> tuple[type[LineLayout], tuple[Any, ...]]:
        return LineLayout, (self.tiles, self.lead_index)

    def laid(self) -> tuple[Tile, ...]:
        """Every tile on the table, from left to right."""
        return tuple(placed.tile for placed in self.tiles)


Layout = SpinnerLayout | LineLayout


@dataclass(frozen=True, slots=True)
class PublicView:
    """A round as everyone at the table may see it (R-ALL-6), with the match around it."""

    variant: type[Round]
    """The game's round class: its traits (``teams``, ``drawing`` …) and ``title``."""
    options: Options
    players: int
    hand_sizes: tuple[int, ...]
    boneyard_count: int
    turn: int
    """The seat to move (while the round is over: the seat that would have been)."""
    leader: int
    lead_passed: bool
    """Milo: the lead passed on to ``leader``, who may lead any tile (R-MI-3, R-MI-7)."""
    drew: bool
    """The seat to move has drawn this turn."""
    start_scores: tuple[int, ...]
    """Each side's total when the round began."""
    scores: tuple[int, ...]
    """Each side's running total (a seat, or a team; ``variant.side_of``)."""
    history: tuple[tuple[int, Move], ...]
    """(seat, move) for every action of this round, in order."""
    score_events: tuple[ScoreEvent, ...]
    layout: Layout | None
    """None until the round is led."""
    open_ends: Mapping[str, int]
    """End name → the number it needs, for every live end."""
    open_sum: int | None
    """Merry-Go-Round: the open ends added up as R-MG-4 counts them; None elsewhere."""
    outcome: RoundOutcome | None
    round_number: int
    """The round's number within its game, from 1."""
    game_number: int
    """The game's number within the match, from 1 (R-MI-7)."""
    games_won: tuple[int, ...]
    target: int
    match_outcome: MatchOutcome | None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled with its open ends as a plain dict (a read-only mapping does not
        pickle): pictures are drawn from views in another process."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields["open_ends"] = dict(self.open_ends)
        return _public_view, (fields,)

    @property
    def led(self) -> bool:
        return self.layout is not None

    @property
    def game_winner(self) -> int | None:
        """The side that has won the game with the scores as they stand (after a round
        ends: the round that won it), as the match decides it; None while none has."""
        return game_winner(self.scores, self.target, self.variant.exact_target)

    @property
    def laid(self) -> tuple[Tile, ...]:
        """Every tile on the table (none before the lead): the tiles nobody holds."""
        return self.layout.laid() if self.layout is not None else ()

    def same_choice(self, a: Move, b: Move) -> bool:
        """Whether moves ``a`` and ``b`` are one choice under two names: the same move,
        or the same tile laid on two ends that look alike to every rule (the same
        number open, each started or not, ending in a double or not, capped or not,
        dead or not; :func:`end_look`). The rounds they lead to differ only in which
        end is called which: every later move of one is a move of the other with the
        two ends' names swapped, to the same effect, so neither is better. (A search
        that values each on its own samples finds them apart by its noise alone: the
        coach must not call one of them a mistake against the other.)"""
        if a is b:
            return True
        layout = self.layout
        if layout is None or a.tile is None or a.tile != b.tile:
            return False
        if a.end_name is None or b.end_name is None:
            return False
        return end_look(layout, a.end_name) == end_look(layout, b.end_name)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see: the public view, its own hand and, on its turn, its legal
    moves and the tile it drew this turn."""

    public: PublicView
    seat: int
    hand: tuple[Tile, ...]
    legal: tuple[Move, ...]
    """Empty unless it is this seat's turn."""
    drawn: Tile | None
    """On its turn after a draw: the tile drawn last, the only one it may play."""


def end_look(layout: Layout, name: str) -> tuple[object, ...]:
    """What the rules can read of the end ``name`` (``N`` … ``W`` on a spinner, ``L`` or
    ``R`` on a line), leaving out which tiles lie there: whether it is started, the
    number it shows, whether its outer tile is a double (Merry-Go-Round counts both
    halves of one, R-MG-4), whether it is capped (R-MC-3) or dead (R-MC-5). The rules
    read nothing else of an end (the number of tiles on it, or which, only place the
    pictures), so two ends that look alike are interchangeable."""
    if isinstance(layout, LineLayout):
        outer = layout.tiles[0] if name == "L" else layout.tiles[-1]
        number = outer.left if name == "L" else outer.right
        return (True, number, outer.tile.is_double, False, False)
    arm = layout.arm(name)
    double = arm.tiles[-1].tile.is_double if arm.tiles else None
    return (bool(arm.tiles), arm.open_end, double, arm.capped, arm.dead)


def layout_from_dict(data: dict[str, Any]) -> Layout:
    """The typed layout from the dict form :meth:`Round.to_dict` stores (read by
    :meth:`Round.from_dict`)."""
    if data["kind"] == LayoutKind.LINE.value:
        return LineLayout(
            tuple(LineTile(Tile.parse(t["tile"]), t["left"], t["right"]) for t in data["tiles"]),
            data["lead_index"],
        )
    spinner = Tile.parse(data["spinner"])
    arms = []
    for name in "NESW":
        tiles = tuple(
            ArmTile(Tile.parse(t["tile"]), t["near"], t["far"]) for t in data["arms"][name]
        )
        open_end = tiles[-1].far if tiles else spinner.high
        arms.append(Arm(name, tiles, open_end, data["capped"][name], data["dead"][name]))
    return SpinnerLayout(spinner, tuple(arms), data["phase"])


def _public_view(fields: dict[str, Any]) -> PublicView:
    """A pickled :class:`PublicView` again, its open ends read-only as before."""
    return PublicView(**{**fields, "open_ends": MappingProxyType(fields["open_ends"])})
