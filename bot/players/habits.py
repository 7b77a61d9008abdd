"""How a seat chooses among the tiles it could play: the model by which the expert weighs
its guesses of the other seats' hands (:mod:`bot.players.beliefs`).

A play says something about the hand it came from only through a model of choice: if
seats mostly lay their doubles first, a seat that laid a single while holding a fitting
double is unlikely. The model gives each legal move a score (its log-odds); the chance of
a choice is its share of the scores' exponentials (a conditional logit).

- **Milo** (a line, R-MI-2): the scores weigh five features of a move, fitted by
  ``benchmarks/habits.py`` to the choices the expert meets in its tournament (OpenSpiel's
  ISMCTS-400 and the expert itself) on tuning deals 5,000–5,089; on the next 90 deals
  the model gives the true choice about 0.09 nats more than chance a decision, where the
  heavy-tile habit below gave none (``docs/PLAYERS.md``, "the other seats' choices
  fitted").
- **The spinner games**: the heavy-tile habit (:data:`HEAVY`), set by hand and not fitted;
  its features do not carry over to four arms, and their guesses are cut short by the
  first draw anyway (:func:`bot.players.beliefs.can_replay`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import END_NAMES, LINE_ENDS, LineRound, Move, Round
from bot.engine.tiles import FULL_SET, SUIT


@dataclass(frozen=True, slots=True)
class LineChoice:
    """What a move in a line does, as the Milo model reads it (each a number, so the
    fitting can weigh it)."""

    pips: float
    """The tile's value: heavy tiles are shed first, a little."""
    double: float
    """1 for a double, which fits only its own number and is laid early."""
    follow: float
    """Tiles left in the hand that fit an end after the move: a seat keeps its options."""
    outside: float
    """Tiles of the number the move opens (both, for a lead) that the seat neither holds
    nor has seen laid: opening a number the others are short of blocks them."""
    closes: float
    """1 when the move leaves both ends the same number."""

    def weighed(self, weights: LineChoice) -> float:
        """The move's log-odds under ``weights`` (up to a constant)."""
        return (
            weights.pips * self.pips
            + weights.double * self.double
            + weights.follow * self.follow
            + weights.outside * self.outside
            + weights.closes * self.closes
        )


LINE_WEIGHTS = LineChoice(pips=0.043, double=1.17, follow=0.204, outside=-0.255, closes=0.877)
"""The fitted weights of :class:`LineChoice` (``benchmarks/habits.py``)."""

HEAVY = 0.25
"""The spinner games' habit: each pip multiplies a play's odds by e^0.25 ≈ 1.28."""
DOUBLE_PIPS = 3
"""A double counts this many pips more in the heavy-tile habit."""


def on_the_line(round_: LineRound) -> int:
    """The tiles laid, as a mask: every tile in no hand and not in the boneyard."""
    unlaid = 0
    for hand in round_.hands:
        unlaid |= hand
    for index in round_.boneyard:
        unlaid |= 1 << index
    return FULL_SET & ~unlaid


def line_choice(round_: LineRound, move: Move, laid: int) -> LineChoice:
    """The features of ``move`` (a play) by the seat to move in ``round_``, whose line
    holds the tiles of the mask ``laid`` (:func:`on_the_line`). Counted on the engine's
    masks: the expert reads every other seat's choices in each of its guesses."""
    tile = move.tile
    assert tile is not None, "only a play is a choice among tiles"
    hand = round_.hands[round_.turn]
    if move.end is None:  # the lead opens both its numbers
        ends = (tile.high, tile.low)
        opened = {tile.high, tile.low}
        closes = 0.0
    else:
        side = LINE_ENDS.index(END_NAMES[move.end])
        opened_pip = tile.other(round_.line_ends[side])
        ends = (opened_pip, round_.line_ends[1 - side])
        opened = {opened_pip}
        closes = float(ends[0] == ends[1])
    follow = (hand & ~tile.bit & (SUIT[ends[0]] | SUIT[ends[1]])).bit_count()
    unseen = ~(laid | hand)
    outside = sum((SUIT[pip] & unseen).bit_count() for pip in opened)
    return LineChoice(float(tile.value), float(tile.is_double), follow, outside, closes)


def heavy_appeal(move: Move) -> float:
    """The spinner games' score of ``move``: its pips, a double's more."""
    tile = move.tile
    if tile is None:
        return 0.0
    return HEAVY * (tile.value + (DOUBLE_PIPS if tile.is_double else 0))


def scores(round_: Round, legal: Sequence[Move]) -> list[float]:
    """Each legal move's log-odds (up to a constant) for the seat to move in ``round_``."""
    if isinstance(round_, LineRound) and all(move.tile is not None for move in legal):
        laid = on_the_line(round_)
        return [line_choice(round_, move, laid).weighed(LINE_WEIGHTS) for move in legal]
    return [heavy_appeal(move) for move in legal]
