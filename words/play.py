"""The game as it is played: the table card (whose turn, hands, scores), the channel's
line for each move and seat note, a member's turn called, what a member is told of their
own move and draws, and their hand's choices."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import DRAW, PASS, Drawing, Kind, Move, ScoreEvent, ScoreKind, Tile
from bot.events import Away, Back, Event, Moved, TimeAdded, TimedOut
from bot.snapshot import TableSnapshot
from words import i18n, marks
from words.cards import Card, Field
from words.common import (
    Seated,
    and_list,
    end_of,
    game_title,
    hints_on,
    label,
    move_text,
    names,
    plain,
    seat_names,
    side_names,
    tiles_count,
)
from words.i18n import _, ngettext, number


def game_begins() -> str:
    return _("The game begins.")


def your_turn(user_id: int) -> str:
    return _("{mention}, your turn.").format(mention=marks.current().member(user_id))


def time_running_out(user_id: int, deadline: float, more_time: bool = False) -> str:
    """The one reminder of a member's turn, when a quarter of their time is left; while
    they may take more time (``more_time``), how (the warning WCAG 2.2.1 asks for before
    a time limit that can be extended runs out)."""
    said = _("{mention}, your turn runs out {when}.").format(
        mention=marks.current().member(user_id), when=marks.current().relative_time(deadline)
    )
    if not more_time:
        return said
    if marks.current().slash_commands:  # Discord: the button is under the private hand
        how = _("More time is under {hand}.").format(hand=label("hand"))
    else:
        how = _("{more_time} gives a whole turn more.").format(more_time=label("more_time"))
    return f"{said} {how}"


def more_time_given(deadline: float) -> str:
    """Said privately to a member who took more time."""
    return _("A whole turn more: your turn now runs out {when}.").format(
        when=marks.current().relative_time(deadline)
    )


def table_card(table: TableSnapshot) -> Card:
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
    mark = marks.current()
    description = None
    turn = table.turn
    shown = names(table)
    if turn is not None:
        chair = table.seats[turn]
        who = shown[turn] if chair.user_id is None else mark.member(chair.user_id)
        if chair.away:
            text = _("{player} to play (away: the computer plays).").format(player=mark.bold(who))
        else:
            text = _("{player} to play.").format(player=mark.bold(who))
        if not chair.played_by_computer and table.deadline is not None:
            when = mark.relative_time(table.deadline)
            text += " " + _("Time runs out {when}.").format(when=when)
        description = text
    lines = []
    for seat, name in enumerate(shown):
        marker = "▶ " if seat == turn else ""
        lines.append(f"{marker}{name}: {tiles_count(view.hand_sizes[seat])}")
    fields = [Field(_("Hands"), "\n".join(lines))]
    scores = [
        f"{name}: {number(score)}"
        for name, score in zip(side_names(table), view.scores, strict=True)
    ]
    fields.append(
        Field(
            _("Scores (to {target})").format(target=number(table.options.target)), "\n".join(scores)
        )
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
        fields.append(Field(_("Table"), "\n".join(extra)))
    return Card(title, description, tuple(fields))


def event_lines(table: Seated, events: Sequence[Event]) -> list[str]:
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
        elif isinstance(event, TimedOut | Away | Back | TimeAdded):
            lines.append(seat_note(table, event))
    lines.extend(move_line(table, d) for d in draws)
    return lines


def drew_then(table: Seated, draws: int, event: Moved) -> str:
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
            name=who, tile=move.tile, end=end_of(move)
        )
    else:
        text = ngettext(
            "{name} draws {count} tile and plays the last, {tile}, on {end}.",
            "{name} draws {count} tiles and plays the last, {tile}, on {end}.",
            draws,
        ).format(name=who, count=number(draws), tile=move.tile, end=end_of(move))
    for score in event.scores:
        text += " " + score_words(score, shown)
    return text


def move_line(table: Seated, event: Moved) -> str:
    """``Ann plays 6-5 on N.`` and any points it scored."""
    shown = names(table)
    who = shown[event.seat]
    move = event.move
    if move.kind is Kind.DRAW:
        text = _("{name} draws.").format(name=who)
    elif move.tile is None:
        text = _("{name} passes.").format(name=who)
    elif move.end_name:
        text = _("{name} plays {tile} on {end}.").format(name=who, tile=move.tile, end=end_of(move))
    else:
        text = _("{name} plays {tile} to lead.").format(name=who, tile=move.tile)
    for score in event.scores:
        text += " " + score_words(score, shown)
    return text


def score_words(score: ScoreEvent, names: list[str]) -> str:
    """Points scored (or refused: bust) and the rule that gave them, with each seat's
    name from ``names``: "Ann scores 3: the open ends total 15 (R-MG-4)"."""
    who = and_list(names[seat] for seat in score.seats)
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


def seat_note(table: Seated, event: TimedOut | Away | Back | TimeAdded) -> str:
    who = names(table)[event.seat]
    match event:
        case TimeAdded(left=0):
            return _("{name} takes more time: a whole turn more, their last this game.").format(
                name=who
            )
        case TimeAdded(left=left):
            return ngettext(
                "{name} takes more time: a whole turn more ({count} more allowed this game).",
                "{name} takes more time: a whole turn more ({count} more allowed this game).",
                left,
            ).format(name=who, count=number(left))
        case TimedOut():
            return _("{name}'s time ran out: the computer plays for them.").format(name=who)
        case Away() if not marks.current().slash_commands:
            return _("{name} is away: the computer plays their seat until they come back.").format(
                name=who
            )
        case Away():
            return _(
                "{name} is away: the computer plays their seat until they come back (/domino hand)."
            ).format(name=who)
    return _("{name} is back.").format(name=who)


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


def moved_on_hand() -> str:
    return _("The table has moved on since those buttons were drawn. Here is your hand now.")


def no_hand() -> str:
    return _("You have no hand here: the game has not started, or you are not playing.")


def pick_a_tile() -> str:
    return _("Your turn: pick a tile.")


def which_level() -> str:
    return _("Which level?")


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
