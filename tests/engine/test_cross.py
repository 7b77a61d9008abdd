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
    Tile,
)
from tests.engine.builders import build, legal, no_six, play
from tests.engine.conftest import LoadRecord

NO_SIX_LEFT = "4-0 5-0 2-1 3-1 4-1"
"""Five more tiles without a six, for a seat that must not be able to cross."""


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
    # 6-6 is in the boneyard: seat 1's 5-5 is the highest double dealt.
    round_ = build(Cross, ["4-4 6-5 1-0 6-4 6-3", "5-5 3-3 2-0 5-1 4-1", "6-1 2-2 6-2 5-2 4-2"])
    assert round_.turn == 1
    assert legal(round_) == {"5-5"}
    with pytest.raises(IllegalMove, match="highest double, 5-5"):
        round_.play(Move.parse("3-3"))


def test_r_cr_2_no_double_in_any_hand_means_a_new_deal() -> None:
    class Shuffles(random.Random):
        """First shuffle: every double at the end (in the boneyard); then a real one."""

        calls = 0

        def shuffle(self, x: list[Tile]) -> None:  # type: ignore[override]  # sorts: a list only
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
    round_ = build(Cross, ["6-6 6-4 5-1 2-1 2-0 3-2 4-3", "6-5 5-2 1-0 3-0 3-1 4-0 4-1"])
    play(round_, "6-6", "6-5 N", "6-4 E")
    assert round_.open_ends()["N"] == 5
    assert legal(round_) == {"draw"}  # 5-2 would fit N, but N is started
    with pytest.raises(IllegalMove, match=r"arm N is started already.*\(R-CR-3\)"):
        round_.play(Move.parse("5-2 N"))


def test_r_cr_4_open_phase_any_arm_end() -> None:
    round_ = build(Cross, ["6-6 6-4 6-2 5-1 4-1 3-3 3-0", "6-5 6-3 3-1 2-1 1-0 0-0 1-1"])
    play(round_, "6-6", "6-5 N", "6-4 E", "6-3 S", "6-2 W")
    assert legal(round_) == {"2-1 W", "3-1 S"}
    play(round_, "3-1 S")
    assert legal(round_) == {"5-1 N", "5-1 S", "4-1 E", "4-1 S"}  # S now shows 1


def test_r_cr_5_drawn_tile_must_be_played() -> None:
    round_ = build(Cross, ["6-6 1-1 6-5 6-4 6-3 6-2 5-5", f"2-0 3-0 {NO_SIX_LEFT}"], "6-1 0-0")
    play(round_, "6-6")
    assert legal(round_) == {"draw"}
    play(round_, "draw")
    assert round_.turn == 1 and legal(round_) == {"6-1 N", "6-1 E", "6-1 S", "6-1 W"}
    assert round_.forced_move() is None  # where it goes is still the player's choice
    with pytest.raises(IllegalMove, match="must play it"):
        round_.play(PASS)


def test_r_cr_5_one_draw_then_pass_if_it_does_not_fit() -> None:
    round_ = build(Cross, ["6-6 1-1 6-5 6-4 6-3 6-2 6-1", f"2-0 3-0 {NO_SIX_LEFT}"], "0-0 5-5 4-4")
    play(round_, "6-6")
    assert round_.forced_move() is None  # the draw itself is the player's to make
    play(round_, "draw")
    assert legal(round_) == {"pass"}
    assert round_.forced_move() is PASS  # nothing else is left to choose
    with pytest.raises(IllegalMove, match=r"drawn your one tile.*\(R-CR-5\)"):
        round_.play(DRAW)
    play(round_, "pass")
    assert round_.turn == 0


def test_r_cr_5_nobody_draws_from_the_last_two() -> None:
    """Four seats: seat 0 holds the sixes it leads and crosses with; the others hold none
    and draw one tile each turn (none fits) until the boneyard is down to 2."""
    round_ = build(
        Cross,
        ["6-6 6-5 6-4 6-3 6-2", no_six(0, 5), no_six(5, 5), no_six(10, 5)],
        no_six(15, 6),  # then 6-0 and 6-1, never drawn
    )
    play(round_, "6-6", *["draw", "pass"] * 3, "6-5 N", *["draw", "pass"] * 3)
    assert len(round_.boneyard) == 2
    play(round_, "6-4 E")
    assert round_.turn == 1 and legal(round_) == {"pass"}
    assert round_.forced_move() is PASS  # nothing to play or draw: no choice to make
    with pytest.raises(IllegalMove, match=r"nobody draws: 2 tiles.*\(R-CR-5\)"):
        round_.play(DRAW)


def test_r_cr_6_domino_scores_the_other_hands(record: LoadRecord) -> None:
    match = Match.from_record(record("cross_domino"))
    outcome = match.rounds[0]
    assert outcome.reason is Reason.DOMINO and outcome.winner == 1
    assert outcome.counts == (2, 0, 5)
    assert outcome.points == (0, 2 + 5, 0)
    assert match.scores == [0, 7, 0]


def test_r_cr_6_blocked_13_against_30_scores_17(record: LoadRecord) -> None:
    match = Match.from_record(record("cross_blocked_13_vs_30"))
    outcome = match.rounds[0]
    assert outcome.reason is Reason.BLOCKED
    winner = outcome.winner
    assert winner is not None and outcome.counts[winner] == 13
    assert sum(outcome.counts) - 13 == 30
    assert outcome.points[winner] == 17 and sum(outcome.points) == 17
    assert (outcome.seat, outcome.own, outcome.others, outcome.raw) == (winner, 13, 30, 17)
    assert outcome.rule == "R-CR-6"
    names = ["Ann", "Bob"]
    assert outcome.describe(names) == (
        f"{names[winner]} wins the round: blocked with the lowest count, 13; the others hold"
        " 30: 30 − 13 = 17 (R-CR-6)"
    )


def test_r_cr_6_blocked_lowest_count_scores_every_other_hand_minus_own(record: LoadRecord) -> None:
    outcome = Match.from_record(record("cross_blocked_4_players")).rounds[0]
    assert outcome.reason is Reason.BLOCKED and outcome.counts == (4, 8, 16, 23)
    assert outcome.winner == 0 and outcome.points == (8 + 16 + 23 - 4, 0, 0, 0)


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
