"""What happened at a table, as typed values: the service returns them after an action is
stored, and the Discord face announces them (and words them, in ``cogs``). ``kind``
names each in the audit log, which stores them whole (:func:`to_dict`), so that what a
channel has not been shown yet can be announced after a restart (:func:`from_dict`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, get_args

from bot.engine import MatchOutcome, Move, RoundOutcome, ScoreEvent
from bot.stored import Form, Kinds, same


@dataclass(frozen=True, slots=True)
class Joined:
    """A member or a computer took ``seat``."""

    seat: int
    kind: ClassVar[str] = "joined"


@dataclass(frozen=True, slots=True)
class Left:
    seat: int
    kind: ClassVar[str] = "left"


@dataclass(frozen=True, slots=True)
class Started:
    kind: ClassVar[str] = "started"


@dataclass(frozen=True, slots=True)
class Moved:
    """``seat`` made ``move``; ``scores``: the points it won or went bust on (R-MG-4)."""

    seat: int
    move: Move
    scores: tuple[ScoreEvent, ...] = ()
    kind: ClassVar[str] = "moved"


@dataclass(frozen=True, slots=True)
class RoundOver:
    """The round ended with ``seat``'s move; the next one is dealt already."""

    seat: int
    outcome: RoundOutcome
    kind: ClassVar[str] = "round_over"


@dataclass(frozen=True, slots=True)
class GameOver:
    outcome: MatchOutcome
    kind: ClassVar[str] = "game_over"


@dataclass(frozen=True, slots=True)
class Cancelled:
    """The table was closed before its end; ``seat`` of whoever closed it (None: a
    manager who does not sit there, or the clock). ``idle``: the clock closed a lobby
    where nothing happened for that many seconds (the words say why); None: a member."""

    seat: int | None
    idle: int | None = None
    kind: ClassVar[str] = "cancelled"


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The turn timer ran out for ``seat``: the computer moves for them."""

    seat: int
    kind: ClassVar[str] = "timed_out"


@dataclass(frozen=True, slots=True)
class Away:
    """``seat`` timed out too often: the computer plays it until its member is back."""

    seat: int
    kind: ClassVar[str] = "away"


@dataclass(frozen=True, slots=True)
class Back:
    seat: int
    kind: ClassVar[str] = "back"


@dataclass(frozen=True, slots=True)
class TimeAdded:
    """``seat``'s member took more time (:class:`bot.commands.MoreTime`): a whole turn
    more; ``left``: how many more times they may this game."""

    seat: int
    left: int
    kind: ClassVar[str] = "time_added"


@dataclass(frozen=True, slots=True)
class Reminder:
    """A quarter of ``seat``'s time is left; the turn runs out at ``deadline``. Not an
    action: nothing changes and nothing is stored."""

    seat: int
    deadline: float
    kind: ClassVar[str] = "reminder"


Event = (
    Joined | Left | Started | Moved | RoundOver | GameOver | Cancelled | TimedOut | Away | Back
    | TimeAdded | Reminder
)  # fmt: skip


_CODECS: dict[object, Form] = {
    int: (same, same),
    int | None: (same, same),
    float: (same, same),
    Move: (lambda move: move.text, Move.parse),
    tuple[ScoreEvent, ...]: (
        lambda scores: [score.to_dict() for score in scores],
        lambda stored: tuple(ScoreEvent.from_dict(score) for score in stored),
    ),
    RoundOutcome: (RoundOutcome.to_dict, RoundOutcome.from_dict),
    MatchOutcome: (MatchOutcome.to_dict, MatchOutcome.from_dict),
}
"""How a value of each type an event's field may have is stored: the only place a
field's type is written down for storage, so that a field of a type not here is
refused when this module loads, never dropped from the log (``bot.stored``)."""


_KEPT = Kinds(get_args(Event), _CODECS)


def to_dict(event: Event) -> dict[str, Any]:
    """``event`` as JSON data: its ``kind`` and each of its fields."""
    return _KEPT.to_dict(event)


def from_dict(data: dict[str, Any]) -> Event:
    """An event as :func:`to_dict` stored it; KeyError, TypeError, ValueError or
    :class:`bot.engine.EngineError` if it is not one."""
    event: Event = _KEPT.from_dict(data)
    return event
