"""What the table service refuses, as data: the Discord face words each one (``cogs``
owns every sentence a user reads), so a refusal can be reworded or translated without
touching the rules of tables.

Every refusal changes nothing: the table is exactly as stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import EngineError


class Refusal(Exception):
    """A refused action or request: at a table, of the boards, of a replay, of a
    server's settings. Subclasses carry what the wording needs; ``str()`` is their name
    and data, for logs (never shown to a user)."""

    def __str__(self) -> str:
        return repr(self)


@dataclass(eq=False)
class NoTableHere(Refusal):
    """The channel has no open table."""


@dataclass(eq=False)
class TableClosed(Refusal):
    """The table the click or command names is finished, cancelled or unknown."""


@dataclass(eq=False)
class NotSeatedHere(Refusal):
    """The member sits at no open table of this server."""


@dataclass(eq=False)
class ChannelTaken(Refusal):
    """The channel already has an open table (one per channel)."""


@dataclass(eq=False)
class SeatedElsewhere(Refusal):
    """The member already sits at another open table of this server (one per member)."""

    channel_id: int


@dataclass(eq=False)
class InTournament(Refusal):
    """The member plays in a tournament of this server (announced in ``channel_id``: a
    ``game``, in ``format``): from its check-in until they are out of it or it ends, its
    tables are the only seats they take. A seat elsewhere would hold them when their
    round's table opens (one seat per member per server), and a started game cannot be
    left, so they would forfeit. ``round``: the round under way (0 before the first,
    which starts at ``starts_at``); ``waiting``: the channel of that round's table
    where their seat is kept for them now, if it is open."""

    channel_id: int
    game: str
    format: str
    round: int
    starts_at: float
    waiting: int | None = None


@dataclass(eq=False)
class NoSuchGame(Refusal):
    """No finished game has this id."""

    game_id: str


@dataclass(eq=False)
class NotReplayable(Refusal):
    """A finished game whose stored record does not replay under the rules as they are
    (damaged, or written by a release that refereed a rule wrongly): it is listed and
    counted, but cannot be shown move by move."""

    game_id: str


@dataclass(eq=False)
class NotInThatGame(Refusal):
    """Only the members who played a game can ask for it again."""


@dataclass(eq=False)
class RematchElsewhere(Refusal):
    """A game is played again only where it was played (``channel_id``)."""

    channel_id: int


@dataclass(eq=False)
class NotEnded(Refusal):
    """A rematch asked of a game still in its lobby or being played: only a finished game
    is played again (the controls offer it at the game's end; a forged ask meets this)."""


@dataclass(eq=False)
class StillSeated(Refusal):
    """A member asked to be forgotten while seated at an open table (in ``channel_id``),
    whose state holds their seat."""

    channel_id: int


@dataclass(eq=False)
class OtherServer(Refusal):
    """The click names a table (or a tournament) of another server."""


@dataclass(eq=False)
class LobbyClosed(Refusal):
    """A lobby action (``action``: join, leave, computer, start) after the game started."""

    action: str


@dataclass(eq=False)
class AlreadySeated(Refusal):
    """The member sits at this table already."""


@dataclass(eq=False)
class TableFull(Refusal):
    seats: int


@dataclass(eq=False)
class NotSeated(Refusal):
    """The member has no seat at this table."""


@dataclass(eq=False)
class HostCannotLeave(Refusal):
    """The host cancels the table rather than leaving it."""


@dataclass(eq=False)
class SeatedOnly(Refusal):
    """Only members seated at the table may add a computer player."""


@dataclass(eq=False)
class UnknownLevel(Refusal):
    levels: tuple[str, ...]


@dataclass(eq=False)
class UnknownLanguage(Refusal):
    """A server language the bot does not speak; ``languages`` are the codes it does."""

    languages: tuple[str, ...]


@dataclass(eq=False)
class HostOnly(Refusal):
    """Only the host starts the game."""


@dataclass(eq=False)
class WrongPlayerCount(Refusal):
    game: str
    allowed: tuple[int, ...]
    seated: int


@dataclass(eq=False)
class AlreadyClosed(Refusal):
    """The table is finished or cancelled already."""


@dataclass(eq=False)
class HostOrManagerOnly(Refusal):
    """Only the host, or a member with Manage Server, ends a table."""


@dataclass(eq=False)
class NotStarted(Refusal):
    """A move at a table still in its lobby."""


@dataclass(eq=False)
class NotYourTurn(Refusal):
    seat: int
    """The seat whose turn it is."""


@dataclass(eq=False)
class HintsOff(Refusal):
    """A hint asked for at a table opened without the hints option (a rated game)."""


@dataclass(eq=False)
class NotAway(Refusal):
    """Coming back, by a member whose seat is not away."""


@dataclass(eq=False)
class NoMoreTime(Refusal):
    """More time asked for a turn the computer plays (the seat is away, or it is
    finishing a turn whose time ran out: ``used`` is None), or by a member who has taken
    it ``used`` times this game, all it allows."""

    used: int | None


@dataclass(eq=False)
class MoreTimeOff(Refusal):
    """More time asked at a table of a server that turned it off."""


@dataclass(eq=False)
class TimeEnough(Refusal):
    """More time asked while more than a whole turn is left (a turn holds two at most,
    so a member cannot bank the table's time and walk away)."""


@dataclass(eq=False)
class StaleVersion(Refusal):
    """The click was made on controls drawn for an older state of the table."""


@dataclass(eq=False)
class MoveRefused(Refusal):
    """The engine refused the move; ``error`` says which rule."""

    error: EngineError


@dataclass(eq=False)
class OptionsRefused(Refusal):
    """The engine refused the table's options."""

    error: EngineError


@dataclass(eq=False)
class OutOfRange(Refusal):
    """A number outside what the option allows (Discord checks the ranges it is told,
    but a forged or stale request may carry any value)."""

    option: str
    low: int
    high: int
    got: object


@dataclass(eq=False)
class NotSaved(Refusal):
    """The store could not write the action, so it was not made. ``fault`` is the
    store's own word for why (``full``, ``busy``, ``read-only``, ``unavailable``);
    ``kind`` the command's (``play``, ``join`` …), empty for other writes."""

    fault: str
    kind: str = ""


@dataclass(eq=False)
class NotRead(Refusal):
    """The store could not read what was asked (scores, a game, what is stored about a
    member); ``fault`` is the store's word for why, as for :class:`NotSaved`."""

    fault: str


@dataclass(eq=False)
class TournamentSeatsOnly(Refusal):
    """A tournament's table seats only the players its round drew to it."""


@dataclass(eq=False)
class TournamentSeatKept(Refusal):
    """A player drawn to a tournament's table cannot leave it: the seat is theirs (a
    computer takes it at the show-up deadline, and the game counts for the round); they
    leave the tournament by withdrawing."""


@dataclass(eq=False)
class Malformed(Refusal):
    """A face could not read the request at all (a browser's socket message that is not
    JSON, too long, of no known type, or with a field missing, unknown or mistyped):
    forged or from an older page. ``field`` names what was wrong, if one field was."""

    field: str = ""


@dataclass(eq=False)
class NameRefused(Refusal):
    """A guest's name must be 1 to ``most`` characters of text, no control characters,
    and not how a computer seat is named (``computer``)."""

    most: int
    computer: bool = False


@dataclass(eq=False)
class GuestOnly(Refusal):
    """Only someone with a name (a guest, or a member) can do that; spectators watch."""


@dataclass(eq=False)
class NotConfirmed(Refusal):
    """Discord did not confirm who the Activity's page speaks for (a code or token
    refused, expired, or of another application)."""


@dataclass(eq=False)
class NotInActivity(Refusal):
    """The member is not a participant of that Activity, or it is not running in the
    table's channel: the page may show and do only what its own Activity may."""


@dataclass(eq=False)
class SignInLater(Refusal):
    """The member's sign-ins named too many Activities they are not in lately: each was
    asked of Discord on the bot's own requests, so the next is refused unasked for a
    while."""


@dataclass(eq=False)
class TournamentRefused(Refusal):
    """What the rules of tournaments refuse (``bot.tournaments.service``), by ``why``:
    ``closed``, ``started``, ``signed-up``, ``not-entered``, ``check-in-closed``,
    ``organiser-only``, ``already``, ``rounds``, ``moved-on``, ``entered`` and
    ``withdrawn`` (a forget-me while named in an open tournament), Milo by pairs'
    ``partners`` (not entered that way), ``pairs-game``, ``partner-self``,
    ``partner-bot``, ``partner-taken``, ``partner-chose-another``, ``already-chosen``,
    ``replace-bot`` (a bot named to play in a member's place), ``plays-on`` (a
    knockout's result whose winner already plays in a later round), ``not-drawn`` (a
    member of a pair left out of a knockout's or a round robin's draw, replaced),
    or the name of the core's error an adjustment met (``NoSuchTable``,
    ``NotTheSameTable``) or a new tournament would meet (``NotForKnockout``)."""

    why: str
