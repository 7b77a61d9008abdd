"""A replay's words: the line over each move, each round's end card, the result, and
the whole replay's alt text within Discord's limit on an attachment's description."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine import Kind, Move
from bot.engine.views import PublicView
from rendering.replay import Replay, ReplayText
from rendering.table import fit_name
from words import i18n
from words.coaching import Marked, replay_note
from words.common import and_list, end_of, game_title, sentence, to_target
from words.i18n import _, ngettext, number
from words.pictures import ALT_LIMIT, in_match, listed, table_text, view_side_names
from words.rounds import round_words


def replay_text(names: list[str], marked: Mapping[int, Marked] | None = None) -> ReplayText:
    """The replay's words: each move's frame is the table picture under a line saying
    the move and its number; each round ends on a card of the revealed hands under who
    won it, how and the points; the last card gives the result. A move the coach
    ``marked`` (by its index in the record's actions: ``coaching.marked_moves``) has
    its grade and the better move on its line. (Drawn in a worker thread, they are read
    in the language of the code that asked for the replay.)"""
    short = [fit_name(name) for name in names]  # where several names share a line
    alone = [fit_name(name, wide=True) for name in names]  # where one name has the line

    def move(view: PublicView, number: int, total: int) -> str:
        seat, made = view.history[-1]
        line = _("Move {number} of {total}: {move}").format(
            number=i18n.number(number),
            total=i18n.number(total),
            move=_replay_move(alone[seat], made),
        )
        judged = (marked or {}).get(number - 1)
        if judged is None:
            return line
        return _("{line} — {note}").format(line=line, note=replay_note(judged.move))

    def round_over(view: PublicView) -> tuple[str, ...]:
        outcome = view.outcome
        assert outcome is not None
        sides = view_side_names(view, short)
        if in_match(view):
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
        winner = view.game_winner
        if winner is not None and in_match(view):
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
        sides = view_side_names(view, short)
        order = sorted(range(len(sides)), key=lambda side: -outcome.scores[side])
        scores = " · ".join(f"{sides[side]} {number(outcome.scores[side])}" for side in order)
        if not in_match(view):
            return (
                _("{name} wins the game").format(name=view_side_names(view, alone)[outcome.winner]),
                _("Final scores: {scores}").format(scores=scores),
            )
        won = listed(zip(sides, outcome.games_won, strict=True), " · ")
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


def describe_replay(
    replay: Replay,
    names: list[str],
    part: int = 0,
    marked: Mapping[int, Marked] | None = None,
) -> str:
    """The replay's alt text (for file ``part`` of a split replay): the game and its
    seats, the result, then every round with who won it and the points, then the moves
    of the file the coach ``marked`` (as their frames say them). Within Discord's 1,024
    characters, as much of that as fits: each round, then the rounds each side won by
    number (game by game), then who won each game, each with the names cut to 12
    characters after the seats are listed if that makes it fit; the first of these
    that leaves room for every marked move, else the first that fits with as many as
    fit."""
    rounds = replay.rounds
    first = rounds[0] if rounds else replay.final
    if first is None:
        return _("Replay of a game with no move played.")
    seats = and_list(names)
    head = _("Replay of {game}, {seats}, {target}").format(
        game=game_title(first.variant),
        seats=seats,
        target=to_target(first.target, first.variant.exact_target),
    )
    if in_match(first):
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
    shown = replay.parts[part].actions if replay.parts else range(replay.actions)
    notes = sorted((action, m) for action, m in (marked or {}).items() if action in shown)
    text, fitting = "", ""
    for detail in (_replay_rounds, _replay_rounds_won, _replay_games_won):
        for seat_names in (names, short):
            sides = view_side_names(first, seat_names)
            text = f"{head} {_replay_result(replay, sides)} {detail(rounds, sides)}"
            if len(text) > ALT_LIMIT:
                continue
            said, every = _replay_marked(text, notes, seat_names)
            if every:
                return said
            fitting = fitting or said
    return fitting or text[: ALT_LIMIT - 1] + "…"


def _replay_marked(
    text: str, notes: Sequence[tuple[int, Marked]], names: list[str]
) -> tuple[str, bool]:
    """``text`` and after it the marked moves, as many as fit the alt text's limit in
    order; whether every one did."""
    said: list[str] = []
    for action, (seat, move) in notes:
        line = _("move {number}, {move}: {note}").format(
            number=number(action + 1),
            move=_replay_move(names[seat], move.played),
            note=replay_note(move),
        )
        longer = _("The coach marked {moves}.").format(moves="; ".join([*said, line]))
        if len(f"{text} {longer}") > ALT_LIMIT:
            break
        said.append(line)
    if not said:
        return text, not notes
    marked = _("The coach marked {moves}.").format(moves="; ".join(said))
    return f"{text} {marked}", len(said) == len(notes)


def _replay_move(name: str, move: Move) -> str:
    if move.kind is Kind.DRAW:
        return _("{name} draws").format(name=name)
    if move.tile is None:
        return _("{name} passes").format(name=name)
    if move.end_name is None:
        return _("{name} leads {tile}").format(name=name, tile=move.tile)
    return _("{name} plays {tile} on {end}").format(name=name, tile=move.tile, end=end_of(move))


def _replay_result(replay: Replay, sides: list[str]) -> str:
    final = replay.final
    if final is None or final.match_outcome is None:
        return _("The record stops before the game's end.")
    outcome = final.match_outcome
    order = sorted(range(len(sides)), key=lambda side: -outcome.scores[side])
    scores = listed(((sides[side], outcome.scores[side]) for side in order), ", ")
    if in_match(final):
        won = listed(zip(sides, outcome.games_won, strict=True), ", ")
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
        if in_match(view):
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
    winners = [sides[side] for view in rounds if (side := view.game_winner) is not None]
    if not winners:
        return ""
    return _("Games won, in order: {games}.").format(games=", ".join(winners))
