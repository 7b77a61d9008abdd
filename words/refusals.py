"""What a member is told when what they asked cannot be done: the service's refusals
(``bot.refusals``) and the engine's (an illegal move, options a game does not allow),
each worded from its data with the rule that refuses it, and the apologies of the face
(a button gone, a check failed, the bot starting)."""

from __future__ import annotations

from bot.engine import (
    LINE_ENDS,
    SPINNER_ARMS,
    AlreadyDrew,
    AmbiguousMove,
    ArmCapped,
    ArmDead,
    ArmStartedAlready,
    BadOptionType,
    CapsOnly,
    DoesNotFit,
    EngineError,
    FitsNowhere,
    FixedTarget,
    LeadNamesNoEnd,
    LeadRule,
    MatchGamesOutOfRange,
    MatchOver,
    MustDrawFirst,
    MustPlay,
    NoBoneyard,
    NoDrawAllowed,
    NotAMove,
    NotAnEnd,
    NotInHand,
    NotLedYet,
    OnlyDrawnTile,
    OptionNotOffered,
    RoundOver,
    TargetOutOfRange,
    UnknownGame,
    WrongEnd,
    WrongLead,
    find_variant,
)
from bot.engine import InvalidOptions as EngineOptions
from bot.engine import WrongPlayerCount as EngineWrongPlayerCount
from bot.refusals import (
    AlreadyClosed,
    AlreadySeated,
    ChannelTaken,
    HintsOff,
    HostCannotLeave,
    HostOnly,
    HostOrManagerOnly,
    LobbyClosed,
    MoveRefused,
    NoSuchGame,
    NoTableHere,
    NotAway,
    NotInThatGame,
    NotSaved,
    NotSeated,
    NotSeatedHere,
    NotStarted,
    NotYourTurn,
    OptionsRefused,
    OtherServer,
    OutOfRange,
    RematchElsewhere,
    SeatedElsewhere,
    SeatedOnly,
    StaleVersion,
    StillSeated,
    TableClosed,
    TableError,
    TableFull,
    UnknownLanguage,
    UnknownLevel,
    WrongPlayerCount,
)
from words import i18n, marks
from words.common import (
    and_list,
    end_letter,
    game_title,
    label,
    letters_for,
    level_name,
    option_name,
    or_list,
    plain,
    quote,
    sentence,
)
from words.i18n import _, ngettext, number


def _lobby_closed(action: str) -> str:
    if action == "join":
        return _("The game has started already: wait for the next table.")
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


def refusal(error: TableError, names: list[str] | None = None) -> str:
    """What a refused action tells the member who tried it. ``names``: the table's seat
    names, for refusals that name a seat."""
    seats = names or []
    match error:
        case NoTableHere():
            return _("There is no table in this channel: open one with /domino new.")
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
        case OtherServer():
            return _("That belongs to another server.")
        case NoSuchGame(game_id):
            return _(
                "There is no game {game}: its id is at the foot of the game's last message,"
                " and in /domino history."
            ).format(game=quote(game_id))
        case StillSeated(channel_id):
            return _(
                "You sit at a table in {channel}: finish or leave it first, then ask again"
                " (an open table keeps your seat)."
            ).format(channel=marks.current().channel(channel_id))
        case NotInThatGame():
            return _("Only the players of that game can ask for a rematch.")
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
        case StaleVersion():
            return _("The table has moved on since those buttons were drawn.")
        case MoveRefused(engine_error) | OptionsRefused(engine_error):
            return engine_refusal(engine_error)
        case OutOfRange(option, low, high, got):
            shown = number(got) if isinstance(got, int) else quote(str(got))
            return _("{option} must be {low} to {high}, not {got}.").format(
                option=option_name(option), low=number(low), high=number(high), got=shown
            )
        case NotSaved(fault, kind):
            why = _not_saved(fault)
            if kind == "read":
                return _("I could not read the scores ({why}). Try again shortly.").format(why=why)
            if kind == "play":
                return _(
                    "Your move was NOT made: I could not save it ({why}), so nothing changed."
                    " Try again shortly."
                ).format(why=why)
            return _(
                "That was NOT done: I could not save it ({why}), so nothing changed."
                " Try again shortly."
            ).format(why=why)
    return _("That cannot be done now.")


def engine_refusal(error: EngineError) -> str:
    """An engine refusal (an illegal move, options the game does not allow), worded
    from its data, with the rule that refuses it. A refusal this module has no words for
    yet (a new class) falls back to the engine's own English."""
    own = str(getattr(error, "reason", error))  # the engine's sentence, without its rule
    text = engine_words(error) or sentence(own).rstrip(".")
    return f"{text} ({error.rule})." if error.rule else f"{text}."


def engine_words(error: EngineError) -> str | None:
    """The words for an engine refusal, without its rule; None if there are none."""
    match error:
        case NotAMove(text=text, what="a tile"):
            return _("{text} is not a tile: write it like 6-5").format(text=quote(str(text)))
        case NotAMove(text=text, what="an end"):
            return _("{text} is not an end: use {arms} ({line} in Milo)").format(
                text=quote(str(text)),
                arms=or_list(letters_for(SPINNER_ARMS)),
                line=or_list(letters_for(LINE_ENDS)),
            )
        case NotAMove(text=text):
            return _("{text} is not a move: write a tile and an end, like 6-5 {end}").format(
                text=quote(str(text)), end=end_letter("N")
            )
        case RoundOver() | MatchOver():
            return _("The game is over")
        case NotInHand(tile=tile):
            return _("{tile} is not in your hand").format(tile=tile)
        case MustPlay(drawn=drawn) if drawn is not None:
            return _("The tile you drew, {tile}, fits, so you must play it").format(tile=drawn)
        case MustPlay():
            return _("You hold a tile that fits, so you must play it")
        case MustDrawFirst(drawn=drawn) if drawn is not None:
            return _("The tile you drew, {tile}, does not fit: draw again").format(tile=drawn)
        case MustDrawFirst():
            return _("You cannot play, so you must draw first")
        case NoDrawAllowed(boneyard_count=count):
            return ngettext(
                "Nobody draws: {count} tile is left in the boneyard, so you pass",
                "Nobody draws: {count} tiles are left in the boneyard, so you pass",
                count,
            ).format(count=number(count))
        case AlreadyDrew():
            return _("You have drawn your one tile this turn and it does not fit: pass")
        case NoBoneyard():
            return _("There is no boneyard in this game: you cannot play, so pass")
        case NotLedYet():
            return _("The round has not been led yet: lead a tile")
        case LeadNamesNoEnd(tile=tile):
            return _("The first tile goes on no end: play just {tile}").format(tile=tile)
        case WrongLead(lead=LeadRule.ANY_DOUBLE):
            return _("The round opens with a double of yours")
        case WrongLead(lead=LeadRule.SIX_SIX):
            return _("The first round of a game opens with 6-6")
        case WrongLead(required=required):
            return _("The round opens with your highest double, {tiles}").format(
                tiles=or_list(required)
            )
        case OnlyDrawnTile(drawn=drawn, fits=False, draw_again=True):
            return _("You drew {tile} this turn and it fits nowhere: draw again").format(tile=drawn)
        case OnlyDrawnTile(drawn=drawn, fits=False):
            return _("You drew {tile} this turn and it fits nowhere: pass").format(tile=drawn)
        case OnlyDrawnTile(drawn=drawn):
            return _("You drew {tile} this turn: it is the only tile you may play").format(
                tile=drawn
            )
        case AmbiguousMove(tile=tile, ends=ends):
            return _("Say where {tile} goes: {ends}").format(
                tile=tile, ends=or_list(letters_for(ends))
            )
        case FitsNowhere(tile=tile):
            return _("{tile} does not fit anywhere now").format(tile=tile)
        case NotAnEnd(ends=ends):
            return _("This layout's ends are {ends}").format(ends=and_list(letters_for(ends)))
        case WrongEnd(tile=tile, fits_on=fits_on):
            why = _wrong_end(error)
            if why is None:
                return None
            if not fits_on:
                return why
            return _("{reason}; {tile} fits on {ends}").format(
                reason=why, tile=tile, ends=or_list(letters_for(fits_on))
            )
        case EngineOptions():
            return _options_words(error)
    return None


def _wrong_end(error: EngineError) -> str | None:
    match error:
        case DoesNotFit(tile=tile, end=end, need=need) if end in LINE_ENDS:
            return _("{tile} does not fit: end {end} needs a {need}").format(
                tile=tile, end=end_letter(end), need=need
            )
        case DoesNotFit(tile=tile, end=end, need=need):
            return _("{tile} does not fit: arm {end} needs a {need}").format(
                tile=tile, end=end_letter(end), need=need
            )
        case ArmStartedAlready(end=end):
            return _(
                "Arm {end} is started already: all four arms must be started before any arm grows"
            ).format(end=end_letter(end))
        case CapsOnly(end=end, need=need):
            return _(
                "Until every arm is capped only doubles may be played: arm {end} needs the {double}"
            ).format(end=end_letter(end), double=f"{need}-{need}")
        case ArmCapped(end=end):
            return _("Arm {end} is capped already: cap another arm").format(end=end_letter(end))
        case ArmDead(end=end):
            return _("Arm {end} is dead: it had no cap when the boneyard ran down to 2").format(
                end=end_letter(end)
            )
    return None


def _options_words(error: EngineError) -> str | None:
    match error:
        case UnknownGame():
            return _("There is no such game: choose one from the list")
        case EngineWrongPlayerCount(game=game, allowed=allowed, got=got):
            return _("{game} is played by {counts} players, not {got}").format(
                game=game_title(game), counts=or_list(number(n) for n in allowed), got=got
            )
        case FixedTarget(game=game, target=target):
            return _(
                "{game} is always played to exactly {target}: its target cannot change"
            ).format(game=game_title(game), target=number(target))
        case TargetOutOfRange(game=game, low=low, high=high, got=got):
            return _("The target for {game} must be {low} to {high}, not {got}").format(
                game=game_title(game), low=number(low), high=number(high), got=quote(str(got))
            )
        case OptionNotOffered(game=game, option=option, offered_by=owners):
            what = {"keep_last_two": _("Keep last two"), "match_games": _("Match length")}
            return _("{option} is an option of {games}, not of {game}").format(
                option=what[option], games=or_list(game_title(g) for g in owners),
                game=game_title(game),
            )  # fmt: skip
        case MatchGamesOutOfRange(low=low, high=high, got=got):
            return _("A match is {low} to {high} games won, not {got}").format(
                low=number(low), high=number(high), got=quote(str(got))
            )
        case BadOptionType(field=field, expected=expected, got=got):
            kinds = {"an integer": _("an integer"), "true or false": _("true or false")}
            return _("{option} must be {expected}, not {got}").format(
                option=option_name(field), expected=kinds.get(expected, expected),
                got=quote(str(got)),
            )  # fmt: skip
    return None


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


def starting() -> str:
    return _("The bot is starting up: try again in a moment.")
