"""The expert's tree search over guesses (Maltese Cross): it tries every move, spends the
work it is given, repeats itself given the same seed, on a deal it knows whole it finds
the round's win whenever there is one (R-CR-6: dominoing or the lowest count wins the
round), and it keeps each move's points as the rules score them."""

from __future__ import annotations

import random

import pytest

from bot.engine import GAMES, Round
from bot.players import ismcts
from bot.players.search import result_value

WORK = 3000


def positions(game: str, tiles: int, count: int) -> list[Round]:
    """Two-player positions with at most ``tiles`` tiles in the hands and nothing left
    to draw (R-CR-5), so that the deal is the whole future, from random play."""
    variant = GAMES[game]
    found = []
    for seed in range(count * 100):
        round_ = variant.deal(2, random.Random(seed))
        picker = random.Random(seed)
        while round_.outcome() is None and (
            len(round_.hand(0)) + len(round_.hand(1)) > tiles or len(round_.boneyard) > 2
        ):
            round_.play(picker.choice(round_.legal_moves()))
        if round_.outcome() is None and len(round_.legal_moves()) > 1:
            found.append(round_)
        if len(found) == count:
            break
    return found


def won(round_: Round, side: int) -> bool:
    """Whether ``side`` wins the round against every defence: plain minimax."""
    outcome = round_.outcome()
    if outcome is not None:
        return outcome.winner == side
    results = []
    for move in round_.legal_moves():
        child = round_.copy()
        child.play(move)
        results.append(won(child, side))
    return any(results) if round_.side_of(round_.turn) == side else all(results)


@pytest.mark.parametrize("game", ["cross", "maltese-cross"])
def test_on_a_deal_it_knows_whole_it_finds_a_win_when_there_is_one(game: str) -> None:
    rounds = positions(game, 6, 20)
    assert len(rounds) == 20
    decisive = 0  # some moves win, others do not
    for round_ in rounds:
        side = round_.side_of(round_.turn)
        moves = round_.legal_moves()
        winning = []
        for move in moves:
            child = round_.copy()
            child.play(move)
            if won(child, side):
                winning.append(move)
        if not winning:
            continue
        decisive += len(winning) < len(moves)
        found = ismcts.search(moves, [round_], WORK, random.Random(1), 0.35)
        assert found.best in winning
        assert found.worth[moves.index(found.best)] > 0.9  # its later moves win too
    assert decisive >= 3


def test_every_simulation_passes_one_root_move_and_every_move_is_tried() -> None:
    round_ = GAMES["cross"].deal(2, random.Random(3))
    round_.play(round_.legal_moves()[0])  # the lead: then a choice of arms and tiles
    moves = round_.legal_moves()
    assert len(moves) > 1
    found = ismcts.search(moves, [round_], WORK, random.Random(2), 0.35)
    assert all(visits >= 1 for visits in found.visits)
    assert sum(found.visits) == found.simulations
    assert all(0.0 <= worth <= 1.0 for worth in found.worth)


def test_the_same_seed_grows_the_same_tree_and_more_work_more_of_it() -> None:
    round_ = GAMES["maltese-cross"].deal(2, random.Random(4))
    round_.play(round_.legal_moves()[0])
    moves = round_.legal_moves()
    first = ismcts.search(moves, [round_], WORK, random.Random(5), 0.35)
    assert ismcts.search(moves, [round_], WORK, random.Random(5), 0.35) == first
    more = ismcts.search(moves, [round_], 2 * WORK, random.Random(5), 0.35)
    assert more.simulations > first.simulations


@pytest.mark.parametrize("game", ["cross", "maltese-cross"])
def test_a_move_that_ends_the_round_keeps_the_points_it_scores(game: str) -> None:
    """A seat with one tile that fits more than one arm dominoes whichever it takes
    (R-ALL-5): each move's points are that round's award to the seat's side (R-CR-6),
    less the other side's, whatever the tree chose."""
    checked = 0
    for seed in range(200):
        round_ = GAMES[game].deal(2, random.Random(seed))
        picker = random.Random(seed)
        while round_.outcome() is None and not (
            len(round_.hand(round_.turn)) == 1 and len(round_.legal_moves()) > 1
        ):
            round_.play(picker.choice(round_.legal_moves()))
        if round_.outcome() is not None or any(m.tile is None for m in round_.legal_moves()):
            continue
        side = round_.side_of(round_.turn)
        moves = round_.legal_moves()
        found = ismcts.search(moves, [round_], 200, random.Random(7), 0.35)
        for move, points in zip(moves, found.points, strict=True):
            child = round_.copy()
            child.play(move)
            outcome = child.outcome()
            assert outcome is not None and outcome.winner == side
            assert points == result_value(outcome, side)
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_a_round_is_worth_its_result_and_a_share_of_its_points() -> None:
    """Played for the result alone, a won round is worth 1 whatever its points; with a
    share for the points, a bigger win is worth more, a bigger loss less, and every
    worth stays between 0 and 1 (UCB's exploration is sized for that)."""
    variant = GAMES["maltese-cross"]
    ends = []
    for seed in range(40):
        round_ = variant.deal(2, random.Random(seed))
        picker = random.Random(seed)
        while round_.outcome() is None:
            round_.play(picker.choice(round_.legal_moves()))
        outcome = round_.outcome()
        assert outcome is not None
        if outcome.winner is not None:
            ends.append(outcome)
    winners = sorted(ends, key=lambda o: result_value(o, o.winner or 0))
    small, big = winners[0], winners[-1]
    assert result_value(small, small.winner or 0) < result_value(big, big.winner or 0)
    alone, mixed = ismcts.Worth(), ismcts.Worth(win_share=0.5, scale=15.0)
    for outcome in (small, big):
        winner = outcome.winner or 0
        assert alone(outcome, winner) == 1.0 and alone(outcome, 1 - winner) == 0.0
        assert 0.5 < mixed(outcome, winner) < 1.0 and 0.0 < mixed(outcome, 1 - winner) < 0.5
    assert mixed(big, big.winner or 0) > mixed(small, small.winner or 0)
    assert mixed(big, 1 - (big.winner or 0)) < mixed(small, 1 - (small.winner or 0))
