"""Game records (the one text form of a match) and the dict form of a state."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from bot.engine import GAMES, Match, ReplayError
from bot.engine.__main__ import play_random


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_seeded_game_replays_to_the_identical_state(game: str) -> None:
    players = GAMES[game].player_counts[-1]
    match = play_random(game, players, seed=17)
    record = json.loads(json.dumps(match.record()))
    assert Match.from_record(record).to_dict() == match.to_dict()
    assert play_random(game, players, seed=17).record() == match.record()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_state_round_trips_through_dict_mid_game_and_plays_on_the_same(game: str) -> None:
    players = GAMES[game].player_counts[0]
    match = Match(game, players, seed=4)
    picker = random.Random(4)
    for _ in range(60):
        match.play(picker.choice(match.legal_moves()))
    copy = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert copy.to_dict() == match.to_dict()
    for _ in range(200):
        if match.outcome() is not None:
            break
        move = picker.choice(match.legal_moves())
        assert copy.legal_moves() == match.legal_moves()
        match.play(move)
        copy.play(move)
    assert copy.to_dict() == match.to_dict()


def test_replay_names_the_first_illegal_action() -> None:
    record = play_random("cross", 3, seed=2).record()
    seat, _ = record["actions"][5]
    record["actions"][5] = [seat, "6-6 N"]
    with pytest.raises(ReplayError) as error:
        Match.from_record(record)
    assert error.value.index == 5


def test_replay_refuses_a_move_by_the_wrong_seat() -> None:
    record = play_random("milo", 4, seed=2).record()
    seat, move = record["actions"][3]
    record["actions"][3] = [(seat + 1) % 4, move]
    with pytest.raises(ReplayError, match=r"action 3 .*turn"):
        Match.from_record(record)


def test_cli_play_then_replay(tmp_path) -> None:
    run = [sys.executable, "-m", "bot.engine"]
    played = subprocess.run(
        [*run, "play", "--game", "merry-go-round", "--players", "3", "--seed", "9"],
        capture_output=True,
        text=True,
        check=True,
    )
    path = tmp_path / "game.json"
    path.write_text(played.stdout)
    replayed = subprocess.run(
        [*run, "replay", str(path)], capture_output=True, text=True, check=True
    )
    state = json.loads(replayed.stdout)
    assert state["outcome"]["scores"][state["outcome"]["winner"]] == 61
    assert state["actions"] == len(json.loads(played.stdout)["actions"])


def test_cli_replay_of_an_illegal_action_exits_non_zero_naming_it(tmp_path) -> None:
    record = play_random("cross", 2, seed=3).record()
    record["actions"][4][1] = "0-0 Q"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = subprocess.run(
        [sys.executable, "-m", "bot.engine", "replay", str(path)], capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "action 4" in result.stderr and "'Q' is not an end" in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "cannot read a JSON record"),
        ('{"format": "domino-record/1", "game": "cross"}', "before action 0: the record has no"),
        (
            '{"format": "domino-record/1", "game": "cross", "players": 5, "options": {},'
            ' "seed": 1, "actions": []}',
            "before action 0: Cross is played by 2 or 3 or 4 players, not 5",
        ),
    ],
)
def test_cli_replay_of_a_broken_record_exits_non_zero_saying_why(text: str, message: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.engine", "replay", "-"],
        input=text,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert message in result.stderr and "Traceback" not in result.stderr
