"""No record crashes the referee: any JSON at all, and real records with fields dropped,
replaced, retyped, actions swapped or made by another seat, is either refused cleanly
(an :class:`EngineError` from the reader and ``Match.from_record``; exit 1 and one line
from ``python -m bot.engine replay``) or replays, identically each time.

The default suite runs a bounded number of examples; ``FUZZ_EXAMPLES=20000 pytest
tests/engine/test_record_fuzz.py`` runs a longer search.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import EngineError, Match, ReplayError, read_record
from bot.engine.__main__ import final_state, main, play_random
from tests.engine.conftest import RECORDS

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

REAL = [
    play_random("cross", 3, seed=5).record(),
    play_random("maltese-cross", 2, seed=6).record(),
    play_random("merry-go-round", 4, seed=7).record(),
    play_random("milo", 4, seed=8).record(),
] + [json.loads(path.read_text()) for path in sorted(RECORDS.glob("*.json"))]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["cross", "milo", "6-6", "6-5 N", "draw", "pass", "domino-record/1"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=25,
)


@st.composite
def mutated_records(draw: st.DrawFn) -> Any:
    """A real record with one to three changes somewhere in it."""
    record = json.loads(json.dumps(draw(st.sampled_from(REAL))))
    for _ in range(draw(st.integers(1, 3))):
        mutate(draw, record)
    return record


def mutate(draw: st.DrawFn, record: dict[str, Any]) -> None:
    actions = record["actions"] if isinstance(record.get("actions"), list) else None
    kind = draw(st.sampled_from(["field", "swap", "seat", "cut", "move"]))
    if actions and kind == "swap":
        i, j = draw(st.integers(0, len(actions) - 1)), draw(st.integers(0, len(actions) - 1))
        actions[i], actions[j] = actions[j], actions[i]
    elif actions and kind == "seat":
        i = draw(st.integers(0, len(actions) - 1))
        if isinstance(actions[i], list) and actions[i]:
            actions[i][0] = draw(st.integers(-1, 5) | json_values)
    elif actions and kind == "cut":
        del actions[draw(st.integers(0, len(actions) - 1)) :]
    elif actions and kind == "move":
        i = draw(st.integers(0, len(actions) - 1))
        if isinstance(actions[i], list) and len(actions[i]) == 2:
            actions[i][1] = draw(st.sampled_from(["draw", "pass", "6-6", "6-5 N", "3-1 L", "x"]))
    else:
        container, key = draw(place(record))
        value = draw(st.sampled_from(["drop", "replace", "retype"]))
        if value == "drop":
            del container[key]
        elif value == "replace":
            container[key] = draw(json_values)
        else:
            container[key] = retyped(container[key])


def place(record: Any) -> st.SearchStrategy[tuple[Any, Any]]:
    """Any field of ``record``, nested ones included, as (its container, its key)."""
    actions = record.get("actions")
    found: list[tuple[Any, Any]] = []
    stack = [record]
    while stack:
        here = stack.pop()
        keys = list(here) if isinstance(here, dict) else range(len(here))
        for key in keys:
            found.append((here, key))
            if isinstance(here[key], dict | list) and here[key] is not actions:
                stack.append(here[key])
    if isinstance(actions, list):  # its first actions, not all of them
        stack = actions[:3]
        while stack:
            here = stack.pop()
            if isinstance(here, list):
                found += [(here, i) for i in range(len(here))]
        found += [(actions, i) for i in range(min(3, len(actions)))]
    return st.sampled_from(found)


def retyped(value: object) -> object:
    """The same value in another JSON type: 3 → "3", "3" → 3 or ["3"], [] → {}."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return int(value) if value.isdigit() else [value]
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return [value]


def cli_replay(data: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", "-"])
    return code, out.getvalue(), err.getvalue()


def check(data: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with contextlib.suppress(EngineError):
        read_record(data)
    try:
        match = Match.from_record(data)
    except ReplayError:
        match = None
    code, out, err = cli_replay(data, monkeypatch)
    if match is None:
        assert code == 1 and out == "" and err.count("\n") == 1, err
        assert err.startswith("replay failed ")
        return
    assert code == 0 and err == ""
    assert json.loads(out) == json.loads(json.dumps(final_state(match)))
    again = Match.from_record(json.loads(json.dumps(match.record())))
    assert again.to_dict() == match.to_dict()


@FUZZ
@given(data=json_values)
def test_any_json_is_refused_cleanly_or_replays(data: Any) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        check(data, monkeypatch)


@FUZZ
@given(data=mutated_records())
def test_a_mutated_record_is_refused_cleanly_or_replays_identically(data: Any) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        check(data, monkeypatch)
