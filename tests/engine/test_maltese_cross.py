"""R-MC: Maltese Cross."""

from __future__ import annotations

import pytest

from bot.engine import (
    DRAW,
    PASS,
    IllegalMove,
    MalteseCross,
    Match,
    Move,
    OnlyDrawnTile,
    Options,
    Reason,
    SpinnerLayout,
    Tile,
)
from tests.engine.builders import build, legal, no_six, play
from tests.engine.conftest import LoadRecord

ARMS = ("N", "E", "S", "W")


def crossed() -> MalteseCross:
    """The cross is built: arms N 5, E 4, S 3, W 2; seat 1 to play, holding 4-4 and 2-2."""
    round_ = build(
        MalteseCross,
        ["6-6 6-4 6-2 5-5 3-3 1-1 0-0", "6-5 6-3 4-4 2-2 5-1 4-0 1-0"],
    )
    play(round_, "6-6", "6-5 N", "6-4 E", "6-3 S", "6-2 W")
    return round_


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5)])
def test_r_mc_1_hands_and_lead_as_cross(players: int, size: int) -> None:
    match = Match("maltese-cross", players, seed=4)
    round_ = match.round
    assert [len(round_.hand(s)) for s in range(players)] == [size] * players
    doubles = [t for s in range(players) for t in round_.hand(s) if t.is_double]
    assert [m.text for m in match.legal_moves()] == [str(max(doubles))]


def test_r_mc_1_lead_refusal_cites_the_lead_rule_and_draws_cite_r_cr_5() -> None:
    """R-MC-1 (lead as R-CR-2) and R-MC-3 (drawing as R-CR-5): a refusal names the rule
    that refuses it, never a Maltese rule about something else (R-MC-5 is dead arms)."""
    round_ = build(
        MalteseCross, ["6-6 5-5 1-0 6-5 6-4 6-3 6-2", "4-4 2-0 4-0 5-0 2-1 3-1 4-1"], "3-0"
    )
    with pytest.raises(IllegalMove, match=r"highest double, 6-6 \(R-MC-1\)"):
        round_.play(Move.parse("5-5"))
    play(round_, "6-6", "draw")  # seat 1 draws 3-0: no six, so it passes
    with pytest.raises(IllegalMove, match=r"drawn your one tile.*\(R-CR-5\)"):
        round_.play(Move.parse("draw"))


def test_r_mc_2_all_four_arms_must_be_started_first() -> None:
    round_ = build(MalteseCross, ["6-6 6-4 5-5 4-4 3-3 2-2 1-1", "6-5 5-1 1-0 2-0 3-0 4-0 2-1"])
    play(round_, "6-6", "6-5 N", "6-4 E")
    with pytest.raises(IllegalMove, match=r"arm N is started already.*\(R-MC-2\)"):
        round_.play(Move.parse("5-1 N"))


def test_r_mc_3_caps_phase_only_matching_doubles_on_uncapped_arms() -> None:
    round_ = crossed()
    assert round_.phase == "caps"
    assert legal(round_) == {"4-4 E", "2-2 W"}
    with pytest.raises(IllegalMove, match=r"only doubles may be played: arm N needs the 5-5"):
        round_.play(Move.parse("5-1 N"))
    play(round_, "4-4 E")
    assert legal(round_) == {"5-5 N", "3-3 S"}
    play(round_, "5-5 N", "2-2 W")
    with pytest.raises(IllegalMove, match=r"arm N is capped already.*\(R-MC-3\)"):
        round_.play(Move.parse("1-1 N"))


def test_r_mc_3_draw_in_the_caps_phase_as_cross() -> None:
    round_ = build(
        MalteseCross, ["6-6 6-4 6-2 1-0 4-0 5-0 2-0", "6-5 6-3 2-1 3-1 4-1 5-1 3-0"], "5-5"
    )
    play(round_, "6-6", "6-5 N", "6-4 E", "6-3 S", "6-2 W")
    assert legal(round_) == {"draw"}
    play(round_, "draw")  # 5-5: caps N
    assert legal(round_) == {"5-5 N"}


def test_r_mc_4_complete_cross_opens_play_and_later_doubles_are_not_spinners() -> None:
    round_ = crossed()
    play(round_, "4-4 E", "5-5 N", "2-2 W", "3-3 S")
    assert round_.complete and round_.phase == "open"
    assert legal(round_) == {"5-1 N", "4-0 E"}
    play(round_, "5-1 N", "1-1 N")
    assert round_.open_ends() == {"N": 1, "E": 4, "S": 3, "W": 2}


def test_r_mc_5_uncapped_arms_die_when_the_boneyard_is_down_to_two(record: LoadRecord) -> None:
    data = record("maltese_dead_arm")
    last = data["actions"].pop()
    match = Match.from_record(data)
    round_ = match.round
    assert isinstance(round_, MalteseCross)
    assert not any(round_.dead_arms()) and len(round_.boneyard) == 3
    match.play(last[1])
    assert len(round_.boneyard) == 2 and not round_.complete
    dead = round_.dead_arms()
    assert dead == [not capped for capped in round_.capped] and any(dead)
    live = {ARMS[a] for a in range(4) if not dead[a]}
    assert set(round_.open_ends()) == live
    assert all(m.end_name in live for m in round_.legal_moves() if m.tile)
    dead_arm = ARMS[dead.index(True)]
    layout = round_.view().layout
    assert isinstance(layout, SpinnerLayout) and layout.arm(dead_arm).dead
    while round_.turn == last[0]:  # the drawer's turn ends as R-CR-5 says
        round_.play(round_.legal_moves()[0])
    seat = round_.turn
    tile = round_.hand(seat)[0]
    with pytest.raises(IllegalMove, match=rf"arm {dead_arm} is dead.*\(R-MC-5\)"):
        round_.play(Move.parse(f"{tile} {dead_arm}"))


def fatal_draw(drawn_fits: bool) -> MalteseCross:
    """Four seats; N and W are capped, E and S are not, when seat 0 draws the boneyard
    down to 2. It holds 5-1, which fits the live N once E and S die, and draws 2-0 (fits
    the live W) or 3-1 (fits nothing live). 4-4 and 3-3, the missing caps, are the last
    two tiles, never drawn."""
    late = "2-0" if drawn_fits else "3-1"
    round_ = build(
        MalteseCross,
        [
            "6-6 6-2 2-2 5-1 1-0",
            "6-5 5-5 4-0 4-1 4-2",
            "6-4 0-0 1-1 3-0 3-2",
            "6-3 4-3 5-3 5-2 5-4",
        ],
        f"6-1 6-0 5-0 {'3-1' if drawn_fits else '2-0'} 2-1 {late} 4-4 3-3",
    )
    play(round_, "6-6", "6-5 N", "6-4 E", "6-3 S", "6-2 W")  # the cross (R-MC-2)
    play(round_, "5-5 N", "draw", "pass", "draw", "pass", "2-2 W")  # caps (R-MC-3)
    play(round_, *["draw", "pass"] * 3)
    assert round_.turn == 0 and round_.phase == "caps" and len(round_.boneyard) == 3
    play(round_, "draw")
    assert round_.dead_arms() == [False, True, True, False]  # E and S die at once
    assert round_.open_ends() == {"N": 5, "W": 2}
    return round_


def test_r_mc_5_the_fatal_draw_is_one_turn_and_its_tile_is_played_if_it_fits() -> None:
    """R-MC-5 with R-CR-5: the drawn 2-0 fits the live W and is the only tile seat 0 may
    play; its 5-1, which fits N now, waits; then seat 1 moves."""
    round_ = fatal_draw(drawn_fits=True)
    assert round_.turn == 0 and legal(round_) == {"2-0 W"}
    with pytest.raises(OnlyDrawnTile, match=r"you drew 2-0 .*\(R-CR-5\)") as refused:
        round_.play(Move.parse("5-1 N"))
    assert refused.value.drawn == Tile.parse("2-0") and refused.value.fits
    with pytest.raises(IllegalMove, match="must play it"):
        round_.play(PASS)
    play(round_, "2-0 W")
    assert round_.turn == 1 and round_.outcome() is None


def test_r_mc_5_a_fatal_draw_that_fits_nothing_live_is_a_pass() -> None:
    """The drawn 3-1 fits no live end: seat 0 passes, though its 5-1 fits N, and seat 1
    moves next; 5-1 is seat 0's to play on its next turn."""
    round_ = fatal_draw(drawn_fits=False)
    assert round_.turn == 0 and legal(round_) == {"pass"}
    with pytest.raises(
        OnlyDrawnTile, match=r"you drew 3-1 .*fits nowhere: pass \(R-CR-5\)"
    ) as refused:
        round_.play(Move.parse("5-1 N"))
    assert not refused.value.fits and not refused.value.draw_again  # never "the only tile"
    assert "the only tile you may play" not in str(refused.value)
    with pytest.raises(IllegalMove, match=r"drawn your one tile.*\(R-CR-5\)"):
        round_.play(DRAW)
    play(round_, "pass")
    assert round_.turn == 1 and round_.outcome() is None
    assert round_.can_play(0)  # 5-1 still fits N: seat 0 plays it on a later turn


def test_r_mc_5_boneyard_at_2_before_any_cap_kills_every_arm_and_blocks_at_once() -> None:
    """No arm is capped when the boneyard reaches 2: all four arms are dead, nothing can
    be played, and the round is blocked at once, scored as R-CR-6."""
    round_ = build(
        MalteseCross,
        ["6-6 6-5 6-4 6-3 6-2", no_six(0, 5), no_six(5, 5), no_six(10, 5)],
        no_six(15, 6),  # then 6-0 and 6-1, never drawn
    )
    play(round_, "6-6", *["draw", "pass"] * 3, "6-5 N", "draw", "pass", "draw", "pass")
    assert round_.turn == 3 and len(round_.boneyard) == 3
    play(round_, "draw")  # the boneyard falls from 3 to 2
    assert round_.dead_arms() == [True] * 4 and round_.open_ends() == {}
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.BLOCKED
    counts = outcome.counts
    winner = counts.index(min(counts))
    assert counts.count(min(counts)) == 1 and outcome.winner == winner
    assert outcome.points[winner] == sum(counts) - 2 * counts[winner]


def test_r_mc_6_blocked_18_against_40_scores_22(record: LoadRecord) -> None:
    match = Match.from_record(record("maltese_blocked_18_vs_40"))
    outcome = match.rounds[0]
    assert outcome.reason is Reason.BLOCKED and outcome.winner is not None
    assert outcome.counts[outcome.winner] == 18 and sum(outcome.counts) == 58
    assert outcome.points[outcome.winner] == 22
    assert (outcome.own, outcome.others, outcome.raw, outcome.rule) == (18, 40, 22, "R-MC-6")
    assert "40 − 18 = 22 (R-MC-6)" in outcome.describe(["Ann", "Bob"])


def test_r_mc_6_target_100_by_default_60_or_other_by_choice() -> None:
    assert Options.for_game(MalteseCross, 3).target == 100
    assert Options.for_game(MalteseCross, 3, target=60).target == 60
    assert Options.for_game(MalteseCross, 3, target=150).target == 150
