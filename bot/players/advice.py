"""Hints: what the normal (or hard) computer player would do in a seat's place, and the
one reason that decided it.

The hint is the player's own decision, not a second opinion: :func:`advise` asks the
player for its choice together with what it weighed (the normal player's :class:`Terms`
for every legal move, the hard player's sampled deals), so the move shown is always the
move that player makes. The reason is data (:class:`Why` and a few figures), never words:
the Discord layer words it.

For the normal player the reason is the part of its score (:data:`PARTS`) that gained
the chosen move most over the runner-up, the best move whose parts differ (the same
tile on another arm with the same parts is no alternative). When every other move is
alike (one tile that fits in several equal places), the reason is what the move does on
its own: it dominoes, or its largest part.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.engine import Move, SeatView
from bot.levels import HINT_LEVELS
from bot.players.hard import HardPlayer
from bot.players.normal import PARTS, NormalPlayer, Terms


class Why(enum.Enum):
    """One reason, the one that decided the choice."""

    ONLY_MOVE = "only move"
    """The seat's only legal move (including a forced draw or pass)."""
    DOMINO = "domino"
    """It empties the hand (wins the round)."""
    REACHES_TARGET = "reaches target"
    """Merry-Go-Round: brings the score to exactly the target (fields: points, target)."""
    SCORES = "scores"
    """It scores points (fields: points, open_sum = what the ends add up to after it)."""
    AVOIDS_BUST = "avoids bust"
    """Every other play would go past the target (R-MG-7) (fields: target)."""
    HEAVIEST = "heaviest"
    """Sheds the most pips (fields: pips)."""
    DOUBLE = "double"
    """Plays a double while it can still be placed."""
    FOLLOWS = "follows"
    """Keeps ends it can follow (fields: count = tiles in hand that follow after it)."""
    CAN_CAP = "can cap"
    """Maltese Cross: opens an arm it holds the double to cap (fields: number)."""
    OPPONENT_LACKS = "opponent lacks"
    """Milo: leaves a number an opponent has shown it lacks (fields: number)."""
    SPARES_PARTNER = "spares partner"
    """Milo: avoids leaving a number the partner lacks (fields: number)."""
    WINS_DEALS = "wins deals"
    """Hard/expert: best average over the sampled deals (fields: share = fraction 0..1 of
    sampled deals where this move did at least as well as any other, deals = number of
    deals sampled)."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The move the player would make and why. Only the fields of its :class:`Why` are
    set: ``points`` (points the move scores at once), ``target`` (the game's target),
    ``open_sum`` (what the open ends add up to after a play that scores, R-MG-4; 0 when
    the points are the round's), ``pips`` (the tile's value), ``count`` (tiles left that
    match an open end), ``number`` (the number on the arm it opens, or left open, or not
    left open), ``share`` (the fraction 0..1 of sampled deals in which the move did at
    least as well as any other) and ``deals`` (how many deals were sampled)."""

    move: Move
    level: str
    why: Why
    points: int = 0
    target: int = 0
    open_sum: int = 0
    pips: int = 0
    count: int = 0
    number: int = 0
    share: float = 0.0
    deals: int = 0


def advise(view: SeatView, level: str = "normal", seed: int = 0) -> Advice:
    """What ``computer_player(level, seed)`` would play from ``view``, and why. Raises
    ``ValueError`` for a level that gives no hints, or when ``view`` has no legal move
    (it is not that seat's turn, or the round is over)."""
    if level not in HINT_LEVELS:
        raise ValueError(f"hints come from the {' or '.join(HINT_LEVELS)} player, not {level!r}")
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no move to advise on: it is not its turn")
    if level == "hard":
        sampling = HardPlayer(seed=seed).sample(view)
        if not sampling.deals:
            return Advice(sampling.move, level, Why.ONLY_MOVE)
        chosen = view.legal.index(sampling.move)
        share = sampling.best_in[chosen] / sampling.deals
        return Advice(sampling.move, level, Why.WINS_DEALS, share=share, deals=sampling.deals)
    judgement = NormalPlayer(seed=seed).judge(view)
    if not judgement.terms:
        return Advice(judgement.move, level, Why.ONLY_MOVE)
    terms = judgement.terms[view.legal.index(judgement.move)]
    others = [t for t in judgement.terms if t != terms]
    if not others:  # every move is this tile in an equal place: what it does on its own
        return _reason(judgement.move, view, terms, Terms(), "domino" if terms.domino else None)
    runner_up = max(others, key=lambda t: t.total)
    return _reason(judgement.move, view, terms, runner_up, None)


def _reason(move: Move, view: SeatView, chosen: Terms, other: Terms, part: str | None) -> Advice:
    """The advice naming ``part``, or else the part that gained ``chosen`` most over
    ``other`` (the first of :data:`PARTS` among equals), with its figures."""
    if part is None:
        part = max(PARTS, key=lambda name: chosen.part(name) - other.part(name))
    target = view.public.target
    match part:
        case "domino":
            return Advice(move, "normal", Why.DOMINO)
        case "target":
            return Advice(move, "normal", Why.REACHES_TARGET, points=chosen.gained, target=target)
        case "points":
            return Advice(
                move, "normal", Why.SCORES, points=chosen.gained, open_sum=chosen.open_sum
            )
        case "bust":
            return Advice(move, "normal", Why.AVOIDS_BUST, target=target)
        case "double":
            return Advice(move, "normal", Why.DOUBLE)
        case "follow":
            return Advice(move, "normal", Why.FOLLOWS, count=chosen.follows)
        case "can_cap":
            return Advice(move, "normal", Why.CAN_CAP, number=chosen.cap)
        case "opponent_lacks":
            return Advice(move, "normal", Why.OPPONENT_LACKS, number=chosen.opponent_number)
        case "partner_lacks":
            return Advice(move, "normal", Why.SPARES_PARTNER, number=other.partner_number)
        case "weight":
            return Advice(move, "normal", Why.HEAVIEST, pips=chosen.pips)
    raise AssertionError(f"unreachable: every part of the score has its reason, not {part}")
