"""How likely a guessed deal is, given how each seat has played.

A pass or a draw rules deals out (see :mod:`bot.players.knowledge`); a play only makes
some deals likelier than others. People, and our normal player, shed heavy tiles and
doubles first, so a seat that played a light tile while a heavy one would have fitted
probably did not hold the heavy one. Each guess is weighted by the probability of every
choice the other seats made, under a simple model of that habit: the round is rebuilt
from its start with the guessed hands, through the engine, which also says whether the
guess could have led and played as it did at all (weight 0 if not).
"""

from __future__ import annotations

import math
import random

from bot.engine import DRAW, InvalidDeal, Move, SeatView, Tile
from bot.players.knowledge import infer
from bot.players.simulate import sample_deal

Deal = tuple[list[list[Tile]], list[Tile]]
"""A guess: every seat's hand (the seat's own as it sees it) and the boneyard in draw
order."""

HABIT = 0.25
"""How strongly the model prefers heavier tiles: each pip multiplies a play's odds by
e^0.25 ≈ 1.28, so 6-5 is about 7 times likelier than 2-1 when both fit."""
DOUBLE_PIPS = 3
"""A double counts this many pips more: doubles are hard to place later."""


def appeal(move: Move) -> float:
    """``move``'s log-odds under the habit, up to a constant: its pips, a double's more
    (a draw or a pass: 0)."""
    tile = move.tile
    if tile is None:
        return 0.0
    return HABIT * (tile.value + (DOUBLE_PIPS if tile.is_double else 0))


def can_replay(view: SeatView) -> bool:
    """Whether a guess of today's hands gives the deal the round started from: only
    while nobody has drawn (a tile drawn by another seat is hidden among its lots)."""
    return all(move is not DRAW for _, move in view.public.history)


def deal_weight(view: SeatView, hands: list[list[Tile]], boneyard: list[Tile]) -> tuple[float, int]:
    """The likelihood of the other seats' choices had they held ``hands`` (today's), and
    the moves replayed to find it. Call only when :func:`can_replay`."""
    public = view.public
    started = [list(hand) for hand in hands]
    for seat, move in public.history:
        if move.tile is not None:
            started[seat].append(move.tile)
    try:
        round_ = public.variant(
            started,
            boneyard,
            public.leader if public.lead_passed else None,
            options=public.options,
            scores=public.start_scores,
        )
    except InvalidDeal:
        return 0.0, 1
    if round_.leader != public.leader:
        return 0.0, 1  # another seat would have led (R-CR-2, R-MG-2, R-MI-3)
    log_weight = 0.0
    for seat, move in public.history:
        legal = round_.legal_moves()
        if move not in legal:
            return 0.0, len(public.history)
        if seat != view.seat and len(legal) > 1:
            odds = [appeal(m) for m in legal]
            top = max(odds)
            total = sum(math.exp(x - top) for x in odds)
            log_weight += odds[legal.index(move)] - top - math.log(total)
        round_.play(move)
    return math.exp(log_weight), len(public.history)


def weighed_deals(
    view: SeatView, rng: random.Random, count: int, weigh: bool
) -> tuple[list[Deal], list[float], int]:
    """``count`` deals the seat cannot rule out (:func:`bot.players.simulate.sample_deal`),
    each with its :func:`deal_weight` when ``weigh`` (call only when :func:`can_replay`;
    1 each otherwise), and the moves the weighing took."""
    knowledge = infer(view)
    deals: list[Deal] = []
    weights: list[float] = []
    done = 0
    for _ in range(count):
        hands, boneyard = sample_deal(view, knowledge, rng)
        likelihood = 1.0
        if weigh:
            likelihood, spent = deal_weight(view, hands, boneyard)
            done += spent
        deals.append((hands, boneyard))
        weights.append(likelihood)
    return deals, weights, done
