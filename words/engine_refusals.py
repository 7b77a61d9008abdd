"""What a move or a game's options refused by the engine tell the member: each refusal
worded from its data (the tile, the end, what it needs), with the rule that refuses it;
one this package has no words for yet falls back to the engine's own English."""

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
)
from bot.engine import InvalidOptions as EngineOptions
from bot.engine import WrongPlayerCount as EngineWrongPlayerCount
from words.common import (
    and_list,
    end_letter,
    game_title,
    letters_for,
    option_name,
    or_list,
    quote,
    sentence,
)
from words.i18n import _, ngettext, number


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
