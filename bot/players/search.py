"""Searching one guessed deal, all of whose tiles are known: an exact alpha-beta search
to the end of the round when few tiles are left, a greedy playout otherwise.

Both play through the engine's rounds (``copy``, ``legal_moves``, ``play``, ``outcome``),
so the search can never disagree with the referee, and both count their work in moves
made, so a decision's cost is bounded by a count, not a clock."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from bot.engine import DRAW, PASS, LayoutKind, LineRound, Move, Reason, Round, RoundOutcome

Policy = Callable[[Round], tuple[Move, int]]
TIE_BREAK = 0.001
TARGET_BONUS = 100.0
"""Merry-Go-Round: reaching exactly 61 wins the game outright (R-MG-7)."""


def rollout_move(round_: Round) -> tuple[Move, int]:
    """The playout policy: the heaviest tile that fits (sheds weight fast), else the
    forced draw or pass. Where plays score (Merry-Go-Round) a play that scores comes
    first: without it the playouts would not see that fives are most of that game's
    points (R-MG-4). Also
    returns the moves tried on copies to find it, which cost as much as moves made."""
    moves = round_.legal_moves()
    if len(moves) == 1:
        return moves[0], 0
    if round_.scores_plays:
        return max(moves, key=lambda m: (play_points(round_, m), weight(m))), len(moves)
    return max(moves, key=weight), 0


def shrewd_move(round_: Round) -> tuple[Move, int]:
    """The expert's playout policy: a scoring play first, then one that leaves the next
    seat nothing to play (it must pass or draw), then the heaviest tile. Dearer than
    :func:`rollout_move` (every choice is tried: on a copy, except on Milo's line, where
    the hands and the ends say it), but playouts that pass up a block misjudge the moves
    that set one up."""
    moves = round_.legal_moves()
    if len(moves) == 1:
        return moves[0], 0
    # A move that does not end the round scores nothing on a line whose game scores
    # only rounds (Milo, R-MI-5): whether it stops the next seat is all there is to say.
    if isinstance(round_, LineRound) and round_.led and not round_.scores_plays:
        stops_next = round_.stops_next
        best: tuple[int, bool, int] | None = None
        chosen = moves[0]
        for move in moves:
            stops = stops_next(move)
            key = (0, stops, weight(move)) if stops is not None else _tried(round_, move)
            if best is None or key > best:
                best, chosen = key, move
        return chosen, len(moves)
    return max(moves, key=lambda move: _tried(round_, move)), len(moves)


def _tried(round_: Round, move: Move) -> tuple[int, bool, int]:
    """What playing ``move`` on a copy gives the mover: points scored at once, whether the
    next seat is left to pass or draw, and the tile's weight (heavier is better)."""
    mover = round_.side_of(round_.turn)
    child = round_.copy()
    child.play(move)
    return (
        child.scores[mover] - round_.scores[mover],
        child.legal_moves() in ((PASS,), (DRAW,)),
        weight(move),
    )


def weight(move: Move) -> int:
    return move.tile.value if move.tile else -1


def play_points(round_: Round, move: Move) -> int:
    """What ``move`` adds to the mover's score at once (0 if it would bust)."""
    trial = round_.copy()
    side = trial.side_of(trial.turn)
    trial.play(move)
    return trial.scores[side] - round_.scores[side]


def result_value(outcome: RoundOutcome, side: int, round_bonus: float = 0.0) -> float:
    """What a finished round is worth to ``side``: its points against the best other
    side's, ``round_bonus`` more (or less) for winning (or losing) the round itself, and
    the game itself when a score reached the target mid-round."""
    points = list(outcome.points)
    mine = points.pop(side)
    value = float(mine - max(points, default=0))
    if outcome.winner is not None:
        value += round_bonus if outcome.winner == side else -round_bonus
    if outcome.reason is Reason.TARGET:
        value += TARGET_BONUS if outcome.winner == side else -TARGET_BONUS
    return value


def playout(
    round_: Round, side: int, policy: Policy = rollout_move, round_bonus: float = 0.0
) -> tuple[float, int]:
    """Play greedily to the end of the round: the value to ``side`` (see
    :func:`result_value`) and the moves it took, tried ones included."""
    work = 0
    while (outcome := round_.outcome()) is None:
        move, tried = policy(round_)
        round_.play(move)
        work += 1 + tried
    return result_value(outcome, side, round_bonus), work


Known = dict[tuple[object, ...], float]
"""Positions a win search has proved, by hands, ends, turn and scores (see :class:`Exact`)."""


class OutOfWork(Exception):
    """The exact search needed more moves than it was allowed."""


class Exact:
    """Alpha-beta to the end of the round. ``side`` maximises; every other side is taken
    to play against it (in Milo that is the other team; with three or four players
    it is the cautious assumption). Children are searched scoring plays first, then
    those that leave the next seat nothing to play, then heaviest tile first: the order
    good play usually takes, so the first child searched is often the best.

    ``wins_only``: find only whether ``side`` ends the round ahead (1), behind or level
    (0). That null-window search proves its answer three to four times faster, and where
    a round is worth a point or two (Milo, R-MI-5) winning it is what matters. Every
    node is then searched with the same window, so each answer can be remembered: on a
    line with no boneyard a position is just the hands, the two ends (in either order)
    and the turn, and a third of the positions a search meets are met again by another
    order of the same plays. ``known`` may be shared by every search of one decision:
    the other moves, and other guesses once the tiles they differ in are played, meet
    the same positions again."""

    def __init__(
        self,
        side: int,
        limit: int,
        wins_only: bool = False,
        round_bonus: float = 0.0,
        known: Known | None = None,
    ) -> None:
        self.side = side
        self.limit = limit
        self.wins_only = wins_only
        self.round_bonus = round_bonus
        self.work = 0
        self.known: Known = {} if known is None else known

    def value(self, round_: Round) -> float:
        if self.wins_only:
            return 1.0 if self._search(round_, 0.0, 1.0) >= 1.0 else 0.0
        return self._search(round_, -float("inf"), float("inf"))

    def _search(self, round_: Round, alpha: float, beta: float) -> float:
        outcome = round_.outcome()
        if outcome is not None:
            return result_value(outcome, self.side, self.round_bonus)
        if not (self.wins_only and round_.layout_kind is LayoutKind.LINE and not round_.boneyard):
            return self._children(round_, alpha, beta)
        ends = round_.open_ends().values()
        key = (*round_.hands, min(ends), max(ends), round_.turn, *round_.scores)
        value = self.known.get(key)
        if value is None:
            value = self.known[key] = self._children(round_, alpha, beta)
        return value

    def _children(self, round_: Round, alpha: float, beta: float) -> float:
        moves = round_.legal_moves()
        self.work += len(moves)
        if self.work > self.limit:
            raise OutOfWork
        if len(moves) == 1:
            child = round_.copy()
            child.play(moves[0])
            return self._search(child, alpha, beta)
        mover = round_.side_of(round_.turn)
        children = []
        for move in moves:
            child = round_.copy()
            child.play(move)
            gained = child.scores[mover] - round_.scores[mover]
            stops = child.legal_moves() in ((PASS,), (DRAW,))
            children.append((gained, stops, weight(move), child))
        children.sort(key=lambda item: item[:3], reverse=True)
        if mover == self.side:
            best = -float("inf")
            for *_, child in children:
                best = max(best, self._search(child, alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best
        best = float("inf")
        for *_, child in children:
            best = min(best, self._search(child, alpha, beta))
            beta = min(beta, best)
            if alpha >= beta:
                break
        return best


def tiles_left(round_: Round) -> int:
    """Tiles still to be played or drawn: what the exact search's size grows with."""
    return sum(hand.bit_count() for hand in round_.hands) + len(round_.boneyard)


def evaluate(
    round_: Round,
    side: int,
    exact_below: int,
    limit: int,
    wins_only: bool,
    policy: Policy,
    try_exact: bool = True,
    round_bonus: float = 0.0,
    known: Known | None = None,
) -> tuple[float, int, bool]:
    """The value of ``round_`` (a copy the caller gives up) to ``side``: exact when at
    most ``exact_below`` tiles are left and the search fits in ``limit`` moves, else a
    playout (scored as a win or not when ``wins_only``, so that one decision's values
    share a scale). Also the work it took, an abandoned search included, and whether a
    search was abandoned (``try_exact`` False: go straight to the playout). ``known``:
    the win searches' proved positions, to share (see :class:`Exact`).

    A win search says only win or not, against players who see every tile; a playout is
    added at a thousandth of its value, so that among moves that win (or lose) in the
    same guesses the one that does best against fallible play is taken. A thousandth
    of the largest playout value, over every guess, is less than one guess's win."""
    work = 0
    exact = tiles_left(round_) <= exact_below
    value: float | None = None
    if exact and try_exact:
        search = Exact(side, limit, wins_only, round_bonus, known)
        with contextlib.suppress(OutOfWork):
            value = search.value(round_)
        work = search.work
        if value is not None and not wins_only:
            return value, work, False
    played, spent = playout(round_, side, policy, round_bonus)
    if value is not None:
        return value + TIE_BREAK * played, work + spent, False
    if wins_only and exact:
        played = 1.0 if played > 0 else 0.0
    return played, work + spent, exact and try_exact
