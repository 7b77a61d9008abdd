"""R-ALL and R-SP: what every game (or every spinner game) shares."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    DRAW,
    PASS,
    TILES,
    Cross,
    Deal,
    IllegalMove,
    Match,
    MerryGoRound,
    Milo,
    Move,
    Reason,
    Tile,
)
from tests.engine.builders import (
    BLOCKING_MOVES,
    SEAT_0_PLAYS,
    SEAT_1_PLAYS,
    blocked_round,
    build,
    legal,
    play,
)


def test_r_all_1_double_six_set_written_high_first() -> None:
    assert len(TILES) == 28 == len({(t.high, t.low) for t in TILES})
    assert all(0 <= t.low <= t.high <= 6 for t in TILES)
    assert Tile.parse("5-6") is Tile(6, 5)
    assert str(Tile.parse("5-6")) == "6-5"
    assert Tile.parse("6-5").value == 11
    assert str(Tile(3, 0)) == "3-0" and str(Tile(4, 4)) == "4-4"
    with pytest.raises(ValueError, match="write it like 6-5"):
        Tile.parse("7-1")


def test_r_all_2_seats_take_turns_in_seat_order() -> None:
    round_ = build(Cross, ["6-6 1-0", "6-5 2-0", "6-4 3-0"], leader=None)
    assert round_.turn == 0
    play(round_, "6-6")
    assert round_.turn == 1
    play(round_, "6-5 N")
    assert round_.turn == 2
    play(round_, "6-4 E")
    assert round_.turn == 0  # after the last seat comes seat 0 again


def test_r_all_3_same_seed_same_deals_and_no_global_random_state() -> None:
    def deals(seed: int) -> list[list[list[str]]]:
        match = Match("cross", 3, seed=seed)
        picker = random.Random(1)
        seen = []
        while match.outcome() is None and len(seen) < 3:
            if match.round.history == []:
                seen.append([[str(t) for t in match.round.hand(s)] for s in range(3)])
            match.play(picker.choice(match.legal_moves()))
        return seen

    random.seed(1)
    first = deals(42)
    random.seed(99)  # the global generator must not matter
    assert deals(42) == first
    assert deals(43) != first


def test_r_all_3_a_round_can_be_built_from_explicit_hands_boneyard_and_leader() -> None:
    named = {"6-6", "2-1", "6-5", "5-5", "1-1", "0-0"}
    rest = [str(t) for t in TILES if str(t) not in named]
    deal = Deal.of([["6-6", "2-1"], ["6-5", "5-5"]], ["1-1", "0-0", *rest], leader=1)
    match = Match("cross", 2, deals=[deal])
    assert [str(t) for t in match.round.hand(0)] == ["2-1", "6-6"]
    assert match.round.boneyard[:2] == [Tile(1, 1).index, Tile(0, 0).index]
    assert match.turn == 1
    assert [m.text for m in match.legal_moves()] == ["5-5"]  # seat 1's highest double


def test_r_all_4_a_player_who_can_play_must_play() -> None:
    round_ = build(Cross, ["6-6 1-0", "6-5 2-0", "3-3 3-0"])
    play(round_, "6-6")
    assert legal(round_) == {"6-5 N", "6-5 E", "6-5 S", "6-5 W"}  # the player picks the arm
    with pytest.raises(IllegalMove, match="must play it"):
        round_.play(DRAW)
    with pytest.raises(IllegalMove, match="must play it"):
        round_.play(PASS)


def test_r_all_5_round_ends_at_once_on_domino() -> None:
    round_ = build(Cross, ["6-6 1-0", "6-5", "2-2 3-0"])
    play(round_, "6-6", "6-5 N")
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.DOMINO and outcome.winner == 1
    assert round_.legal_moves() == ()


def test_r_all_5_blocked_round_is_detected_at_once() -> None:
    keeps = ("1-1 2-1 2-2 4-1 4-2", "4-4 5-1 5-2 5-3 5-4 6-1 6-2 6-3 6-4")
    round_ = build(
        Cross, [f"{SEAT_0_PLAYS} {keeps[0]}", f"{SEAT_1_PLAYS} {keeps[1]}"], "5-5 6-6", leader=0
    )
    play(round_, *BLOCKING_MOVES[:-1])
    assert round_.outcome() is None
    play(round_, BLOCKING_MOVES[-1])
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.BLOCKED
    assert not any(move == "pass" for _, move in round_.public_view()["history"])
    assert not any(round_.can_play(seat) for seat in range(2))
    assert round_.open_ends() == {"N": 0, "E": 0, "S": 0, "W": 0}


def test_r_all_6_public_view_hides_hands_and_boneyard() -> None:
    match = Match("cross", 3, seed=5)
    view = match.public_view()
    hidden = {str(t) for s in range(3) for t in match.round.hand(s)}
    hidden |= {str(TILES[i]) for i in match.round.boneyard}
    text = repr(view)
    assert "hands" not in view and "boneyard" not in view
    assert view["boneyard_count"] == len(match.round.boneyard)
    assert view["hand_sizes"] == [len(match.round.hand(s)) for s in range(3)]
    assert not any(f"'{t}'" in text for t in hidden)
    mine = match.private_view(1)
    assert mine["hand"] == [str(t) for t in match.round.hand(1)]
    others = {str(t) for s in (0, 2) for t in match.round.hand(s)}
    assert not any(f"'{t}'" in repr(mine) for t in others)


def test_r_all_7_count_is_the_pip_total_of_the_hand() -> None:
    round_ = build(Cross, ["6-6 6-5 0-0", "5-5 3-1"])
    assert round_.count(0) == 12 + 11 + 0
    assert round_.count(1) == 10 + 4


def test_r_all_8_blocked_tie_for_lowest_count_scores_nobody() -> None:
    # Both seats keep 46 pips.
    round_ = blocked_round(Cross, ("1-1 2-1 2-2 4-1 4-2 6-4 5-4 6-1", "4-4 5-1 5-2 5-3 6-2 6-3"))
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.BLOCKED
    assert outcome.counts == (46, 46)
    assert outcome.winner is None and outcome.points == (0, 0)
    assert "R-ALL-8" in outcome.explanation


def test_r_all_8_tie_holds_in_merry_go_round_too() -> None:
    """R-ALL-8 over R-MG-6: the tied lowest counts score nothing, not a rounded share."""
    keeps = ("1-1 2-1 2-2 4-1 4-2 6-4 5-4 6-1", "4-4 5-1 5-2 5-3 6-2 6-3")
    round_ = blocked_round(MerryGoRound, keeps, keep_last_two=True)
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.BLOCKED
    assert outcome.counts == (46, 46) and outcome.winner is None
    assert not [e for e in round_.score_events if e.kind == "round"]


def test_r_sp_1_first_tile_is_the_spinner_with_four_arms() -> None:
    round_ = build(MerryGoRound, ["4-4 6-6 1-0", "6-5 2-0"])
    assert legal(round_) == {"4-4", "6-6"}  # Merry-Go-Round: any double of the leader's
    play(round_, "4-4")
    layout = round_.public_view()["layout"]
    assert layout["kind"] == "spinner" and layout["spinner"] == "4-4"
    assert set(layout["arms"]) == {"N", "E", "S", "W"}
    assert round_.open_ends() == {"N": 4, "E": 4, "S": 4, "W": 4}


def test_r_sp_2_arm_open_end_is_the_far_value_and_doubles_lie_crosswise() -> None:
    round_ = build(Cross, ["6-6 6-4 6-2 5-5", "6-5 6-3 1-0"])  # the boneyard starts 0-0
    play(round_, "6-6", "6-5 N")
    assert round_.open_ends()["N"] == 5
    play(round_, "6-4 E", "6-3 S", "6-2 W", "draw", "pass", "5-5 N")
    assert round_.open_ends() == {"N": 5, "E": 4, "S": 3, "W": 2}  # still four ends
    arm = round_.public_view()["layout"]["arms"]["N"]
    assert arm[-1] == {"tile": "5-5", "near": 5, "far": 5}


def test_r_sp_3_a_move_names_the_tile_and_the_arm() -> None:
    round_ = build(Cross, ["6-6 1-0", "6-5 2-0"])
    play(round_, "6-6")
    assert str(Move.parse("5-6 n")) == "6-5 N"
    with pytest.raises(IllegalMove, match="say where 6-5 goes: N or E or S or W"):
        round_.play(Move.parse("6-5"))
    round_.play(Move.parse("6-5 W"))
    assert round_.public_view()["layout"]["arms"]["W"][0]["tile"] == "6-5"


def test_r_sp_3_every_move_text_round_trips() -> None:
    for move in [Move.parse("6-5 N"), Move.parse("4-4"), DRAW, PASS, Move.parse("3-1 L")]:
        assert Move.parse(str(move)) is move


def test_milo_refuses_a_boneyard_in_an_explicit_deal() -> None:
    from bot.engine import InvalidDeal

    hands = [[t for t in TILES[i * 6 : i * 6 + 6]] for i in range(4)]
    with pytest.raises(InvalidDeal, match="no boneyard"):
        Milo(hands, TILES[24:])


@pytest.mark.parametrize("game", ["cross", "maltese-cross", "merry-go-round", "milo"])
def test_every_move_not_legal_is_refused_naming_its_rule_and_changes_nothing(game: str) -> None:
    """``play`` accepts exactly ``legal_moves()`` (R-ALL-4). Anything else raises
    IllegalMove with a reason in words; a complete move (a draw, a pass, a lead, or a
    tile from the hand on a named end) also names the rule that refuses it; and a refused
    move leaves the state as it was."""
    every = [DRAW, PASS] + [Move.parse(str(t)) for t in TILES]
    every += [Move.parse(f"{t} {end}") for t in TILES for end in ("N", "E", "S", "W", "L", "R")]
    players = {"milo": 4, "cross": 3}.get(game, 2)
    match = Match(game, players, seed=12)
    picker = random.Random(12)
    for step in range(150):
        if match.outcome() is not None:
            break
        if step % 3 == 0:
            round_ = match.round
            before = round_.to_dict()
            legal = set(round_.legal_moves())
            for move in every:
                if move in legal:
                    continue
                with pytest.raises(IllegalMove) as refused:
                    round_.play(move)
                error = refused.value
                assert error.reason
                complete = move.tile is None or not round_.led or move.end is not None
                if complete and (move.tile is None or move.tile in round_.hand(round_.turn)):
                    assert error.rule is not None, (move.text, error.reason)
            assert round_.to_dict() == before
        match.play(picker.choice(match.legal_moves()))
