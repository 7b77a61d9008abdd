"""Embeds and texts the bot posts. Formatting only: every rule decision (legal moves,
points and why) comes from the engine, whose explanations name seats as {0}, {1} …"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine import Kind, MatchOutcome, RoundOutcome
from bot.events import Away, Back, Event, Moved, TimedOut
from bot.snapshot import TableSnapshot
from bot.table import Status
from cogs.wording import plain

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
        " & ".join(names_[seat] for seat in seats)
        for seats in table.variant.sides_of(len(names_))
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
    embed = discord.Embed(
        title=f"{table.title} — table open",
        description=f"Host: <@{table.host_id}> · Play {options_text(table)} · {counts} players",
        colour=COLOUR,
    )
    seats = [f"{i + 1}. {shown}" for i, shown in enumerate(names(table))]
    free = [f"{i + 1}. (free)" for i in range(len(table.seats), table.max_players)]
    embed.add_field(name="Seats", value="\n".join(seats + free), inline=False)
    if table.variant.teams:
        embed.add_field(name="Partners", value=TEAM_NOTE, inline=False)
    if table.status is Status.LOBBY:
        embed.set_footer(text="Join, or Add computer; the host presses Start.")
    else:
        embed.set_footer(text=f"This table is {table.status.value}.")
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
        embed.description = f"**{who}** to play{note}."
    lines = []
    for seat, chair in enumerate(table.seats):
        marker = "▶ " if seat == turn else ""
        lines.append(f"{marker}{plain(chair.name)}: {view.hand_sizes[seat]} tiles")
    embed.add_field(name="Hands", value="\n".join(lines), inline=True)
    scores = [
        f"{name}: {score}" for name, score in zip(side_names(table), view.scores, strict=True)
    ]
    embed.add_field(
        name=f"Scores (to {table.options.target})", value="\n".join(scores), inline=True
    )
    extra = [f"Boneyard: {view.boneyard_count}"]
    if view.open_sum is not None:
        extra.append(f"Open ends total: {view.open_sum}")
    if table.options.match_games > 1:
        won = ", ".join(f"{n} {w}" for n, w in zip(side_names(table), view.games_won, strict=True))
        extra.append(f"Games won: {won}")
    embed.add_field(name="TableSnapshot", value="\n".join(extra), inline=True)
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
    embed.set_footer(text="Stats and ratings are saved: /domino leaderboard, /domino stats")
    return embed


SEAT_NOTES = {
    TimedOut: "{}'s time ran out: the computer plays for them.",
    Away: "{} is away: the computer plays their seat until they come back (/domino hand).",
    Back: "{} is back.",
}


def seat_note(table: TableSnapshot, event: TimedOut | Away | Back) -> str:
    return SEAT_NOTES[type(event)].format(plain(table.seats[event.seat].name))
