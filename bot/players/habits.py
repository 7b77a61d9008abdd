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
from dataclasses import astuple, dataclass

from bot.engine import END_NAMES, LineRound, Move, Round

PIPS = 7
"""Numbers on a tile, 0 to 6: a suit is the seven tiles carrying one number."""


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
    nor has seen played: opening a number the others are short of blocks them."""
    closes: float
    """1 when the move leaves both ends the same number."""


LINE_WEIGHTS = LineChoice(pips=0.043, double=1.17, follow=0.204, outside=-0.255, closes=0.877)
"""The fitted weights of :class:`LineChoice` (``benchmarks/habits.py``)."""

HEAVY = 0.25
"""The spinner games' habit: each pip multiplies a play's odds by e^0.25 ≈ 1.28."""
DOUBLE_PIPS = 3
"""A double counts this many pips more in the heavy-tile habit."""


def laid_by_pip(round_: LineRound) -> list[int]:
    """How many tiles on the line carry each number (a double once)."""
    laid = [0] * PIPS
    if round_.led:
        for tile, _, _ in round_.line():
            for pip in {tile.high, tile.low}:
                laid[pip] += 1
    return laid


def line_choice(round_: LineRound, move: Move, laid: Sequence[int]) -> LineChoice:
    """The features of ``move`` (a play) by the seat to move in ``round_``, whose line
    holds ``laid[n]`` tiles carrying each number ``n`` (:func:`laid_by_pip`)."""
    tile = move.tile
    assert tile is not None, "only a play is a choice among tiles"
    rest = [held for held in round_.hand(round_.turn) if held is not tile]
    ends = round_.open_ends()
    if move.end is None:  # the lead opens both its numbers
        new_ends = (tile.high, tile.low)
        opened = {tile.high, tile.low}
        closes = 0.0
    else:
        laid_on = END_NAMES[move.end]
        opened_pip = tile.other(ends[laid_on])
        (other_end,) = (pip for name, pip in ends.items() if name != laid_on)
        new_ends = (opened_pip, other_end)
        opened = {opened_pip}
        closes = float(opened_pip == other_end)
    follow = sum(1 for held in rest if new_ends[0] in held or new_ends[1] in held)
    outside = sum(
        PIPS - laid[pip] - (pip in tile) - sum(1 for held in rest if pip in held) for pip in opened
    )
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
        weights = astuple(LINE_WEIGHTS)
        laid = laid_by_pip(round_)
        return [
            sum(
                w * x
                for w, x in zip(weights, astuple(line_choice(round_, move, laid)), strict=True)
            )
            for move in legal
        ]
    return [heavy_appeal(move) for move in legal]
