"""The engine's public API refuses anything that is not what it takes with an engine
error (never an AttributeError or a TypeError), and ``parse_move`` reads a player's text
against the position."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.engine import (
    DRAW,
    PASS,
    AlreadyDrew,
    AmbiguousMove,
    ArmCapped,
    ArmStartedAlready,
    BadOptionType,
    CapsOnly,
    Cross,
    DoesNotFit,
    EngineError,
    FitsNowhere,
    FixedTarget,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    LeadNamesNoEnd,
    LeadRule,
    MalteseCross,
    Match,
    MatchGamesOutOfRange,
    MatchOver,
    MerryGoRound,
    Milo,
    Move,
    MustDrawFirst,
    MustPlay,
    NotAMove,
    NotAnEnd,
    NotATile,
    NotInHand,
    NotLedYet,
    OptionNotOffered,
    Options,
    RoundOver,
    TargetOutOfRange,
    Tile,
    UnknownGame,
    UnknownOption,
    WrongLead,
    WrongPlayerCount,
    find_variant,
)
from bot.engine.__main__ import play_random
from tests.engine.builders import build, play, tiles
from tests.engine.conftest import LoadRecord

CROSS_HANDS = ["6-6 1-0 1-1 2-1 3-1 4-1 5-1", "6-5 2-0 2-2 3-0 3-2 4-0 4-2"]


def led_cross() -> Cross:
    """Seat 0 has led 6-6; seat 1 holds one six, 6-5, which fits every arm."""
    return play(build(Cross, CROSS_HANDS), "6-6")


@pytest.mark.parametrize("move", [None, 42, 6.5, ["6-5", "N"], object(), b"6-5 N"])
def test_play_refuses_what_is_not_a_move(move: object) -> None:
    round_ = led_cross()
    before = round_.to_dict()
    with pytest.raises(NotAMove, match="is not a move"):
        round_.play(move)  # type: ignore[arg-type]
    match = Match("cross", 2, seed=1)
    with pytest.raises(NotAMove):
        match.play(move)  # type: ignore[arg-type]
    assert round_.to_dict() == before


def test_play_takes_a_moves_exact_text_and_refuses_an_illegal_one() -> None:
    round_ = led_cross()
    with pytest.raises(IllegalMove, match="6-6 is not in your hand"):
        round_.play("6-6 N")
    with pytest.raises(NotAMove, match="'banana' is not a tile"):
        round_.play("banana")
    round_.play("6-5 W")
    assert round_.history[-1] == (1, Move.parse("6-5 W"))


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: Tile.parse(42), NotATile),  # type: ignore[arg-type]
        (lambda: Tile.parse(None), NotATile),  # type: ignore[arg-type]
        (lambda: Move.parse(None), NotAMove),  # type: ignore[arg-type]
        (lambda: Move.parse(["6-5"]), NotAMove),  # type: ignore[arg-type]
        (lambda: Move.play("6-5", "N"), NotAMove),  # type: ignore[arg-type]
        (lambda: Move.play(Tile(6, 5), 9), NotAMove),
        (lambda: Move.play(Tile(6, 5), "Q"), NotAMove),
        (lambda: Options.for_game(Cross, "2"), BadOptionType),  # type: ignore[arg-type]
        (lambda: Options.for_game(Cross, 2, target=55.5), BadOptionType),  # type: ignore[arg-type]
        (lambda: Options.for_game(Cross, 2, target=True), BadOptionType),
        (lambda: Options.for_game("cross", 2), BadOptionType),  # type: ignore[arg-type]
        (lambda: Options.for_game(Milo, 4, match_games="2"), BadOptionType),  # type: ignore[arg-type]
        (lambda: Options(100, "no", 1), BadOptionType),  # type: ignore[arg-type]
        (lambda: Match(42, 2), BadOptionType),  # type: ignore[arg-type]
        (lambda: Match("cross", 2.0), BadOptionType),  # type: ignore[arg-type]
        (lambda: Match("cross", 2, seed="7"), BadOptionType),  # type: ignore[arg-type]
        (lambda: Match("cross", 2, seed=-1), BadOptionType),
        (lambda: Match("cross", 2, {"target": 50}), BadOptionType),  # type: ignore[arg-type]
        (lambda: Match("cross", 2, deals=[None]), InvalidDeal),  # type: ignore[list-item]
        (lambda: Cross(None), InvalidDeal),  # type: ignore[arg-type]
        (lambda: Cross(["6-6 6-5", "1-0"]), InvalidDeal),  # type: ignore[list-item]
        (lambda: Cross([tiles(h) for h in CROSS_HANDS], leader="0"), InvalidDeal),  # type: ignore[arg-type]
        (lambda: Cross([tiles(h) for h in CROSS_HANDS], scores=[0]), InvalidDeal),
        (lambda: Cross([tiles(h) for h in CROSS_HANDS], options=100), BadOptionType),  # type: ignore[arg-type]
    ],
)
def test_the_public_api_refuses_wrong_types_with_an_engine_error(
    call: Callable[[], object], error: type[EngineError]
) -> None:
    with pytest.raises(error):
        call()


def test_options_built_for_another_game_are_checked_again_by_the_match() -> None:
    options = Options.for_game(MerryGoRound, 2, keep_last_two=True)
    with pytest.raises(InvalidOptions, match="'keep last two' is a Merry-Go-Round option"):
        Match("cross", 2, options)


# -- parse_move ------------------------------------------------------------------------------


def test_parse_move_fills_in_the_only_end_a_tile_fits() -> None:
    """R-SP-3: the engine's move names the end; it is filled in when there is no choice.
    The cross is built (N 5, E 4, S 3, W 2) and seat 1 holds 5-0, 3-2 and 2-0."""
    round_ = build(Cross, ["6-6 6-4 6-3 6-2 2-1 3-1 4-1", "6-5 5-0 1-0 0-0 1-1 2-0 3-2"], "3-0 4-0")
    play(round_, "6-6", "6-5 N", "6-4 E", "draw", "pass", "6-3 S", "draw", "pass", "6-2 W")
    assert round_.turn == 1
    assert round_.parse_move("0-5") is Move.parse("5-0 N")
    assert round_.parse_move("[5|0]") is Move.parse("5-0 N")
    assert round_.parse_move("2-0") is Move.parse("2-0 W")
    with pytest.raises(AmbiguousMove) as ambiguous:
        round_.parse_move("3-2")
    assert ambiguous.value.ends == ("S", "W")


def test_parse_move_names_the_ends_of_an_ambiguous_tile() -> None:
    round_ = led_cross()
    with pytest.raises(
        AmbiguousMove, match=r"say where 6-5 goes: N or E or S or W \(R-SP-3\)"
    ) as e:
        round_.parse_move("6-5")
    assert e.value.tile is Tile(6, 5) and e.value.ends == ("N", "E", "S", "W")
    assert isinstance(e.value, IllegalMove)
    assert round_.parse_move("5-6 w") is Move.parse("6-5 W")


def test_parse_move_reads_the_lead_draw_and_pass() -> None:
    round_ = build(Cross, CROSS_HANDS)
    assert round_.parse_move(" 6-6 ") is Move.parse("6-6")
    with pytest.raises(IllegalMove, match=r"highest double, 6-6 \(R-CR-2\)"):
        round_.parse_move("1-1")
    play(round_, "6-6")
    with pytest.raises(IllegalMove, match=r"must play it \(R-ALL-4\)"):
        round_.parse_move("draw")
    round_ = build(Cross, ["6-6 1-1 6-5 6-4 6-3 6-2 6-1", "2-0 3-0 4-0 5-0 2-1 3-1 4-1"], "0-0")
    play(round_, "6-6")
    assert round_.parse_move("DRAW") is DRAW
    play(round_, "draw")
    assert round_.parse_move("pass") is PASS


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("banana", NotAMove, "'banana' is not a tile"),
        ("6-5 Q", NotAMove, "'Q' is not an end"),
        ("", NotAMove, "'' is not a move"),
        ("6-5 N S", NotAMove, "is not a move"),
        ("1-0", IllegalMove, "1-0 is not in your hand"),
        ("6-5 L", IllegalMove, r"this layout's ends are N, E, S, W \(R-SP-3\)"),
    ],
)
def test_parse_move_refuses_text_that_is_no_legal_move_now(
    text: str, error: type[IllegalMove], message: str
) -> None:
    round_ = led_cross()
    with pytest.raises(error, match=message):
        round_.parse_move(text)


def test_parse_move_on_a_match_refuses_once_it_is_over() -> None:
    match = play_random("milo", 4, seed=1)
    with pytest.raises(MatchOver, match="the match is over"):
        match.parse_move("pass")
    live = Match("milo", 4, seed=1)
    assert live.parse_move("6-6") is Move.parse("6-6")


# -- refusals carry data --------------------------------------------------------------------


def test_play_refusals_carry_the_facts_and_the_rule() -> None:
    """What the Discord layer needs to word a refusal itself: the tile, the end, the
    number it needs, where the tile fits instead, and the rule."""
    round_ = build(Cross, CROSS_HANDS)
    with pytest.raises(WrongLead) as lead:
        round_.play("1-1")
    assert (lead.value.tile, lead.value.required, lead.value.lead) == (
        Tile(1, 1),
        (Tile(6, 6),),
        LeadRule.HIGHEST_DOUBLE,
    )
    assert lead.value.rule == "R-CR-2"
    with pytest.raises(NotLedYet):
        round_.play(PASS)
    with pytest.raises(LeadNamesNoEnd) as named:
        round_.play("6-6 N")
    assert named.value.tile is Tile(6, 6) and named.value.rule == "R-SP-3"
    play(round_, "6-6", "6-5 N")
    with pytest.raises(NotInHand) as missing:
        round_.play("6-5 E")
    assert missing.value.tile is Tile(6, 5) and missing.value.rule is None
    with pytest.raises(FitsNowhere) as nowhere:
        round_.play("1-0")
    assert nowhere.value.tile is Tile(1, 0)
    with pytest.raises(NotAnEnd) as not_an_end:
        round_.play("1-0 L")
    assert not_an_end.value.end == "L" and not_an_end.value.ends == ("N", "E", "S", "W")
    with pytest.raises(MustDrawFirst):
        round_.play(PASS)


def test_wrong_end_refusals_say_where_the_tile_fits_instead() -> None:
    round_ = build(Cross, ["6-6 6-4 6-2 5-1 4-1 3-3 3-0", "6-5 6-3 3-1 2-1 1-0 0-0 1-1"])
    play(round_, "6-6", "6-5 N")
    with pytest.raises(ArmStartedAlready) as started:
        round_.play("6-4 N")
    assert (started.value.end, started.value.fits_on) == ("N", ("E", "S", "W"))
    assert started.value.rule == "R-CR-3" and str(started.value).endswith(
        "6-4 fits on E or S or W (R-CR-3)"
    )
    play(round_, "6-4 E", "6-3 S", "6-2 W")
    with pytest.raises(DoesNotFit) as misfit:
        round_.play("2-1 N")
    assert (misfit.value.tile, misfit.value.end, misfit.value.need) == (Tile(2, 1), "N", 5)
    assert misfit.value.fits_on == ("W",) and misfit.value.rule == "R-SP-2"


def test_maltese_refusals_name_the_arm_and_what_it_needs() -> None:
    round_ = build(MalteseCross, ["6-6 6-4 6-2 5-5 3-3 1-1 0-0", "6-5 6-3 4-4 2-2 5-1 4-0 1-0"])
    play(round_, "6-6", "6-5 N", "6-4 E", "6-3 S", "6-2 W")
    with pytest.raises(CapsOnly) as caps:
        round_.play("5-1 N")
    assert (caps.value.end, caps.value.need, caps.value.rule) == ("N", 5, "R-MC-3")
    play(round_, "4-4 E", "5-5 N")
    with pytest.raises(ArmCapped) as capped:
        round_.play("4-0 E")
    assert capped.value.end == "E" and capped.value.rule == "R-MC-3"


def test_draw_and_pass_refusals_carry_their_rule() -> None:
    round_ = build(Cross, ["6-6 1-1 6-5 6-4 6-3 6-2 5-5", "2-0 3-0 4-0 5-0 2-1 3-1 4-1"], "6-1")
    play(round_, "6-6")
    play(round_, "draw")  # 6-1: it fits
    with pytest.raises(MustPlay) as must:
        round_.play(PASS)
    assert must.value.drawn is Tile(6, 1) and must.value.rule == "R-CR-5"
    round_ = build(Cross, ["6-6 1-1 6-5 6-4 6-3 6-2 6-1", "2-0 3-0 4-0 5-0 2-1 3-1 4-1"], "0-0")
    play(round_, "6-6", "draw")
    with pytest.raises(AlreadyDrew) as again:
        round_.play(DRAW)
    assert again.value.rule == "R-CR-5"
    round_ = led_cross()
    with pytest.raises(MustPlay) as must:
        round_.play(DRAW)
    assert must.value.drawn is None and must.value.rule == "R-ALL-4"


def test_a_round_over_refuses_every_move(record: LoadRecord) -> None:
    finished = Match.from_record(record("cross_domino")).previous
    assert finished is not None
    with pytest.raises(RoundOver):
        finished.play(PASS)


@pytest.mark.parametrize(
    ("call", "error", "data"),
    [
        (lambda: find_variant("chess"), UnknownGame, {"name": "chess"}),
        (lambda: Options.for_game(Cross, 5), WrongPlayerCount, {"allowed": (2, 3, 4), "got": 5}),
        (
            lambda: Options.for_game(MerryGoRound, 2, target=60),
            FixedTarget,
            {"target": 61, "rule": "R-MG-7"},
        ),
        (
            lambda: Options.for_game(Cross, 2, target=5),
            TargetOutOfRange,
            {"low": 10, "high": 1000, "got": 5},
        ),
        (
            lambda: Options.for_game(Cross, 2, keep_last_two=True),
            OptionNotOffered,
            {"option": "keep_last_two", "offered_by": (MerryGoRound,), "rule": "R-MG-5"},
        ),
        (
            lambda: Options.for_game(Milo, 4, match_games=10),
            MatchGamesOutOfRange,
            {"low": 1, "high": 9, "got": 10, "rule": "R-MI-7"},
        ),
        (lambda: Options.from_dict(Cross, 2, {"speed": 3}), UnknownOption, {"name": "speed"}),
    ],
)
def test_option_refusals_carry_their_data(
    call: Callable[[], object], error: type[InvalidOptions], data: dict[str, object]
) -> None:
    with pytest.raises(error) as refused:
        call()
    assert {key: getattr(refused.value, key) for key in data} == data
