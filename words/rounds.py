"""A round's and a game's end: how the round was scored, with the rule, and the cards
that reveal the hands and name the winner."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import MatchOutcome, Reason, RoundOutcome
from bot.snapshot import TableSnapshot
from words import marks
from words.cards import Card, Field, Tone
from words.common import and_list, names, side_names
from words.i18n import _, ngettext, number


def round_words(outcome: RoundOutcome, names: list[str]) -> str:
    """How the round was scored, with the rule, and each seat's name from ``names``:
    "Ann wins the round: dominoed; the other hands hold 30 (R-CR-6)"."""
    rule = f"({outcome.rule})"
    if outcome.team_counts is not None:
        held = ", ".join(
            _("{team} hold {count}").format(
                team=and_list(names[seat] for seat in seats), count=number(count)
            )
            for seats, count in zip(outcome.sides, outcome.team_counts, strict=True)
        )
        if outcome.winner is None:
            return _("Blocked: {held}: a tie, nobody scores {rule}").format(held=held, rule=rule)
        return _("Blocked: {held}: {team} score 1 {rule}").format(
            held=held, team=and_list(names[s] for s in outcome.sides[outcome.winner]), rule=rule
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
        team = and_list(names[s] for s in outcome.sides[outcome.winner])
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


def round_card(table: TableSnapshot, outcome: RoundOutcome, totals: Sequence[int] | None) -> Card:
    """End of round: hands revealed, points with the rule that gave them, and the
    running totals when known (``totals``: each side's total after the round)."""
    shown = names(table)
    hands = []
    for seat, name in enumerate(shown):
        tiles = " ".join(str(t) for t in outcome.hands[seat]) or "—"
        hands.append(
            _("{name}: {tiles} (count {count})").format(
                name=name, tiles=tiles, count=number(outcome.counts[seat])
            )
        )
    lines = []
    for side, (name, gained) in enumerate(zip(side_names(table), outcome.points, strict=True)):
        total = f" → {number(totals[side])}" if totals else ""
        lines.append(f"{name}: +{number(gained)}{total}")
    fields = (
        Field(_("Hands"), "\n".join(hands), inline=False),
        Field(_("Scores"), "\n".join(lines), inline=False),
    )
    return Card(_("Round over"), round_words(outcome, shown), fields)


def game_over_card(table: TableSnapshot, outcome: MatchOutcome) -> Card:
    """The game's end: the winner, the final standings (and the games won in a match),
    and whether its stats and ratings were saved (a game with hints, or an unrated
    tournament's, counts for nobody: pointing to the leaderboards would mislead)."""
    sides = side_names(table)
    order = sorted(range(len(sides)), key=lambda side: -outcome.scores[side])
    lines = [
        f"{rank}. {sides[side]}: {number(outcome.scores[side])}"
        for rank, side in enumerate(order, 1)
    ]
    fields = [Field(_("Final standings"), "\n".join(lines), inline=False)]
    if table.options.match_games > 1:
        won = ", ".join(f"{sides[s]} {number(outcome.games_won[s])}" for s in range(len(sides)))
        fields.append(Field(_("Games won"), won, inline=False))
    if not table.counted:  # hints on, or an unrated tournament: nothing to look up
        # Translators: the end of a game that counts toward no stats or ratings.
        footer = _("Game {id} · not rated: no stats or ratings changed.").format(id=table.game_id)
    elif marks.current().slash_commands:
        footer = _(
            "Game {id} · stats and ratings are saved: /domino leaderboard, /domino stats"
        ).format(id=table.game_id)
    else:
        footer = _("Game {id} · stats and ratings are saved: see the leaderboards.").format(
            id=table.game_id
        )
    return Card(
        _("Winner: {name}").format(name=sides[outcome.winner]),
        fields=tuple(fields),
        footer=footer,
        tone=Tone.WINNER,
    )
