"""Computer players: only their seat's view, always a legal move, deterministic, and a
little rule knowledge at the normal level."""

from __future__ import annotations

import random

import pytest

from bot.engine import GAMES, TILES, Match, MerryGoRound, Move
from bot.players import LEVELS, computer_player
from bot.players.knowledge import infer
from tests.engine.builders import build, play


def positions(game: str, count: int):
    variant = GAMES[game]
    for seed in range(count):
        match = Match(game, variant.player_counts[seed % len(variant.player_counts)], seed=seed)
        picker = random.Random(seed)
        for _ in range(seed % 30):
            if match.outcome():
                break
            match.play(picker.choice(match.legal_moves()))
        if match.outcome() is None:
            yield match


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_level_returns_a_legal_move(game: str, level: str) -> None:
    player = computer_player(level, seed=1)
    for match in positions(game, 25 if level == "hard" else 60):
        move = player.choose(match.private_view(match.turn))
        assert move in match.legal_moves()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_view_a_player_gets_holds_no_hidden_tile(game: str) -> None:
    for match in positions(game, 30):
        seat = match.turn
        view = match.private_view(seat)
        assert "hands" not in view and "boneyard" not in view
        hidden = {str(t) for s in range(match.players) if s != seat for t in match.round.hand(s)}
        hidden |= {str(TILES[i]) for i in match.round.boneyard}
        assert not any(f"'{tile}'" in repr(view) for tile in hidden)


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_same_move_whatever_the_hidden_deal(level: str) -> None:
    """Two rounds that look the same from seat 1 but differ in what seat 0 and the
    boneyard hold: the player cannot tell them apart, so it must choose the same."""
    mine = "6-5 6-4 5-5 2-1 4-3"
    first = build(MerryGoRound, ["6-6 0-0 1-0 3-3 2-2 1-1 4-4", mine], "", leader=0)
    rest = [str(t) for t in TILES if str(t) not in mine.split() and str(t) != "6-6"]
    second = build(
        MerryGoRound, [" ".join(["6-6", *rest[-6:]]), mine], " ".join(rest[:-6]), leader=0
    )
    for round_ in (first, second):
        play(round_, "6-6")
    assert first.private_view(1) == second.private_view(1)
    player = computer_player(level, seed=5)
    assert player.choose(first.private_view(1)) == player.choose(second.private_view(1))


@pytest.mark.parametrize("level", LEVELS)
def test_a_seed_makes_a_level_deterministic(level: str) -> None:
    match = next(positions("cross", 8))
    view = match.private_view(match.turn)
    assert {computer_player(level, seed=3).choose(view) for _ in range(3)} == {
        computer_player(level, seed=3).choose(view)
    }


def lone_five_five(seat_1_score: int) -> MerryGoRound:
    """Seat 0 has led 5-5. Seat 1 holds 5-0 (10 on the table: 2 points) and 5-2 (12:
    nothing)."""
    round_ = build(MerryGoRound, ["5-5 6-6 1-1", "5-0 5-2 3-3"], leader=0, scores=[0, seat_1_score])
    play(round_, "5-5")
    return round_  # type: ignore[return-value]


def test_normal_takes_a_multiple_of_five_in_merry_go_round() -> None:
    move = computer_player("normal", 1).choose(lone_five_five(0).private_view(1))
    assert str(move.tile) == "5-0"


def test_normal_does_not_bust_when_a_safe_play_exists() -> None:
    move = computer_player("normal", 1).choose(lone_five_five(60).private_view(1))
    assert str(move.tile) == "5-2"  # 2 points would pass 61 (R-MG-7)


def test_normal_goes_for_exactly_61() -> None:
    move = computer_player("normal", 1).choose(lone_five_five(59).private_view(1))
    assert str(move.tile) == "5-0"


def test_a_pass_tells_the_others_which_numbers_a_player_lacks() -> None:
    round_ = build(MerryGoRound, ["6-6 1-0", "2-1 3-1", "6-5 4-4"], "", leader=0)
    play(round_, "6-6")
    assert [m.text for m in round_.legal_moves()] == ["draw"]
    while round_.legal_moves() == (Move.parse("draw"),):
        round_.play(Move.parse("draw"))
    view = round_.private_view(2)
    knowledge = infer(view)
    # Seat 1 drew while only sixes could be played: it holds no six.
    sixes = {str(t) for t in TILES if 6 in t}
    assert all(knowledge.lacking[1] >> t.index & 1 for t in TILES if str(t) in sixes)


def test_normal_opens_a_maltese_arm_it_can_cap() -> None:
    from bot.engine import MalteseCross

    round_ = build(MalteseCross, ["6-6 2-0 4-0", "6-3 6-1 1-1 5-0"], leader=0)
    play(round_, "6-6")
    move = computer_player("normal", 1).choose(round_.private_view(1))
    assert str(move.tile) == "6-1"  # lighter than 6-3, but 1-1 will cap its arm (R-MC-3)
