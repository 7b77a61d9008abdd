"""What happened at a table, as typed values: the service returns them after an action is
stored, and the Discord face announces them (and words them, in ``cogs``). ``kind``
names each in the audit log, which stores them whole (:func:`to_dict`), so that what a
channel has not been shown yet can be announced after a restart (:func:`from_dict`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.engine import MatchOutcome, Move, RoundOutcome, ScoreEvent


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
    manager who does not sit there)."""

    seat: int | None
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
class Reminder:
    """A quarter of ``seat``'s time is left; the turn runs out at ``deadline``. Not an
    action: nothing changes and nothing is stored."""

    seat: int
    deadline: float
    kind: ClassVar[str] = "reminder"


Event = (
    Joined | Left | Started | Moved | RoundOver | GameOver | Cancelled | TimedOut | Away | Back
    | Reminder
)  # fmt: skip


_KINDS: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (Joined, Left, Started, Moved, RoundOver, GameOver, Cancelled, TimedOut, Away, Back)
}


def to_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": event.kind}
    match event:
        case Moved(seat, move, scores):
            data.update(seat=seat, move=move.text, scores=[s.to_dict() for s in scores])
        case RoundOver(seat, outcome):
            data.update(seat=seat, outcome=outcome.to_dict())
        case GameOver(outcome):
            data.update(outcome=outcome.to_dict())
        case Joined(seat) | Left(seat) | Cancelled(seat) | TimedOut(seat) | Away(seat) | Back(seat):
            data.update(seat=seat)
    return data


def from_dict(data: dict[str, Any]) -> Event:
    """An event as :func:`to_dict` stored it; KeyError or ValueError if it is not one."""
    cls = _KINDS[data["kind"]]
    if cls is Moved:
        scores = tuple(ScoreEvent.from_dict(s) for s in data["scores"])
        return Moved(data["seat"], Move.parse(data["move"]), scores)
    if cls is RoundOver:
        return RoundOver(data["seat"], RoundOutcome.from_dict(data["outcome"]))
    if cls is GameOver:
        return GameOver(MatchOutcome.from_dict(data["outcome"]))
    if cls is Started:
        return Started()
    return cls(data["seat"])  # type: ignore[call-arg]
