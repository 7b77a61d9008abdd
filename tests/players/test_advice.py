"""Hints: the move shown is the move the player makes, and the reason given is the one
that decided it, with its figures."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.engine import GAMES, Cross, MalteseCross, Milo, Move, Round, SeatView
from bot.players import computer_player
from bot.players.advice import Advice, Why, advise
from tests.engine.builders import build, play
from tests.players.test_players import lone_five_five, positions


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_hint_is_the_move_the_player_makes(game: str, level: str) -> None:
    for seed, (match, seat) in enumerate(positions(game, 40 if level == "normal" else 15)):
        view = match.seat_view(seat)
        advice = advise(view, level, seed)
        assert advice.move == computer_player(level, seed).choose(view)
        assert advice.level == level
        assert isinstance(advice.why, Why)
        if len(view.legal) > 1:
            assert advice.why is not Why.ONLY_MOVE


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_forced_move_is_the_only_move(level: str) -> None:
    round_ = build(Cross, ["6-6 1-0 1-1 2-1 3-1 4-1 5-1", "5-5 2-0 2-2 3-0 3-2 4-0 4-2"])
    advice = advise(round_.seat_view(0), level)  # R-CR-2: the highest double leads
    assert advice == Advice(Move.parse("6-6"), level, Why.ONLY_MOVE)
    play(round_, "6-6")  # seat 1 holds no six: it must draw (R-CR-5), then pass
    assert advise(round_.seat_view(1), level).why is Why.ONLY_MOVE


def last_tiles(game: str) -> Iterator[SeatView]:
    """Positions in which the seat to move holds one tile that fits in several places."""
    variant = GAMES[game]
    for seed in range(40):
        round_ = variant.deal(variant.player_counts[seed % 3], random.Random(seed))
        picker = random.Random(seed)
        while round_.outcome() is None:
            if len(round_.hand(round_.turn)) == 1 and len(round_.legal_moves()) > 1:
                yield round_.seat_view(round_.turn)
            round_.play(picker.choice(round_.legal_moves()))


def test_a_last_tile_dominoes() -> None:
    """R-ALL-5: playing the last tile ends the round, wherever it goes (in Cross every
    place is alike, so where is no reason)."""
    found = 0
    for view in last_tiles("cross"):
        advice = advise(view)
        assert advice == Advice(advice.move, "normal", Why.DOMINO)
        found += 1
    assert found >= 5


def test_a_play_worth_fives_scores() -> None:
    """R-MG-4: 5-0 on the lone 5-5 makes the ends 10, worth 2 points."""
    advice = advise(lone_five_five(0).seat_view(1))
    assert advice.move.tile is not None and str(advice.move.tile) == "5-0"
    assert (advice.why, advice.points, advice.open_sum) == (Why.SCORES, 2, 10)


def test_exactly_61_reaches_the_target() -> None:
    """R-MG-7: from 59, the 2 points of 5-0 make exactly 61."""
    advice = advise(lone_five_five(59).seat_view(1))
    assert advice.move.tile is not None and str(advice.move.tile) == "5-0"
    assert (advice.why, advice.points, advice.target) == (Why.REACHES_TARGET, 2, 61)


def test_a_play_past_61_is_avoided() -> None:
    """R-MG-7: from 60, 5-0's 2 points would bust; 5-2 scores nothing and is safe."""
    advice = advise(lone_five_five(60).seat_view(1))
    assert advice.move.tile is not None and str(advice.move.tile) == "5-2"
    assert (advice.why, advice.target) == (Why.AVOIDS_BUST, 61)


@pytest.mark.parametrize(
    ("hand", "tile", "number"),
    [
        ("6-3 6-1 1-1 5-0 4-2 5-2 5-4", "6-1", 1),  # lighter than 6-3, but 1-1 caps it
        ("6-2 6-0 0-0 5-1 4-1 3-1 5-3", "6-0", 0),  # lighter than 6-2, but 0-0 caps it
    ],
)
def test_an_arm_it_can_cap(hand: str, tile: str, number: int) -> None:
    """R-MC-3: the arm the tile opens shows a number whose double the hand holds."""
    round_ = build(MalteseCross, ["6-6 2-0 4-0 3-3 2-2 4-4 5-5", hand])
    play(round_, "6-6")
    advice = advise(round_.seat_view(1))
    assert advice.move.tile is not None and str(advice.move.tile) == tile
    assert (advice.why, advice.number) == (Why.CAN_CAP, number)


def milo_after_two_passes() -> Round:
    """Seat 1 passed on 6-6 and seat 3 on 6 and 4 (R-MI-4). Seat 0 holds 6-2 for the 6
    and 4-3 for the 4."""
    round_ = build(
        Milo,
        [
            "6-6 6-2 4-3 5-5 5-1 1-0 0-0",
            "5-4 4-1 4-0 2-2 2-1 2-0 1-1",
            "6-5 6-4 6-3 6-1 6-0 4-4 4-2",
            "5-3 5-2 5-0 3-3 3-2 3-1 3-0",
        ],
    )
    play(round_, "6-6", "pass", "6-4 R", "pass")
    return round_


def test_milo_leaves_a_number_the_next_opponent_lacks() -> None:
    """4-3 keeps the 6 open for seat 1, which has shown it holds no six: a pip lighter
    than 6-2, but seat 1 will have to pass on that end."""
    advice = advise(milo_after_two_passes().seat_view(0))
    assert advice.move == Move.parse("4-3 R")
    assert (advice.why, advice.number) == (Why.OPPONENT_LACKS, 6)


def test_hard_says_how_often_its_move_did_best() -> None:
    advice = advise(milo_after_two_passes().seat_view(0), "hard", seed=3)
    assert advice.why is Why.WINS_DEALS
    assert advice.deals >= 8 and 0.0 < advice.share <= 1.0
    assert (advice.share * advice.deals).is_integer()


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_hint_depends_on_nothing_but_the_view_and_seed(level: str) -> None:
    for seed, (match, seat) in enumerate(positions("merry-go-round", 8)):
        view = match.seat_view(seat)
        assert advise(view, level, seed) == advise(view, level, seed)


def test_only_the_seat_to_move_and_a_hinting_level_get_a_hint() -> None:
    round_ = build(Cross, ["6-6 1-0 1-1 2-1 3-1 4-1 5-1", "5-5 2-0 2-2 3-0 3-2 4-0 4-2"])
    with pytest.raises(ValueError, match="not its turn"):
        advise(round_.seat_view(1))
    with pytest.raises(ValueError, match="normal or hard"):
        advise(round_.seat_view(0), "easy")
