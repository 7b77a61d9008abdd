"""A hint, told privately: the move the chosen computer player would make, and the one
reason that decided it (``bot.hints``), with its figures."""

from __future__ import annotations

from bot.engine import DRAW, PASS, Move
from bot.players.advice import Advice, Why
from words.common import end_of, level_name, points_count
from words.i18n import _, ngettext, number


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
        return _("play {tile} on {end}").format(tile=move.tile, end=end_of(move))
    return _("lead {tile}").format(tile=move.tile)


def _hint_reason(advice: Advice) -> str:
    match advice.why:
        case Why.ONLY_MOVE:
            return _("it is the only move you have.")
        case Why.DOMINO:
            return _("it is your last tile: you domino.")
        case Why.REACHES_TARGET:
            return _("it scores {points} and brings you to exactly {target}.").format(
                points=points_count(advice.points), target=number(advice.target)
            )
        case Why.SCORES if advice.open_sum:
            return _("the ends then add up to {sum}, which scores {points}.").format(
                sum=number(advice.open_sum), points=points_count(advice.points)
            )
        case Why.SCORES:
            return _("it scores {points}.").format(points=points_count(advice.points))
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
