"""R-MG: Merry-Go-Round."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    DRAW,
    PASS,
    TILES,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    Match,
    MerryGoRound,
    Move,
    Options,
    Reason,
    SpinnerLayout,
    Tile,
)
from bot.engine.merry_go_round import nearest_five
from tests.engine.builders import build, legal, no_six, play, replay_first_round
from tests.engine.conftest import LoadRecord

SIXES = "6-6 6-5 6-4 6-3 6-2 6-1 6-0"
LONE_5_5 = ["5-5 6-6 1-1 6-5 6-4 6-3 6-2", "5-0 4-4 2-1 3-0 3-1 4-0 4-1"]
"""Seat 0 holds 6-6 and may lead 5-5 (R-MG-2); seat 1 holds one five, 5-0."""


@pytest.mark.parametrize(("players", "boneyard"), [(2, 14), (3, 7), (4, 0)])
def test_r_mg_1_seven_tiles_each(players: int, boneyard: int) -> None:
    round_ = Match("merry-go-round", players, seed=2).round
    assert [len(round_.hand(s)) for s in range(players)] == [7] * players
    assert len(round_.boneyard) == boneyard


def test_r_mg_2_highest_double_holder_leads_any_double() -> None:
    # 6-6 is in the boneyard: seat 0's 5-5 is the highest double dealt.
    round_ = build(MerryGoRound, ["5-5 2-2 6-1 6-2 6-3 5-1 5-0", "4-4 3-3 1-0 4-0 4-1 3-0 3-1"])
    assert round_.turn == 0 and legal(round_) == {"5-5", "2-2"}
    with pytest.raises(IllegalMove, match=r"opens with a double.*\(R-MG-2\)"):
        round_.play(Move.parse("6-1"))
    play(round_, "2-2")
    layout = round_.view().layout
    assert isinstance(layout, SpinnerLayout) and layout.spinner == Tile(2, 2)


def test_r_mg_2_no_double_means_a_new_deal() -> None:
    plain = [t for t in TILES if not t.is_double]
    with pytest.raises(InvalidDeal, match="nobody holds a double"):
        MerryGoRound([plain[:7], plain[7:14]], plain[14:] + [t for t in TILES if t.is_double])


def test_r_mg_3_all_four_sides_before_any_other_tile() -> None:
    round_ = build(MerryGoRound, ["6-6 6-4 5-1 2-1 2-0 3-2 4-3", "6-5 5-2 1-0 3-0 3-1 4-0 4-1"])
    play(round_, "6-6", "6-5 N", "6-4 E")
    assert "5-2 N" not in legal(round_)
    with pytest.raises(IllegalMove, match=r"\(R-MG-3\)"):
        round_.play(Move.parse("5-2 N"))


def test_r_mg_4_lone_5_5_spinner_scores_2_and_5_0_on_it_scores_2() -> None:
    round_ = build(MerryGoRound, LONE_5_5, leader=0)
    play(round_, "5-5")
    assert round_.scores == [2, 0]  # 5 + 5 = 10
    play(round_, "5-0 N")
    assert round_.scores == [2, 2]  # spinner 10 + 0 = 10


def test_r_mg_4_a_sum_of_0_is_not_a_positive_multiple_of_5() -> None:
    round_ = build(MerryGoRound, ["0-0 6-6 6-5 6-4 6-3 6-2 6-1", "5-4 3-1 2-1 4-1 5-1 3-2 4-2"])
    play(round_, "0-0")
    assert round_.open_sum() == 0
    assert round_.scores == [0, 0] and not round_.score_events


def test_r_mg_4_spinner_counts_until_two_arms_are_started() -> None:
    round_ = build(MerryGoRound, ["3-3 3-1 6-5 6-6 6-4 4-0 4-1", "3-2 1-1 2-0 5-0 5-1 5-2 4-2"])
    play(round_, "3-3")
    assert round_.open_sum() == 6
    play(round_, "3-2 N")
    assert round_.open_sum() == 6 + 2
    play(round_, "3-1 E")  # two arms started: the spinner no longer counts
    assert round_.open_sum() == 2 + 1
    assert round_.scores == [0, 0]


def test_r_mg_4_a_double_at_an_arm_end_counts_both_halves() -> None:
    round_ = build(MerryGoRound, ["6-6 6-1 6-2 5-4 4-0 4-1 4-2", "6-3 6-0 3-3 5-1 2-0 2-1 1-0"])
    play(round_, "6-6", "6-3 N", "6-1 E", "6-0 S", "6-2 W", "3-3 N")
    assert round_.open_sum() == (3 + 3) + 1 + 0 + 2


def test_r_mg_5_draw_until_a_tile_fits() -> None:
    round_ = build(
        MerryGoRound,
        ["6-6 1-1 6-5 6-4 6-2 6-1 6-0", "2-1 3-1 3-0 4-0 4-1 5-0 5-1"],
        "0-0 2-0 6-3 5-5",
    )
    play(round_, "6-6")
    assert legal(round_) == {"draw"} and round_.forced_move() is None  # a choice to make
    play(round_, "draw")  # 0-0
    assert legal(round_) == {"draw"} and round_.forced_move() is DRAW  # no more a choice
    play(round_, "draw")  # 2-0
    assert legal(round_) == {"draw"} and round_.forced_move() is DRAW
    play(round_, "draw")  # 6-3 fits, and must be played
    assert round_.turn == 1
    assert legal(round_) == {"6-3 N", "6-3 E", "6-3 S", "6-3 W"}
    assert round_.forced_move() is None


def test_r_mg_5_empty_boneyard_means_pass() -> None:
    round_ = build(MerryGoRound, [SIXES, no_six(0, 7), no_six(7, 7), no_six(14, 7)])
    assert round_.boneyard == []  # four players: 7 tiles each, none left (R-MG-1)
    play(round_, "6-6")
    assert legal(round_) == {"pass"} and round_.forced_move() is PASS


@pytest.mark.parametrize("keep_last_two", [True, False])
def test_r_mg_5_keep_last_two_leaves_two_undrawn(keep_last_two: bool) -> None:
    """Three seats, 7 tiles in the boneyard and no six outside seat 0's hand: seat 1
    draws until 2 are left and then passes, or with the option off draws them all."""
    round_ = build(MerryGoRound, [SIXES, no_six(0, 7), no_six(7, 7)], keep_last_two=keep_last_two)
    play(round_, "6-6", *["draw"] * 5)
    assert len(round_.boneyard) == 2 and round_.turn == 1
    if keep_last_two:
        assert legal(round_) == {"pass"}
    else:
        assert legal(round_) == {"draw"}
        play(round_, "draw", "draw")
        assert round_.boneyard == [] and legal(round_) == {"pass"}


@pytest.mark.parametrize(("raw", "points"), [(23, 5), (22, 4), (2, 0), (25, 5), (0, 0)])
def test_r_mg_6_round_score_to_nearest_five_divided_by_five(raw: int, points: int) -> None:
    assert nearest_five(raw) // 5 == points


@pytest.mark.parametrize(("raw", "points"), [(23, 5), (22, 4), (2, 0)])
def test_r_mg_6_domino_scores_the_rounded_other_counts(
    record: LoadRecord, raw: int, points: int
) -> None:
    """RULES.md's three examples, each in a round that scored no play (R-MG-4)."""
    outcome = Match.from_record(record(f"merry_domino_{raw}")).rounds[0]
    assert outcome.reason is Reason.DOMINO and outcome.winner is not None
    assert sum(outcome.counts) == raw and outcome.counts[outcome.winner] == 0
    assert outcome.points[outcome.winner] == points and sum(outcome.points) == points
    assert (outcome.others, outcome.own, outcome.raw) == (raw, 0, raw)
    assert outcome.rounded == points * 5 and outcome.rule == "R-MG-6"
    assert outcome.describe(["Ann", "Bob"]).endswith(
        f"{raw} − 0 = {raw}, to the nearest 5 is {points * 5}: {points} points (R-MG-6)"
    )


def test_r_mg_7_a_score_past_61_is_bust_and_play_goes_on() -> None:
    round_ = build(MerryGoRound, LONE_5_5, leader=0, scores=[60, 0])
    play(round_, "5-5")  # 2 points would make 62
    assert round_.scores == [60, 0] and round_.outcome() is None
    event = round_.score_events[-1]
    assert event.bust and (event.kind, event.points, event.open_sum) == ("play", 2, 10)
    assert (event.target, event.bust_rule) == (61, "R-MG-7")
    assert event.describe(["Ann", "Bob"]) == (
        "Ann scores 2: the open ends total 10 (R-MG-4), but that passes 61: bust (R-MG-7)"
    )


def test_r_mg_7_exactly_61_ends_the_game_at_once_mid_round() -> None:
    round_ = build(MerryGoRound, LONE_5_5, leader=0, scores=[59, 0])
    play(round_, "5-5")
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.TARGET and outcome.winner == 0
    assert round_.scores == [61, 0] and round_.legal_moves() == ()


def test_r_mg_7_target_is_always_61() -> None:
    assert Options.for_game(MerryGoRound, 3).target == 61
    with pytest.raises(InvalidOptions, match="exactly 61"):
        Options.for_game(MerryGoRound, 3, target=100)


def test_r_mg_7_a_round_score_past_61_is_bust_too(record: LoadRecord) -> None:
    """Seat 0 dominoes for 5 points (23 → 25) and scores nothing in play: from 58 that
    would pass 61."""
    round_ = replay_first_round(record("merry_domino_23"), scores=[58, 0])
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.DOMINO and outcome.winner == 0
    assert round_.scores == [58, 0] and outcome.points == (0, 0)
    event = round_.score_events[-1]
    assert event.kind == "round" and event.bust and event.points == 5


def test_r_mg_7_a_round_score_to_exactly_61_wins(record: LoadRecord) -> None:
    round_ = replay_first_round(record("merry_domino_23"), scores=[56, 0])
    assert round_.scores == [61, 0]


def test_r_mg_7_a_match_stops_the_moment_a_play_reaches_61() -> None:
    """Seeded random matches: each ends with one side on exactly 61, nobody ever past
    it, and those that end on a scoring play end mid-round, tiles still in hand."""
    mid_round = 0
    for seed in range(30):
        match = Match("merry-go-round", 2 + seed % 3, seed=seed)
        picker = random.Random(seed)
        while match.outcome() is None:
            match.play(picker.choice(match.legal_moves()))
            assert max(match.scores) <= 61
        outcome = match.outcome()
        assert outcome is not None and outcome.scores[outcome.winner] == 61
        last = match.rounds[-1]
        if last.reason is Reason.TARGET:
            mid_round += 1
            assert all(last.hands) and match.legal_moves() == ()
    assert mid_round  # random play reaches 61 on a play in some of these matches
