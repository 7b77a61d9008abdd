"""The actions the table service takes, as typed values.

The Discord face builds one of these from a click or a slash command and hands it to
:meth:`bot.service.TableService.act`; the service checks every rule of tables under the
table's lock and :meth:`bot.table.Table.apply` carries it out. Being values (not
callables), they can be logged and audited by name (``kind``), compared in tests, sent
by a face as JSON (:func:`to_dict`, :func:`from_dict`), and checked by the service
before they touch a table (a :class:`Join` needs the server-wide "one seat per member"
check, made under the server's lock).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, get_args

from bot.engine import Move
from bot.stored import Form, Kinds, same


@dataclass(frozen=True, slots=True)
class Join:
    user_id: int
    name: str
    kind: ClassVar[str] = "join"


@dataclass(frozen=True, slots=True)
class Leave:
    user_id: int
    kind: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class AddComputer:
    user_id: int
    level: str
    kind: ClassVar[str] = "add-computer"


@dataclass(frozen=True, slots=True)
class Start:
    user_id: int
    kind: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Cancel:
    user_id: int
    manager: bool = False
    """Whether the member may manage the server (and so end any table there)."""
    kind: ClassVar[str] = "cancel"


@dataclass(frozen=True, slots=True)
class Play:
    """A member's move: a tile on an end, a draw or a pass; or the text they typed
    (``6-5``, ``6-5 N``, ``draw``), read against the position by the engine's parser
    under the table's lock (a tile that fits one end only gets that end)."""

    user_id: int
    move: Move | str
    kind: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class ComeBack:
    """An away member acted (asked for their hand): the computer stops playing them."""

    user_id: int
    kind: ClassVar[str] = "come-back"


@dataclass(frozen=True, slots=True)
class MoreTime:
    """The member to move asks for more time: their turn's clock gets a whole turn more,
    a few times a game (:data:`bot.table.MORE_TIME_MOST`), so that a member who reads or
    plays slowly (a screen reader, a keyboard) is not played for by the computer."""

    user_id: int
    kind: ClassVar[str] = "more-time"


@dataclass(frozen=True, slots=True)
class MoveToThread:
    """The table now posts in its own thread."""

    channel_id: int
    kind: ClassVar[str] = "thread"


@dataclass(frozen=True, slots=True)
class ComputerMove:
    """The computer's move for the seat to move (a computer seat, or one away)."""

    move: Move
    kind: ClassVar[str] = "computer"


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn timer ran out for a member: the computer's move is made for them."""

    move: Move
    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class ReleaseSeats:
    """The time for a rematch's members to confirm has run out: the seats kept for those
    who have not are free for anyone."""

    kind: ClassVar[str] = "release-seats"


@dataclass(frozen=True, slots=True)
class CloseIdle:
    """Nothing happened in a lobby for ``idle`` seconds: the clock closes it, as a cancel,
    so that a lobby its host left (a page closed, a guest's cookie lost) neither stays
    open for good nor keeps its channel from another table."""

    idle: int
    kind: ClassVar[str] = "close-idle"


@dataclass(frozen=True, slots=True)
class StandIn:
    """A tournament's table: the member it keeps a seat for did not come in time; a
    computer player (``level``) takes that seat, in the member's place in the lineup."""

    user_id: int
    level: str
    kind: ClassVar[str] = "stand-in"


@dataclass(frozen=True, slots=True)
class Forget:
    """A member asked to be forgotten: a lobby keeps no seat and no series for them."""

    user_id: int
    kind: ClassVar[str] = "forget"


Command = (
    Join | Leave | AddComputer | Start | Cancel | Play | ComeBack | MoreTime | MoveToThread
    | ComputerMove | Timeout | ReleaseSeats | CloseIdle | StandIn | Forget
)  # fmt: skip


def _store_move(move: Move | str) -> dict[str, str]:
    return {"move": move.text} if isinstance(move, Move) else {"typed": move}


def _load_move(stored: dict[str, str]) -> Move | str:
    return Move.parse(stored["move"]) if "move" in stored else str(stored["typed"])


_FORMS: dict[object, Form] = {
    int: (same, same),
    str: (same, str),
    bool: (same, bool),
    Move: (lambda move: move.text, Move.parse),
    Move | str: (_store_move, _load_move),
}
"""How a value of each type a command's field may have is kept as JSON (a move a member
typed stays the text they typed: the table reads it against the position)."""

_KEPT = Kinds(get_args(Command), _FORMS)


def to_dict(command: Command) -> dict[str, Any]:
    """``command`` as JSON data, for a face that sends commands as messages (a browser
    page's socket): its ``kind`` and each of its fields."""
    return _KEPT.to_dict(command)


def from_dict(data: dict[str, Any]) -> Command:
    """A command as :func:`to_dict` wrote it; KeyError, TypeError, ValueError or
    :class:`bot.engine.EngineError` if it is not one."""
    command: Command = _KEPT.from_dict(data)
    return command
