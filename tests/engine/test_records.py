"""Game records (the one text form of a match) and the dict form of a state."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine import GAMES, InvalidOptions, InvalidRecord, Match, Options, ReplayError
from bot.engine.__main__ import main, play_random
from tests.engine.builders import OptionKeywords
from tests.engine.conftest import RECORDS


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


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_copy_plays_on_alone_across_rounds_and_games(game: str) -> None:
    """What the table service relies on to refuse an action without a trace: a move on a
    copy leaves the match as it was, and the copy is the match that move makes, through
    round ends and, in Milo's match of several games (R-MI-7), new games alike."""
    players = GAMES[game].player_counts[-1]
    games: OptionKeywords = {"match_games": 2} if game == "milo" else {}
    match = Match(game, players, Options.for_game(GAMES[game], players, **games), seed=9)
    picker = random.Random(9)
    rounds = 0
    while match.outcome() is None:
        before = match.to_dict()
        move = picker.choice(match.legal_moves())
        copy = match.copy()
        copy.play(move)
        assert match.to_dict() == before
        match.play(move)
        assert copy.to_dict() == match.to_dict()
        match = copy
        rounds = len(match.rounds)
    assert rounds >= 2


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


def test_cli_play_then_replay(tmp_path: Path) -> None:
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


def test_cli_replay_of_an_illegal_action_exits_non_zero_naming_it(tmp_path: Path) -> None:
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
        ("[]", "before action 0: the record must be an object, not a list of 0"),
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


def replay_in_process(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """``python -m bot.engine replay -`` run in this process on ``data``: exit code,
    standard output, standard error."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", "-"])
    return code, out.getvalue(), err.getvalue()


def changed(record: dict[str, Any], path: str, value: object) -> dict[str, Any]:
    """A copy of ``record`` with the field at ``path`` (``options.target``) set to
    ``value``, or removed when ``value`` is :data:`MISSING`."""
    copy: dict[str, Any] = json.loads(json.dumps(record))
    *parents, last = path.split(".")
    here: Any = copy  # any JSON value on the way down
    for key in parents:
        here = here[int(key)] if isinstance(here, list) else here[key]
    if value is MISSING:
        del here[last]
    elif isinstance(here, list):
        here[int(last)] = value
    else:
        here[last] = value
    return copy


MISSING = object()
A_RECORD = play_random("merry-go-round", 3, seed=1).record()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("game", 7, "game must be one of cross, maltese-cross, merry-go-round, milo, not 7"),
        ("game", None, "game must be one of .*, not null"),
        ("game", ["cross"], "game must be one of .*, not a list of 1"),
        ("game", "Cross", "game must be one of .*, not 'Cross'"),
        ("format", "domino-record/2", "format must be 'domino-record/1', not 'domino-record/2'"),
        ("players", "3", "players must be an integer, not '3'"),
        ("players", True, "players must be an integer, not true"),
        ("players", 3.0, "players must be an integer, not 3.0"),
        ("seed", -1, r"seed must be from 0 to 2\*\*64 - 1, not -1"),
        ("seed", MISSING, "the record has no 'seed'"),
        ("options", [], "options must be an object, not a list of 0"),
        ("options.keep_last_two", "no", "options.keep_last_two must be true or false, not 'no'"),
        ("options.keep_last_two", 1, "options.keep_last_two must be true or false, not 1"),
        ("options.target", 55.5, "options.target must be an integer, not 55.5"),
        ("options.target", 60, r"Merry-Go-Round is always played to exactly 61 \(R-MG-7\)"),
        ("options.match_games", 2.5, "options.match_games must be an integer, not 2.5"),
        ("options.speed", 3, "options has a field the format does not know: 'speed'"),
        ("deals", {}, "deals must be a list, not an object of 0"),
        ("actions", None, "actions must be a list, not null"),
        ("actions", 42, "actions must be a list, not 42"),
        ("actions.0", None, r"actions\[0\] must be a \[seat, move\] pair, not null"),
        ("actions.0", "0 6-6", r"actions\[0\] must be a \[seat, move\] pair, not '0 6-6'"),
        ("actions.3", [1], r"actions\[3\] must be a \[seat, move\] pair, not a list of 1"),
        ("actions.0.0", "0", r"actions\[0\]\[0\] must be an integer, not '0'"),
        ("actions.0.0", 3, r"actions\[0\]\[0\] must be a seat from 0 to 2, not 3"),
        ("actions.0.1", 66, r"actions\[0\]\[1\] must be a move's text, not 66"),
        ("moves", [], "the record has a field the format does not know: 'moves'"),
    ],
)
def test_a_record_is_read_strictly_and_refused_in_one_line_naming_the_field(
    path: str, value: object, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = changed(A_RECORD, path, value)
    with pytest.raises(ReplayError, match=f"^before action 0: {message}") as refused:
        Match.from_record(record)
    assert isinstance(refused.value.error, InvalidRecord | InvalidOptions)
    code, out, err = replay_in_process(json.dumps(record).encode(), monkeypatch)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert re.match(f"replay failed before action 0: {message}", err)


def test_a_deal_with_hands_for_another_player_count_is_refused() -> None:
    """A record of 3 players whose deal has 2 hands does not play on as 3 (R-ALL-3)."""
    record = json.loads((RECORDS / "cross_blocked_13_vs_30.json").read_text())
    record["players"] = 3
    with pytest.raises(ReplayError, match=r"deals\[0\].hands must hold 3 hands, one a seat, not 2"):
        Match.from_record(record)


def test_replay_refuses_an_action_after_the_match_is_over() -> None:
    record = play_random("milo", 4, seed=3).record()
    record["actions"].append([0, "pass"])
    with pytest.raises(ReplayError, match=r"at action \d+ \[0, 'pass'\]: the match is over$"):
        Match.from_record(record)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[" * 200_000, "maximum recursion depth"),
        (b'{"format": "domino-record/1", "game": "cross\xff"}', "can't decode byte 0xff"),
        (b'{"seed": 1' + b"0" * 5000 + b"}", "digits"),
        (b"", "Expecting value"),
    ],
)
def test_cli_replay_of_an_unreadable_file_exits_1_in_one_line(
    data: bytes, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = replay_in_process(data, monkeypatch)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("replay failed: cannot read a JSON record from '-': ") and message in err


def test_cli_replay_of_a_missing_file_exits_1_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "nowhere.json")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No such file" in err


STATES = RECORDS.parent / "states"


@pytest.mark.parametrize("name", ["merry_go_round_before_state_2", "milo_before_state_2"])
def test_a_state_stored_in_the_older_shape_loads_by_replaying_its_record(name: str) -> None:
    """States stored before outcomes and score events were data (and before a draw was
    one turn): the match is rebuilt from the record the state carries, and plays on."""
    old = json.loads((STATES / f"{name}.json").read_text())
    assert "state" not in old
    match = Match.from_dict(old)
    assert match.to_dict() == Match.from_record(old["record"]).to_dict()
    assert len(match.rounds) == len(old["rounds"]) and match.scores == old["round"]["scores"]
    assert match.round.drew == old["round"]["drew"]
    assert [[seat, move.text] for seat, move in match.round.history] == old["round"]["history"]
    again = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert again.to_dict() == match.to_dict()
    picker = random.Random(1)
    while match.outcome() is None:
        move = picker.choice(match.legal_moves())
        match.play(move)
        again.play(move)
    assert again.to_dict() == match.to_dict()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "5"], "Cross is played by 2 or 3 or 4 players, not 5"),
        (["--players", "3", "--seed", "-1"], r"seed must be an integer from 0 to 2\*\*64 - 1"),
        (["--players", "3", "--target", "5"], "between 10 and 1000, not 5"),
    ],
)
def test_cli_play_refuses_options_the_game_refuses(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--game", "cross", *args])
    assert stopped.value.code == 2
    assert re.search(message, capsys.readouterr().err)
