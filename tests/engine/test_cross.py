"""R-CR: Cross."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    DRAW,
    PASS,
    TILES,
    Cross,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    Match,
    Move,
    Options,
    Reason,
)
from tests.engine.builders import blocked_round, build, legal, play


@pytest.mark.parametrize(("players", "size", "boneyard"), [(2, 7, 14), (3, 5, 13), (4, 5, 8)])
def test_r_cr_1_hand_sizes_and_boneyard(players: int, size: int, boneyard: int) -> None:
    match = Match("cross", players, seed=1)
    assert [len(match.round.hand(s)) for s in range(players)] == [size] * players
    assert len(match.round.boneyard) == boneyard


@pytest.mark.parametrize("players", [1, 5])
def test_r_cr_1_two_to_four_players(players: int) -> None:
    with pytest.raises(InvalidOptions, match="2 or 3 or 4 players"):
        Options.for_game(Cross, players)


def test_r_cr_2_highest_double_leads_as_spinner() -> None:
    round_ = build(Cross, ["4-4 6-5 1-0", "5-5 3-3 2-0", "6-1 2-2"])
    assert round_.turn == 1
    assert legal(round_) == {"5-5"}
    with pytest.raises(IllegalMove, match="highest double, 5-5"):
        round_.play(Move.parse("3-3"))


def test_r_cr_2_no_double_in_any_hand_means_a_new_deal() -> None:
    class Shuffles(random.Random):
        """First shuffle: every double at the end (in the boneyard); then a real one."""

        calls = 0

        def shuffle(self, x: list) -> None:  # type: ignore[override]
            self.calls += 1
            if self.calls == 1:
                x.sort(key=lambda t: t.is_double)
            else:
                super().shuffle(x)

    rng = Shuffles(3)
    round_ = Cross.deal(4, rng)
    assert rng.calls >= 2
    assert any(t.is_double for s in range(4) for t in round_.hand(s))
    with pytest.raises(InvalidDeal, match="nobody holds a double"):
        hands = [[t for t in TILES if not t.is_double][i * 5 : i * 5 + 5] for i in range(4)]
        Cross(hands, [t for t in TILES if not any(t in h for h in hands)])


def test_r_cr_3_no_tile_on_a_started_arm_before_the_cross_is_complete() -> None:
    round_ = build(Cross, ["6-6 6-4 5-1", "6-5 5-2 1-0"])
    play(round_, "6-6", "6-5 N", "6-4 E")
    assert round_.open_ends()["N"] == 5
    assert legal(round_) == {"draw"}  # 5-2 would fit N, but N is started
    with pytest.raises(IllegalMove, match=r"arm N is started already.*\(R-CR-3\)"):
        round_.play(Move.parse("5-2 N"))


def test_r_cr_4_open_phase_any_arm_end() -> None:
    round_ = build(Cross, ["6-6 6-4 6-2 5-1 4-1", "6-5 6-3 3-1 2-1"])
    play(round_, "6-6", "6-5 N", "6-4 E", "6-3 S", "6-2 W")
    assert legal(round_) == {"2-1 W", "3-1 S"}
    play(round_, "3-1 S")
    assert legal(round_) == {"5-1 N", "5-1 S", "4-1 E", "4-1 S"}  # S now shows 1


def test_r_cr_5_drawn_tile_must_be_played() -> None:
    round_ = build(Cross, ["6-6 1-1", "2-0 3-0"], "6-1 0-0 5-5")
    play(round_, "6-6")
    assert legal(round_) == {"draw"}
    play(round_, "draw")
    assert round_.turn == 1 and legal(round_) == {"6-1 N", "6-1 E", "6-1 S", "6-1 W"}
    with pytest.raises(IllegalMove, match="must play it"):
        round_.play(PASS)


def test_r_cr_5_one_draw_then_pass_if_it_does_not_fit() -> None:
    round_ = build(Cross, ["6-6 1-1", "2-0 3-0"], "0-0 5-5 4-4")
    play(round_, "6-6", "draw")
    assert legal(round_) == {"pass"}
    with pytest.raises(IllegalMove, match=r"drawn your one tile.*\(R-CR-5\)"):
        round_.play(DRAW)
    play(round_, "pass")
    assert round_.turn == 0


def test_r_cr_5_nobody_draws_from_the_last_two() -> None:
    sixes = " ".join(str(t) for t in TILES if 6 in t)
    no_six = [str(t) for t in TILES if 6 not in t]
    round_ = build(Cross, [sixes, " ".join(no_six[:-2])], " ".join(no_six[-2:]))
    assert len(round_.boneyard) == 2
    play(round_, "6-6")
    assert legal(round_) == {"pass"}
    with pytest.raises(IllegalMove, match=r"nobody draws: 2 tiles.*\(R-CR-5\)"):
        round_.play(DRAW)


def test_r_cr_6_domino_scores_the_other_hands() -> None:
    round_ = build(Cross, ["6-6 2-1", "6-5", "5-5 4-3"])  # seat 1 dominoes at once
    play(round_, "6-6", "6-5 N")
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.DOMINO
    assert outcome.points == (0, 3 + 17, 0)
    assert round_.scores == [0, 20, 0]


def test_r_cr_6_blocked_13_against_30_scores_17(record) -> None:
    match = Match.from_record(record("cross_blocked_13_vs_30"))
    outcome = match.rounds[0]
    assert outcome.reason is Reason.BLOCKED
    winner = outcome.winner
    assert winner is not None and outcome.counts[winner] == 13
    assert sum(outcome.counts) - 13 == 30
    assert outcome.points[winner] == 17 and sum(outcome.points) == 17
    assert "30 − 13 = 17 (R-CR-6)" in outcome.explanation


def test_r_cr_6_blocked_lowest_count_scores_others_minus_own() -> None:
    round_ = blocked_round(Cross, ("1-1 2-1 2-2 4-1 4-2", "4-4 5-1 5-2 5-3 5-4 6-1 6-2 6-3 6-4"))
    outcome = round_.outcome()
    assert outcome is not None and outcome.counts == (20, 72)
    assert outcome.winner == 0 and outcome.points == (52, 0)


def test_r_cr_7_first_to_100_wins_and_each_round_is_dealt_fresh() -> None:
    match = Match("cross", 3, seed=11)
    picker = random.Random(0)
    deals = []
    while match.outcome() is None:
        if not match.round.history:
            deals.append(tuple(tuple(match.round.hand(s)) for s in range(3)))
        match.play(picker.choice(match.legal_moves()))
    outcome = match.outcome()
    assert outcome is not None
    assert match.scores[outcome.winner] >= 100
    assert sorted(match.scores)[-2] < 100
    before_last = [a - b for a, b in zip(match.scores, match.rounds[-1].points, strict=True)]
    assert max(before_last) < 100
    assert len(set(deals)) == len(deals) == len(match.rounds)
