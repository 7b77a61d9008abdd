"""Milo's searches on bare hands play exactly as the engine referees: the same wins as
plain minimax through the engine, the same playouts (value and moves counted) as the
shrewd policy played move by move on the engine's rounds, and the engine's scoring
(R-MI-2 fits, R-MI-4 passes, R-MI-5 scores, R-ALL-5 blocks)."""

from __future__ import annotations

import random

import pytest

from bot.engine import GAMES, PASS, LineRound, Milo, Round
from bot.players.milo_search import Known, WinSearch, applies, judge, playout
from bot.players.search import OutOfWork, ordered_children, result_value, weight
from bot.players.search import playout as engine_playout
from tests.players.test_expert import endgames, minimax


def position(round_: Round) -> tuple[tuple[int, int, int, int], int, int, int]:
    assert isinstance(round_, LineRound)
    hands = round_.hands
    left, right = round_.line_ends
    return (hands[0], hands[1], hands[2], hands[3]), left, right, round_.turn


def led_positions(count: int) -> list[Milo]:
    """Milo rounds at every stage after the lead, from random play."""
    found = []
    for seed in range(count):
        round_ = Milo.deal(4, random.Random(seed))
        picker = random.Random(seed)
        while round_.outcome() is None:
            round_.play(picker.choice(round_.legal_moves()))
            if round_.outcome() is None and picker.random() < 0.3:
                found.append(round_.copy())
    return found


def copied_policy(round_: Round) -> tuple[Round, int]:
    """The shrewd policy found by playing every move on the engine's copies: points
    scored at once, then the next seat left to pass, then the heaviest tile, the first
    of equals; every move tried counts as work."""
    moves = round_.legal_moves()
    if len(moves) == 1:
        round_.play(moves[0])
        return round_, 0
    mover = round_.side_of(round_.turn)
    best: tuple[int, bool, int] | None = None
    chosen = moves[0]
    for move in moves:
        child = round_.copy()
        child.play(move)
        gained = child.scores[mover] - round_.scores[mover]
        key = (gained, child.legal_moves() == (PASS,), weight(move))
        if best is None or key > best:
            best, chosen = key, move
    round_.play(chosen)
    return round_, len(moves)


class EngineWinSearch:
    """The win search through the engine's rounds, copying one for every move tried:
    what the search on bare hands must agree with, move for move counted."""

    def __init__(self, side: int) -> None:
        self.side = side
        self.work = 0
        self.passes = 0
        self.known: dict[tuple[int, ...], float] = {}

    def value(self, round_: Round) -> float:
        outcome = round_.outcome()
        if outcome is not None:
            return result_value(outcome, self.side)
        left, right = position(round_)[1:3]
        key = (*round_.hands, min(left, right), max(left, right), round_.turn)
        if key not in self.known:
            self.known[key] = self._children(round_)
        return self.known[key]

    def _children(self, round_: Round) -> float:
        moves = round_.legal_moves()
        self.work += len(moves)
        self.passes += moves == (PASS,)
        mover = round_.side_of(round_.turn)
        values: list[float] = []
        for child in ordered_children(round_):
            values.append(self.value(child))
            if (mover == self.side and max(values) >= 1) or (
                mover != self.side and min(values) <= 0
            ):
                break
        return max(values) if mover == self.side else min(values)


def test_only_milo_s_line_is_searched_on_bare_hands() -> None:
    assert [name for name, variant in GAMES.items() if applies(variant)] == ["milo"]


def test_a_playout_on_bare_hands_plays_as_the_engine_would() -> None:
    """Same round value and same moves counted, from every stage of many rounds: the
    blocks (R-ALL-5) and dominoes (R-MI-5, both ends alike scoring 2) included."""
    positions = led_positions(120)
    assert len(positions) >= 300
    values = set()
    for round_ in positions:
        side = round_.side_of(round_.turn)
        hands, left, right, turn = position(round_)
        expected = engine_playout(round_.copy(), side, copied_policy)
        assert playout(list(hands), left, right, turn, side) == expected
        values.add(expected[0])
    assert values == {-2.0, -1.0, 0.0, 1.0, 2.0}


def test_the_win_search_finds_what_minimax_finds() -> None:
    """Whether the side to move wins (R-MI-5) against players who see every tile."""
    positions = endgames("milo", 10, 12)
    assert len(positions) >= 6
    wins = set()
    for round_ in positions:
        for side in (0, 1):
            win = float(minimax(round_.copy(), side) >= 1)
            assert WinSearch(side, 10**6).value(*position(round_)) == win
            wins.add(win)
    assert wins == {0.0, 1.0}


def test_the_win_search_counts_the_moves_the_engine_s_would() -> None:
    """The same answer in the same work, passes (R-MI-4) included: the expert's counted
    work, and so its choices, are what they were through the engine."""
    passes = 0
    for round_ in endgames("milo", 14, 12):
        side = round_.side_of(round_.turn)
        reference = EngineWinSearch(side)
        truth = float(reference.value(round_.copy()) >= 1)
        search = WinSearch(side, 10**6)
        assert (search.value(*position(round_)), search.work) == (truth, reference.work)
        passes += reference.passes
    assert passes > 0


def test_win_searches_sharing_what_they_proved_agree_with_fresh_ones() -> None:
    """One decision's searches share their proved positions (a position is the hands,
    the ends in either order and the turn: R-MI-2), and still answer as if alone."""
    for round_ in endgames("milo", 12, 8):
        side = round_.side_of(round_.turn)
        known: Known = {}
        for move in round_.legal_moves():
            child = round_.copy()
            child.play(move)
            if child.outcome() is not None:
                continue
            alone = WinSearch(side, 10**6).value(*position(child))
            assert WinSearch(side, 10**6, known).value(*position(child)) == alone
        assert known


def test_the_win_search_stops_at_its_limit() -> None:
    [round_] = endgames("milo", 24, 1)
    search = WinSearch(round_.side_of(round_.turn), 50)
    with pytest.raises(OutOfWork):
        search.value(*position(round_))
    assert 50 < search.work <= 50 + 7  # one node's moves past the limit at most


def test_a_judged_guess_is_a_win_and_a_playout_s_share_or_a_playout() -> None:
    """Few tiles left: the win (or not), with a thousandth of the playout's value to
    tell equal wins apart. A search past its limit, or too many tiles: the playout, as
    a win or not where a search was meant."""
    [round_] = endgames("milo", 12, 1)
    side = round_.side_of(round_.turn)
    win = WinSearch(side, 10**6).value(*position(round_))
    played, spent = engine_playout(round_.copy(), side, copied_policy)
    value, work, gave_up = judge(round_, side, 12, 10**6, True, {})
    assert (value, gave_up) == (win + 0.001 * played, False)
    assert work > spent
    value, work, gave_up = judge(round_, side, 12, 5, True, {})
    assert (value, gave_up) == (float(played > 0), True)
    assert work > spent
    assert judge(round_, side, 12, 10**6, False, {}) == (float(played > 0), spent, False)
    assert judge(round_, side, 11, 10**6, True, {}) == (played, spent, False)


def test_a_finished_guess_is_judged_by_its_score() -> None:
    """A candidate move that ends the round (R-MI-5) is worth what it scored."""
    for round_ in endgames("milo", 6, 30):
        for move in round_.legal_moves():
            child = round_.copy()
            child.play(move)
            outcome = child.outcome()
            if outcome is None:
                continue
            side = round_.side_of(round_.turn)
            points = result_value(outcome, side)
            assert judge(child, side, 19, 10**6, True, {}) == (
                float(points >= 1) + 0.001 * points,
                0,
                False,
            )
            return
    pytest.fail("no move ended a round")
