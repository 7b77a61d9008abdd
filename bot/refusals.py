"""What the table service refuses, as data: the Discord face words each one (``cogs``
owns every sentence a user reads), so a refusal can be reworded or translated without
touching the rules of tables.

Every refusal changes nothing: the table is exactly as stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import EngineError


class TableError(Exception):
    """A refused action. Subclasses carry what the wording needs; ``str()`` is their
    name and data, for logs (never shown to a user)."""

    def __str__(self) -> str:
        return repr(self)


@dataclass(eq=False)
class NoTableHere(TableError):
    """The channel has no open table."""


@dataclass(eq=False)
class TableClosed(TableError):
    """The table the click or command names is finished, cancelled or unknown."""


@dataclass(eq=False)
class NotSeatedHere(TableError):
    """The member sits at no open table of this server."""


@dataclass(eq=False)
class ChannelTaken(TableError):
    """The channel already has an open table (one per channel)."""


@dataclass(eq=False)
class SeatedElsewhere(TableError):
    """The member already sits at another open table of this server (one per member)."""

    channel_id: int


@dataclass(eq=False)
class NoSuchGame(TableError):
    """No finished game has this id."""

    game_id: str


@dataclass(eq=False)
class NotInThatGame(TableError):
    """Only the members who played a game can ask for it again."""


@dataclass(eq=False)
class RematchElsewhere(TableError):
    """A game is played again only where it was played (``channel_id``)."""

    channel_id: int


@dataclass(eq=False)
class StillSeated(TableError):
    """A member asked to be forgotten while seated at an open table (in ``channel_id``),
    whose state holds their seat."""

    channel_id: int


@dataclass(eq=False)
class OtherServer(TableError):
    """The click names a table of another server."""


@dataclass(eq=False)
class LobbyClosed(TableError):
    """A lobby action (``action``: join, leave, computer, start) after the game started."""

    action: str


@dataclass(eq=False)
class AlreadySeated(TableError):
    """The member sits at this table already."""


@dataclass(eq=False)
class TableFull(TableError):
    seats: int


@dataclass(eq=False)
class NotSeated(TableError):
    """The member has no seat at this table."""


@dataclass(eq=False)
class HostCannotLeave(TableError):
    """The host cancels the table rather than leaving it."""


@dataclass(eq=False)
class SeatedOnly(TableError):
    """Only members seated at the table may add a computer player."""


@dataclass(eq=False)
class UnknownLevel(TableError):
    levels: tuple[str, ...]


@dataclass(eq=False)
class UnknownLanguage(TableError):
    """A server language the bot does not speak; ``languages`` are the codes it does."""

    languages: tuple[str, ...]


@dataclass(eq=False)
class HostOnly(TableError):
    """Only the host starts the game."""


@dataclass(eq=False)
class WrongPlayerCount(TableError):
    game: str
    allowed: tuple[int, ...]
    seated: int


@dataclass(eq=False)
class AlreadyClosed(TableError):
    """The table is finished or cancelled already."""


@dataclass(eq=False)
class HostOrManagerOnly(TableError):
    """Only the host, or a member with Manage Server, ends a table."""


@dataclass(eq=False)
class NotStarted(TableError):
    """A move at a table still in its lobby."""


@dataclass(eq=False)
class NotYourTurn(TableError):
    seat: int
    """The seat whose turn it is."""


@dataclass(eq=False)
class HintsOff(TableError):
    """A hint asked for at a table opened without the hints option (a rated game)."""


@dataclass(eq=False)
class NotAway(TableError):
    """Coming back, by a member whose seat is not away."""


@dataclass(eq=False)
class StaleVersion(TableError):
    """The click was made on controls drawn for an older state of the table."""


@dataclass(eq=False)
class MoveRefused(TableError):
    """The engine refused the move; ``error`` says which rule."""

    error: EngineError


@dataclass(eq=False)
class OptionsRefused(TableError):
    """The engine refused the table's options."""

    error: EngineError


@dataclass(eq=False)
class OutOfRange(TableError):
    """A number outside what the option allows (Discord checks the ranges it is told,
    but a forged or stale request may carry any value)."""

    option: str
    low: int
    high: int
    got: object


@dataclass(eq=False)
class NotSaved(TableError):
    """The store could not write the action, so it was not made. ``fault`` is the
    store's own word for why (``full``, ``busy``, ``read-only``, ``unavailable``);
    ``kind`` the command's (``play``, ``join`` …), empty for other writes."""

    fault: str
    kind: str = ""
