"""R-ALL and R-SP: what every game (or every spinner game) shares."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    DRAW,
    PASS,
    TILES,
    ArmTile,
    Cross,
    Deal,
    IllegalMove,
    InvalidDeal,
    Match,
    MerryGoRound,
    Milo,
    Move,
    Reason,
    ReplayError,
    SpinnerLayout,
    Tile,
)
from tests.engine.builders import build, every_tile, legal, no_six, play
from tests.engine.conftest import LoadRecord


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
    round_ = build(Cross, ["6-6 1-0 1-1 2-1 3-1", "6-5 2-0 2-2 3-2 4-1", "6-4 3-0 3-3 4-2 4-3"])
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
        seen: list[list[list[str]]] = []
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
    hands = [
        ["6-6", "2-1", "1-0", "2-0", "3-0", "4-0", "5-0"],
        ["6-5", "5-5", "4-2", "4-3", "4-4", "5-1", "5-2"],
    ]
    named = {t for hand in hands for t in hand} | {"1-1", "0-0"}
    rest = [str(t) for t in TILES if str(t) not in named]
    deal = Deal.of(hands, ["1-1", "0-0", *rest], leader=0)
    match = Match("cross", 2, deals=[deal])
    assert [str(t) for t in match.round.hand(0)] == sorted(hands[0], key=lambda t: Tile.parse(t))
    assert match.round.boneyard[:2] == [Tile(1, 1).index, Tile(0, 0).index]
    assert match.turn == 0 and [m.text for m in match.legal_moves()] == ["6-6"]


@pytest.mark.parametrize(
    ("hands", "boneyard", "leader", "message"),
    [
        (  # a 3-seat Cross deal of 7, 5 and 5 tiles
            [no_six(0, 7), no_six(7, 5) + " 6-6 6-5", no_six(12, 3) + " 6-4 6-3 6-2"],
            no_six(15, 6) + " 6-1 6-0",
            None,
            r"Cross deals 5 tiles to each of 3 players.*seat 0 holds 7 \(R-CR-1\)",
        ),
        (  # 5-5 named to lead while seat 0 holds 6-6
            ["6-6 " + no_six(0, 6), "5-5 " + no_six(6, 6)],
            "",
            1,
            r"seat 1 may not lead: seat 0 holds the highest double, 6-6 \(R-CR-2\)",
        ),
        (  # 6-6 dealt twice, 6-5 never
            ["6-6 " + no_six(0, 6), "6-6 " + no_six(6, 6)],
            "",
            None,
            r"each of the 28 tiles exactly once \(R-ALL-3\)",
        ),
    ],
)
def test_r_all_3_a_deal_that_breaks_the_rules_is_refused_before_any_play(
    hands: list[str], boneyard: str, leader: int | None, message: str
) -> None:
    with pytest.raises(InvalidDeal, match=message) as refused:
        build(Cross, hands, boneyard, leader)
    assert refused.value.rule is not None


def test_r_all_3_a_record_whose_deal_breaks_the_rules_is_refused_before_action_0(
    record: LoadRecord,
) -> None:
    data = record("cross_blocked_13_vs_30")
    data["deals"][0]["leader"] = 0  # 6-6 is in the boneyard: seat 1 holds 5-5
    with pytest.raises(
        ReplayError, match="before action 0: deal 0: seat 0 may not lead"
    ) as refused:
        Match.from_record(data)
    assert refused.value.index == -1 and refused.value.rule == "R-CR-2"
    data = record("cross_blocked_13_vs_30")
    data["players"] = 3  # the deal still has 2 hands
    with pytest.raises(ReplayError, match=r"deals\[0\].hands must hold 3 hands"):
        Match.from_record(data)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_r_all_3_a_milo_record_names_the_leader_the_rules_name(
    record: LoadRecord, seat: int
) -> None:
    """R-MI-3: a game's first round is led by the holder of 6-6; a deal naming another
    seat is refused, one naming that seat replays as before."""
    data = record("milo_domino_plain")
    holder = next(s for s, hand in enumerate(data["deals"][0]["hands"]) if "6-6" in hand)
    data["deals"][0]["leader"] = seat
    if seat == holder:
        replayed, original = Match.from_record(data), Match.from_record(record("milo_domino_plain"))
        assert replayed.rounds == original.rounds
        assert replayed.round.to_dict() == original.round.to_dict()
        return
    with pytest.raises(ReplayError, match=r"before action 0: .*\(R-MI-3\)"):
        Match.from_record(data)


def test_r_all_4_a_player_who_can_play_must_play() -> None:
    round_ = build(Cross, ["6-6 1-0 1-1 2-1 3-1", "6-5 2-0 2-2 3-2 4-1", "3-3 3-0 4-2 4-3 5-0"])
    play(round_, "6-6")
    assert legal(round_) == {"6-5 N", "6-5 E", "6-5 S", "6-5 W"}  # the player picks the arm
    with pytest.raises(IllegalMove, match="must play it"):
        round_.play(DRAW)
    with pytest.raises(IllegalMove, match="must play it"):
        round_.play(PASS)


def test_r_all_5_round_ends_at_once_on_domino(record: LoadRecord) -> None:
    data = record("cross_domino")
    last = data["actions"].pop()
    match = Match.from_record(data)
    round_ = match.round
    assert round_.outcome() is None and len(round_.hand(last[0])) == 1
    match.play(last[1])
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.DOMINO and outcome.winner == 1
    assert round_.legal_moves() == ()
    assert match.previous is round_ and match.round is not round_  # the next round is dealt


def test_r_all_5_blocked_round_is_detected_at_once(record: LoadRecord) -> None:
    """The draw that leaves 2 tiles in the boneyard (nobody may draw, R-CR-5) with no tile
    that fits in any hand ends the round there: nobody passes first."""
    data = record("cross_blocked_4_players")
    last = data["actions"].pop()
    match = Match.from_record(data)
    round_ = match.round
    assert last[1] == "draw" and round_.outcome() is None
    match.play(last[1])
    outcome = round_.outcome()
    assert outcome is not None and outcome.reason is Reason.BLOCKED
    assert round_.history[-1] == (last[0], DRAW) and len(round_.boneyard) == 2
    assert not any(round_.can_play(seat) for seat in range(4))
    assert all(round_.hand(seat) for seat in range(4))


def test_r_all_6_the_match_view_hides_hands_and_boneyard() -> None:
    match = Match("cross", 3, seed=5)
    view = match.view()
    hidden = {t for s in range(3) for t in match.round.hand(s)}
    hidden |= {TILES[i] for i in match.round.boneyard}
    assert view.boneyard_count == len(match.round.boneyard)
    assert view.hand_sizes == tuple(len(match.round.hand(s)) for s in range(3))
    assert not set(every_tile(view)) & hidden
    mine = match.seat_view(1)
    assert mine.hand == tuple(match.round.hand(1))
    others = {t for s in (0, 2) for t in match.round.hand(s)}
    assert not set(every_tile(mine)) & others


def test_r_all_7_count_is_the_pip_total_of_the_hand() -> None:
    round_ = build(Cross, ["6-6 6-5 0-0 1-0 2-0 3-0 4-0", "5-5 3-1 2-1 4-1 5-1 6-1 1-1"])
    assert round_.count(0) == 12 + 11 + 0 + 1 + 2 + 3 + 4
    assert round_.count(1) == 10 + 4 + 3 + 5 + 6 + 7 + 2


def test_r_all_8_blocked_tie_for_lowest_count_scores_nobody(record: LoadRecord) -> None:
    outcome = Match.from_record(record("cross_blocked_tie")).rounds[0]
    assert outcome.reason is Reason.BLOCKED
    assert outcome.counts == (36, 36)
    assert outcome.winner is None and outcome.points == (0, 0)
    assert outcome.tie and outcome.rule == "R-ALL-8"
    assert outcome.describe(["Ann", "Bob"]) == (
        "Blocked, and the lowest counts tie: nobody scores (R-ALL-8)"
    )


def test_r_all_8_tie_holds_in_merry_go_round_too(record: LoadRecord) -> None:
    """R-ALL-8 over R-MG-6: the tied lowest counts score nothing, not a rounded share
    (the points the round shows were scored in play, R-MG-4)."""
    match = Match.from_record(record("merry_blocked_tie"))
    outcome, finished = match.rounds[0], match.previous
    assert finished is not None and outcome.reason is Reason.BLOCKED
    assert outcome.counts == (56, 19, 19) and outcome.winner is None
    assert not [e for e in finished.score_events if e.kind == "round"]


def test_r_sp_1_first_tile_is_the_spinner_with_four_arms() -> None:
    round_ = build(MerryGoRound, ["4-4 6-6 1-0 2-1 3-1 4-1 5-1", "6-5 2-0 3-0 4-0 5-0 3-2 4-2"])
    assert legal(round_) == {"4-4", "6-6"}  # Merry-Go-Round: any double of the leader's
    play(round_, "4-4")
    layout = round_.view().layout
    assert isinstance(layout, SpinnerLayout) and layout.spinner == Tile(4, 4)
    assert [arm.name for arm in layout.arms] == ["N", "E", "S", "W"]
    assert round_.open_ends() == {"N": 4, "E": 4, "S": 4, "W": 4}


def test_r_sp_2_arm_open_end_is_the_far_value_and_doubles_lie_crosswise() -> None:
    round_ = build(Cross, ["6-6 6-4 6-2 4-0 4-1 4-2 4-3", "6-5 6-3 5-5 1-0 1-1 6-1 6-0"])
    play(round_, "6-6", "6-5 N")
    assert round_.open_ends()["N"] == 5
    play(round_, "6-4 E", "6-3 S", "6-2 W", "5-5 N")
    assert round_.open_ends() == {"N": 5, "E": 4, "S": 3, "W": 2}  # still four ends
    layout = round_.view().layout
    assert isinstance(layout, SpinnerLayout)
    assert layout.arm("N").tiles[-1] == ArmTile(Tile(5, 5), 5, 5)


def test_r_sp_3_a_move_names_the_tile_and_the_arm() -> None:
    round_ = build(Cross, ["6-6 1-0 1-1 2-1 3-1 4-1 5-1", "6-5 2-0 2-2 3-0 3-2 4-0 4-2"])
    play(round_, "6-6")
    assert str(Move.parse("5-6 n")) == "6-5 N"
    with pytest.raises(IllegalMove, match="say where 6-5 goes: N or E or S or W"):
        round_.play(Move.parse("6-5"))
    round_.play(Move.parse("6-5 W"))
    layout = round_.view().layout
    assert isinstance(layout, SpinnerLayout) and layout.arm("W").tiles[0].tile == Tile(6, 5)


def test_r_sp_3_every_move_text_round_trips() -> None:
    for move in [Move.parse("6-5 N"), Move.parse("4-4"), DRAW, PASS, Move.parse("3-1 L")]:
        assert Move.parse(str(move)) is move


def test_milo_refuses_a_boneyard_in_an_explicit_deal() -> None:
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
                assert error.reason and type(error) is not IllegalMove  # a class with data
                complete = move.tile is None or not round_.led or move.end is not None
                if complete and (move.tile is None or move.tile in round_.hand(round_.turn)):
                    assert error.rule is not None, (move.text, error.reason)
            assert round_.to_dict() == before
        match.play(picker.choice(match.legal_moves()))
