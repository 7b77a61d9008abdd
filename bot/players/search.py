"""Searching one guessed deal, all of whose tiles are known: an exact alpha-beta search
to the end of the round when few tiles are left, a greedy playout otherwise.

Both play through the engine's rounds (``copy``, ``legal_moves``, ``play``, ``outcome``),
so the search can never disagree with the referee, and both count their work in moves
made, so a decision's cost is bounded by a count, not a clock."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from bot.engine import Move, Reason, Round, RoundOutcome

Policy = Callable[[Round], tuple[Round, int]]
"""One step of a playout: the round after the policy's move (the round given, which the
step uses up, or the copy the move was tried on), and the moves tried on copies to find
it, which cost as much as moves made."""
TARGET_BONUS = 100.0
"""Merry-Go-Round: reaching exactly 61 wins the game outright (R-MG-7)."""


def rollout_step(round_: Round) -> tuple[Round, int]:
    """The playout policy (a :data:`Policy`): the heaviest tile that fits (sheds weight
    fast), else the forced draw or pass. Where plays score (Merry-Go-Round) a play that
    scores comes first: without it the playouts would not see that fives are most of
    that game's points (R-MG-4)."""
    moves = round_.legal_moves()
    tried = 0
    if len(moves) == 1:
        move = moves[0]
    elif round_.scores_plays:
        move = max(moves, key=lambda m: (play_points(round_, m), weight(m)))
        tried = len(moves)
    else:
        move = max(moves, key=weight)
    round_.play(move)
    return round_, tried


def shrewd_step(round_: Round) -> tuple[Round, int]:
    """The expert's playout policy (a :data:`Policy`): a scoring play first, then one
    that leaves the next seat nothing to play (it must pass or draw), then the heaviest
    tile; the first of equals. Dearer than :func:`rollout_step` (every choice is tried,
    the last on ``round_`` itself, the others on copies, and the round after the chosen
    one goes on), but playouts that pass up a block misjudge the moves that set one up.
    Milo's playouts play the same policy on bare hands
    (:func:`bot.players.milo_search.playout`)."""
    moves = round_.legal_moves()
    if len(moves) == 1:
        round_.play(moves[0])
        return round_, 0
    mover = round_.side_of(round_.turn)
    before = round_.scores[mover]
    best: tuple[int, bool, int] | None = None
    chosen = round_
    for index, move in enumerate(moves):
        child = round_ if index == len(moves) - 1 else round_.copy()
        child.play(move)
        tried = _merit(child, mover, before, move)
        if best is None or tried > best:
            best, chosen = tried, child
    return chosen, len(moves)


def _merit(child: Round, mover: int, before: int, move: Move) -> tuple[int, bool, int]:
    """How good ``move`` looks by the round after it (``child``), as the shrewd policy
    and the exact search rank moves: the points its ``mover`` scored at once (from
    ``before``), whether the next seat is left to pass or draw, the tile's weight."""
    return child.scores[mover] - before, _stopped(child), weight(move)


def _stopped(child: Round) -> bool:
    """Whether the seat to move just after a tile was laid has nothing to play (its only
    move is to pass or draw): what its legal moves would say, without listing them
    (a playout asks it of every move it tries)."""
    return child.outcome() is None and not child.can_play(child.turn)


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
    round_: Round, side: int, policy: Policy = rollout_step, round_bonus: float = 0.0
) -> tuple[float, int]:
    """Play ``round_`` (used up) greedily to the end: the value to ``side`` (see
    :func:`result_value`) and the moves it took, tried ones included."""
    outcome, work = played_out(round_, policy)
    return result_value(outcome, side, round_bonus), work


def played_out(round_: Round, policy: Policy) -> tuple[RoundOutcome, int]:
    """``round_`` (used up) played to its end by ``policy``: its outcome and the moves
    it took, tried ones included."""
    work = 0
    while (outcome := round_.outcome()) is None:
        round_, tried = policy(round_)
        work += 1 + tried
    return outcome, work


class OutOfWork(Exception):
    """The exact search needed more moves than it was allowed."""


class Exact:
    """Alpha-beta to the end of the round. ``side`` maximises; every other side is taken
    to play against it (the cautious assumption with three or four players). Children
    are searched scoring plays first, then those that leave the next seat nothing to
    play, then heaviest tile first: the order good play usually takes, so the first
    child searched is often the best. Milo's search for a win is
    :class:`bot.players.milo_search.WinSearch`."""

    def __init__(self, side: int, limit: int, round_bonus: float = 0.0) -> None:
        self.side = side
        self.limit = limit
        self.round_bonus = round_bonus
        self.work = 0

    def value(self, round_: Round) -> float:
        """``round_``'s value, searched on a copy: left as it was, a playout takes it up
        when the search runs out of work."""
        return self._search(round_.copy(), -float("inf"), float("inf"))

    def _search(self, round_: Round, alpha: float, beta: float) -> float:
        """``round_`` is the search's own: a forced move is made on it, not on a copy."""
        outcome = round_.outcome()
        if outcome is not None:
            return result_value(outcome, self.side, self.round_bonus)
        moves = round_.legal_moves()
        self.work += len(moves)
        if self.work > self.limit:
            raise OutOfWork
        if len(moves) == 1:
            round_.play(moves[0])
            return self._search(round_, alpha, beta)
        children = ordered_children(round_)
        if round_.side_of(round_.turn) == self.side:
            best = -float("inf")
            for child in children:
                best = max(best, self._search(child, alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best
        best = float("inf")
        for child in children:
            best = min(best, self._search(child, alpha, beta))
            beta = min(beta, best)
            if alpha >= beta:
                break
        return best


def ordered_children(round_: Round) -> list[Round]:
    """The round after each legal move, in the order a search tries them: points the
    mover scores at once first, then those that leave the next seat nothing to play
    (it must pass or draw), then the heaviest tile; equals in the engine's order."""
    mover = round_.side_of(round_.turn)
    before = round_.scores[mover]
    children = []
    for move in round_.legal_moves():
        child = round_.copy()
        child.play(move)
        children.append((_merit(child, mover, before, move), child))
    children.sort(key=lambda item: item[0], reverse=True)
    return [child for _, child in children]


def tiles_left(round_: Round) -> int:
    """Tiles still to be played or drawn: what the exact search's size grows with."""
    return sum(hand.bit_count() for hand in round_.hands) + len(round_.boneyard)


def evaluate(
    round_: Round,
    side: int,
    exact_below: int,
    limit: int,
    policy: Policy,
    try_exact: bool = True,
    round_bonus: float = 0.0,
) -> tuple[float, int, bool]:
    """The value of ``round_`` (a copy the caller gives up) to ``side``: exact when at
    most ``exact_below`` tiles are left and the search fits in ``limit`` moves, else a
    playout. Also the work it took, an abandoned search included, and whether a search
    was abandoned (``try_exact`` False: go straight to the playout)."""
    work = 0
    exact = tiles_left(round_) <= exact_below
    if exact and try_exact:
        search = Exact(side, limit, round_bonus)
        with contextlib.suppress(OutOfWork):
            return search.value(round_), search.work, False
        work = search.work
    played, spent = playout(round_, side, policy, round_bonus)
    return played, work + spent, exact and try_exact
