"""How the guesses benchmark (``benchmarks/guesses.py``) scores the expert's guesses:
the share of the other seats' tiles put in the right hand, each guess by its weight."""

from __future__ import annotations

import random

import pytest

from benchmarks.guesses import effective_share, judge, placement_share
from bot.engine import GAMES, Options, Tile

ME, LEFT, RIGHT = [Tile(0, 0)], [Tile(1, 1), Tile(2, 2)], [Tile(3, 3), Tile(4, 4)]
TRUTH = [ME, LEFT, RIGHT]
SWAPPED = [ME, [Tile(1, 1), Tile(3, 3)], [Tile(2, 2), Tile(4, 4)]]
"""One tile of each other seat in the wrong hand: half of the four hidden tiles right."""


def test_the_true_deal_places_every_tile_and_a_swap_half_of_them() -> None:
    assert placement_share(TRUTH, [TRUTH], [1.0], seat=0) == 1.0
    assert placement_share(TRUTH, [SWAPPED], [1.0], seat=0) == 0.5


def test_each_guess_counts_by_its_weight() -> None:
    assert placement_share(TRUTH, [TRUTH, SWAPPED], [3.0, 1.0], seat=0) == pytest.approx(0.875)
    assert placement_share(TRUTH, [TRUTH, SWAPPED], [0.0, 1.0], seat=0) == 0.5


def test_guesses_without_weight_or_tiles_hidden_give_no_figure() -> None:
    assert placement_share(TRUTH, [TRUTH], [0.0], seat=0) is None
    assert placement_share([ME, [], []], [[ME, [], []]], [1.0], seat=0) is None


def test_effective_share_is_one_for_equal_weights_and_falls_as_one_dominates() -> None:
    assert effective_share([1.0, 1.0, 1.0, 1.0]) == 1.0
    assert effective_share([1.0, 0.0, 0.0, 0.0]) == 0.25
    assert effective_share([0.0, 0.0]) == 0.0


def test_guesses_drawn_for_a_seat_do_not_know_the_others_hands() -> None:
    """At Milo's first decision with a choice, the other three seats hold the 21 tiles
    the seat cannot see, 7 each (R-MI-1): guesses that know nothing place about a third
    of them right. A sampler that leaked the true hands would place far more."""
    milo = GAMES["milo"]
    round_ = milo.deal(4, random.Random(7), options=Options.for_game(milo, 4))
    while len(round_.legal_moves()) < 2:
        round_.play(round_.legal_moves()[0])
    sample = judge(round_, pool=40, rng=random.Random(1))

    assert sample is not None
    assert sample.unweighed == pytest.approx(1 / 3, abs=0.1)
    assert 0.0 < sample.effective <= 1.0
    assert sample.tiles_left == 28 - len(round_.view().laid)
