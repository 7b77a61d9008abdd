"""The engine's refusals: exception classes that carry data, as python-chess's do.

Every refusal is an :class:`EngineError`. Each class keeps the facts a caller needs to
word the refusal itself (a tile, the ends it fits, the rule's number), and a default
English ``str()`` for developers, logs and the command line::

    EngineError
    ├── IllegalMove              a move the rules do not allow now (``rule``, ``reason``)
    │   ├── NotAMove             text or an object that is not a move at all
    │   ├── AmbiguousMove        a tile that fits several ends, and none was named
    │   ├── OnlyDrawnTile        after a draw only the drawn tile may be played
    │   ├── MatchOver            the match has ended
    │   └── WrongSeat            a record's action made by a seat not on turn
    ├── NotATile                 text that is not a tile (also a ValueError)
    ├── InvalidOptions           table options the game does not allow
    │   └── BadOptionType        an option of the wrong type
    ├── InvalidDeal              an explicit deal the rules refuse (``rule``)
    │   └── NoDouble             nobody holds a double: deal again
    ├── InvalidRecord            a record field of the wrong type or out of range
    └── ReplayError              a record that does not replay (``index``, ``error``)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.engine.tiles import Tile

_LONGEST = 40
"""Characters of a caller's value quoted in a message, at most."""


def brief(value: object) -> str:
    """A caller's value as a message quotes it: short, one line, never failing (a huge
    number or a deeply nested list is named, not printed)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 128:
            return f"a {int(value.bit_length() * 0.30103)}-digit number"
        text = repr(value)
    elif isinstance(value, float | str):
        text = repr(value)
    elif isinstance(value, list | tuple | dict | set | frozenset):
        return f"{_a(type(value).__name__)} of {len(value)}"
    else:
        return _a(type(value).__name__)
    return text if len(text) <= _LONGEST else text[: _LONGEST - 1] + "…"


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiouAEIOU" else f"a {noun}"


class EngineError(Exception):
    """Base of every refusal the engine raises."""

    rule: str | None = None
    """The rule of RULES.md that refuses it (``R-CR-3``), when one does."""


class IllegalMove(EngineError):
    """A move the rules do not allow now; ``str(error)`` says why in plain words.

    ``reason`` is the sentence without the rule; ``rule`` names the rule of RULES.md that
    refuses the move (``R-CR-3``) when one does.
    """

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule


class NotAMove(IllegalMove, ValueError):
    """``text`` is not a move (or, ``what`` says, not an end of one); ``hint`` says what
    one looks like. Also a ValueError, as :meth:`Move.parse` raised before."""

    def __init__(
        self,
        text: object,
        hint: str = "write a tile and an end, like 6-5 N",
        what: str = "a move",
    ) -> None:
        super().__init__(f"{brief(text)} is not {what}: {hint}")
        self.text = text
        self.hint = hint
        self.what = what


class AmbiguousMove(IllegalMove):
    """``tile`` fits on several ``ends`` and the move named none (R-SP-3)."""

    def __init__(self, tile: Tile, ends: tuple[str, ...], rule: str) -> None:
        super().__init__(f"say where {tile} goes: {' or '.join(ends)}", rule)
        self.tile = tile
        self.ends = ends


class OnlyDrawnTile(IllegalMove):
    """The seat drew this turn, and only the tile it drew, ``drawn``, may be played now
    (R-CR-5, R-MG-5, R-MC-5)."""

    def __init__(self, drawn: Tile, rule: str) -> None:
        super().__init__(f"you drew {drawn} this turn: it is the only tile you may play", rule)
        self.drawn = drawn


class MatchOver(IllegalMove):
    """The match has ended: no move is taken."""

    def __init__(self) -> None:
        super().__init__("the match is over")


class WrongSeat(IllegalMove):
    """A record's action made by ``got`` while ``expected`` is to move."""

    def __init__(self, expected: int, got: object) -> None:
        super().__init__(f"it is seat {expected}'s turn, not seat {brief(got)}'s")
        self.expected = expected
        self.got = got


class NotATile(EngineError, ValueError):
    """``text`` is not a tile. Also a ValueError, as :meth:`Tile.parse` raised before."""

    def __init__(self, text: object) -> None:
        super().__init__(f"{brief(text)} is not a tile: write it like 6-5")
        self.text = text


class InvalidOptions(EngineError):
    """Table options the game does not allow (refused before the table opens)."""


class BadOptionType(InvalidOptions):
    """Option ``field`` must be ``expected`` (``an integer``, ``true or false``), and
    ``got`` is not."""

    def __init__(self, field: str, expected: str, got: object) -> None:
        super().__init__(f"{field} must be {expected}, not {brief(got)}")
        self.field = field
        self.expected = expected
        self.got = got


class InvalidDeal(EngineError):
    """An explicit deal the rules refuse (R-ALL-3): not each tile once, the wrong hand
    sizes or number of hands, or a leader other than the one the rules name."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule


class NoDouble(InvalidDeal):
    """Nobody holds a double, so nobody may lead: the tiles are dealt again (R-CR-2,
    R-MG-2)."""

    def __init__(self, rule: str) -> None:
        super().__init__("nobody holds a double: deal again", rule)


class InvalidRecord(EngineError):
    """A record whose ``field`` (``options.target``, ``actions[3]``) is of the wrong type
    or out of range; ``problem`` says what it must be."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field} {problem}")
        self.field = field
        self.problem = problem


class ReplayError(EngineError):
    """A record whose action at ``index`` (a ``(seat, move text)`` pair) could not be
    applied; ``index`` -1 and ``action`` None: the record could not even be set up,
    before its first action. ``error`` is the refusal, with its data."""

    def __init__(self, index: int, action: tuple[int, str] | None, error: EngineError) -> None:
        self.where = (
            f"at action {index} [{action[0]}, {brief(action[1])}]"
            if action is not None
            else "before action 0"
        )
        super().__init__(f"{self.where}: {error}")
        self.index = index
        self.action = action
        self.error = error
        self.reason = str(error)
        self.rule = error.rule
