"""Every word the bot says to a player, in one place: refusals, confirmations and
apologies; the lobby, table, round and game-over messages; button labels; leaderboards
and stats; the rules of each game; the pictures' headers and alt text. The service and
the engine speak in data (``bot.refusals``, ``bot.events``, the engine's errors and
views); this module alone turns them into words, so anything can be reworded (or
translated) here. (Slash commands' names and descriptions are declared with the
commands, for Discord.)

Names and any text a user typed are escaped or shortened before they are quoted: a
display name such as ``@everyone`` must read as text, never ping, and a 2,000-character
"tile" must not push an answer past Discord's limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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
    Drawing,
    EngineError,
    FitsNowhere,
    FixedTarget,
    Kind,
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
    RoundOutcome,
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
from bot.engine.views import Arm, Layout, LineLayout, PublicView, SeatView
from bot.events import Away, Back, Event, Moved, TimedOut
from bot.refusals import (
    AlreadyClosed,
    AlreadySeated,
    ChannelTaken,
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
    SeatedElsewhere,
    SeatedOnly,
    StaleVersion,
    StillSeated,
    TableClosed,
    TableError,
    TableFull,
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
            return "That belongs to another server."
        case NoSuchGame(game_id):
            return (
                f"There is no game {quote(game_id)}: its id is at the foot of the game's last"
                " message, and in /domino history."
            )
        case StillSeated(channel_id):
            return (
                f"You sit at a table in <#{channel_id}>: finish or leave it first, then ask"
                " again (an open table keeps your seat)."
            )
        case NotInThatGame():
            return "Only the players of that game can ask for a rematch."
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
                f"Arm {end} is started already: all four arms must be started before any arm grows"
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


def time_running_out(user_id: int, deadline: float) -> str:
    """The one reminder of a member's turn, when a quarter of their time is left."""
    return f"<@{user_id}>, your turn runs out <t:{int(deadline)}:R>."


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


# -- hands, buttons and choices --

NO_HAND = "You have no hand here: the game has not started, or you are not playing."
PICK_A_TILE = "Your turn: pick a tile."
WHICH_LEVEL = "Which level?"
LABELS = {
    "join": "Join",
    "leave": "Leave",
    "computer": "Add computer",
    "start": "Start",
    "cancel": "Cancel",
    "hand": "My hand",
    "draw": "Draw",
    "pass": "Pass",
    "rules": "Rules",
    "easy": "Easy",
    "normal": "Normal",
    "hard": "Hard",
    "expert": "Expert",
    "rematch": "Rematch",
    "forget": "Delete my data",
}
"""Button labels, by the action (or computer level) they stand for."""


def is_to_play(name: str) -> str:
    return f"{plain(name)} is to play."


def where_goes(tile: Tile) -> str:
    return f"Where does {tile} go?"


def choose_end_label(tile: str) -> str:
    """A hand's button for a tile that fits several ends (a second click asks which)."""
    return f"{tile} …"


def tile_choice(tile: str, fits: bool) -> str:
    return f"{tile} (fits)" if fits else tile


def thread_name(title: str) -> str:
    return f"{title} table"


# -- leaderboards and stats --


def counted(number: int, one: str, many: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{number} {one if number == 1 else many}"


def board_title(game_title: str, *, everywhere: bool) -> str:
    return f"{game_title} — {'every server' if everywhere else 'this server'}"


def board_empty(title: str, order: str, rated_after: int) -> str:
    if order == "rating":
        return (
            f"{title}: nobody has finished {rated_after} games yet"
            f" (a rating shows after {rated_after})."
        )
    return f"{title}: nobody has finished a game yet."


def board_past_end(title: str, page: int, pages: int) -> str:
    only = "is only 1 page" if pages == 1 else f"are only {pages} pages"
    return f"{title}: page {page} is past the end; there {only}."


def board_value(entry: LeaderboardEntry, order: str) -> str:
    if order == "wins":
        return counted(entry.wins, "win", "wins")
    if order == "points":
        return counted(entry.points, "point", "points")
    return f"{entry.rating:.1f}"


def board_line(rank: int, name: str, value: str, games: int) -> str:
    return f"{rank}. {plain(name)} — {value} ({counted(games, 'game', 'games')})"


def board_you(rank: int, value: str, games: int) -> str:
    return f"You: #{rank} — {value} ({counted(games, 'game', 'games')})"


def unknown_player(user_id: int) -> str:
    return f"Player …{str(user_id)[-4:]}"


def no_stats(name: str) -> str:
    return f"{name} has not finished a game here yet."


def stats_embed(name: str, rows: Sequence[Stats]) -> discord.Embed:
    embed = discord.Embed(title=f"{name} — this server", colour=COLOUR)
    for row in rows:
        embed.add_field(
            name=find_variant(row.game).title,
            value=(
                f"{counted(row.games, 'game', 'games')}, {counted(row.wins, 'win', 'wins')}\n"
                f"{counted(row.rounds_won, 'round won', 'rounds won')},"
                f" {counted(row.points, 'point', 'points')}\n"
                f"{counted(row.dominoes, 'domino', 'dominoes')},"
                f" {counted(row.blocked_wins, 'blocked win', 'blocked wins')}"
            ),
        )
    return embed


# -- the table's messages: lobby, table, round and game over --

COLOUR = discord.Colour.from_rgb(46, 125, 50)
TEAM_NOTE = "Partners sit across: seats 1 & 3 play against seats 2 & 4."


def names(table: TableSnapshot) -> list[str]:
    """The seats' names as text for messages: escaped, so none pings or formats."""
    return [plain(seat.name) for seat in table.seats]


def side_names(table: TableSnapshot) -> list[str]:
    """The names of the scoring sides: players, or partnerships (the engine says which
    seats make each side)."""
    names_ = names(table)
    return [
        " & ".join(names_[seat] for seat in seats) for seats in table.variant.sides_of(len(names_))
    ]


def options_text(table: TableSnapshot) -> str:
    options = table.options
    parts = [f"to {options.target}" + (" exactly" if table.variant.exact_target else "")]
    if options.keep_last_two:
        parts.append("last two boneyard tiles kept")
    if options.match_games > 1:
        parts.append(f"match: first to win {options.match_games} games")
    return ", ".join(parts)


def lobby_embed(table: TableSnapshot) -> discord.Embed:
    counts = " or ".join(str(n) for n in table.variant.player_counts)
    state = {
        Status.LOBBY: "table open",
        Status.PLAYING: "game started",
        Status.FINISHED: "game over",
        Status.CANCELLED: "table closed",
    }[table.status]
    embed = discord.Embed(
        title=f"{table.title} — {state}",
        description=f"Host: <@{table.host_id}> · Play {options_text(table)} · {counts} players",
        colour=COLOUR,
    )
    seats = [f"{i + 1}. {shown}" for i, shown in enumerate(names(table))]
    free = [f"{i + 1}. (free)" for i in range(len(table.seats), table.max_players)]
    embed.add_field(name="Seats", value="\n".join(seats + free), inline=False)
    if table.variant.teams:
        embed.add_field(name="Partners", value=TEAM_NOTE, inline=False)
    if table.hints:
        embed.add_field(name="Hints", value=HINTS_ON, inline=False)
    if table.invited:
        waiting = ", ".join(f"<@{user}>" for user in table.invited)
        embed.add_field(name="Rematch", value=f"Seats kept for {waiting}: press Rematch or Join.")
    if table.status is Status.LOBBY:
        embed.set_footer(text="Join, or Add computer; the host presses Start.")
    return embed


def table_embed(table: TableSnapshot) -> discord.Embed:
    """Whose turn, tiles per seat, boneyard, scores."""
    view = table.view
    assert view is not None
    title = f"{table.title} — round {view.round_number}"
    if table.options.match_games > 1:
        title += f" of game {view.game_number}"
    embed = discord.Embed(title=title, colour=COLOUR)
    turn = table.turn
    if turn is not None:
        chair = table.seats[turn]
        who = plain(chair.name) if chair.is_computer else f"<@{chair.user_id}>"
        note = " (away: the computer plays)" if chair.away else ""
        clock = ""
        if not chair.played_by_computer and table.deadline is not None:
            clock = f" Time runs out <t:{int(table.deadline)}:R>."
        embed.description = f"**{who}** to play{note}.{clock}"
    lines = []
    for seat, chair in enumerate(table.seats):
        marker = "▶ " if seat == turn else ""
        tiles = counted(view.hand_sizes[seat], "tile", "tiles")
        lines.append(f"{marker}{plain(chair.name)}: {tiles}")
    embed.add_field(name="Hands", value="\n".join(lines), inline=True)
    scores = [
        f"{name}: {score}" for name, score in zip(side_names(table), view.scores, strict=True)
    ]
    embed.add_field(
        name=f"Scores (to {table.options.target})", value="\n".join(scores), inline=True
    )
    extra = []
    if table.variant.drawing is not Drawing.NO_BONEYARD:
        extra.append(f"Boneyard: {view.boneyard_count}")
    if view.open_sum is not None:
        extra.append(f"Open ends total: {view.open_sum}")
    if table.options.match_games > 1:
        won = ", ".join(f"{n} {w}" for n, w in zip(side_names(table), view.games_won, strict=True))
        extra.append(f"Games won: {won}")
    series = table.series_by_seat()
    if series is not None:
        extra.append("Series so far: " + ", ".join(
            f"{plain(seat.name)} {won}" for seat, won in zip(table.seats, series, strict=True)
        ))  # fmt: skip
    if table.hints:
        extra.append(HINTS_ON)
    if extra:
        embed.add_field(name="Table", value="\n".join(extra), inline=True)
    return embed


def event_lines(table: TableSnapshot, events: Sequence[Event]) -> list[str]:
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


def drew_then(table: TableSnapshot, draws: int, event: Moved) -> str:
    """One turn of draws ending in ``event`` (a play of the last tile drawn, or a pass)."""
    who = plain(table.seats[event.seat].name)
    drew = "draws" if draws == 1 else f"draws {draws} tiles"
    move = event.move
    if move.tile is None:
        text = f"{who} {drew} and passes."
    elif draws == 1:
        text = f"{who} draws {move.tile} and plays it on {move.end_name}."
    else:
        text = f"{who} {drew} and plays the last, {move.tile}, on {move.end_name}."
    for score in event.scores:
        text += " " + score.describe(names(table))
    return text


def move_line(table: TableSnapshot, event: Moved) -> str:
    """``Ann plays 6-5 on N.`` and any points it scored."""
    who = plain(table.seats[event.seat].name)
    move = event.move
    if move.tile is None:
        text = f"{who} {'draws' if move.kind is Kind.DRAW else 'passes'}."
    else:
        end = move.end_name
        text = f"{who} plays {move.tile}" + (f" on {end}." if end else " to lead.")
    for score in event.scores:
        # The engine's reasons name seats ({0}..{3}), in Milo too: fill them with seat names.
        text += " " + score.describe(names(table))
    return text


def round_embed(
    table: TableSnapshot, outcome: RoundOutcome, totals: Sequence[int] | None
) -> discord.Embed:
    """End of round: hands revealed, points with the rule that gave them, and the
    running totals when known (``totals``: each side's total after the round)."""
    embed = discord.Embed(
        title="Round over", description=outcome.describe(names(table)), colour=COLOUR
    )
    hands = []
    for seat, chair in enumerate(table.seats):
        tiles = " ".join(str(t) for t in outcome.hands[seat]) or "—"
        hands.append(f"{plain(chair.name)}: {tiles} (count {outcome.counts[seat]})")
    embed.add_field(name="Hands", value="\n".join(hands), inline=False)
    lines = []
    for side, (name, gained) in enumerate(zip(side_names(table), outcome.points, strict=True)):
        lines.append(f"{name}: +{gained}" + (f" → {totals[side]}" if totals else ""))
    embed.add_field(name="Scores", value="\n".join(lines), inline=False)
    return embed


def game_over_embed(table: TableSnapshot, outcome: MatchOutcome) -> discord.Embed:
    names = side_names(table)
    embed = discord.Embed(
        title=f"Winner: {names[outcome.winner]}",
        colour=discord.Colour.gold(),
    )
    order = sorted(range(len(names)), key=lambda side: -outcome.scores[side])
    lines = [f"{rank}. {names[side]}: {outcome.scores[side]}" for rank, side in enumerate(order, 1)]
    embed.add_field(name="Final standings", value="\n".join(lines), inline=False)
    if table.options.match_games > 1:
        won = ", ".join(f"{names[s]} {outcome.games_won[s]}" for s in range(len(names)))
        embed.add_field(name="Games won", value=won, inline=False)
    embed.set_footer(
        text=f"Game {table.game_id} · stats and ratings are saved: /domino leaderboard,"
        " /domino stats"
    )
    return embed


SEAT_NOTES = {
    TimedOut: "{}'s time ran out: the computer plays for them.",
    Away: "{} is away: the computer plays their seat until they come back (/domino hand).",
    Back: "{} is back.",
}


def seat_note(table: TableSnapshot, event: TimedOut | Away | Back) -> str:
    return SEAT_NOTES[type(event)].format(plain(table.seats[event.seat].name))


# -- the rules of each game (/domino rules) --

COMMON = (
    "**Every game** — one double-six set of 28 tiles; a tile is written high end first "
    "(`6-5`, worth 11) (R-ALL-1). Turns go round in seat order (R-ALL-2). Deals are random "
    "yet replayable from their seed, and a deal given by hand must keep the game's rules "
    "(R-ALL-3). If you hold a tile that fits you must play it; where it goes is your choice "
    "(R-ALL-4). A round ends when someone plays their last tile, or when nobody can play or "
    "draw (blocked) (R-ALL-5). Your hand is only ever shown to you, the boneyard only as a "
    "count (R-ALL-6). Your count is the pips left in your hand (R-ALL-7); in a blocked round, "
    "a tie for the lowest count scores nothing (R-ALL-8)."
)

SPINNER = (
    "**The layout** — the first tile is a double, the spinner, with four arms: N, E, S, W "
    "(R-SP-1). An arm starts with a tile matching the spinner; its open end is then the far "
    "number of its last tile, and a double on an arm lies crosswise (R-SP-2). A move names "
    "the tile and the arm (`6-5 N`); the bot fills in the arm when there is only one "
    "(R-SP-3)."
)

RULES: dict[str, str] = {
    "cross": (
        "**Cross** (2–4 players; 7 tiles each with 2 players, 5 with 3 or 4; the rest is the "
        "boneyard) (R-CR-1)\n"
        "• The highest double leads as the spinner; if nobody has a double, the tiles are "
        "dealt again (R-CR-2).\n"
        "• First build the cross: each play must start an empty arm with a tile matching the "
        "spinner, until all four are started (R-CR-3). Then play on any arm's open end (R-CR-4).\n"
        "• Can't play? Draw one tile. If it fits you must play it at once, and it is the only "
        "tile you may play that turn; otherwise pass. The last two boneyard tiles are never "
        "drawn (R-CR-5).\n"
        "• Play out: score everyone else's count. Blocked: the lowest count scores the others' "
        "total minus their own (13 vs 30 → 17) (R-CR-6). First to 100 wins (R-CR-7)."
    ),
    "maltese-cross": (
        "**Maltese Cross** — Cross with a second phase (2–4 players, hands and lead as Cross) "
        "(R-MC-1)\n"
        "• Start all four arms first (R-MC-2).\n"
        "• Then cap every arm with the double of its open number, laid crosswise; only such "
        "doubles may be played until all four are capped, and you draw as in Cross (R-MC-3). "
        "Then open play on the four arm ends (R-MC-4).\n"
        "• When the boneyard is down to two with the cross unfinished, every arm without a cap "
        "dies at once. The draw that took it there is still one turn: the drawn tile is played "
        "if it fits a live end, otherwise you pass, and no other tile may be played that turn. "
        "If no arm was capped, the round is blocked there and then (R-MC-5).\n"
        "• Scoring as Cross (18 vs 40 → 22); first to 100 by default, or 60, or your choice "
        "(R-MC-6)."
    ),
    "merry-go-round": (
        "**Merry-Go-Round** (2–4 players, 7 tiles each; the rest is the boneyard) (R-MG-1)\n"
        "• The holder of the highest double leads any double: the spinner; if nobody has a "
        "double, the tiles are dealt again (R-MG-2). All four sides must be played before "
        "anything else (R-MG-3).\n"
        "• After every tile, add up the open ends (a double at an end counts both halves; the "
        "spinner counts both halves until two arms start). A multiple of 5 scores a point per 5 "
        "(R-MG-4).\n"
        "• Can't play? Draw until you can, or the boneyard is empty (option: keep the last two) "
        "(R-MG-5).\n"
        "• Round winner: the others' count minus yours, to the nearest 5, divided by 5 "
        "(23 → 5, 22 → 4) (R-MG-6). The game is to exactly 61: a score that goes past is not "
        "added (bust); reaching 61 ends the game at once (R-MG-7)."
    ),
    "milo": (
        "**Milo** (4 players in two partnerships: seats 1 & 3 against 2 & 4; 7 tiles each, no "
        "boneyard) (R-MI-1)\n"
        "• One line with two ends, L and R; doubles lie crosswise and are not spinners (R-MI-2).\n"
        "• The first round of a game is led with 6-6; then the lead passes to the next seat, who "
        "may lead any tile (R-MI-3). Can't play? Pass; four passes in a row block the round "
        "(R-MI-4).\n"
        "• Play out: 1 point for your team, 1 more if both ends then show the same number. "
        "Blocked: the team with the lower count scores 1; a tie scores nothing (R-MI-5).\n"
        "• First team to 5 wins (R-MI-6). A match is first to win N games; each new game is led "
        "by the seat after the one that led the last game's first round, with any tile "
        "(R-MI-7)."
    ),
}

SPINNER_GAMES = frozenset({"cross", "maltese-cross", "merry-go-round"})
"""The games laid out around a spinner (R-SP); Milo is a line."""


def rules_for(game: str) -> str:
    layout = f"\n\n{SPINNER}" if game in SPINNER_GAMES else ""
    return f"{RULES[game]}{layout}\n\n{COMMON}"


# -- history, replays, rematches, hints and privacy --

HINTS_ON = "Hints are on: this game is not rated."


def seat_label(player: Participant) -> str:
    """A seat of a finished game as a picture names it: the member's last name, the
    computer's level, or a member who asked to be forgotten."""
    if player.user_id is not None:
        return player.name or unknown_player(player.user_id)
    if player.computer_level is not None:
        return f"Computer ({player.computer_level})"
    return "a former player"


def seat_name(player: Participant) -> str:
    """The same, as message text (escaped)."""
    return plain(seat_label(player))


def history_title(name: str, page: int, pages: int) -> str:
    return f"**{plain(name)}'s games here** — page {page} of {max(pages, 1)}"


def history_line(game: FinishedGame) -> str:
    seats = sorted(game.participants, key=lambda p: p.seat)
    players = ", ".join(seat_name(p) + (" (won)" if p.won else "") for p in seats)
    variant = find_variant(game.game)
    by_seat = {p.seat: p.final_score for p in seats}
    sides = variant.sides_of(len(seats))
    scores = "–".join(str(by_seat.get(side[0], 0)) for side in sides)
    unrated = " · unrated" if not game.rated else ""
    return (
        f"`{game.id}` · {variant.title} · <t:{int(game.finished_at)}:d> · "
        f"{players} · {scores}{unrated}"
    )


def no_history(name: str) -> str:
    return f"{plain(name)} has not finished a game here yet."


def rematch_opened(title: str) -> str:
    return (
        f"The {title} rematch is open in this channel: the other players press Rematch"
        " (or Join) to take their seats, then the host presses Start."
    )


def replay_posted(game_id: str, part: int, parts: int) -> str:
    which = f" (part {part} of {parts})" if parts > 1 else ""
    return f"Replay of game `{game_id}`{which}."


def privacy(stored: Stored, keep_hours: int) -> str:
    name = f"the name you last played under ({plain(stored.name)})" if stored.name else "no name"
    return (
        "**What this bot stores about you**\n"
        f"• Your totals per game kind, in each server and overall ({stored.stats} rows), your"
        f" openskill rating per game kind ({stored.ratings}), and {name}: kept until you"
        " ask for them to be deleted.\n"
        f"• The finished games you sat at ({stored.games}): the moves, the seats and the"
        " scores, for leaderboards, history and replays; kept for good, and made anonymous"
        " if you ask.\n"
        f"• A table's moves while it is open, and for {keep_hours} hours after it closes.\n"
        "Your hands are never shown to anyone else. /domino forget-me deletes your totals,"
        " ratings and name and takes your id off past games."
    )


FORGET_CONFIRM = (
    "This deletes your totals, ratings and name in every server and takes your id off the"
    " games you played (they stay, anonymous). It cannot be undone. Press the button to go on."
)


def forgotten(gone: Forgotten) -> str:
    return (
        f"Done: {gone.stats} rows of totals, {gone.ratings} ratings and your name are deleted;"
        f" {gone.seats} past seats no longer name you."
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
    counts = f"Tiles in hand: {hands}"
    if view.variant.drawing is not Drawing.NO_BONEYARD:
        counts += f" · Boneyard {view.boneyard_count}"
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
    return HandText(
        f"{names[view.seat]}'s hand · {counted(len(view.hand), 'tile', 'tiles')}", status
    )


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
        + "."
    )
    if view.variant.drawing is not Drawing.NO_BONEYARD:
        hands += f" Boneyard {view.boneyard_count}."
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


# -- replays --


def replay_text(names: list[str]) -> ReplayText:
    """The replay's words: each move's frame is the table picture under a line saying
    the move and its number; each round ends on a card of the revealed hands under who
    won it, how and the points; the last card gives the result."""
    short = [fit_name(name) for name in names]

    def move(view: PublicView, number: int, total: int) -> str:
        seat, made = view.history[-1]
        return f"Move {number} of {total}: {_replay_move(short[seat], made)}"

    def round_over(view: PublicView) -> tuple[str, ...]:
        outcome = view.outcome
        assert outcome is not None
        sides = _side_names(view, short)
        game = f" of game {view.game_number}" if _in_match(view) else ""
        gained = zip(sides, outcome.points, view.scores, strict=True)
        lines = [
            f"Round {view.round_number}{game} over",
            sentence(outcome.describe(short)),
            "Points: " + " · ".join(f"{n} +{p} → {s}" for n, p, s in gained),
        ]
        winner = _game_winner(view)
        if winner is not None and _in_match(view):
            lines.append(f"{sides[winner]} win game {view.game_number}")
        return tuple(lines)

    def hand(view: PublicView, seat: int) -> str:
        assert view.outcome is not None
        return f"{short[seat]} · count {view.outcome.counts[seat]}"

    def final(view: PublicView) -> tuple[str, ...]:
        outcome = view.match_outcome
        assert outcome is not None
        sides = _side_names(view, short)
        order = sorted(range(len(sides)), key=lambda side: -outcome.scores[side])
        scores = " · ".join(f"{sides[side]} {outcome.scores[side]}" for side in order)
        if not _in_match(view):
            return (f"{sides[outcome.winner]} wins the game", f"Final scores: {scores}")
        won = " · ".join(f"{n} {w}" for n, w in zip(sides, outcome.games_won, strict=True))
        return (
            f"{sides[outcome.winner]} win the match",
            f"Games won: {won}",
            f"Last game's scores: {scores}",
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
        return "Replay of a game with no move played."
    seats = ", ".join(names[:-1]) + f" and {names[-1]}"
    exactly = " exactly" if first.variant.exact_target else ""
    head = f"Replay of {first.variant.title}, {seats}, to {first.target}{exactly}"
    if _in_match(first):
        head += f", first to win {first.options.match_games} games"
    head += f": {counted(replay.actions, 'move', 'moves')}, "
    head += f"{counted(len(rounds), 'round', 'rounds')}."
    if len(replay.parts) > 1:
        shown = replay.parts[part].rounds
        ends = [_round_name(rounds, number) for number in (shown.start, shown.stop - 1)]
        span = f"from {ends[0]} to {ends[1]}" if ends[0] != ends[1] else ends[0]
        head += f" Part {part + 1} of {len(replay.parts)}: {span.lower()}."
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
    if move.tile is None:
        return f"{name} {'draws' if move.kind is Kind.DRAW else 'passes'}"
    if move.end_name is None:
        return f"{name} leads {move.tile}"
    return f"{name} plays {move.tile} on {move.end_name}"


def _game_winner(view: PublicView) -> int | None:
    """The side whose total reached the target with this round (R-CR-7, R-MG-7, R-MI-6):
    only one side scores at a time, so at most one has."""
    return next((side for side, score in enumerate(view.scores) if score >= view.target), None)


def _replay_result(replay: Replay, sides: list[str]) -> str:
    final = replay.final
    if final is None or final.match_outcome is None:
        return "The record stops before the game's end."
    outcome = final.match_outcome
    order = sorted(range(len(sides)), key=lambda side: -outcome.scores[side])
    scores = ", ".join(f"{sides[side]} {outcome.scores[side]}" for side in order)
    if _in_match(final):
        won = ", ".join(f"{n} {w}" for n, w in zip(sides, outcome.games_won, strict=True))
        return f"{sides[outcome.winner]} win the match; games won: {won}; last game: {scores}."
    return f"{sides[outcome.winner]} wins the game; final scores: {scores}."


def _round_name(rounds: Sequence[PublicView], index: int) -> str:
    """``Round 3``, or in a match ``Game 2 round 1``; ``index`` counts from 0 across the
    match (a round past the last finished one: the one the record stops in)."""
    if index < len(rounds):
        view = rounds[index]
        if _in_match(view):
            return f"Game {view.game_number} round {view.round_number}"
    return f"Round {index + 1}"


def _replay_rounds(rounds: Sequence[PublicView], sides: list[str]) -> str:
    """``Round 3: Ann wins, Ann +23.`` for every round (in a match: ``Game 2 round 1: …``)."""
    said = []
    for index, view in enumerate(rounds):
        outcome = view.outcome
        assert outcome is not None
        gains = ", ".join(f"{sides[s]} +{p}" for s, p in enumerate(outcome.points) if p)
        who = "a tie" if outcome.winner is None else f"{sides[outcome.winner]} wins"
        said.append(f"{_round_name(rounds, index)}: {who}, {gains or 'no points'}.")
    return " ".join(said)


def _replay_rounds_won(rounds: Sequence[PublicView], sides: list[str]) -> str:
    """Per game, the rounds each side won (and those tied), by number."""
    games: dict[int, list[PublicView]] = {}
    for view in rounds:
        games.setdefault(view.game_number, []).append(view)
    parts = []
    for game, views in games.items():
        won: dict[int | None, list[str]] = {}
        for number, view in enumerate(views, 1):
            assert view.outcome is not None
            won.setdefault(view.outcome.winner, []).append(str(number))
        listed = [f"{sides[s]} {', '.join(won[s])}" for s in range(len(sides)) if s in won]
        if None in won:
            listed.append(f"tied {', '.join(won[None])}")
        head = f"Game {game} rounds won" if len(games) > 1 else "Rounds won"
        parts.append(f"{head}: {'; '.join(listed)}.")
    return " ".join(parts)


def _replay_games_won(rounds: Sequence[PublicView], sides: list[str]) -> str:
    """Who won each game of a match, in order (R-MI-7)."""
    winners = [sides[side] for view in rounds if (side := _game_winner(view)) is not None]
    return f"Games won, in order: {', '.join(winners)}." if winners else ""
