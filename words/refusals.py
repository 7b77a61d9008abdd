"""What a member is told when what they asked cannot be done: the service's refusals
(``bot.refusals``), each worded from its data (the engine's, for a move or options, in
``words.engine_refusals``), and the apologies of a face (a button gone, a check failed,
the bot starting)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import (
    find_variant,
)
from bot.refusals import (
    AlreadyClosed,
    AlreadySeated,
    ChannelTaken,
    GuestOnly,
    HintsOff,
    HostCannotLeave,
    HostOnly,
    HostOrManagerOnly,
    InTournament,
    LobbyClosed,
    Malformed,
    MoreTimeOff,
    MoveRefused,
    NameRefused,
    NoMoreTime,
    NoSuchGame,
    NoTableHere,
    NotAway,
    NotConfirmed,
    NotEnded,
    NotInActivity,
    NotInThatGame,
    NotRead,
    NotReplayable,
    NotSaved,
    NotSeated,
    NotSeatedHere,
    NotStarted,
    NotYourTurn,
    OptionsRefused,
    OtherServer,
    OutOfRange,
    Refusal,
    RematchElsewhere,
    SeatedElsewhere,
    SeatedOnly,
    SignInLater,
    StaleVersion,
    StillSeated,
    TableClosed,
    TableFull,
    TimeEnough,
    TournamentRefused,
    TournamentSeatKept,
    TournamentSeatsOnly,
    UnknownLanguage,
    UnknownLevel,
    WrongPlayerCount,
)
from words import i18n, marks, tournaments
from words.common import (
    and_list,
    game_title,
    label,
    level_name,
    option_name,
    or_list,
    plain,
    quote,
)
from words.engine_refusals import engine_refusal
from words.i18n import N_, _, ngettext, number


def _lobby_closed(action: str) -> str:
    if action == "join":
        return _("The game has started already: wait for the next table.")
    if action == "leave" and not marks.current().slash_commands:
        return _("The game has started: ask the host to end it.")
    if action == "leave":
        return _("The game has started: ask the host to /domino end it.")
    return _("The game has started already.")


def _not_saved(fault: str) -> str:
    """Why the store could not write, by its fault's word."""
    if fault == "full":
        return _("the database has no space left")
    if fault == "busy":
        return _("the database was busy for too long")
    if fault == "read-only":
        return _("the database cannot be written to")
    return _("the database is not available")


def refusal(error: Refusal, names: list[str] | None = None) -> str:
    """What a refused action tells the member who tried it. ``names``: the table's seat
    names, for refusals that name a seat."""
    seats = names or []
    match error:
        case NoTableHere():
            return _("There is no table in this channel: open one with /domino new.")
        case TableClosed() if not marks.current().slash_commands:
            return _("That table is closed: open a new one from the list of tables.")
        case TableClosed():
            return _("That table is closed: open a new one with /domino new.")
        case NotSeatedHere():
            return _("You are not seated at a table in this server: /domino join one.")
        case ChannelTaken():
            return _("This channel already has a table: join it, or use another channel.")
        case SeatedElsewhere(channel_id):
            return _("You are seated at another table in this server already ({channel}).").format(
                channel=marks.current().channel(channel_id)
            )
        case InTournament(channel_id, game, format_, round_, starts_at, waiting):
            return tournaments.kept_for_tournament(
                channel_id, game, format_, round_, starts_at, waiting
            )
        case OtherServer():
            return _("That belongs to another server.")
        case NoSuchGame(game_id) if not marks.current().slash_commands:
            return _("There is no game {game}.").format(game=quote(game_id))
        case NoSuchGame(game_id):
            return _(
                "There is no game {game}: its id is at the foot of the game's last message,"
                " and in /domino history."
            ).format(game=quote(game_id))
        case NotReplayable(game_id):
            return _(
                "Game {game} cannot be replayed: its stored record is damaged, or was"
                " written before a rule was corrected."
            ).format(game=quote(game_id))
        case StillSeated(channel_id):
            return _(
                "You sit at a table in {channel}: finish or leave it first, then ask again"
                " (an open table keeps your seat)."
            ).format(channel=marks.current().channel(channel_id))
        case NotInThatGame():
            return _("Only the players of that game can ask for a rematch.")
        case NotEnded():
            return _("That game has not ended yet: it can be played again once it has.")
        case RematchElsewhere(channel_id):
            return _("That game is played again where it was played: {channel}.").format(
                channel=marks.current().channel(channel_id)
            )
        case LobbyClosed(action):
            return _lobby_closed(action)
        case AlreadySeated():
            return _("You are already seated at this table.")
        case TableFull(seats_count):
            return ngettext(
                "The table is full ({count} seat).", "The table is full ({count} seats).",
                seats_count,
            ).format(count=number(seats_count))  # fmt: skip
        case NotSeated():
            return _("You are not playing at this table.")
        case HostCannotLeave():
            return _("You are the host: cancel the table instead.")
        case SeatedOnly():
            return _("Only players seated at the table can add a computer player.")
        case UnknownLevel(levels):
            return _("The computer levels are {levels}.").format(
                levels=", ".join(level_name(level) for level in levels)
            )
        case UnknownLanguage(languages):
            return _("The languages are {languages}.").format(
                languages=", ".join(i18n.for_locale(code).name for code in languages)
            )
        case HostOnly():
            return _("Only the host can start the game.")
        case WrongPlayerCount(game, allowed, seated):
            return _(
                "{game} needs {counts} players; {seated} seated."
                " Invite others to {join}, or {computer}."
            ).format(
                game=game_title(find_variant(game)),
                counts=or_list(number(n) for n in allowed),
                seated=number(seated),
                join=label("join"),
                computer=label("computer"),
            )
        case AlreadyClosed():
            return _("This table is closed already.")
        case HostOrManagerOnly():
            return _("Only the host (or someone with Manage Server) can end this table.")
        case NotStarted():
            return _("The game has not started: the host presses {start}.").format(
                start=label("start")
            )
        case NotYourTurn(seat):
            who = plain(seats[seat]) if seat < len(seats) else _("another player")
            return _("It is {name}'s turn, not yours.").format(name=who)
        case HintsOff():
            return _("This table has no hints: open one with the hints option to use them.")
        case NotAway():
            return _("You are not away.")
        case NoMoreTime(used=None):
            return _("The computer plays your seat this turn: there is no time to add.")
        case NoMoreTime(used=int(used)):
            return ngettext(
                "You have taken more time {count} time this game: that is all a game allows.",
                "You have taken more time {count} times this game: that is all a game allows.",
                used,
            ).format(count=number(used))
        case MoreTimeOff():
            return _("This server's tables give no more time: its settings turned it off.")
        case TimeEnough():
            return _("You have more than a whole turn left already: ask again when less is left.")
        case StaleVersion():
            return _("The table has moved on since those buttons were drawn.")
        case MoveRefused(engine_error) | OptionsRefused(engine_error):
            return engine_refusal(engine_error)
        case OutOfRange(option, low, high, got):
            shown = number(got) if isinstance(got, int) else quote(str(got))
            return _("{option} must be {low} to {high}, not {got}.").format(
                option=option_name(option), low=number(low), high=number(high), got=shown
            )
        case NotRead(fault):
            return _("I could not read the scores ({why}). Try again shortly.").format(
                why=_not_saved(fault)
            )
        case NotSaved(fault, kind):
            why = _not_saved(fault)
            if kind == "play":
                return _(
                    "Your move was NOT made: I could not save it ({why}), so nothing changed."
                    " Try again shortly."
                ).format(why=why)
            return _(
                "That was NOT done: I could not save it ({why}), so nothing changed."
                " Try again shortly."
            ).format(why=why)
        case Malformed(field) if field:
            return _(
                "That request could not be read ({field} is missing or wrong), so nothing"
                " changed: reload the page."
            ).format(field=quote(field))
        case Malformed():
            return _("That request could not be read, so nothing changed: reload the page.")
        case NameRefused(computer=True):
            return _("That is how the computer players are named: choose another name.")
        case NameRefused(most):
            return ngettext(
                "A name is 1 to {count} character of text that others can see.",
                "A name is 1 to {count} characters of text that others can see.",
                most,
            ).format(count=number(most))
        case NotConfirmed():
            return _("Discord did not confirm who you are: close the Activity and open it again.")
        case NotInActivity():
            return _("You are not in this channel's Activity: open it from the channel.")
        case SignInLater():
            return _(
                "Wait a moment before signing in again: too many of your sign-ins named an"
                " Activity you are not in. Then open it from the channel."
            )
        case TournamentSeatsOnly():
            return _("This is a tournament's table: only the players drawn to it sit here.")
        case TournamentSeatKept():
            return _(
                "This is a tournament's table: your seat is kept for you. To leave the"
                " tournament, press {withdraw} on its announcement."
            ).format(withdraw=tournaments.tournament_label("withdraw"))
        case GuestOnly():
            return _("Choose a name first: spectators can watch, not play.")
        case TournamentRefused(why=why):
            return tournaments.face_refused(why) or tournaments.tournament_refused(
                why, error.__cause__
            )
    return _("That cannot be done now.")


def button_gone() -> str:
    return _("That button is no longer valid: use /domino status to see the table now.")


def apology() -> str:
    return _(
        "Something went wrong on my side, and it may not have been done."
        " Use /domino status to see the table as it is stored, then try again."
    )


def not_a_choice() -> str:
    return _("That is not one of the choices offered: pick one from the list.")


def not_allowed() -> str:
    """A check of Discord's refused the command (a permission, a place)."""
    return _("You cannot use that command here.")


PERMISSIONS = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
    "read_message_history": N_("Read Message History"),
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
}
"""The permissions the bot asks a server for, by discord.py's names, as Discord's own
settings name them (in each language, as its translation of Discord shows them)."""


def bot_lacks(permissions: Sequence[str]) -> str:
    """Said to a member whose command would have the bot post in a channel where it
    lacks ``permissions`` (discord.py's names): nothing was done, and the member is told
    what a server manager has to give."""
    return _(
        "I cannot post in this channel: I need {permissions} here. Ask someone who manages"
        " the server to give me that, then try again."
    ).format(permissions=and_list(_(PERMISSIONS[p]) for p in permissions if p in PERMISSIONS))


def starting() -> str:
    return _("The bot is starting up: try again in a moment.")
