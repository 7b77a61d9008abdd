"""Every sentence the bot says to a player about what they asked for: refusals,
confirmations and apologies. The service and the engine refuse with data
(``bot.refusals``, the engine's errors); this module alone turns them into words, so a
refusal can be reworded (or translated) in one place.

Names and any text a user typed are escaped or shortened before they are quoted: a
display name such as ``@everyone`` must read as text, never ping, and a 2,000-character
"tile" must not push an answer past Discord's limit.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.engine import (
    DRAW,
    LINE_ENDS,
    PASS,
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
    RoundOver,
    TargetOutOfRange,
    Tile,
    UnknownGame,
    WrongEnd,
    WrongLead,
    find_variant,
)
from bot.engine import InvalidOptions as EngineOptions
from bot.engine import WrongPlayerCount as EngineWrongPlayerCount
from bot.engine.moves import Kind
from bot.engine.views import Arm, Layout, LineLayout, PublicView, SeatView
from bot.refusals import (
    AlreadyClosed,
    AlreadySeated,
    ChannelTaken,
    HostCannotLeave,
    HostOnly,
    HostOrManagerOnly,
    LobbyClosed,
    MoveRefused,
    NoTableHere,
    NotAway,
    NotSaved,
    NotSeated,
    NotSeatedHere,
    NotStarted,
    NotYourTurn,
    OptionsRefused,
    OtherServer,
    OutOfRange,
    SeatedElsewhere,
    SeatedOnly,
    StaleVersion,
    TableClosed,
    TableError,
    TableFull,
    UnknownLevel,
    WrongPlayerCount,
)
from bot.tables import GuildSettings
from rendering import HandText, LeaderboardText, TableText, fit_name, hand_order, placements

QUOTE_LIMIT = 12
"""At most this many characters of what a user typed are quoted back."""


def plain(text: str) -> str:
    """A display name as plain text: no mention fires, no markdown applies."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def quote(text: str) -> str:
    """What a user typed, shortened and made harmless, for quoting in an answer."""
    short = text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "…"
    return f"`{short.replace('`', 'ˋ')}`"


def sentence(clause: str) -> str:
    """The engine words its refusals as clauses ("6-5 does not fit: arm N needs a 3")."""
    return f"{clause[:1].upper()}{clause[1:]}."


_LOBBY_CLOSED = {
    "join": "The game has started already: wait for the next table.",
    "leave": "The game has started: ask the host to /domino end it.",
}
_NOT_SAVED = {
    "full": "the database has no space left",
    "busy": "the database was busy for too long",
    "read-only": "the database cannot be written to",
}


def refusal(error: TableError, names: list[str] | None = None) -> str:
    """What a refused action tells the member who tried it. ``names``: the table's seat
    names, for refusals that name a seat."""
    seats = names or []
    match error:
        case NoTableHere():
            return "There is no table in this channel: open one with /domino new."
        case TableClosed():
            return "That table is closed: open a new one with /domino new."
        case NotSeatedHere():
            return "You are not seated at a table in this server: /domino join one."
        case ChannelTaken():
            return "This channel already has a table: join it, or use another channel."
        case SeatedElsewhere(channel_id):
            return f"You are seated at another table in this server already (<#{channel_id}>)."
        case OtherServer():
            return "That table belongs to another server."
        case LobbyClosed(action):
            return _LOBBY_CLOSED.get(action, "The game has started already.")
        case AlreadySeated():
            return "You are already seated at this table."
        case TableFull(seats_count):
            return f"The table is full ({seats_count} seats)."
        case NotSeated():
            return "You are not playing at this table."
        case HostCannotLeave():
            return "You are the host: cancel the table instead."
        case SeatedOnly():
            return "Only players seated at the table can add a computer player."
        case UnknownLevel(levels):
            return f"The computer levels are {', '.join(levels)}."
        case HostOnly():
            return "Only the host can start the game."
        case WrongPlayerCount(game, allowed, seated):
            counts = " or ".join(str(n) for n in allowed)
            return (
                f"{find_variant(game).title} needs {counts} players; {seated} seated."
                " Invite others to Join, or Add computer."
            )
        case AlreadyClosed():
            return "This table is closed already."
        case HostOrManagerOnly():
            return "Only the host (or someone with Manage Server) can end this table."
        case NotStarted():
            return "The game has not started: the host presses Start."
        case NotYourTurn(seat):
            who = plain(seats[seat]) if seat < len(seats) else "another player"
            return f"It is {who}'s turn, not yours."
        case NotAway():
            return "You are not away."
        case StaleVersion():
            return "The table has moved on since those buttons were drawn."
        case MoveRefused(engine_error) | OptionsRefused(engine_error):
            return engine_refusal(engine_error)
        case OutOfRange(option, low, high, got):
            shown = quote(str(got)) if not isinstance(got, int) else str(got)
            return f"{option.replace('_', ' ').capitalize()} must be {low} to {high}, not {shown}."
        case NotSaved(fault, kind):
            why = _NOT_SAVED.get(fault, "the database is not available")
            if kind == "read":
                return f"I could not read the scores ({why}). Try again shortly."
            what = "Your move was NOT made" if kind == "play" else "That was NOT done"
            return f"{what}: I could not save it ({why}), so nothing changed. Try again shortly."
    return "That cannot be done now."


def _or(items: Iterable[object]) -> str:
    return " or ".join(str(item) for item in items)


def _where(end: str) -> str:
    return f"end {end}" if end in LINE_ENDS else f"arm {end}"


def engine_refusal(error: EngineError) -> str:
    """An engine refusal (an illegal move, options the game does not allow), worded
    from its data, with the rule that refuses it. A refusal this module has no words for
    yet (a new class) falls back to the engine's own English."""
    text = engine_words(error) or sentence(str(error)).rstrip(".")
    return f"{text} ({error.rule})." if error.rule else f"{text}."


def engine_words(error: EngineError) -> str | None:
    """The words for an engine refusal, without its rule; None if there are none."""
    match error:
        case NotAMove(text=text, what="a tile"):
            return f"{quote(str(text))} is not a tile: write it like 6-5"
        case NotAMove(text=text, what="an end"):
            return f"{quote(str(text))} is not an end: use N, E, S or W (L or R in Milo)"
        case NotAMove(text=text):
            return f"{quote(str(text))} is not a move: write a tile and an end, like 6-5 N"
        case RoundOver() | MatchOver():
            return "The game is over"
        case NotInHand(tile=tile):
            return f"{tile} is not in your hand"
        case MustPlay(drawn=drawn) if drawn is not None:
            return f"The tile you drew, {drawn}, fits, so you must play it"
        case MustPlay():
            return "You hold a tile that fits, so you must play it"
        case MustDrawFirst():
            return "You cannot play, so you must draw first"
        case NoDrawAllowed(boneyard_count=count):
            return f"Nobody draws: {count} tiles are left in the boneyard, so you pass"
        case AlreadyDrew():
            return "You have drawn your one tile this turn and it does not fit: pass"
        case NoBoneyard():
            return "There is no boneyard in this game: you cannot play, so pass"
        case NotLedYet():
            return "The round has not been led yet: lead a tile"
        case LeadNamesNoEnd(tile=tile):
            return f"The first tile goes on no end: play just {tile}"
        case WrongLead(lead=LeadRule.ANY_DOUBLE):
            return "The round opens with a double of yours"
        case WrongLead(lead=LeadRule.SIX_SIX):
            return "The first round of a game opens with 6-6"
        case WrongLead(required=required):
            return f"The round opens with your highest double, {_or(required)}"
        case OnlyDrawnTile(drawn=drawn):
            return f"You drew {drawn} this turn: it is the only tile you may play"
        case AmbiguousMove(tile=tile, ends=ends):
            return f"Say where {tile} goes: {_or(ends)}"
        case FitsNowhere(tile=tile):
            return f"{tile} does not fit anywhere now"
        case NotAnEnd(ends=ends):
            return f"This layout's ends are {', '.join(ends)}"
        case WrongEnd(tile=tile, fits_on=fits_on):
            why = _wrong_end(error)
            if why is None:
                return None
            return f"{why}; {tile} fits on {_or(fits_on)}" if fits_on else why
        case EngineOptions():
            return _options_words(error)
    return None


def _wrong_end(error: EngineError) -> str | None:
    match error:
        case DoesNotFit(tile=tile, end=end, need=need):
            return f"{tile} does not fit: {_where(end)} needs a {need}"
        case ArmStartedAlready(end=end):
            return (
                f"Arm {end} is started already: all four arms must be started before any"
                " arm grows"
            )
        case CapsOnly(end=end, need=need):
            return (
                f"Until every arm is capped only doubles may be played: arm {end} needs"
                f" the {need}-{need}"
            )
        case ArmCapped(end=end):
            return f"Arm {end} is capped already: cap another arm"
        case ArmDead(end=end):
            return f"Arm {end} is dead: it had no cap when the boneyard ran down to 2"
    return None


def _options_words(error: EngineError) -> str | None:
    match error:
        case UnknownGame():
            return "There is no such game: choose one from the list"
        case EngineWrongPlayerCount(game=game, allowed=allowed, got=got):
            return f"{game.title} is played by {_or(allowed)} players, not {got}"
        case FixedTarget(game=game, target=target):
            return f"{game.title} is always played to exactly {target}: its target cannot change"
        case TargetOutOfRange(game=game, low=low, high=high, got=got):
            return f"The target for {game.title} must be {low} to {high}, not {quote(str(got))}"
        case OptionNotOffered(game=game, option=option, offered_by=owners):
            what = {"keep_last_two": "Keep last two", "match_games": "Match length"}[option]
            return f"{what} is an option of {_or(g.title for g in owners)}, not of {game.title}"
        case MatchGamesOutOfRange(low=low, high=high, got=got):
            return f"A match is {low} to {high} games won, not {quote(str(got))}"
        case BadOptionType(field=field, expected=expected, got=got):
            option = field.replace("_", " ").capitalize()
            return f"{option} must be {expected}, not {quote(str(got))}"
    return None


DRAW_ENDED_ROUND = "You drew, and then nobody could play: the round is over (see the table)."


def you_played(move: Move) -> str:
    return f"You played {move}."


def you_drew(tile: Tile, legal: Iterable[Move]) -> str:
    """What a member drew, privately, and what they may do next (R-CR-5, R-MG-5)."""
    moves = set(legal)
    if PASS in moves:
        return f"You drew {tile}. It does not fit, so pass."
    if DRAW in moves:
        return f"You drew {tile}. It does not fit: draw again."
    return f"You drew {tile}. It fits: play it."


BUTTON_GONE = "That button is no longer valid: use /domino status to see the table now."
NOT_YOUR_HAND = "Those buttons are someone else's: use /domino hand to see yours."
APOLOGY = (
    "Something went wrong on my side, and it may not have been done."
    " Use /domino status to see the table as it is stored, then try again."
)
NOT_A_CHOICE = "That is not one of the choices offered: pick one from the list."
STARTING = "The bot is starting up: try again in a moment."
MOVED_ON_HAND = "The table has moved on since those buttons were drawn. Here is your hand now."
GAME_BEGINS = "The game begins."
NEEDED = "View Channel, Send Messages, Embed Links and Attach Files"


def your_turn(user_id: int) -> str:
    return f"<@{user_id}>, your turn."


def table_closed(title: str) -> str:
    return f"The {title} table was closed."


def cannot_post(title: str) -> str:
    return (
        f"I cannot post the {title} table here: I need {NEEDED}. "
        "The game is saved; use /domino status once that is fixed."
    )


def not_taken(title: str, status: int) -> str:
    return (
        f"Discord did not take my last {title} message ({status}). "
        "Nothing is lost: I will try again, and /domino status posts the table again."
    )


TABLE_OPEN = "Your table is open: others press Join, or Add computer; then press Start."
POSTED_AGAIN = "The table is posted again below."
DONE = {
    "join": "You joined the table.",
    "leave": "You left the table.",
    "start": "The game has started.",
    "cancel": "The table is closed.",
}
"""What a member is told when their lobby command stood, by the command's kind."""
MANAGE_SERVER_ONLY = "Only members with Manage Server can change the settings."
GAME_AND_TARGET = "Give both a game and a target to set a default target."


def settings_now(settings: GuildSettings) -> str:
    defaults = (
        ", ".join(f"{find_variant(g).title} {t}" for g, t in settings.default_targets.items())
        or "the rules' own"
    )
    threads = "on" if settings.use_threads else "off"
    return (
        f"Turn timer: {settings.turn_timer_seconds} s · Default targets: {defaults} · "
        f"Threads: {threads}"
    )


# -- pictures: headers and alt text --

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description: the alt text says the essentials
first (whose turn, the open ends) and its tile-by-tile detail is cut to fit."""
_PRESS = {Kind.DRAW: "Draw", Kind.PASS: "Pass"}
"""The button a seat that cannot play presses, as its label reads."""
_DO = {Kind.DRAW: "draw", Kind.PASS: "pass"}


def table_text(view: PublicView, names: list[str]) -> TableText:
    """The table picture's words: game, round, target; scores (and games won in a
    match); hand sizes, boneyard (and the open-end total); whose turn. Names in a list
    are cut so that four long ones still fit; the player to move gets a wider limit."""
    short = [fit_name(name) for name in names]
    sides = _side_names(view, short)
    first = f"{view.variant.title} · round {view.round_number}"
    if _in_match(view):
        first += f" of game {view.game_number}"
    first += f" · to {view.target}"
    scores = zip(sides, view.scores, strict=True)
    lines = [first, "Scores: " + " · ".join(f"{n} {s}" for n, s in scores)]
    if _in_match(view):
        won = zip(sides, view.games_won, strict=True)
        needed = view.options.match_games
        lines.append(f"Games won (first to {needed}): " + " · ".join(f"{n} {w}" for n, w in won))
    hands = ", ".join(f"{n} {k}" for n, k in zip(short, view.hand_sizes, strict=True))
    counts = f"Tiles in hand: {hands} · Boneyard {view.boneyard_count}"
    if view.open_sum is not None:
        counts += f" · Open ends total {view.open_sum}"
    lines.append(counts)
    mover = fit_name(names[view.turn], wide=True)
    lines.append(f"To play: {mover}" if view.outcome is None else "Round over")
    return TableText(tuple(lines), before_lead="Waiting for the lead.", dead="dead")


def hand_text(view: SeatView, names: list[str]) -> HandText:
    """The hand picture's words: whose hand, and what the seat is to do now."""
    public = view.public
    fits = placements(view)
    if public.outcome is not None:
        status = "The round is over"
    elif public.turn != view.seat:
        status = f"Waiting for {names[public.turn]}"
    elif fits:
        status = f"Your turn: {len(fits)} of your tiles fit (green)"
    else:
        status = f"Your turn: nothing fits, press {_PRESS[view.legal[0].kind]}"
    return HandText(f"{names[view.seat]}'s hand · {len(view.hand)} tiles", status)


def leaderboard_text(title: str) -> LeaderboardText:
    return LeaderboardText(title, rank="#", player="Player", score="Score", games="Games")


def describe_table(view: PublicView, names: list[str]) -> str:
    """The table picture in words, for screen readers: the game and whose turn, each
    open end's name and number (what a move must match), the last tile, scores and
    counts, then every tile, arm by arm (or along the line)."""
    sides = _side_names(view, names)
    game = f" of game {view.game_number}" if _in_match(view) else ""
    title = f"{view.variant.title}, round {view.round_number}{game}, to {view.target}."
    scores = zip(sides, view.scores, strict=True)
    standing = "Scores: " + ", ".join(f"{n} {s}" for n, s in scores) + "."
    if _in_match(view):
        won = ", ".join(f"{n} {w}" for n, w in zip(sides, view.games_won, strict=True))
        standing += f" Games won, first to {view.options.match_games}: {won}."
    turn = f"{names[view.turn]} to play." if view.outcome is None else "The round is over."
    hands = (
        "Tiles in hand: "
        + ", ".join(f"{n} {k}" for n, k in zip(names, view.hand_sizes, strict=True))
        + f". Boneyard {view.boneyard_count}."
    )
    layout = view.layout
    if layout is None:
        return " ".join([title, "No tile played yet.", turn, standing, hands])[:ALT_LIMIT]
    ends = "Open ends: " + ", ".join(f"{e} {v}" for e, v in view.open_ends.items()) + "."
    dead = [] if isinstance(layout, LineLayout) else [a.name for a in layout.arms if a.dead]
    if dead:
        ends += f" Dead: {', '.join(dead)}."
    if view.open_sum is not None:
        ends += f" Open ends total {view.open_sum}."
    played = ""
    last = next(((s, m) for s, m in reversed(view.history) if m.tile is not None), None)
    if last is not None:
        seat, move = last
        where = f" on {move.end_name}" if move.end_name else " as the lead"
        played = f"Last played: {move.tile}{where} by {names[seat]}."
    summary = " ".join(part for part in [title, turn, ends, played, standing, hands] if part)
    return (summary + " " + _layout_words(layout))[:ALT_LIMIT].rstrip()


def describe_hand(view: SeatView) -> str:
    """The seat's own hand in words (sent only to that player), in the picture's order,
    with the ends each playable tile fits, as its buttons will name them."""
    hand = hand_order(view.hand)
    text = f"Your hand, {len(hand)} tiles: {', '.join(str(tile) for tile in hand)}."
    fits = placements(view)
    if fits:
        where = [f"{tile} on {' or '.join(ends)}" if ends else str(tile)
                 for tile, ends in fits.items()]  # fmt: skip
        text += f" Playable now: {', '.join(where)}."
    elif view.legal:
        text += f" Nothing fits: {_DO[view.legal[0].kind]}."
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
        return "Line from L to R: " + ", ".join(str(t.tile) for t in layout.tiles) + "."
    arms = []
    for arm in layout.arms:
        chain = ", ".join(str(t.tile) for t in arm.tiles) or "empty"
        cap = _cap(arm)
        capped = f"Arm {arm.name}" if cap is None else f"Arm {arm.name}, capped with {cap}"
        arms.append(f"{capped}: {chain}")
    return f"Spinner {layout.spinner}. " + ". ".join(arms) + "."


def _cap(arm: Arm) -> Tile | None:
    """The double that capped a Maltese Cross arm (R-MC-3): the first double on it, as
    the tile that started the arm matched the spinner, whose only double is the spinner."""
    if not arm.capped:
        return None
    return next(placed.tile for placed in arm.tiles if placed.tile.is_double)
