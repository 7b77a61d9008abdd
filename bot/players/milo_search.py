"""The expert's searches of a guessed Milo deal, on bare numbers: four hands as bit
masks, the line's two ends and the seat to move.

A guess in Milo is a line with no boneyard (R-MI-1, R-MI-2), so a position is nothing
more than that, and a move nothing more than a tile on an end. Searching through the
engine's rounds (:mod:`bot.players.search`) copied a whole round, with its history,
its score events and its legal-move tuples, for every move tried; here a move is a few
integer operations, and a Milo decision takes well under half the time.

It plays exactly as the engine would, and moves come in the engine's order (the left
end's tiles, then the right's, lowest tile first), so the searches reach the same
values, in the same counted work, as they did through the engine: the expert makes the
same choices. The tests hold it to the engine on whole rounds. What R-MI-2 and
R-ALL-5 need here is two lines: a tile fits an end that shows one of its numbers
(:data:`SUIT`), and a round is blocked when no hand holds a tile that fits. Scoring is
the engine's own (:meth:`Milo.round_award`), and the candidate move itself is always
played on the engine's round."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from bot.engine import Drawing, LineRound, Milo, Round
from bot.engine.tiles import SUIT, TILES, indices, pip_count
from bot.players.search import OutOfWork, result_value, tiles_left

Hands = tuple[int, int, int, int]
Known = dict[tuple[int, ...], float]
"""Positions a win search has proved (see :class:`WinSearch`)."""

TIE_BREAK = 0.001
"""A win search says only win or not, against players who see every tile; a playout is
added at this share of its value, so that among moves that win (or lose) in the same
guesses the one that does best against fallible play is taken. This share of the
largest playout value (2 points), over the 160 guesses a decision searches exactly, is
less than one guess's win."""

_BIT = tuple(tile.bit for tile in TILES)
_PIPS = tuple(tile.value for tile in TILES)
_SEATS = 4
_STOPS = 1 << 6


def applies(variant: type[Round]) -> bool:
    """Whether every guess of a round of ``variant`` is a position these searches know:
    a line, four seats in two teams, no boneyard (Milo)."""
    return (
        issubclass(variant, LineRound) and variant.teams and variant.drawing is Drawing.NO_BONEYARD
    )


def _moves(hand: int, left: int, right: int) -> list[tuple[int, int]]:
    """Each tile of ``hand`` that fits, with its end (0 left, 1 right), in the engine's
    order; a tile that fits both ends comes twice."""
    return [(tile, 0) for tile in indices(hand & SUIT[left])] + [
        (tile, 1) for tile in indices(hand & SUIT[right])
    ]


def _laid(tile: int, end: int, left: int, right: int) -> tuple[int, int]:
    """The two ends once ``tile`` is laid on ``end``: its other number shows there (the
    tile's pips less the number it is laid against)."""
    if end == 0:
        return _PIPS[tile] - left, right
    return left, _PIPS[tile] - right


def _award(
    hands: Sequence[int], domino_seat: int | None, left: int, right: int
) -> tuple[int | None, int]:
    """How the finished round scores: the engine's :meth:`Milo.round_award`."""
    return Milo.round_award(domino_seat, (left, right), [pip_count(hand) for hand in hands])


def _worth(team: int | None, points: int, side: int) -> float:
    """What a round scored as ``(team, points)`` is worth to ``side``, as
    :func:`bot.players.search.result_value` says for two sides and no bonus."""
    if team is None:
        return 0.0
    return float(points if team == side else -points)


def _ended(hands: Sequence[int], seat: int, left: int, right: int) -> tuple[int | None, int] | None:
    """How the round scores if the tile ``seat`` just laid ended it (a domino, or a
    block: R-MI-4, R-ALL-5), else None."""
    if not hands[seat]:
        return _award(hands, seat, left, right)
    if (hands[0] | hands[1] | hands[2] | hands[3]) & (SUIT[left] | SUIT[right]):
        return None
    return _award(hands, None, left, right)


def _rank(points: int, stops: bool, tile: int) -> int:
    """The playout's and the search's order of moves as one number: points scored at
    once, then the next seat left to pass, then the tile's pips (at most 12)."""
    return points << 8 | (_STOPS if stops else 0) | _PIPS[tile]


def playout(hands: list[int], left: int, right: int, turn: int, side: int) -> tuple[float, int]:
    """Play greedily from this position to the end of the round (``hands`` is used up):
    the round's value to ``side`` (its team's points less the other's) and the moves
    made and tried. The policy is :func:`bot.players.search.shrewd_step`'s: of the
    moves that fit, the first best by :func:`_rank`. Playouts are most of an early
    decision's time, so this spells out :func:`_ended` for each move made (a call per
    move was a sizeable share of a Milo decision's CPU), and :func:`_shrewd` spells out
    :func:`_laid` and :func:`_rank` for each move tried."""
    work = 0
    while True:
        hand = hands[turn]
        on_left = indices(hand & SUIT[left])
        on_right = indices(hand & SUIT[right])
        count = len(on_left) + len(on_right)
        if not count:  # a pass (R-MI-4)
            work += 1
            turn = (turn + 1) % _SEATS
            continue
        if count == 1:
            work += 1
            tile, end = (on_left[0], 0) if on_left else (on_right[0], 1)
        else:
            work += 1 + count
            tile, end = _shrewd(hands, turn, left, right, on_left, on_right)
        hands[turn] = hand ^ _BIT[tile]
        if end == 0:
            left = _PIPS[tile] - left
        else:
            right = _PIPS[tile] - right
        if not hands[turn] or not (hands[0] | hands[1] | hands[2] | hands[3]) & (
            SUIT[left] | SUIT[right]
        ):  # :func:`_ended`, spelled out
            return _worth(*_award(hands, None if hands[turn] else turn, left, right), side), work
        turn = (turn + 1) % _SEATS


def _shrewd(
    hands: list[int],
    turn: int,
    left: int,
    right: int,
    on_left: tuple[int, ...],
    on_right: tuple[int, ...],
) -> tuple[int, int]:
    """The playout's move for ``turn`` when more than one tile fits: the first best by
    :func:`_rank`, read off the hands and the ends without laying each tile."""
    hand = hands[turn]
    others = (hands[0] | hands[1] | hands[2] | hands[3]) ^ hand
    following = hands[(turn + 1) % _SEATS]
    best = -1
    chosen = (0, 0)
    # Each end: its tiles, the number they are laid against, and the other end's suit.
    for end, tiles, against, stays in (
        (0, on_left, left, SUIT[right]),
        (1, on_right, right, SUIT[left]),
    ):
        for tile in tiles:
            pips = _PIPS[tile]
            fitting = SUIT[pips - against] | stays
            rest = hand ^ _BIT[tile]
            if rest and (others | rest) & fitting:
                rank = pips if following & fitting else _STOPS | pips  # _rank(0, ..., tile)
            else:  # the round ends: a domino or a block, which may score for the mover
                after_left, after_right = _laid(tile, end, left, right)
                rank = _rank(_gained(hands, turn, rest, after_left, after_right), False, tile)
            if rank > best:
                best, chosen = rank, (tile, end)
    return chosen


def _gained(hands: Sequence[int], seat: int, rest: int, left: int, right: int) -> int:
    """What ``seat``'s team scores if its move, leaving it ``rest``, ends the round."""
    after = list(hands)
    after[seat] = rest
    return _scored_by(seat, *_award(after, None if rest else seat, left, right))


def _scored_by(seat: int, team: int | None, points: int) -> int:
    """What ``seat``'s team gains from a round scored as ``(team, points)``."""
    return points if team == Milo.side_of(seat) else 0


class WinSearch:
    """Whether ``side`` wins the round (1) or not (0: lost or level) against players who
    see every tile: alpha-beta to the end of the round with a null window, which proves
    a win several times faster than a search for the margin. Children are searched in
    :func:`_rank`'s order, the order good play usually takes (and
    :class:`bot.players.search.Exact`'s), so the first child searched is often the best.

    With one window every answer can be remembered, by hands, ends (in either order)
    and turn; ``known`` may be shared by every search of one decision: the other moves,
    and other guesses once the tiles they differ in are played, meet the same
    positions again."""

    __slots__ = ("known", "limit", "side", "work")

    def __init__(self, side: int, limit: int, known: Known | None = None) -> None:
        self.side = side
        self.limit = limit
        self.work = 0
        self.known: Known = {} if known is None else known

    def value(self, hands: Hands, left: int, right: int, turn: int) -> float:
        """1.0 if ``side`` wins from this position (not over), else 0.0; raises
        :class:`OutOfWork` past ``limit`` moves."""
        return 1.0 if self._search(hands, left, right, turn) >= 1.0 else 0.0

    def _search(self, hands: Hands, left: int, right: int, turn: int) -> float:
        key = (*hands, min(left, right), max(left, right), turn)
        value = self.known.get(key)
        if value is None:
            value = self.known[key] = self._children(hands, left, right, turn)
        return value

    def _children(self, hands: Hands, left: int, right: int, turn: int) -> float:
        moves = _moves(hands[turn], left, right)
        self.work += len(moves) or 1
        if self.work > self.limit:
            raise OutOfWork
        following = (turn + 1) % _SEATS
        if not moves:  # a pass (R-MI-4)
            return self._search(hands, left, right, following)
        children: list[tuple[int, float | None, Hands, int, int]] = []
        for tile, end in moves:
            after = list(hands)
            after[turn] ^= _BIT[tile]
            after_left, after_right = _laid(tile, end, left, right)
            child: Hands = (after[0], after[1], after[2], after[3])
            ended = _ended(child, turn, after_left, after_right)
            if ended is None:
                stops = not child[following] & (SUIT[after_left] | SUIT[after_right])
                children.append((_rank(0, stops, tile), None, child, after_left, after_right))
            else:
                gained = _scored_by(turn, *ended)
                worth = _worth(*ended, self.side)
                children.append((_rank(gained, False, tile), worth, child, after_left, after_right))
        if len(children) > 1:
            children.sort(key=_first, reverse=True)
        maximise = Milo.side_of(turn) == self.side
        best = -float("inf") if maximise else float("inf")
        for _, ended_worth, child, after_left, after_right in children:
            worth = (
                self._search(child, after_left, after_right, following)
                if ended_worth is None
                else ended_worth
            )
            if maximise:
                best = max(best, worth)
                if best >= 1.0:
                    break
            else:
                best = min(best, worth)
                if best <= 0.0:
                    break
        return best


def _first(child: tuple[int, float | None, Hands, int, int]) -> int:
    """A child's :func:`_rank`: sorting on it alone keeps equals in the engine's order."""
    return child[0]


def judge(
    round_: Round, side: int, exact_below: int, limit: int, try_exact: bool, known: Known
) -> tuple[float, int, bool]:
    """What a led round of a variant these searches know (:func:`applies`), perhaps
    over, is worth to ``side``: with at most ``exact_below`` tiles left, whether it wins
    (:class:`WinSearch`, within ``limit`` moves) plus :data:`TIE_BREAK` of a playout;
    with more, or once a search outgrew its limit (``try_exact`` False from then on), a
    playout alone (as a win or not where a search was meant, so that one decision's
    values share a scale). Also the work it took, an abandoned search included, and
    whether a search was abandoned."""
    assert isinstance(round_, LineRound) and round_.led
    hands = round_.hands
    left, right = round_.line_ends
    turn = round_.turn
    outcome = round_.outcome()
    exact = tiles_left(round_) <= exact_below
    value: float | None = None
    work = 0
    if exact and try_exact:
        if outcome is not None:
            value = 1.0 if result_value(outcome, side) >= 1.0 else 0.0
        else:
            search = WinSearch(side, limit, known)
            with contextlib.suppress(OutOfWork):
                value = search.value((hands[0], hands[1], hands[2], hands[3]), left, right, turn)
            work = search.work
    if outcome is not None:
        played, spent = result_value(outcome, side), 0
    else:
        played, spent = playout(hands.copy(), left, right, turn, side)
    if value is not None:
        return value + TIE_BREAK * played, work + spent, False
    if exact:
        played = 1.0 if played > 0 else 0.0
    return played, work + spent, exact and try_exact
