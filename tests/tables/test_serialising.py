"""Events as the audit log stores them and reads them back after a restart (what a
channel was not shown yet is announced from them), and commands as the log names them.
Every class is found through its union, so a new one, or a new field, is either stored
whole or refused here: never silently dropped from the log."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, fields
from typing import Any, get_args, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import commands, events
from bot.commands import AddComputer, Command, ComputerMove, Join, Start
from bot.engine import MatchOutcome, Move, Options, RoundOutcome, ScoreEvent, find_variant
from bot.events import Event, GameOver, Moved, RoundOver, from_dict, to_dict
from bot.stored import stored_fields
from bot.table import Status, Table

HOST = 1


def whole_game(game: str, seed: int) -> list[Event]:
    """Every event of a game of computers played at random, the lobby's included."""
    variant = find_variant(game)
    players = max(variant.player_counts)
    table = Table("t1", 10, 20, HOST, game, Options.for_game(variant, players), seed)
    events = table.apply(Join(HOST, "Host"))
    for _ in range(players - 1):
        events += table.apply(AddComputer(HOST, "easy"))
    events += table.apply(Start(HOST))
    chooser = random.Random(seed)
    while table.status is Status.PLAYING:
        assert table.match is not None
        events += table.apply(ComputerMove(chooser.choice(table.match.legal_moves())))
    return events


@pytest.fixture(scope="module")
def played() -> list[Event]:
    """Merry-Go-Round scores plays and goes bust (R-MG-4, R-MG-7); Milo scores teams
    (R-MI-5): between them, every shape an outcome takes."""
    return whole_game("merry-go-round", 0) + whole_game("milo", 0)


def stored_and_read(event: Event) -> Event:
    """``event`` through the audit log: as JSON text, and back."""
    return from_dict(json.loads(json.dumps(to_dict(event))))


def values_by_type(played: list[Event]) -> dict[object, st.SearchStrategy[Any]]:
    """Values for each type an event's field may have, taken from real games where the
    engine makes them. A field of any other type fails the test that asks for it."""
    moved = [event for event in played if isinstance(event, Moved)]
    return {
        int: st.integers(0, 3),
        int | None: st.none() | st.integers(0, 3),
        float: st.floats(allow_nan=False),
        Move: st.sampled_from([event.move for event in moved]),
        tuple[ScoreEvent, ...]: st.sampled_from([event.scores for event in moved]),
        RoundOutcome: st.sampled_from([e.outcome for e in played if isinstance(e, RoundOver)]),
        MatchOutcome: st.sampled_from([e.outcome for e in played if isinstance(e, GameOver)]),
    }


@pytest.mark.parametrize("cls", get_args(Event), ids=lambda cls: cls.__name__)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_event_class_is_read_back_as_it_was_stored(
    cls: type[Event], played: list[Event], data: st.DataObject
) -> None:
    by_type = values_by_type(played)
    hints = get_type_hints(cls)
    built: st.SearchStrategy[Event] = st.builds(
        cls, **{field.name: by_type[hints[field.name]] for field in fields(cls)}
    )
    event = data.draw(built)
    assert stored_and_read(event) == event


def test_a_whole_games_events_are_read_back_as_they_happened(played: list[Event]) -> None:
    assert any(isinstance(e, Moved) and any(s.bust for s in e.scores) for e in played), (
        "a bust is among them (R-MG-7)"
    )
    assert any(isinstance(e, RoundOver) and e.outcome.team_counts for e in played), (
        "and a blocked Milo round's team counts (R-MI-5)"
    )
    assert [stored_and_read(event) for event in played] == played


STORED: list[dict[str, Any]] = [
    {"kind": "joined", "seat": 2},
    {"kind": "started"},
    {
        "kind": "moved",
        "seat": 1,
        "move": "6-4 N",
        "scores": [
            {
                "side": 1,
                "points": 2,
                "kind": "play",
                "rule": "R-MG-4",
                "seats": [1],
                "bust": False,
                "open_sum": 10,
                "target": None,
                "bust_rule": None,
            }
        ],
    },
    {
        "kind": "round_over",
        "seat": 0,
        "outcome": {
            "reason": "domino",
            "winner": 0,
            "points": [30, 0],
            "counts": [0, 30],
            "hands": [[], ["6-6", "5-4", "3-3", "2-1"]],
            "sides": [[0], [1]],
            "rule": "R-CR-6",
            "seat": 0,
            "own": 0,
            "others": 30,
            "raw": None,
            "rounded": None,
            "bonus": None,
            "team_counts": None,
            "target": None,
        },
    },
    {"kind": "game_over", "outcome": {"winner": 0, "scores": [100, 40], "games_won": [0, 0]}},
    {"kind": "cancelled", "seat": None},
]
"""Events as earlier releases stored them in the audit log."""


def test_events_stored_by_earlier_releases_still_load_and_are_stored_alike() -> None:
    assert [to_dict(from_dict(data)) for data in STORED] == STORED


def test_an_event_field_with_no_stored_form_is_refused_not_dropped() -> None:
    @dataclass(frozen=True)
    class Renamed:
        seat: int
        names: frozenset[str]

    with pytest.raises(TypeError, match=r"Renamed\.names"):
        stored_fields(Renamed, events._CODECS)


@pytest.mark.parametrize("union", [Event, Command], ids=["events", "commands"])
def test_each_class_has_a_name_of_its_own_in_the_audit_log(union: object) -> None:
    kinds = [cls.kind for cls in get_args(union)]
    assert len(set(kinds)) == len(kinds)


COMMAND_VALUES: dict[object, st.SearchStrategy[Any]] = {
    int: st.integers(0, 2**63 - 1),
    str: st.text(max_size=40),
    bool: st.booleans(),
    Move: st.sampled_from([Move.parse(text) for text in ("6-4 N", "3-3", "draw", "pass")]),
    Move | str: st.sampled_from([Move.parse("5-2 L"), "6-4 n", "draw"]),
}


@pytest.mark.parametrize("cls", get_args(Command), ids=lambda cls: cls.__name__)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_command_class_is_read_back_as_a_face_sent_it(
    cls: type[Command], data: st.DataObject
) -> None:
    hints = get_type_hints(cls)
    built: st.SearchStrategy[Command] = st.builds(
        cls, **{f.name: COMMAND_VALUES[hints[f.name]] for f in fields(cls)}
    )
    command = data.draw(built)
    assert commands.from_dict(json.loads(json.dumps(commands.to_dict(command)))) == command
