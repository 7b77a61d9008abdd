"""The engine's own API is as strict as a record: tiles, seats, starting scores and the
leaders of explicit deals are refused with the engine's own errors, carrying the facts a
caller words its refusal with (and the rule), never with a bare ValueError, TypeError or
IndexError, and never accepted to go wrong later."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine import (
    DRAW,
    PASS,
    TILES,
    BadPips,
    Cross,
    Deal,
    EngineError,
    InvalidDeal,
    InvalidRecord,
    LeadRule,
    MalteseCross,
    Match,
    MerryGoRound,
    Milo,
    MustDrawFirst,
    NotASeat,
    NotASide,
    NotATile,
    OnlyDrawnTile,
    Options,
    ReplayError,
    Round,
    Tile,
    WrongLeader,
    WrongPlayerCount,
    WrongScores,
)
from tests.engine.builders import build, legal, no_six, play

# -- tiles (R-ALL-1) ------------------------------------------------------------------------


NOT_PIPS = [(7, 7), (6, 7), (-1, 0), (0, -1), (5.5, 1), ("6", 5), (6, "5"), (True, 0)]
NOT_PIPS += [(1, False), (1.0, 0), (None, 1), ([1], 2), (2**70, 1)]


@pytest.mark.parametrize("pips", NOT_PIPS)
def test_r_all_1_a_tile_is_two_whole_numbers_from_0_to_6(pips: tuple[Any, Any]) -> None:
    """Refused with the engine's error, which stays a ValueError (as ``Tile(7, 7)`` was)
    and a TypeError (as ``Tile(5.5, 1)`` was) for callers that caught those."""
    with pytest.raises(BadPips, match=r"pip values are whole numbers from 0 to 6 \(R-ALL-1\)") as e:
        Tile(*pips)
    assert e.value.pips == pips and e.value.rule == "R-ALL-1"
    assert isinstance(e.value, NotATile) and isinstance(e.value, EngineError)
    assert isinstance(e.value, ValueError) and isinstance(e.value, TypeError)


def test_r_all_1_every_way_to_a_tile_still_gives_the_one_tile() -> None:
    assert Tile(6, 5) is Tile(5, 6) is Tile.parse("5-6") is TILES[Tile(6, 5).index]
    assert [Tile(t.high, t.low) for t in TILES] == list(TILES)
    assert pickle.loads(pickle.dumps(Tile(4, 2))) is Tile(4, 2)


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: Tile.parse("7-7"), NotATile),
        (lambda: Tile.parse(6), NotATile),  # type: ignore[arg-type]
        (lambda: Deal.of([["6-6", "9-9"]]), NotATile),
        (lambda: Deal.from_dict({"hands": [["6-6", "7-1"], []]}, 2), InvalidRecord),
        (lambda: Deal.from_dict({"hands": [[6.5], []]}, 2), InvalidRecord),
    ],
)
def test_r_all_1_text_and_records_name_no_tile_outside_the_set(
    call: Callable[[], object], error: type[EngineError]
) -> None:
    with pytest.raises(error):
        call()


# -- starting scores (R-CR-7, R-MC-6, R-MG-7, R-MI-6) ---------------------------------------

LONE_5_5 = ["5-5 6-6 1-1 6-5 6-4 6-3 6-2", "5-0 4-4 2-1 3-0 3-1 4-0 4-1"]
CROSS_HANDS = ["6-6 1-0 1-1 2-1 3-1 4-1 5-1", "6-5 2-0 2-2 3-0 3-2 4-0 4-2"]
MILO_HANDS = [
    "6-6 0-0 1-0 1-1 2-0 2-1 2-2",
    "6-5 3-0 3-1 3-2 3-3 4-0 4-1",
    "5-5 4-2 4-3 4-4 5-0 5-1 5-2",
    "6-4 5-3 5-4 6-0 6-1 6-2 6-3",
]


@pytest.mark.parametrize(
    ("game", "hands", "scores", "rule"),
    [
        (MerryGoRound, LONE_5_5, [70, -5], "R-MG-7"),  # past 61: every such score busts
        (MerryGoRound, LONE_5_5, [61, 0], "R-MG-7"),  # 61 won the game already
        (MerryGoRound, LONE_5_5, [0, -1], "R-MG-7"),
        (Cross, CROSS_HANDS, [100, 0], "R-CR-7"),  # 100 or more won the game already
        (Cross, CROSS_HANDS, [0, 250], "R-CR-7"),
        (Cross, CROSS_HANDS, [-3, 0], "R-CR-7"),
        (MalteseCross, CROSS_HANDS, [0, 100], "R-MC-6"),
        (Milo, MILO_HANDS, [5, 0], "R-MI-6"),  # a team at 5 won the game already
        (Milo, MILO_HANDS, [0, 0, 0, 0], "R-MI-6"),  # one total a team, not a seat
        (Cross, CROSS_HANDS, [0], "R-CR-7"),
        (Cross, CROSS_HANDS, [0, 1.5], "R-CR-7"),
        (Cross, CROSS_HANDS, [0, True], "R-CR-7"),
        (Cross, CROSS_HANDS, "00", "R-CR-7"),
    ],
)
def test_a_round_never_starts_from_scores_no_game_can_reach(
    game: type[Round], hands: list[str], scores: Any, rule: str
) -> None:
    """Each side's total is a whole number from 0 to one below the target: at the target
    the game is over (and in Merry-Go-Round no score ever passes 61)."""
    with pytest.raises(WrongScores, match=rf"from 0 to .*\({rule}\)") as refused:
        build(game, hands, scores=scores)
    target = Options.for_game(game, len(hands)).target
    assert refused.value.target == target and refused.value.rule == rule
    assert refused.value.sides == (2 if game is Milo else len(hands))
    assert refused.value.got == scores
    assert isinstance(refused.value, InvalidDeal)


def test_a_dealt_round_is_held_to_the_same_scores() -> None:
    options = Options.for_game(MerryGoRound, 2)
    with pytest.raises(WrongScores, match=r"not \[70, -5\]"):
        MerryGoRound.deal(2, random.Random(1), options=options, scores=[70, -5])


@pytest.mark.parametrize(
    ("game", "hands", "scores"),
    [(MerryGoRound, LONE_5_5, [60, 0]), (Cross, CROSS_HANDS, [99, 0]), (Milo, MILO_HANDS, [4, 4])],
)
def test_a_round_starts_from_any_score_short_of_the_target(
    game: type[Round], hands: list[str], scores: list[int]
) -> None:
    assert build(game, hands, scores=scores).scores == scores


# -- seats (R-ALL-2) --------------------------------------------------------------------------


def cross() -> Round:
    return build(Cross, CROSS_HANDS)


@pytest.mark.parametrize(
    ("call", "seat", "players"),
    [
        (lambda: cross().hand(-1), -1, 2),
        (lambda: cross().hand(2), 2, 2),
        (lambda: cross().hand(True), True, 2),
        (lambda: cross().hand("0"), "0", 2),  # type: ignore[arg-type]
        (lambda: cross().count(-1), -1, 2),
        (lambda: cross().count(2), 2, 2),
        (lambda: cross().can_play(-2), -2, 2),
        (lambda: cross().can_play(1.0), 1.0, 2),  # type: ignore[arg-type]
        (lambda: cross().seat_view(-1), -1, 2),
        (lambda: Match("cross", 3, seed=1).seat_view(-1), -1, 3),
        (lambda: Match("milo", 4, seed=1).seat_view(4), 4, 4),
        (lambda: Milo.side_of(-1), -1, 4),
        (lambda: Milo.side_of(4), 4, 4),
        (lambda: Cross.side_of(-1), -1, 4),
        (lambda: Milo.partners(-1), -1, 4),
        (lambda: Milo.partners(None), None, 4),  # type: ignore[arg-type]
    ],
)
def test_r_all_2_a_seat_out_of_range_is_refused_everywhere(
    call: Callable[[], object], seat: object, players: int
) -> None:
    """``Round.hand(-1)`` once gave the last seat's hand, as a list index does."""
    with pytest.raises(NotASeat, match=f"seats run from 0 to {players - 1}") as refused:
        call()
    assert refused.value.seat == seat and refused.value.players == players


@pytest.mark.parametrize(
    ("call", "side", "sides"),
    [
        (lambda: Milo.seats_of(-1, 4), -1, 2),
        (lambda: Milo.seats_of(2, 4), 2, 2),
        (lambda: Cross.seats_of(-1, 3), -1, 3),
        (lambda: Cross.seats_of(3, 3), 3, 3),
        (lambda: Cross.seats_of(False, 3), False, 3),
    ],
)
def test_r_all_2_a_side_out_of_range_is_refused(
    call: Callable[[], object], side: object, sides: int
) -> None:
    with pytest.raises(NotASide, match=f"sides run from 0 to {sides - 1}") as refused:
        call()
    assert refused.value.side == side and refused.value.sides == sides


@pytest.mark.parametrize(
    "call",
    [
        lambda: Milo.seats_of(0, 2),
        lambda: Cross.sides_of(5),
        lambda: Cross.sides_of("2"),  # type: ignore[arg-type]
    ],
)
def test_sides_are_asked_for_a_player_count_the_game_allows(call: Callable[[], object]) -> None:
    with pytest.raises(WrongPlayerCount):
        call()


def test_every_seat_in_range_still_answers() -> None:
    round_ = cross()
    assert [len(round_.hand(s)) for s in range(2)] == [7, 7]
    assert round_.count(1) == sum(t.value for t in round_.hand(1))
    assert [Milo.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert Milo.partners(3) == (1,) and Milo.seats_of(1, 4) == (1, 3)
    assert Cross.seats_of(2, 3) == (2,) and Cross.sides_of(2) == ((0,), (1,))


# -- the leaders of a Milo record's deals (R-ALL-3, R-MI-3, R-MI-7) -------------------------


def milo_record(record: Callable[[str], dict[str, Any]], *leaders: int | None) -> dict[str, Any]:
    """``milo_domino_plain`` with more deals after its first, led by ``leaders``."""
    data = record("milo_domino_plain")
    for leader in leaders:
        hands = [[str(t) for t in TILES[seat * 7 : seat * 7 + 7]] for seat in range(4)]
        data["deals"].append({"hands": hands, "leader": leader})
    return data


def six_six_holder(data: dict[str, Any]) -> int:
    return next(s for s, hand in enumerate(data["deals"][0]["hands"]) if "6-6" in hand)


@pytest.mark.parametrize("later", [1, 2, 3])
def test_r_all_3_a_milo_record_naming_the_wrong_later_leader_is_refused_when_read(
    record: Callable[[str], dict[str, Any]], later: int
) -> None:
    """Round ``later`` of the game is led by the seat ``later`` after the 6-6 holder
    (R-MI-3): known before any play, so refused before action 0, not when dealt."""
    data = milo_record(record, *[None] * (later - 1))
    expected = (six_six_holder(data) + later) % 4
    data["deals"].append({**data["deals"][-1], "leader": (expected + 1) % 4})
    with pytest.raises(ReplayError, match=rf"before action 0: deal {later}: ") as refused:
        Match.from_record(data)
    error = refused.value.error
    assert isinstance(error, WrongLeader) and refused.value.index == -1
    assert (error.named, error.expected, error.deal) == ((expected + 1) % 4, expected, later)
    assert error.lead is LeadRule.PASSED_ON and error.double is None and error.rule == "R-MI-3"
    assert f"the lead passes to seat {expected}" in str(error)


def test_r_all_3_a_milo_record_naming_the_right_later_leader_replays(
    record: Callable[[str], dict[str, Any]],
) -> None:
    data = milo_record(record, None)
    expected = (six_six_holder(data) + 1) % 4
    data["deals"][1]["leader"] = expected
    match = Match.from_record(data)
    assert len(match.rounds) == 1 and match.round.leader == expected
    assert [str(t) for t in match.round.hand(0)] == data["deals"][1]["hands"][0]


def test_r_all_3_a_leader_that_depends_on_when_a_game_ends_is_checked_when_dealt() -> None:
    """R-MI-7: in a match of games to 1 point, deal 2 is led by the seat two after the 6-6
    holder (game 1 goes on, or game 2 is in its second round) or by the seat after it
    (game 2's first round, when game 1 lasted two rounds): only play can tell, so the
    match is built and the deal is checked when dealt. Deal 1 is led by the seat after
    the 6-6 holder either way (game 1's second round or game 2's first): checked at once."""
    hands = [[str(t) for t in TILES[seat * 7 : seat * 7 + 7]] for seat in range(4)]
    holder = 3  # 6-6 is the last tile
    options = Options.for_game(Milo, 4, target=1, match_games=2)
    first = Deal.of(hands)
    game_2 = Deal.of(hands, leader=(holder + 1) % 4)  # leads deal 2 if game 1 lasts 2 rounds
    Match("milo", 4, options, deals=[first, Deal.of(hands), game_2])
    with pytest.raises(WrongLeader, match=r"deal 1: seat 1 may not lead") as refused:
        Match("milo", 4, options, deals=[first, Deal.of(hands, leader=(holder + 2) % 4)])
    assert refused.value.expected == (holder + 1) % 4


def test_r_mi_3_the_first_leader_of_a_milo_record_holds_6_6_not_the_highest_double(
    record: Callable[[str], dict[str, Any]],
) -> None:
    data = record("milo_domino_plain")
    holder = six_six_holder(data)
    data["deals"][0]["leader"] = (holder + 1) % 4
    with pytest.raises(ReplayError) as refused:
        Match.from_record(data)
    error = refused.value.error
    assert isinstance(error, WrongLeader) and refused.value.index == -1
    assert error.lead is LeadRule.SIX_SIX and error.double is Tile(6, 6)
    assert str(error) == (
        f"deal 0: seat {(holder + 1) % 4} may not lead: seat {holder} holds 6-6,"
        " which leads a game's first round (R-MI-3)"
    )


def test_r_cr_2_a_spinner_leader_is_the_holder_of_the_highest_double() -> None:
    with pytest.raises(WrongLeader) as refused:
        build(Cross, ["6-6 " + no_six(0, 6), "5-5 " + no_six(6, 6)], leader=1)
    assert refused.value.lead is LeadRule.HIGHEST_DOUBLE and refused.value.double is Tile(6, 6)
    assert "seat 0 holds the highest double, 6-6 (R-CR-2)" in str(refused.value)


# -- what a refusal after a draw says (R-CR-5, R-MG-5, R-MC-5) -------------------------------


def merry_drew_a_misfit() -> Round:
    """Seat 1 (no six) has drawn 0-0, which does not fit the lone 6-6; 2-0 and 6-3 are
    still in the boneyard."""
    round_ = build(
        MerryGoRound,
        ["6-6 1-1 6-5 6-4 6-2 6-1 6-0", "2-1 3-1 3-0 4-0 4-1 5-0 5-1"],
        "0-0 2-0 6-3 5-5",
    )
    return play(round_, "6-6", "draw")


def test_r_mg_5_a_pass_after_a_draw_that_does_not_fit_is_refused_draw_again() -> None:
    round_ = merry_drew_a_misfit()
    assert legal(round_) == {"draw"}
    with pytest.raises(
        MustDrawFirst, match=r"the tile you drew, 0-0, does not fit: draw again"
    ) as e:
        round_.play(PASS)
    assert e.value.drawn is Tile(0, 0) and e.value.rule == "R-MG-5"


def test_r_mg_5_a_pass_before_any_draw_is_refused_draw_first() -> None:
    round_ = build(
        MerryGoRound, ["6-6 1-1 6-5 6-4 6-2 6-1 6-0", "2-1 3-1 3-0 4-0 4-1 5-0 5-1"], "0-0"
    )
    play(round_, "6-6")
    with pytest.raises(MustDrawFirst, match="you must draw first") as refused:
        round_.play(PASS)
    assert refused.value.drawn is None


def test_r_mg_5_another_tile_after_a_misfit_draw_is_refused_draw_again() -> None:
    round_ = merry_drew_a_misfit()
    with pytest.raises(
        OnlyDrawnTile,
        match="you drew 0-0 this turn and may play no other tile; it fits nowhere: draw again",
    ) as e:
        round_.play("2-1")
    assert e.value.drawn is Tile(0, 0) and not e.value.fits and e.value.draw_again
    assert "the only tile you may play" not in str(e.value)


def test_r_cr_5_another_tile_after_a_misfit_draw_is_refused_pass() -> None:
    round_ = build(Cross, ["6-6 1-1 6-5 6-4 6-3 6-2 6-1", "2-0 3-0 4-0 5-0 2-1 3-1 4-1"], "0-0")
    play(round_, "6-6", "draw")
    assert legal(round_) == {"pass"}
    with pytest.raises(OnlyDrawnTile, match=r"it fits nowhere: pass \(R-CR-5\)") as refused:
        round_.play("2-0")
    assert not refused.value.fits and not refused.value.draw_again


def test_r_cr_5_another_tile_after_a_draw_that_fits_is_refused_play_it() -> None:
    round_ = build(Cross, ["6-6 1-1 6-5 6-4 6-3 6-2 5-5", "2-0 3-0 4-0 5-0 2-1 3-1 4-1"], "6-1")
    play(round_, "6-6", "draw")
    with pytest.raises(OnlyDrawnTile, match="it is the only tile you may play") as refused:
        round_.play("2-0")
    assert refused.value.drawn is Tile(6, 1) and refused.value.fits
    assert DRAW not in round_.legal_moves()
