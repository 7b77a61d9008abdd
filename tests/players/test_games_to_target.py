"""Whole games drawn from a tournament's rounds (``benchmarks/games_to_target.py``): the
first side to the target wins (R-CR-7, R-MC-6, R-MI-6), so a side that wins fewer rounds
by more points can win most games; and Merry-Go-Round, whose rounds depend on the score
(R-MG-7), is not drawn."""

from __future__ import annotations

import pytest

from benchmarks.games_to_target import applies, games_won
from bot.engine import GAMES


def test_a_side_that_wins_every_round_wins_every_game() -> None:
    assert games_won([[6.0, 11.0]] * 20, 100) == (1.0, 1.0, 1.0)


def test_fewer_rounds_won_by_more_points_win_most_games() -> None:
    # A wins 2 rounds in 5, by 20 points; B wins 3 in 5, by 5 (R-CR-6: only the winner scores).
    deals = [[20.0, -5.0], [-5.0, -5.0], [20.0, 0.0]] * 30
    share, low, high = games_won(deals, 100)
    assert low > 0.75
    assert low <= share <= high


def test_swapping_the_sides_gives_the_other_side_the_same_games() -> None:
    deals = [[12.0, -3.0], [-8.0, 0.0], [-4.0, 9.0], [5.0, -15.0]] * 10
    share, low, high = games_won(deals, 100, seed=3)
    mirrored = games_won([[-m for m in deal] for deal in deals], 100, seed=3)
    assert mirrored == pytest.approx((1 - share, 1 - high, 1 - low))


def test_only_games_scored_by_the_rounds_winner_alone_are_drawn() -> None:
    drawn = {name for name, variant in GAMES.items() if applies(variant)}
    assert drawn == {"cross", "maltese-cross", "milo"}
