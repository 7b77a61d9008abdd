"""Every word the bot says to a player, in one place: refusals, confirmations and
apologies; the lobby, table, round and game-over messages; button labels; leaderboards
and stats; the rules of each game; the pictures' headers and alt text. The service and
the engine speak in data (``bot.refusals``, ``bot.events``, the engine's errors, views
and outcomes); this module alone turns them into words.

Each sentence is written once, in English, as a gettext message (``_``, ``ngettext``,
``pgettext`` from ``cogs.i18n``) with named placeholders, and read in the language of
the moment (``cogs.i18n``: the member's own for a private answer, the server's for a
public post). Numbers in sentences are written as that language writes them, and lists
joined as it joins them. What is not words stays as it is in every language: names,
mentions and timestamps, tiles (``6-5``) and rule numbers (``R-CR-5``). The ends' letters
are the language's (``O`` for West in Spanish), written here for every player-facing
text and read back from ``/domino play``; the engine, the stored moves and the buttons'
custom_ids keep the engine's names (N E S W, L R). Slash commands' names and
descriptions are declared with the commands, as ``locale_str``, for Discord.

Names and any text a user typed are escaped or shortened before they are quoted: a
display name such as ``@everyone`` must read as text, never ping, and a 2,000-character
"tile" must not push an answer past Discord's limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Protocol

import discord

from bot.engine import (
    DRAW,
    LINE_ENDS,
    PASS,
    SPINNER_ARMS,
    AlreadyDrew,
    AmbiguousMove,
    ArmCapped,
    ArmDead,
    ArmStartedAlready,
    BadOptionType,
    CapsOnly,
    DoesNotFit,
    Drawing,
    EngineError,
    FitsNowhere,
    FixedTarget,
    Kind,
    LayoutKind,
    LeadNamesNoEnd,
    LeadRule,
    MatchGamesOutOfRange,
    MatchOutcome,
    MatchOver,
    Move,
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
    Reason,
    Round,
    RoundOutcome,
    RoundOver,
    ScoreEvent,
    ScoreKind,
    TargetOutOfRange,
    Tile,
    UnknownGame,
    WrongEnd,
    WrongLead,
    find_variant,
)
from bot.engine import InvalidOptions as EngineOptions
from bot.engine import WrongPlayerCount as EngineWrongPlayerCount
from bot.engine.views import Arm, Layout, LineLayout, PublicView, SeatView
from bot.events import Away, Back, Event, Moved, TimedOut
from bot.hints import Advice, Why
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
from bot.snapshot import TableSnapshot
from bot.table import Status
from bot.tables import (
    FinishedGame,
    Forgotten,
    GuildSettings,
    LeaderboardEntry,
    Participant,
    Stats,
    Stored,
)
from cogs import i18n
from cogs.i18n import N_, _, decimal, ngettext, number, pgettext
from rendering import (
    HandText,
    LeaderboardText,
    Replay,
    ReplayText,
    TableText,
    fit_name,
    hand_order,
    placements,
)
from rendering.table import NAMES_KEPT

QUOTE_LIMIT = 12
"""At most this many characters of what a user typed are quoted back."""


@lru_cache(maxsize=NAMES_KEPT)
def plain(text: str) -> str:
    """A display name as plain text: no mention fires, no markdown applies. Kept, as
    many names as the pictures keep cut to their room: a table's messages name the same
    players again and again, and discord.py escapes with several passes of regular
    expressions."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def quote(text: str) -> str:
    """What a user typed, shortened and made harmless, for quoting in an answer."""
    short = text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "…"
    return f"`{short.replace('`', 'ˋ')}`"


def sentence(clause: str) -> str:
    """The engine words its refusals as clauses ("6-5 does not fit: arm N needs a 3")."""
    return f"{clause[:1].upper()}{clause[1:]}."


TITLES = (N_("Cross"), N_("Maltese Cross"), N_("Merry-Go-Round"), N_("Milo"))
"""The games' titles: the engine owns them (``variant.title``, in English); they are
marked here so the catalogues hold them, and read through :func:`game_title`."""


def game_title(game: type[Round] | str) -> str:
    """A game's title (a variant, or its English title) in the language of the moment."""
    return _(game if isinstance(game, str) else game.title)


def _or(items: Iterable[object]) -> str:
    """``6-6, 5-5, or 4-4``: the items as the language lists alternatives."""
    return i18n.listing([str(item) for item in items], style="or")


def _and(items: Iterable[str]) -> str:
    """``Ann and Cat`` (a partnership, in a sentence)."""
    return i18n.listing(list(items))


# -- the ends' letters ----------------------------------------------------------------------


def _end_letters() -> dict[str, str]:
    """Each end's letter in the language of the moment, by the engine's name."""
    return {
        # Translators: the North arm of a spinner layout, as buttons and moves show it
        # ("6-5 N"); one capital letter, different from the other three arms' letters.
        "N": pgettext("arm", "N"),
        # Translators: the East arm (one capital letter, as for N).
        "E": pgettext("arm", "E"),
        # Translators: the South arm (one capital letter, as for N).
        "S": pgettext("arm", "S"),
        # Translators: the West arm (one capital letter, as for N).
        "W": pgettext("arm", "W"),
        # Translators: the left end of Milo's line of tiles (one capital letter, not
        # the same as the right end's).
        "L": pgettext("line end", "L"),
        # Translators: the right end of Milo's line of tiles (one capital letter).
        "R": pgettext("line end", "R"),
    }


@lru_cache(maxsize=16)
def _letters_of(language: i18n.Language) -> dict[str, str]:
    """Kept per language: every move line, button, caption and alt text names ends."""
    with i18n.speaking(language):
        return _end_letters()


def end_letters() -> dict[str, str]:
    """Each end's letter as the language of the moment writes it, by the engine's name
    (the engine's own: ``N E S W``, ``L R``; Spanish ``N E S O``, ``I D``; Portuguese
    ``N E S O``, ``E D``). The engine, the stored moves and the buttons' custom_ids keep
    the engine's names; only what a player reads is written with these."""
    return _letters_of(i18n.current())


def end_letter(end: str) -> str:
    """One end's letter (``W`` → ``O`` in Spanish)."""
    return end_letters().get(end, end)


def _ends_of(layout: LayoutKind) -> tuple[str, ...]:
    return SPINNER_ARMS if layout is LayoutKind.SPINNER else LINE_ENDS


def read_end(typed: str, layout: LayoutKind) -> str | None:
    """The engine's name of the end a member typed, in a game laid out as ``layout``:
    the letter the language of the moment shows, or the engine's own (``O`` or ``W`` for
    West in Spanish). Read per layout, since one letter may name different ends in the
    two: in Portuguese ``E`` is East in a spinner game and the left end in Milo. None
    if it names no end of that layout."""
    word, letters = typed.strip().upper(), end_letters()
    ends = _ends_of(layout)
    shown = next((end for end in ends if letters.get(end, end).upper() == word), None)
    return shown or (word if word in ends else None)


def typed_move(tile: str, end: str | None, layout: LayoutKind) -> str:
    """A move as ``/domino play`` was given it, in the engine's words: the end (or an
    end typed after the tile, ``6-5 O``) read as :func:`read_end` reads it. What names no
    end is left as typed, for the engine to refuse with its reason."""
    words = tile.split()
    if end is None and len(words) == 2:
        tile, end = words
    if end is None:
        return tile
    return f"{tile} {read_end(end, layout) or end.strip()}"


def move_text(move: Move) -> str:
    """A move as a button or a sentence shows it: ``6-1 O`` (the engine's ``6-1 W``)."""
    if move.tile is None or move.end_name is None:
        return move.text
    return f"{move.tile} {end_letter(move.end_name)}"


def _ends(ends: Iterable[str]) -> list[str]:
    return [end_letter(end) for end in ends]


def _end_of(move: Move) -> str:
    """The letter of the end a move was played on (a lead names none)."""
    return end_letter(move.end_name) if move.end_name else ""


def _option_name(option: str) -> str:
    """An option's name as a member reads it (``turn_timer`` → ``Turn timer``)."""
    names = {
        "turn_timer": _("Turn timer"),
        "page": _("Page"),
        "order": _("Order"),
        "target": _("Target"),
        "match_games": _("Match games"),
        "keep_last_two": _("Keep last two"),
    }
    return names.get(option, option.replace("_", " ").capitalize())


def level_name(level: str) -> str:
    """A computer level as a word in a sentence (``normal``)."""
    names = {
        "easy": pgettext("computer level", "easy"),
        "normal": pgettext("computer level", "normal"),
        "hard": pgettext("computer level", "hard"),
        "expert": pgettext("computer level", "expert"),
    }
    return names.get(level, level)


# -- refusals -------------------------------------------------------------------------------


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
                channel=f"<#{channel_id}>"
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
            ).format(channel=f"<#{channel_id}>")
        case NotInThatGame():
            return _("Only the players of that game can ask for a rematch.")
        case RematchElsewhere(channel_id):
            return _("That game is played again where it was played: {channel}.").format(
                channel=f"<#{channel_id}>"
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
                counts=_or(number(n) for n in allowed),
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
                option=_option_name(option), low=number(low), high=number(high), got=shown
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
                text=quote(str(text)), arms=_or(_ends(SPINNER_ARMS)), line=_or(_ends(LINE_ENDS))
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
                tiles=_or(required)
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
            return _("Say where {tile} goes: {ends}").format(tile=tile, ends=_or(_ends(ends)))
        case FitsNowhere(tile=tile):
            return _("{tile} does not fit anywhere now").format(tile=tile)
        case NotAnEnd(ends=ends):
            return _("This layout's ends are {ends}").format(ends=_and(_ends(ends)))
        case WrongEnd(tile=tile, fits_on=fits_on):
            why = _wrong_end(error)
            if why is None:
                return None
            if not fits_on:
                return why
            return _("{reason}; {tile} fits on {ends}").format(
                reason=why, tile=tile, ends=_or(_ends(fits_on))
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
                game=game_title(game), counts=_or(number(n) for n in allowed), got=got
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
                option=what[option], games=_or(game_title(g) for g in owners),
                game=game_title(game),
            )  # fmt: skip
        case MatchGamesOutOfRange(low=low, high=high, got=got):
            return _("A match is {low} to {high} games won, not {got}").format(
                low=number(low), high=number(high), got=quote(str(got))
            )
        case BadOptionType(field=field, expected=expected, got=got):
            kinds = {"an integer": _("an integer"), "true or false": _("true or false")}
            return _("{option} must be {expected}, not {got}").format(
                option=_option_name(field), expected=kinds.get(expected, expected),
                got=quote(str(got)),
            )  # fmt: skip
    return None


# -- answers to a member --------------------------------------------------------------------


def draw_ended_round() -> str:
    return _("You drew, and then nobody could play: the round is over (see the table).")


def you_played(move: Move) -> str:
    if move is PASS:
        return _("You passed.")
    if move is DRAW:
        return _("You drew.")
    return _("You played {move}.").format(move=move_text(move))


def you_drew(tiles: Sequence[Tile], fits: bool) -> str:
    """What a member drew this turn, privately (the last tile named is the last drawn),
    and what came of it: the last one fits and is theirs to place, or none fits and
    they have passed (R-CR-5, R-MG-5: the bot makes the draws and the pass that leave
    no choice)."""
    listed = i18n.listing([str(tile) for tile in tiles])
    if fits:
        said = ngettext(
            "You drew {tiles}. It fits: play it.",
            "You drew {tiles}. The last of them fits: play it.",
            len(tiles),
        )
    else:
        said = ngettext(
            "You drew {tiles}. It does not fit, so you pass.",
            "You drew {tiles}. None of them fits, so you pass.",
            len(tiles),
        )
    return said.format(tiles=listed)


def button_gone() -> str:
    return _("That button is no longer valid: use /domino status to see the table now.")


def not_your_hand() -> str:
    return _("Those buttons are someone else's: use /domino hand to see yours.")


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


def moved_on_hand() -> str:
    return _("The table has moved on since those buttons were drawn. Here is your hand now.")


def game_begins() -> str:
    return _("The game begins.")


def time_running_out(user_id: int, deadline: float) -> str:
    """The one reminder of a member's turn, when a quarter of their time is left."""
    return _("{mention}, your turn runs out {when}.").format(
        mention=f"<@{user_id}>", when=f"<t:{int(deadline)}:R>"
    )


def your_turn(user_id: int) -> str:
    return _("{mention}, your turn.").format(mention=f"<@{user_id}>")


def table_closed(title: str) -> str:
    return _("The {game} table was closed.").format(game=game_title(title))


def cannot_post(title: str) -> str:
    return _(
        "I cannot post the {game} table here: I need View Channel, Send Messages, Embed"
        " Links and Attach Files. The game is saved; use /domino status once that is fixed."
    ).format(game=game_title(title))


def not_taken(title: str, status: int) -> str:
    return _(
        "Discord did not take my last {game} message ({status}). Nothing is lost: I will"
        " try again, and /domino status posts the table again."
    ).format(game=game_title(title), status=status)


def table_open() -> str:
    return _("Your table is open: others press {join}, or {computer}; then press {start}.").format(
        join=label("join"), computer=label("computer"), start=label("start")
    )


def posted_again() -> str:
    return _("The table is posted again below.")


def done(kind: str) -> str:
    """What a member is told when their lobby command stood, by the command's kind."""
    if kind == "join":
        return _("You joined the table.")
    if kind == "leave":
        return _("You left the table.")
    if kind == "start":
        return _("The game has started.")
    return _("The table is closed.")


def manage_server_only() -> str:
    return _("Only members with Manage Server can change the settings.")


def game_and_target() -> str:
    return _("Give both a game and a target to set a default target.")


def settings_now(settings: GuildSettings, language: i18n.Language) -> str:
    """The server's settings, ``language`` being the one its tables speak now."""
    defaults = ", ".join(
        f"{game_title(find_variant(g))} {number(t)}" for g, t in settings.default_targets.items()
    )
    threads = pgettext("setting", "on") if settings.use_threads else pgettext("setting", "off")
    return _(
        "Turn timer: {seconds} s · Default targets: {targets} · Threads: {threads}"
        " · Language: {language}"
    ).format(
        seconds=number(settings.turn_timer_seconds),
        targets=defaults or _("the rules' own"),
        threads=threads,
        language=language.name,
    )


# -- hands, buttons and choices -----------------------------------------------------------


def no_hand() -> str:
    return _("You have no hand here: the game has not started, or you are not playing.")


def pick_a_tile() -> str:
    return _("Your turn: pick a tile.")


def which_level() -> str:
    return _("Which level?")


def label(action: str) -> str:
    """A button's label, by the action (or computer level) it stands for."""
    labels = {
        "join": pgettext("button", "Join"),
        "leave": pgettext("button", "Leave"),
        "computer": pgettext("button", "Add computer"),
        "start": pgettext("button", "Start"),
        "cancel": pgettext("button", "Cancel"),
        "hand": pgettext("button", "My hand"),
        "draw": pgettext("button", "Draw"),
        "pass": pgettext("button", "Pass"),
        "rules": pgettext("button", "Rules"),
        "easy": pgettext("button", "Easy"),
        "normal": pgettext("button", "Normal"),
        "hard": pgettext("button", "Hard"),
        "expert": pgettext("button", "Expert"),
        "rematch": pgettext("button", "Rematch"),
        "forget": pgettext("button", "Delete my data"),
        "hint": pgettext("button", "Hint"),
    }
    return labels[action]


def is_to_play(name: str) -> str:
    return _("{name} is to play.").format(name=plain(name))


def where_goes(tile: Tile) -> str:
    return _("Where does {tile} go?").format(tile=tile)


def choose_end_label(tile: str) -> str:
    """A hand's one button for a tile that fits several ends, when the hand has more
    moves than buttons (a second click asks which)."""
    return f"{tile} …"


def tile_choice(tile: str, fits: bool) -> str:
    return _("{tile} (fits)").format(tile=tile) if fits else tile


def thread_name(title: str) -> str:
    return _("{game} table").format(game=game_title(title))


# -- leaderboards and stats -----------------------------------------------------------------


def _games(n: int) -> str:
    return ngettext("{count} game", "{count} games", n).format(count=number(n))


def _wins(n: int) -> str:
    return ngettext("{count} win", "{count} wins", n).format(count=number(n))


def _points(n: int) -> str:
    return ngettext("{count} point", "{count} points", n).format(count=number(n))


def _tiles(n: int) -> str:
    return ngettext("{count} tile", "{count} tiles", n).format(count=number(n))


def board_title(game_title_: str, *, everywhere: bool) -> str:
    """``Cross — this server``, from the game's (English) title."""
    if everywhere:
        return _("{game} — every server").format(game=game_title(game_title_))
    return _("{game} — this server").format(game=game_title(game_title_))


def board_empty(title: str, order: str, rated_after: int) -> str:
    if order == "rating":
        return ngettext(
            "{title}: nobody has finished {count} game yet (a rating shows after {count}).",
            "{title}: nobody has finished {count} games yet (a rating shows after {count}).",
            rated_after,
        ).format(title=title, count=number(rated_after))
    return _("{title}: nobody has finished a game yet.").format(title=title)


def board_past_end(title: str, page: int, pages: int) -> str:
    return ngettext(
        "{title}: page {page} is past the end; there is only {count} page.",
        "{title}: page {page} is past the end; there are only {count} pages.",
        pages,
    ).format(title=title, page=number(page), count=number(pages))


def board_value(entry: LeaderboardEntry, order: str) -> str:
    if order == "wins":
        return _wins(entry.wins)
    if order == "points":
        return _points(entry.points)
    return decimal(entry.rating)


def board_line(rank: int, name: str, value: str, games: int) -> str:
    return f"{number(rank)}. {plain(name)} — {value} ({_games(games)})"


def board_you(rank: int, value: str, games: int) -> str:
    return _("You: #{rank} — {value} ({games})").format(
        rank=number(rank), value=value, games=_games(games)
    )


def unknown_player(user_id: int) -> str:
    return _("Player …{digits}").format(digits=str(user_id)[-4:])


def no_stats(name: str) -> str:
    return _("{name} has not finished a game here yet.").format(name=name)


def stats_embed(name: str, rows: Sequence[Stats]) -> discord.Embed:
    embed = discord.Embed(title=_("{name} — this server").format(name=name), colour=COLOUR)
    for row in rows:
        rounds = ngettext("{count} round won", "{count} rounds won", row.rounds_won)
        dominoes = ngettext("{count} domino", "{count} dominoes", row.dominoes)
        blocked = ngettext("{count} blocked win", "{count} blocked wins", row.blocked_wins)
        embed.add_field(
            name=game_title(find_variant(row.game)),
            value=(
                f"{_games(row.games)}, {_wins(row.wins)}\n"
                f"{rounds.format(count=number(row.rounds_won))}, {_points(row.points)}\n"
                f"{dominoes.format(count=number(row.dominoes))},"
                f" {blocked.format(count=number(row.blocked_wins))}"
            ),
        )
    return embed


# -- the table's messages: lobby, table, round and game over --------------------------------

COLOUR = discord.Colour.from_rgb(46, 125, 50)


def team_note() -> str:
    return _("Partners sit across: seats 1 & 3 play against seats 2 & 4.")


class _Seat(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def level(self) -> str | None: ...


class _Seated(Protocol):
    @property
    def seats(self) -> Sequence[_Seat]: ...


def seat_names(table: _Seated) -> list[str]:
    """The seats' names as the pictures draw them: a member's as they typed it, a
    computer's in the language of the moment (``Computer 2 (hard)``; the table numbers
    its computers in the order they sat down)."""
    shown, computers = [], 0
    for seat in table.seats:
        if seat.level is None:
            shown.append(seat.name)
            continue
        computers += 1
        shown.append(
            _("Computer {number} ({level})").format(
                number=number(computers), level=level_name(seat.level)
            )
        )
    return shown


def names(table: _Seated) -> list[str]:
    """The seats' names as text for messages: escaped, so none pings or formats."""
    return [plain(name) for name in seat_names(table)]


def side_names(table: TableSnapshot) -> list[str]:
    """The names of the scoring sides: players, or partnerships (the engine says which
    seats make each side)."""
    names_ = names(table)
    return [
        " & ".join(names_[seat] for seat in seats) for seats in table.variant.sides_of(len(names_))
    ]


def _to_target(target: int, exactly: bool) -> str:
    if exactly:
        return _("to {target} exactly").format(target=number(target))
    return _("to {target}").format(target=number(target))


def options_text(table: TableSnapshot) -> str:
    options = table.options
    parts = [_to_target(options.target, table.variant.exact_target)]
    if options.keep_last_two:
        parts.append(_("last two boneyard tiles kept"))
    if options.match_games > 1:
        parts.append(
            ngettext(
                "match: first to win {count} game", "match: first to win {count} games",
                options.match_games,
            ).format(count=number(options.match_games))
        )  # fmt: skip
    return ", ".join(parts)


def lobby_embed(table: TableSnapshot) -> discord.Embed:
    state = {
        Status.LOBBY: pgettext("table state", "table open"),
        Status.PLAYING: pgettext("table state", "game started"),
        Status.FINISHED: pgettext("table state", "game over"),
        Status.CANCELLED: pgettext("table state", "table closed"),
    }[table.status]
    embed = discord.Embed(
        title=f"{game_title(table.variant)} — {state}",
        description=_("Host: {host} · Play {options} · {counts} players").format(
            host=f"<@{table.host_id}>",
            options=options_text(table),
            counts=_or(number(n) for n in table.variant.player_counts),
        ),
        colour=COLOUR,
    )
    seats = [f"{i + 1}. {shown}" for i, shown in enumerate(names(table))]
    empty = _("(free)")
    free = [f"{i + 1}. {empty}" for i in range(len(table.seats), table.max_players)]
    embed.add_field(name=_("Seats"), value="\n".join(seats + free), inline=False)
    if table.variant.teams:
        embed.add_field(name=_("Partners"), value=team_note(), inline=False)
    if table.hints:
        embed.add_field(name=_("Hints"), value=hints_on(), inline=False)
    if table.invited:
        waiting = ", ".join(f"<@{user}>" for user in table.invited)
        embed.add_field(
            name=pgettext("embed field", "Rematch"),
            value=_("Seats kept for {members}: press Rematch or Join.").format(members=waiting),
        )
    if table.status is Status.LOBBY:
        embed.set_footer(
            text=_("{join}, or {computer}; the host presses {start}.").format(
                join=label("join"), computer=label("computer"), start=label("start")
            )
        )
    return embed


def table_embed(table: TableSnapshot) -> discord.Embed:
    """Whose turn, tiles per seat, boneyard, scores."""
    view = table.view
    assert view is not None
    game = game_title(table.variant)
    if table.options.match_games > 1:
        title = _("{game} — round {round} of game {number}").format(
            game=game, round=number(view.round_number), number=number(view.game_number)
        )
    else:
        title = _("{game} — round {round}").format(game=game, round=number(view.round_number))
    embed = discord.Embed(title=title, colour=COLOUR)
    turn = table.turn
    shown = names(table)
    if turn is not None:
        chair = table.seats[turn]
        who = shown[turn] if chair.is_computer else f"<@{chair.user_id}>"
        if chair.away:
            text = _("{player} to play (away: the computer plays).").format(player=f"**{who}**")
        else:
            text = _("{player} to play.").format(player=f"**{who}**")
        if not chair.played_by_computer and table.deadline is not None:
            when = f"<t:{int(table.deadline)}:R>"
            text += " " + _("Time runs out {when}.").format(when=when)
        embed.description = text
    lines = []
    for seat, name in enumerate(shown):
        marker = "▶ " if seat == turn else ""
        lines.append(f"{marker}{name}: {_tiles(view.hand_sizes[seat])}")
    embed.add_field(name=_("Hands"), value="\n".join(lines), inline=True)
    scores = [
        f"{name}: {number(score)}"
        for name, score in zip(side_names(table), view.scores, strict=True)
    ]
    embed.add_field(
        name=_("Scores (to {target})").format(target=number(table.options.target)),
        value="\n".join(scores),
        inline=True,
    )
    extra = []
    if table.variant.drawing is not Drawing.NO_BONEYARD:
        extra.append(_("Boneyard: {count}").format(count=number(view.boneyard_count)))
    if view.open_sum is not None:
        extra.append(_("Open ends total: {total}").format(total=number(view.open_sum)))
    if table.options.match_games > 1:
        won = ", ".join(
            f"{n} {number(w)}" for n, w in zip(side_names(table), view.games_won, strict=True)
        )
        extra.append(_("Games won: {games}").format(games=won))
    series = table.series_by_seat()
    if series is not None:
        so_far = ", ".join(
            f"{plain(name)} {number(won)}"
            for name, won in zip(seat_names(table), series, strict=True)
            if won is not None  # a seat that did not play those games has no line
        )
        extra.append(_("Series so far: {wins}").format(wins=so_far))
    if table.hints:
        extra.append(hints_on())
    if extra:
        embed.add_field(name=_("Table"), value="\n".join(extra), inline=True)
    return embed


def event_lines(table: _Seated, events: Sequence[Event]) -> list[str]:
    """The channel's lines for ``events``: each move (a draw and what follows it is one
    turn, R-CR-5 and R-MG-5, so one line: "Ann draws and passes"), and each seat note."""
    lines: list[str] = []
    draws: list[Moved] = []
    for event in events:
        if isinstance(event, Moved) and event.move.kind is Kind.DRAW:
            draws.append(event)
            continue
        if isinstance(event, Moved):
            if draws and draws[0].seat == event.seat:
                lines.append(drew_then(table, len(draws), event))
            else:
                lines.extend(move_line(table, d) for d in draws)
                lines.append(move_line(table, event))
            draws = []
        elif isinstance(event, TimedOut | Away | Back):
            lines.append(seat_note(table, event))
    lines.extend(move_line(table, d) for d in draws)
    return lines


def drew_then(table: _Seated, draws: int, event: Moved) -> str:
    """One turn of draws ending in ``event`` (a play of the last tile drawn, or a pass)."""
    shown = names(table)
    who = shown[event.seat]
    move = event.move
    if move.tile is None and draws == 1:
        text = _("{name} draws and passes.").format(name=who)
    elif move.tile is None:
        text = ngettext(
            "{name} draws {count} tile and passes.", "{name} draws {count} tiles and passes.",
            draws,
        ).format(name=who, count=number(draws))  # fmt: skip
    elif draws == 1:
        text = _("{name} draws {tile} and plays it on {end}.").format(
            name=who, tile=move.tile, end=_end_of(move)
        )
    else:
        text = ngettext(
            "{name} draws {count} tile and plays the last, {tile}, on {end}.",
            "{name} draws {count} tiles and plays the last, {tile}, on {end}.",
            draws,
        ).format(name=who, count=number(draws), tile=move.tile, end=_end_of(move))
    for score in event.scores:
        text += " " + score_words(score, shown)
    return text


def move_line(table: _Seated, event: Moved) -> str:
    """``Ann plays 6-5 on N.`` and any points it scored."""
    shown = names(table)
    who = shown[event.seat]
    move = event.move
    if move.kind is Kind.DRAW:
        text = _("{name} draws.").format(name=who)
    elif move.tile is None:
        text = _("{name} passes.").format(name=who)
    elif move.end_name:
        text = _("{name} plays {tile} on {end}.").format(
            name=who, tile=move.tile, end=_end_of(move)
        )
    else:
        text = _("{name} plays {tile} to lead.").format(name=who, tile=move.tile)
    for score in event.scores:
        text += " " + score_words(score, shown)
    return text


def score_words(score: ScoreEvent, names: list[str]) -> str:
    """Points scored (or refused: bust) and the rule that gave them, with each seat's
    name from ``names``: "Ann scores 3: the open ends total 15 (R-MG-4)"."""
    who = _and(names[seat] for seat in score.seats)
    points, rule = number(score.points), score.rule
    if score.kind is ScoreKind.PLAY:
        text = _("{name} scores {points}: the open ends total {total} ({rule})").format(
            name=who, points=points, total=number(score.open_sum or 0), rule=rule
        )
    elif score.bust:
        text = _("{name} would score {points} for the round ({rule})").format(
            name=who, points=points, rule=rule
        )
    elif len(score.seats) > 1:
        text = _("{team} score {points} for the round ({rule})").format(
            team=who, points=points, rule=rule
        )
    else:
        text = _("{name} scores {points} for the round ({rule})").format(
            name=who, points=points, rule=rule
        )
    if score.bust:
        text = _("{score}, but that passes {target}: bust ({rule})").format(
            score=text, target=number(score.target or 0), rule=score.bust_rule
        )
    return text


def round_words(outcome: RoundOutcome, names: list[str]) -> str:
    """How the round was scored, with the rule, and each seat's name from ``names``:
    "Ann wins the round: dominoed; the other hands hold 30 (R-CR-6)"."""
    rule = f"({outcome.rule})"
    if outcome.team_counts is not None:
        held = ", ".join(
            _("{team} hold {count}").format(
                team=_and(names[seat] for seat in seats), count=number(count)
            )
            for seats, count in zip(outcome.sides, outcome.team_counts, strict=True)
        )
        if outcome.winner is None:
            return _("Blocked: {held}: a tie, nobody scores {rule}").format(held=held, rule=rule)
        return _("Blocked: {held}: {team} score 1 {rule}").format(
            held=held, team=_and(names[s] for s in outcome.sides[outcome.winner]), rule=rule
        )
    if outcome.winner is None:
        return _("Blocked, and the lowest counts tie: nobody scores {rule}").format(rule=rule)
    assert outcome.seat is not None
    who = names[outcome.seat]
    if outcome.reason is Reason.TARGET:
        return _("{name} reached exactly {target} {rule}").format(
            name=who, target=number(outcome.target or 0), rule=rule
        )
    if len(outcome.sides[outcome.winner]) > 1:  # a team's domino (R-MI-5)
        team = _and(names[s] for s in outcome.sides[outcome.winner])
        if outcome.bonus is not None:
            return _(
                "{name} dominoed: 1 point for {team}, and 1 more because both ends show"
                " {number} {rule}"
            ).format(name=who, team=team, number=number(outcome.bonus), rule=rule)
        return _("{name} dominoed: 1 point for {team} {rule}").format(
            name=who, team=team, rule=rule
        )
    figures = {
        "name": who,
        "own": number(outcome.own or 0),
        "others": number(outcome.others or 0),
        "raw": number(outcome.raw or 0),
        "rule": rule,
    }
    if outcome.rounded is not None:
        gained = outcome.rounded // 5
        if outcome.reason is Reason.DOMINO:
            text = ngettext(
                "{name} wins the round: dominoed; {others} − {own} = {raw}, to the nearest 5"
                " is {rounded}: {points} point {rule}",
                "{name} wins the round: dominoed; {others} − {own} = {raw}, to the nearest 5"
                " is {rounded}: {points} points {rule}",
                gained,
            )
        else:
            text = ngettext(
                "{name} wins the round: lowest count; {others} − {own} = {raw}, to the"
                " nearest 5 is {rounded}: {points} point {rule}",
                "{name} wins the round: lowest count; {others} − {own} = {raw}, to the"
                " nearest 5 is {rounded}: {points} points {rule}",
                gained,
            )
        return text.format(rounded=number(outcome.rounded), points=number(gained), **figures)
    if outcome.reason is Reason.DOMINO:
        return _("{name} wins the round: dominoed; the other hands hold {others} {rule}").format(
            **figures
        )
    return _(
        "{name} wins the round: blocked with the lowest count, {own}; the others hold"
        " {others}: {others} − {own} = {raw} {rule}"
    ).format(**figures)


def round_embed(
    table: TableSnapshot, outcome: RoundOutcome, totals: Sequence[int] | None
) -> discord.Embed:
    """End of round: hands revealed, points with the rule that gave them, and the
    running totals when known (``totals``: each side's total after the round)."""
    shown = names(table)
    embed = discord.Embed(
        title=_("Round over"), description=round_words(outcome, shown), colour=COLOUR
    )
    hands = []
    for seat, name in enumerate(shown):
        tiles = " ".join(str(t) for t in outcome.hands[seat]) or "—"
        hands.append(
            _("{name}: {tiles} (count {count})").format(
                name=name, tiles=tiles, count=number(outcome.counts[seat])
            )
        )
    embed.add_field(name=_("Hands"), value="\n".join(hands), inline=False)
    lines = []
    for side, (name, gained) in enumerate(zip(side_names(table), outcome.points, strict=True)):
        total = f" → {number(totals[side])}" if totals else ""
        lines.append(f"{name}: +{number(gained)}{total}")
    embed.add_field(name=_("Scores"), value="\n".join(lines), inline=False)
    return embed


def game_over_embed(table: TableSnapshot, outcome: MatchOutcome) -> discord.Embed:
    sides = side_names(table)
    embed = discord.Embed(
        title=_("Winner: {name}").format(name=sides[outcome.winner]),
        colour=discord.Colour.gold(),
    )
    order = sorted(range(len(sides)), key=lambda side: -outcome.scores[side])
    lines = [
        f"{rank}. {sides[side]}: {number(outcome.scores[side])}"
        for rank, side in enumerate(order, 1)
    ]
    embed.add_field(name=_("Final standings"), value="\n".join(lines), inline=False)
    if table.options.match_games > 1:
        won = ", ".join(f"{sides[s]} {number(outcome.games_won[s])}" for s in range(len(sides)))
        embed.add_field(name=_("Games won"), value=won, inline=False)
    embed.set_footer(
        text=_(
            "Game {id} · stats and ratings are saved: /domino leaderboard, /domino stats"
        ).format(id=table.game_id)
    )
    return embed


def seat_note(table: _Seated, event: TimedOut | Away | Back) -> str:
    who = names(table)[event.seat]
    match event:
        case TimedOut():
            return _("{name}'s time ran out: the computer plays for them.").format(name=who)
        case Away():
            return _(
                "{name} is away: the computer plays their seat until they come back (/domino hand)."
            ).format(name=who)
    return _("{name} is back.").format(name=who)


# -- the rules of each game (/domino rules) -------------------------------------------------


def _common() -> str:
    return _(
        "**Every game** — one double-six set of 28 tiles; a tile is written high end first "
        "(`6-5`, worth 11) (R-ALL-1). Turns go round in seat order (R-ALL-2). Deals are random "
        "yet replayable from their seed, and a deal given by hand must keep the game's rules "
        "(R-ALL-3). If you hold a tile that fits you must play it; where it goes is your choice "
        "(R-ALL-4). A round ends when someone plays their last tile, or when nobody can play or "
        "draw (blocked) (R-ALL-5). Your hand is only ever shown to you, the boneyard only as a "
        "count (R-ALL-6). Your count is the pips left in your hand (R-ALL-7); in a blocked round, "
        "a tie for the lowest count scores nothing (R-ALL-8)."
    )


def _spinner() -> str:
    return _(
        "**The layout** — the first tile is a double, the spinner, with four arms: {arms} "
        "(R-SP-1). An arm starts with a tile matching the spinner; its open end is then the far "
        "number of its last tile, and a double on an arm lies crosswise (R-SP-2). A move names "
        "the tile and the arm (`6-5 {north}`); the bot fills in the arm when there is only one "
        "(R-SP-3)."
    ).format(arms=_and(_ends(SPINNER_ARMS)), north=end_letter("N"))


def _game_rules(game: str) -> str:
    match game:
        case "cross":
            return _(
                "**Cross** (2–4 players; 7 tiles each with 2 players, 5 with 3 or 4; the rest "
                "is the boneyard) (R-CR-1)\n"
                "• The highest double leads as the spinner; if nobody has a double, the tiles "
                "are dealt again (R-CR-2).\n"
                "• First build the cross: each play must start an empty arm with a tile "
                "matching the spinner, until all four are started (R-CR-3). Then play on any "
                "arm's open end (R-CR-4).\n"
                "• Can't play? Draw one tile. If it fits you must play it at once, and it is "
                "the only tile you may play that turn; otherwise pass. The last two boneyard "
                "tiles are never drawn (R-CR-5).\n"
                "• Play out: score everyone else's count. Blocked: the lowest count scores the "
                "others' total minus their own (13 vs 30 → 17) (R-CR-6). First to 100 wins "
                "(R-CR-7)."
            )
        case "maltese-cross":
            return _(
                "**Maltese Cross** — Cross with a second phase (2–4 players, hands and lead as "
                "Cross) (R-MC-1)\n"
                "• Start all four arms first (R-MC-2).\n"
                "• Then cap every arm with the double of its open number, laid crosswise; only "
                "such doubles may be played until all four are capped, and you draw as in "
                "Cross (R-MC-3). Then open play on the four arm ends (R-MC-4).\n"
                "• When the boneyard is down to two with the cross unfinished, every arm "
                "without a cap dies at once. The draw that took it there is still one turn: the "
                "drawn tile is played if it fits a live end, otherwise you pass, and no other "
                "tile may be played that turn. If no arm was capped, the round is blocked "
                "there and then (R-MC-5).\n"
                "• Scoring as Cross (18 vs 40 → 22); first to 100 by default, or 60, or your "
                "choice (R-MC-6)."
            )
        case "merry-go-round":
            return _(
                "**Merry-Go-Round** (2–4 players, 7 tiles each; the rest is the boneyard) "
                "(R-MG-1)\n"
                "• The holder of the highest double leads any double: the spinner; if nobody "
                "has a double, the tiles are dealt again (R-MG-2). All four sides must be "
                "played before anything else (R-MG-3).\n"
                "• After every tile, add up the open ends (a double at an end counts both "
                "halves; the spinner counts both halves until two arms start). A multiple of 5 "
                "scores a point per 5 (R-MG-4).\n"
                "• Can't play? Draw until you can, or the boneyard is empty (option: keep the "
                "last two) (R-MG-5).\n"
                "• Round winner: the others' count minus yours, to the nearest 5, divided by 5 "
                "(23 → 5, 22 → 4) (R-MG-6). The game is to exactly 61: a score that goes past "
                "is not added (bust); reaching 61 ends the game at once (R-MG-7)."
            )
        case "milo":
            return _(
                "**Milo** (4 players in two partnerships: seats 1 & 3 against 2 & 4; 7 tiles "
                "each, no boneyard) (R-MI-1)\n"
                "• One line with two ends, {ends}; doubles lie crosswise and are not spinners "
                "(R-MI-2).\n"
                "• The first round of a game is led with 6-6; then the lead passes to the next "
                "seat, who may lead any tile (R-MI-3). Can't play? Pass; four passes in a row "
                "block the round (R-MI-4).\n"
                "• Play out: 1 point for your team, 1 more if both ends then show the same "
                "number. Blocked: the team with the lower count scores 1; a tie scores nothing "
                "(R-MI-5).\n"
                "• First team to 5 wins (R-MI-6). A match is first to win N games; each new "
                "game is led by the seat after the one that led the last game's first round, "
                "with any tile (R-MI-7)."
            ).format(ends=_and(_ends(LINE_ENDS)))
    raise KeyError(game)


def rules_for(game: str) -> str:
    spinner = find_variant(game).layout_kind is LayoutKind.SPINNER
    layout = f"\n\n{_spinner()}" if spinner else ""
    return f"{_game_rules(game)}{layout}\n\n{_common()}"


# -- history, replays, rematches, hints and privacy ----------------------------------------


def hints_on() -> str:
    return _("Hints are on: this game is not rated.")


def hint(advice: Advice) -> str:
    """A hint, privately: the move the chosen computer player would make and the one
    reason that decided it (``bot.hints``)."""
    head = _("**Hint** from the {level} player: {move}").format(
        level=level_name(advice.level), move=_advised_move(advice.move)
    )
    return f"{head} — {_hint_reason(advice)}"


def _advised_move(move: Move) -> str:
    if move is DRAW:
        return _("draw")
    if move is PASS:
        return _("pass")
    if move.end_name:
        return _("play {tile} on {end}").format(tile=move.tile, end=_end_of(move))
    return _("lead {tile}").format(tile=move.tile)


def _hint_reason(advice: Advice) -> str:
    match advice.why:
        case Why.ONLY_MOVE:
            return _("it is the only move you have.")
        case Why.DOMINO:
            return _("it is your last tile: you domino.")
        case Why.REACHES_TARGET:
            return _("it scores {points} and brings you to exactly {target}.").format(
                points=_points(advice.points), target=number(advice.target)
            )
        case Why.SCORES if advice.open_sum:
            return _("the ends then add up to {sum}, which scores {points}.").format(
                sum=number(advice.open_sum), points=_points(advice.points)
            )
        case Why.SCORES:
            return _("it scores {points}.").format(points=_points(advice.points))
        case Why.AVOIDS_BUST:
            return _("the next best play would take you past {target}.").format(
                target=number(advice.target)
            )
        case Why.HEAVIEST:
            return _("it sheds more pips ({pips}) than the next best play.").format(
                pips=number(advice.pips)
            )
        case Why.DOUBLE:
            return _("doubles get harder to place later: play it while it fits.")
        case Why.FOLLOWS:
            return ngettext(
                "it leaves ends that {count} of your tiles can follow.",
                "it leaves ends that {count} of your tiles can follow.",
                advice.count,
            ).format(count=number(advice.count))
        case Why.CAN_CAP:
            return _("it opens an arm with a {n}, and you hold the {n}-{n} to cap it.").format(
                n=advice.number
            )
        case Why.OPPONENT_LACKS:
            return _("it leaves a {n} open, and an opponent has shown they have none.").format(
                n=advice.number
            )
        case Why.SPARES_PARTNER:
            return _("it leaves no {n} open: your partner has shown they have none.").format(
                n=advice.number
            )
        case Why.WINS_DEALS:
            return _(
                "it did best in {share}% of {deals} guessed deals of the hidden tiles."
            ).format(share=number(round(advice.share * 100)), deals=number(advice.deals))


def seat_labels(players: Sequence[Participant]) -> list[str]:
    """The seats of a finished game in seat order, as a picture names them: a member's
    last name, a computer as the game named it (numbered in seat order, as at the
    table: ``Computer 2 (hard)``), or a member who asked to be forgotten."""
    labels, computers = [], 0
    for player in sorted(players, key=lambda p: p.seat):
        if player.user_id is not None:
            labels.append(player.name or unknown_player(player.user_id))
        elif player.computer_level is not None:
            computers += 1
            labels.append(
                _("Computer {number} ({level})").format(
                    number=number(computers), level=level_name(player.computer_level)
                )
            )
        else:
            labels.append(_("a former player"))
    return labels


def history_title(name: str, page: int, pages: int) -> str:
    return _("**{name}'s games here** — page {page} of {pages}").format(
        name=plain(name), page=number(page), pages=number(max(pages, 1))
    )


def history_line(game: FinishedGame) -> str:
    """One finished game in a member's history: its id (for /domino replay), what and
    when, who sat where and who won, the final score by side."""
    seats = sorted(game.participants, key=lambda p: p.seat)
    players = ", ".join(
        _("{name} (won)").format(name=plain(label)) if p.won else plain(label)
        for p, label in zip(seats, seat_labels(seats), strict=True)
    )
    variant = find_variant(game.game)
    by_seat = {p.seat: p.final_score for p in seats}
    sides = variant.sides_of(len(seats))
    scores = "–".join(number(by_seat.get(side[0], 0)) for side in sides)
    when = f"<t:{int(game.finished_at)}:d>"
    line = f"`{game.id}` · {game_title(variant)} · {when} · {players} · {scores}"
    unrated = _("unrated")
    return line if game.rated else f"{line} · {unrated}"


def no_history(name: str) -> str:
    return _("{name} has not finished a game here yet.").format(name=plain(name))


def rematch_opened(game: str) -> str:
    return _(
        "The {game} rematch is open in this channel: the other players press Rematch (or"
        " Join) to take their seats, then the host presses Start."
    ).format(game=game_title(game))


def replay_cut(posted: int, parts: int) -> str:
    """Said under the last file of a replay too long to post whole."""
    return _(
        "This game is long: its replay stops here, after {posted} of its {parts} parts."
    ).format(posted=number(posted), parts=number(parts))


def replay_yours_running() -> str:
    return _("Your replay is still being posted: ask again when it is done.")


def replay_running_here() -> str:
    return _("A replay is being posted in this server: ask again when it is done.")


def replay_again_at(when: float) -> str:
    return _("You can ask for another replay {when}.").format(when=f"<t:{int(when) + 1}:R>")


def replay_posted(game_id: str, part: int, parts: int) -> str:
    if parts > 1:
        return _("Replay of game {game} (part {part} of {parts}).").format(
            game=f"`{game_id}`", part=number(part), parts=number(parts)
        )
    return _("Replay of game {game}.").format(game=f"`{game_id}`")


def privacy(stored: Stored, keep_hours: int) -> str:
    """What the bot keeps about the member asking, and for how long, with their counts."""
    name = (
        _("the name you last played under ({name})").format(name=plain(stored.name))
        if stored.name
        else _("no name")
    )
    return _(
        "**What this bot stores about you**\n"
        "• Your totals per game kind, in each server and overall ({stats} rows), your"
        " openskill rating per game kind ({ratings}), and {name}: kept until you ask for"
        " them to be deleted.\n"
        "• The finished games you sat at ({games}): the moves, the seats and the scores, for"
        " leaderboards, history and replays; kept for good, and made anonymous if you ask.\n"
        "• A table's moves while it is open, and for {hours} hours after it closes.\n"
        "Your hands are never shown to anyone else. /domino forget-me deletes your totals,"
        " ratings and name and takes your id off past games."
    ).format(
        stats=number(stored.stats),
        ratings=number(stored.ratings),
        name=name,
        games=number(stored.games),
        hours=number(keep_hours),
    )


def forget_confirm() -> str:
    return _(
        "This deletes your totals, ratings and name in every server and takes your id off"
        " the games you played (they stay, anonymous). It cannot be undone. Press the button"
        " to go on."
    )


def forgotten(gone: Forgotten) -> str:
    return _(
        "Done: {stats} rows of totals, {ratings} ratings and your name are deleted; {seats}"
        " past seats no longer name you."
    ).format(stats=number(gone.stats), ratings=number(gone.ratings), seats=number(gone.seats))


# -- pictures: headers and alt text --------------------------------------------------------

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description: the alt text says the essentials
first (whose turn, the open ends) and its tile-by-tile detail is cut to fit."""


def _listed(pairs: Iterable[tuple[str, int]], between: str) -> str:
    """``Ann 3 · Bob 5``: names, each with its number."""
    return between.join(f"{name} {number(value)}" for name, value in pairs)


def table_text(view: PublicView, names: list[str]) -> TableText:
    """The table picture's words: game, round, target; scores (and games won in a
    match); hand sizes, boneyard (and the open-end total); whose turn. Names in a list
    are cut so that four long ones still fit; the player to move gets a wider limit."""
    short = [fit_name(name) for name in names]
    sides = _side_names(view, short)
    figures = {
        "game": game_title(view.variant),
        "round": number(view.round_number),
        "number": number(view.game_number),
        "target": number(view.target),
    }
    if _in_match(view):
        first = _("{game} · round {round} of game {number} · to {target}").format(**figures)
    else:
        first = _("{game} · round {round} · to {target}").format(**figures)
    scores = _listed(zip(sides, view.scores, strict=True), " · ")
    lines = [first, _("Scores: {scores}").format(scores=scores)]
    if _in_match(view):
        won = _listed(zip(sides, view.games_won, strict=True), " · ")
        lines.append(
            _("Games won (first to {count}): {games}").format(
                count=number(view.options.match_games), games=won
            )
        )
    hands = _listed(zip(short, view.hand_sizes, strict=True), ", ")
    counts = [_("Tiles in hand: {hands}").format(hands=hands)]
    if view.variant.drawing is not Drawing.NO_BONEYARD:
        counts.append(_("Boneyard {count}").format(count=number(view.boneyard_count)))
    if view.open_sum is not None:
        counts.append(_("Open ends total {total}").format(total=number(view.open_sum)))
    lines.append(" · ".join(counts))
    mover = fit_name(names[view.turn], wide=True)
    lines.append(
        _("To play: {name}").format(name=mover) if view.outcome is None else _("Round over")
    )
    return TableText(
        tuple(lines), before_lead=_("Waiting for the lead."), dead=_("dead"), ends=end_letters()
    )


def hand_text(view: SeatView, names: list[str]) -> HandText:
    """The hand picture's words: whose hand, and what the seat is to do now."""
    public = view.public
    fits = placements(view)
    if public.outcome is not None:
        status = _("The round is over")
    elif public.turn != view.seat:
        status = _("Waiting for {name}").format(name=names[public.turn])
    elif fits:
        status = ngettext(
            "Your turn: {count} of your tiles fit (green)",
            "Your turn: {count} of your tiles fit (green)",
            len(fits),
        ).format(count=number(len(fits)))
    else:
        status = _("Your turn: nothing fits, press {button}").format(
            button=label(view.legal[0].text)
        )
    title = _("{name}'s hand · {tiles}").format(name=names[view.seat], tiles=_tiles(len(view.hand)))
    return HandText(title, status, ends=end_letters())


def leaderboard_text(title: str, order: str = "rating") -> LeaderboardText:
    """The card's words; its third column is what the board is ordered by (``order``),
    the rating unless it is wins or points."""
    headings = {"wins": _("Wins"), "points": _("Points")}
    column = headings.get(order) or _("Rating")
    return LeaderboardText(title, rank="#", player=_("Player"), value=column, games=_("Games"))


def describe_table(view: PublicView, names: list[str]) -> str:
    """The table picture in words, for screen readers: the game and whose turn, each
    open end's name and number (what a move must match), the last tile, scores and
    counts, then every tile, arm by arm (or along the line)."""
    sides = _side_names(view, names)
    figures = {
        "game": game_title(view.variant),
        "round": number(view.round_number),
        "number": number(view.game_number),
        "target": number(view.target),
    }
    if _in_match(view):
        title = _("{game}, round {round} of game {number}, to {target}.").format(**figures)
    else:
        title = _("{game}, round {round}, to {target}.").format(**figures)
    standing = _("Scores: {scores}.").format(
        scores=_listed(zip(sides, view.scores, strict=True), ", ")
    )
    if _in_match(view):
        won = _listed(zip(sides, view.games_won, strict=True), ", ")
        standing += " " + _("Games won, first to {count}: {games}.").format(
            count=number(view.options.match_games), games=won
        )
    if view.outcome is None:
        turn = _("{name} to play.").format(name=names[view.turn])
    else:
        turn = _("The round is over.")
    hands = _("Tiles in hand: {hands}.").format(
        hands=_listed(zip(names, view.hand_sizes, strict=True), ", ")
    )
    if view.variant.drawing is not Drawing.NO_BONEYARD:
        hands += " " + _("Boneyard {count}.").format(count=number(view.boneyard_count))
    layout = view.layout
    if layout is None:
        return " ".join([title, _("No tile played yet."), turn, standing, hands])[:ALT_LIMIT]
    ends = _("Open ends: {ends}.").format(
        ends=", ".join(f"{end_letter(e)} {number(v)}" for e, v in view.open_ends.items())
    )
    dead = [] if isinstance(layout, LineLayout) else _ends(a.name for a in layout.arms if a.dead)
    if dead:
        ends += " " + _("Dead: {arms}.").format(arms=_and(dead))
    if view.open_sum is not None:
        ends += " " + _("Open ends total {total}.").format(total=number(view.open_sum))
    played = ""
    last = next(((s, m) for s, m in reversed(view.history) if m.tile is not None), None)
    if last is not None:
        seat, move = last
        if move.end_name:
            played = _("Last played: {tile} on {end} by {name}.").format(
                tile=move.tile, end=_end_of(move), name=names[seat]
            )
        else:
            played = _("Last played: {tile} as the lead by {name}.").format(
                tile=move.tile, name=names[seat]
            )
    summary = " ".join(part for part in [title, turn, ends, played, standing, hands] if part)
    return (summary + " " + _layout_words(layout))[:ALT_LIMIT].rstrip()


def describe_hand(view: SeatView) -> str:
    """The seat's own hand in words (sent only to that player), in the picture's order,
    with the ends each playable tile fits, as its buttons will name them."""
    hand = hand_order(view.hand)
    text = ngettext("Your hand, {count} tile: {tiles}.", "Your hand, {count} tiles: {tiles}.",
                    len(hand)).format(count=number(len(hand)),
                                      tiles=", ".join(str(tile) for tile in hand))  # fmt: skip
    fits = placements(view)
    if fits:
        where = [
            _("{tile} on {ends}").format(tile=tile, ends=_or(_ends(ends))) if ends else str(tile)
            for tile, ends in fits.items()
        ]
        text += " " + _("Playable now: {tiles}.").format(tiles="; ".join(where))
    elif view.legal:
        if view.legal[0].kind is Kind.DRAW:
            text += " " + _("Nothing fits: draw.")
        else:
            text += " " + _("Nothing fits: pass.")
    return text[:ALT_LIMIT]


def _side_names(view: PublicView, names: list[str]) -> list[str]:
    """Each side's name: its seat's, or in a team game both partners' ("Ann & Cat")."""
    return [
        " & ".join(names[seat] for seat in side) for side in view.variant.sides_of(view.players)
    ]


def _in_match(view: PublicView) -> bool:
    """A match of several games (R-MI-7), where the games won are worth saying; in a
    single game they would only say nought."""
    return view.options.match_games > 1


def _layout_words(layout: Layout) -> str:
    if isinstance(layout, LineLayout):
        return _("Line from {left} to {right}: {tiles}.").format(
            left=end_letter("L"),
            right=end_letter("R"),
            tiles=", ".join(str(t.tile) for t in layout.tiles),
        )
    arms = []
    for arm in layout.arms:
        chain = ", ".join(str(t.tile) for t in arm.tiles) or _("empty")
        cap = _cap(arm)
        if cap is None:
            arms.append(_("Arm {name}: {tiles}").format(name=end_letter(arm.name), tiles=chain))
        else:
            arms.append(
                _("Arm {name}, capped with {cap}: {tiles}").format(
                    name=end_letter(arm.name), cap=cap, tiles=chain
                )
            )
    return _("Spinner {tile}.").format(tile=layout.spinner) + " " + ". ".join(arms) + "."


def _cap(arm: Arm) -> Tile | None:
    """The double that capped a Maltese Cross arm (R-MC-3): the first double on it, as
    the tile that started the arm matched the spinner, whose only double is the spinner."""
    if not arm.capped:
        return None
    return next(placed.tile for placed in arm.tiles if placed.tile.is_double)


# -- replays --------------------------------------------------------------------------------


def replay_text(names: list[str]) -> ReplayText:
    """The replay's words: each move's frame is the table picture under a line saying
    the move and its number; each round ends on a card of the revealed hands under who
    won it, how and the points; the last card gives the result. (Drawn in a worker
    thread, they are read in the language of the code that asked for the replay.)"""
    short = [fit_name(name) for name in names]  # where several names share a line
    alone = [fit_name(name, wide=True) for name in names]  # where one name has the line

    def move(view: PublicView, number: int, total: int) -> str:
        seat, made = view.history[-1]
        return _("Move {number} of {total}: {move}").format(
            number=i18n.number(number),
            total=i18n.number(total),
            move=_replay_move(alone[seat], made),
        )

    def round_over(view: PublicView) -> tuple[str, ...]:
        outcome = view.outcome
        assert outcome is not None
        sides = _side_names(view, short)
        if _in_match(view):
            title = _("Round {round} of game {number} over").format(
                round=number(view.round_number), number=number(view.game_number)
            )
        else:
            title = _("Round {round} over").format(round=number(view.round_number))
        gained = zip(sides, outcome.points, view.scores, strict=True)
        points = " · ".join(f"{n} +{number(p)} → {number(s)}" for n, p, s in gained)
        lines = [
            title,
            sentence(round_words(outcome, short)),
            _("Points: {points}").format(points=points),
        ]
        winner = _game_winner(view)
        if winner is not None and _in_match(view):
            lines.append(
                _("{team} win game {number}").format(
                    team=sides[winner], number=number(view.game_number)
                )
            )
        return tuple(lines)

    def hand(view: PublicView, seat: int) -> str:
        assert view.outcome is not None
        return _("{name} · count {count}").format(
            name=alone[seat], count=number(view.outcome.counts[seat])
        )

    def final(view: PublicView) -> tuple[str, ...]:
        outcome = view.match_outcome
        assert outcome is not None
        sides = _side_names(view, short)
        order = sorted(range(len(sides)), key=lambda side: -outcome.scores[side])
        scores = " · ".join(f"{sides[side]} {number(outcome.scores[side])}" for side in order)
        if not _in_match(view):
            return (
                _("{name} wins the game").format(name=_side_names(view, alone)[outcome.winner]),
                _("Final scores: {scores}").format(scores=scores),
            )
        won = _listed(zip(sides, outcome.games_won, strict=True), " · ")
        return (
            _("{team} win the match").format(team=sides[outcome.winner]),
            _("Games won: {games}").format(games=won),
            _("Last game's scores: {scores}").format(scores=scores),
        )

    return ReplayText(
        table=lambda view: table_text(view, names),
        move=move,
        round_over=round_over,
        hand=hand,
        final=final,
    )


ALT_NAME = 12
"""Characters of a name the replay's alt text keeps after the seats are listed, when the
whole names would not let the rounds fit."""


def describe_replay(replay: Replay, names: list[str], part: int = 0) -> str:
    """The replay's alt text (for file ``part`` of a split replay): the game and its
    seats, the result, then every round with who won it and the points. Within Discord's
    1,024 characters, as much of that as fits: each round, then the rounds each side won
    by number (game by game), then who won each game, each with the names cut to 12
    characters after the seats are listed if that makes it fit."""
    rounds = replay.rounds
    first = rounds[0] if rounds else replay.final
    if first is None:
        return _("Replay of a game with no move played.")
    seats = _and(names)
    head = _("Replay of {game}, {seats}, {target}").format(
        game=game_title(first.variant),
        seats=seats,
        target=_to_target(first.target, first.variant.exact_target),
    )
    if _in_match(first):
        games = first.options.match_games
        head += ", " + ngettext(
            "first to win {count} game", "first to win {count} games", games
        ).format(count=number(games))
    moves = ngettext("{count} move", "{count} moves", replay.actions)
    played = ngettext("{count} round", "{count} rounds", len(rounds))
    head += f": {moves.format(count=number(replay.actions))}, "
    head += f"{played.format(count=number(len(rounds)))}."
    if len(replay.parts) > 1:
        shown = replay.parts[part].rounds
        ends = [_round_name(rounds, index) for index in (shown.start, shown.stop - 1)]
        if ends[0] != ends[1]:
            span = _("from {first} to {last}").format(first=ends[0], last=ends[1])
        else:
            span = ends[0]
        head += " " + _("Part {number} of {total}: {span}.").format(
            number=number(part + 1), total=number(len(replay.parts)), span=span.lower()
        )
    short = [name if len(name) <= ALT_NAME else name[:ALT_NAME] + "…" for name in names]
    text = ""
    for detail in (_replay_rounds, _replay_rounds_won, _replay_games_won):
        for seat_names in (names, short):
            sides = _side_names(first, seat_names)
            text = f"{head} {_replay_result(replay, sides)} {detail(rounds, sides)}"
            if len(text) <= ALT_LIMIT:
                return text
    return text[: ALT_LIMIT - 1] + "…"


def _replay_move(name: str, move: Move) -> str:
    if move.kind is Kind.DRAW:
        return _("{name} draws").format(name=name)
    if move.tile is None:
        return _("{name} passes").format(name=name)
    if move.end_name is None:
        return _("{name} leads {tile}").format(name=name, tile=move.tile)
    return _("{name} plays {tile} on {end}").format(name=name, tile=move.tile, end=_end_of(move))


def _game_winner(view: PublicView) -> int | None:
    """The side whose total reached the target with this round (R-CR-7, R-MG-7, R-MI-6):
    only one side scores at a time, so at most one has."""
    return next((side for side, score in enumerate(view.scores) if score >= view.target), None)


def _replay_result(replay: Replay, sides: list[str]) -> str:
    final = replay.final
    if final is None or final.match_outcome is None:
        return _("The record stops before the game's end.")
    outcome = final.match_outcome
    order = sorted(range(len(sides)), key=lambda side: -outcome.scores[side])
    scores = _listed(((sides[side], outcome.scores[side]) for side in order), ", ")
    if _in_match(final):
        won = _listed(zip(sides, outcome.games_won, strict=True), ", ")
        return _("{team} win the match; games won: {games}; last game: {scores}.").format(
            team=sides[outcome.winner], games=won, scores=scores
        )
    return _("{name} wins the game; final scores: {scores}.").format(
        name=sides[outcome.winner], scores=scores
    )


def _round_name(rounds: Sequence[PublicView], index: int) -> str:
    """``Round 3``, or in a match ``Game 2 round 1``; ``index`` counts from 0 across the
    match (a round past the last finished one: the one the record stops in)."""
    if index < len(rounds):
        view = rounds[index]
        if _in_match(view):
            return _("Game {number} round {round}").format(
                number=number(view.game_number), round=number(view.round_number)
            )
    return _("Round {round}").format(round=number(index + 1))


def _replay_rounds(rounds: Sequence[PublicView], sides: list[str]) -> str:
    """``Round 3: Ann wins, Ann +23.`` for every round (in a match: ``Game 2 round 1: …``)."""
    said = []
    for index, view in enumerate(rounds):
        outcome = view.outcome
        assert outcome is not None
        gains = ", ".join(f"{sides[s]} +{number(p)}" for s, p in enumerate(outcome.points) if p)
        points = gains or _("no points")
        name = _round_name(rounds, index)
        if outcome.winner is None:
            said.append(_("{round}: a tie, {points}.").format(round=name, points=points))
        else:
            said.append(
                _("{round}: {name} wins, {points}.").format(
                    round=name, name=sides[outcome.winner], points=points
                )
            )
    return " ".join(said)


def _replay_rounds_won(rounds: Sequence[PublicView], sides: list[str]) -> str:
    """Per game, the rounds each side won (and those tied), by number."""
    games: dict[int, list[PublicView]] = {}
    for view in rounds:
        games.setdefault(view.game_number, []).append(view)
    parts = []
    for game, views in games.items():
        won: dict[int | None, list[str]] = {}
        for index, view in enumerate(views, 1):
            assert view.outcome is not None
            won.setdefault(view.outcome.winner, []).append(number(index))
        listed = [f"{sides[s]} {', '.join(won[s])}" for s in range(len(sides)) if s in won]
        if None in won:
            listed.append(_("tied {rounds}").format(rounds=", ".join(won[None])))
        if len(games) > 1:
            parts.append(
                _("Game {number} rounds won: {list}.").format(
                    number=number(game), list="; ".join(listed)
                )
            )
        else:
            parts.append(_("Rounds won: {list}.").format(list="; ".join(listed)))
    return " ".join(parts)


def _replay_games_won(rounds: Sequence[PublicView], sides: list[str]) -> str:
    """Who won each game of a match, in order (R-MI-7)."""
    winners = [sides[side] for view in rounds if (side := _game_winner(view)) is not None]
    if not winners:
        return ""
    return _("Games won, in order: {games}.").format(games=", ".join(winners))
