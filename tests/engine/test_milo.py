"""R-MI: Milo."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    DRAW,
    PASS,
    IllegalMove,
    InvalidOptions,
    LineLayout,
    LineTile,
    Match,
    Milo,
    Move,
    Options,
    Reason,
    Tile,
)
from tests.engine.builders import build, legal, play
from tests.engine.conftest import LoadRecord


def play_round(match: Match, picker: random.Random) -> None:
    """Random legal moves until the round in play ends."""
    rounds = len(match.rounds)
    while len(match.rounds) == rounds and match.outcome() is None:
        match.play(picker.choice(match.legal_moves()))


@pytest.mark.parametrize("players", [2, 3, 5])
def test_r_mi_1_exactly_four_players(players: int) -> None:
    with pytest.raises(InvalidOptions, match="Milo is played by 4 players"):
        Options.for_game(Milo, players)


def test_r_mi_1_seven_tiles_each_no_boneyard_two_partnerships() -> None:
    round_ = Match("milo", 4, seed=3).round
    assert [len(round_.hand(s)) for s in range(4)] == [7, 7, 7, 7]
    assert round_.boneyard == [] and round_.view().boneyard_count == 0
    assert [round_.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert len(round_.scores) == 2


def test_r_mi_2_line_with_two_ends_and_doubles_are_not_spinners() -> None:
    round_ = build(
        Milo,
        [
            "6-6 0-0 1-0 1-1 2-0 2-1 2-2",
            "6-5 3-0 3-1 3-2 3-3 4-0 4-1",
            "5-5 4-2 4-3 4-4 5-0 5-1 5-2",
            "6-4 5-3 5-4 6-0 6-1 6-2 6-3",
        ],
    )
    play(round_, "6-6", "6-5 L")
    assert round_.open_ends() == {"L": 5, "R": 6}
    play(round_, "5-5 L")
    assert round_.open_ends() == {"L": 5, "R": 6}  # still two ends
    with pytest.raises(
        IllegalMove, match=r"6-4 does not fit: end L needs a 5; 6-4 fits on R \(R-MI-2\)"
    ):
        round_.play(Move.parse("6-4 L"))
    play(round_, "6-4 R")
    layout = round_.view().layout
    assert isinstance(layout, LineLayout)
    assert [str(t.tile) for t in layout.tiles] == ["5-5", "6-5", "6-6", "6-4"]
    assert layout.tiles[0] == LineTile(Tile(5, 5), 5, 5)


def test_r_mi_3_first_round_led_with_6_6_later_rounds_by_the_next_seat() -> None:
    match = Match("milo", 4, seed=8)
    first = match.round
    holder = next(s for s in range(4) if any(str(t) == "6-6" for t in first.hand(s)))
    assert match.turn == holder and [m.text for m in match.legal_moves()] == ["6-6"]
    play_round(match, random.Random(1))
    second = match.round
    assert second.leader == (holder + 1) % 4
    assert {m.text for m in match.legal_moves()} == {str(t) for t in second.hand(second.leader)}
    play_round(match, random.Random(2))
    assert match.round.leader == (holder + 2) % 4


def test_r_mi_4_a_player_who_cannot_play_passes() -> None:
    round_ = build(
        Milo,
        [
            "6-6 0-0 1-1 2-0 2-1 2-2 3-0",
            "1-0 3-1 3-2 3-3 4-0 4-1 4-2",  # no six
            "6-5 4-3 4-4 5-0 5-1 5-2 5-3",
            "6-4 5-4 5-5 6-0 6-1 6-2 6-3",
        ],
    )
    play(round_, "6-6")
    assert not round_.can_play(1)  # seat 1 holds no six
    assert legal(round_) == {"pass"} and round_.forced_move() is PASS
    with pytest.raises(IllegalMove, match=r"no boneyard.*\(R-MI-4\)"):
        round_.play(DRAW)
    play(round_, "pass")
    assert round_.turn == 2


def test_r_mi_4_nobody_can_play_blocks_the_round(record: LoadRecord) -> None:
    match = Match.from_record(record("milo_blocked_win"))
    finished = match.previous
    assert finished is not None and match.rounds[0].reason is Reason.BLOCKED
    assert not any(finished.can_play(s) for s in range(4))
    assert all(finished.hand(s) for s in range(4))  # nobody dominoed


def test_r_mi_5_domino_scores_1_for_the_team(record: LoadRecord) -> None:
    match = Match.from_record(record("milo_domino_plain"))
    outcome, finished = match.rounds[0], match.previous
    assert finished is not None and outcome.reason is Reason.DOMINO
    assert isinstance(finished, Milo)
    left, right = finished.line_ends
    assert left != right
    team = outcome.winner
    assert team is not None and outcome.points[team] == 1 and sum(outcome.points) == 1


def test_r_mi_5_domino_with_both_ends_the_same_scores_2(record: LoadRecord) -> None:
    match = Match.from_record(record("milo_domino_bonus"))
    outcome, finished = match.rounds[0], match.previous
    assert finished is not None and outcome.reason is Reason.DOMINO
    assert isinstance(finished, Milo)
    left, right = finished.line_ends
    assert left == right
    assert outcome.winner is not None and outcome.points[outcome.winner] == 2
    assert outcome.bonus == left and outcome.seat is not None
    assert outcome.sides[outcome.winner] == (outcome.winner, outcome.winner + 2)
    assert f"both ends show {left} (R-MI-5)" in outcome.describe(["Ann", "Bob", "Cat", "Dan"])


def test_r_mi_5_blocked_lower_team_count_scores_1(record: LoadRecord) -> None:
    outcome = Match.from_record(record("milo_blocked_win")).rounds[0]
    teams = [outcome.counts[0] + outcome.counts[2], outcome.counts[1] + outcome.counts[3]]
    assert outcome.winner == teams.index(min(teams)) and teams[0] != teams[1]
    assert outcome.points[outcome.winner] == 1 and sum(outcome.points) == 1


def test_r_mi_5_blocked_team_tie_scores_nothing(record: LoadRecord) -> None:
    outcome = Match.from_record(record("milo_blocked_tie")).rounds[0]
    assert outcome.counts[0] + outcome.counts[2] == outcome.counts[1] + outcome.counts[3]
    assert outcome.winner is None and outcome.points == (0, 0)


def test_r_mi_6_first_team_to_5_wins_the_game() -> None:
    match = Match("milo", 4, seed=21)
    picker = random.Random(5)
    while match.outcome() is None:
        play_round(match, picker)
    outcome = match.outcome()
    assert outcome is not None and outcome.scores[outcome.winner] >= 5
    assert outcome.scores[1 - outcome.winner] < 5


def test_r_mi_7_match_of_games_and_the_first_lead_of_each_new_game() -> None:
    options = Options.for_game(Milo, 4, match_games=2)
    match = Match("milo", 4, options, seed=5)
    picker = random.Random(3)
    first_leader = match.round.leader
    while match.game_number == 1:
        play_round(match, picker)
    assert match.outcome() is None and sum(match.games_won) == 1
    assert match.scores == [0, 0]
    new_game = match.round
    assert new_game.leader == (first_leader + 1) % 4
    assert {m.text for m in match.legal_moves()} == {str(t) for t in new_game.hand(new_game.leader)}
    while match.outcome() is None:
        play_round(match, picker)
    outcome = match.outcome()
    assert outcome is not None and outcome.games_won[outcome.winner] == 2
