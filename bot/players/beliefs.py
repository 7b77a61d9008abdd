"""How likely a guessed deal is, given how each seat has played.

A pass or a draw rules deals out (see :mod:`bot.players.knowledge`); a play only makes
some deals likelier than others: a seat that laid a single while a double of its own
would have fitted probably did not hold the double. Each guess is weighted by the
probability of every choice the other seats made, under the model of how seats choose
in :mod:`bot.players.habits`: the round is rebuilt from its start with the guessed
hands, through the engine, which also says whether the guess could have led and played
as it did at all (weight 0 if not).
"""

from __future__ import annotations

import math
import random

from bot.engine import DRAW, InvalidDeal, SeatView, Tile
from bot.players.habits import scores
from bot.players.knowledge import infer
from bot.players.simulate import sample_deal

Deal = tuple[list[list[Tile]], list[Tile]]
"""A guess: every seat's hand (the seat's own as it sees it) and the boneyard in draw
order."""


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
            odds = scores(round_, legal)
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
