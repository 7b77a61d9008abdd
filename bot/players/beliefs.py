"""How likely a guessed deal is, given how each seat has played.

A pass or a draw rules deals out (see :mod:`bot.players.knowledge`); a play only makes
some deals likelier than others. People, and our normal player, shed heavy tiles and
doubles first, so a seat that played a light tile while a heavy one would have fitted
probably did not hold the heavy one. Each guess is weighted by the probability of every
choice the other seats made, under a simple model of that habit.

Until someone draws, the round is rebuilt from its start with the guessed hands, through
the engine, which also says whether the guess could have led and played as it did at all
(weight 0 if not). Once someone has drawn it cannot be: which tile each draw brought is
hidden. Then each play is weighed against the tiles the guess gives its seat at that
moment (its hand now and the tiles it played since) among those that fitted then
(:func:`bot.engine.fits_along`); a tile it drew and kept since is counted as held
already, which only makes the play look a little less telling than it was. Without
this, in the drawing games most decisions learned nothing from the other seats' play.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import partial

from bot.engine import DRAW, TILES, InvalidDeal, Move, SeatView, Tile, fits_along
from bot.engine.tiles import indices

HABIT = 0.25
"""How strongly the model prefers heavier tiles: each pip multiplies a play's odds by
e^0.25 ≈ 1.28, so 6-5 is about 7 times likelier than 2-1 when both fit."""
DOUBLE_PIPS = 3
"""A double counts this many pips more: doubles are hard to place later."""


def appeal(move: Move) -> float:
    return 0.0 if move.tile is None else _tile_appeal(move.tile)


def _tile_appeal(tile: Tile) -> float:
    return HABIT * (tile.value + (DOUBLE_PIPS if tile.is_double else 0))


def _log_choice(chosen: float, appeals: Iterable[float]) -> float:
    """The log-probability of the option of appeal ``chosen`` among ``appeals`` (which
    include it), each taken in proportion to e^appeal."""
    options = list(appeals)
    top = max(options)
    return chosen - top - math.log(sum(math.exp(a - top) for a in options))


def _can_replay(view: SeatView) -> bool:
    """Whether a guess of today's hands gives the deal the round started from: only
    while nobody has drawn (a tile drawn by another seat is hidden among its lots)."""
    return all(move is not DRAW for _, move in view.public.history)


def deal_weigher(view: SeatView) -> Callable[[list[list[Tile]], list[Tile]], tuple[float, int]]:
    """For guesses of today's hands and boneyard: the likelihood of the other seats'
    choices had they held those hands, and the moves replayed to find it (what the
    guesses of one view share is worked out once)."""
    if _can_replay(view):
        return partial(_replayed_weight, view)
    fits = fits_along(view.public)
    spent = len(view.public.history)  # counted as a replay's moves, as it was measured
    return lambda hands, _: (_weight_after_draws(view, fits, hands), spent)


def _replayed_weight(
    view: SeatView, hands: list[list[Tile]], boneyard: list[Tile]
) -> tuple[float, int]:
    """The likelihood, from the round rebuilt from its start through the engine."""
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
            log_weight += _log_choice(appeal(move), (appeal(m) for m in legal))
        round_.play(move)
    return math.exp(log_weight), len(public.history)


def _weight_after_draws(view: SeatView, fits: tuple[int, ...], hands: list[list[Tile]]) -> float:
    """The likelihood of the other seats' plays, each among the tiles of its guessed hand
    that fitted then, read backwards from today's hands (see the module's docstring).
    The lead is the rules' to choose (R-CR-2, R-MG-2: nothing fits before it), and a
    play right after the seat's own draw is the drawn tile (R-CR-5, R-MG-5): neither is
    weighed."""
    history = view.public.history
    log_weight = 0.0
    for seat, hand in enumerate(hands):
        if seat == view.seat:
            continue
        held = sum(tile.bit for tile in hand)
        turns = [(index, move) for index, (mover, move) in enumerate(history) if mover == seat]
        for k in range(len(turns) - 1, -1, -1):
            index, move = turns[k]
            if move.tile is None or (k and turns[k - 1][1] is DRAW):
                continue  # a pass or a draw, or the tile just drawn: not held before
            held |= move.tile.bit
            choices = held & fits[index]
            if choices & (choices - 1):  # more than one fitted
                log_weight += _log_choice(
                    _tile_appeal(move.tile), (_tile_appeal(TILES[i]) for i in indices(choices))
                )
    return math.exp(log_weight)
