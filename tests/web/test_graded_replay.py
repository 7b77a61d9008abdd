"""The browser's replay of an analysed game (``web.reads.replay``): the frame of each move
the coach graded worse than good carries the grade and the coach's note, and no other
frame does; the summary names them too. A game with no stored analysis is replayed
unmarked, and no analysis is started for it. (The coach tests' short Milo round, judged
at a small budget in this process: the machine is shared.)"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.players.coach import Analysis, Grade, analyse
from bot.standings import Standings
from data import open_store, sqlite_url
from data.models import FinishedGame
from data.repository import Repository
from tests.players.test_coach import SMALL
from tests.tables.test_coaching import milo_game
from web import reads
from web.identity import LOCAL_SERVER
from words import coaching

NAMES = ["Ann", "Bob", "Cat", "Dan"]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Repository]:
    store = await open_store(sqlite_url(tmp_path / "domino.db"))
    yield store
    await store.close()


async def local_game(store: Repository, game_id: str) -> FinishedGame:
    """The coach tests' Milo round (seat 1 a member who gives it away), finished on the
    browser's server under ``game_id`` with its seats named."""
    game = milo_game()
    seats = [dataclasses.replace(p, name=NAMES[p.seat]) for p in game.participants]
    local = dataclasses.replace(game, id=game_id, guild_id=LOCAL_SERVER, participants=seats)
    await store.record_finished_game(local)
    return local


def moves_frames(shown: dict[str, Any]) -> list[dict[str, Any]]:
    """The frames after an action, in the record's order (a round's deal has its own
    frame, which no action made)."""
    return [frame for frame in shown["frames"] if frame["line"].startswith("Move ")]


async def test_an_analysed_games_replay_marks_exactly_its_graded_moves(
    store: Repository,
) -> None:
    game = await local_game(store, "g-analysed")
    analysis = analyse(game.record, [1], SMALL)
    await store.save_analysis(game.id, analysis.to_dict())
    judged = {move.action: move for move in analysis.seat(1).moves}
    bad = {action for action, move in judged.items() if move.grade is not Grade.GOOD}
    assert bad and bad != set(judged), "the round has graded moves, good and not"

    shown = await reads.replay(Standings(store), game.id, LOCAL_SERVER)
    frames = moves_frames(shown)
    assert len(frames) == len(game.record["actions"])
    marked = {action for action, frame in enumerate(frames) if "grade" in frame}
    assert marked == bad
    for action in bad:
        frame, move = frames[action], judged[action]
        assert frame["grade"] == move.grade.value
        assert frame["note"] == coaching.replay_note(move)
        assert frame["note"].startswith(coaching.GRADE_MARKS[move.grade] + " ")
        assert f"({coaching.move_phrase(move.better)} was better)" in frame["note"]
        assert frame["line"].startswith(f"Move {action + 1} of ")  # the line stays plain
        assert "—" not in frame["line"]
    assert all("note" not in frame for frame in shown["frames"] if "grade" not in frame)
    for action in bad:
        assert f"move {action + 1}, Bob " in shown["summary"]
    assert "The coach marked" in shown["summary"]


async def test_a_game_never_analysed_is_replayed_unmarked(store: Repository) -> None:
    game = await local_game(store, "g-plain")
    shown = await reads.replay(Standings(store), game.id, LOCAL_SERVER)
    assert not any("grade" in frame or "note" in frame for frame in shown["frames"])
    assert "coach" not in shown["summary"]
    assert await store.get_analysis(game.id) is None  # a replay starts no analysis


async def test_an_analysis_that_does_not_read_leaves_the_replay_unmarked(
    store: Repository,
) -> None:
    game = await local_game(store, "g-spoilt")
    spoilt = analyse(game.record, [1], SMALL).to_dict() | {"format": "something else"}
    with pytest.raises(ValueError):
        Analysis.from_dict(spoilt)
    await store.save_analysis(game.id, spoilt)
    shown = await reads.replay(Standings(store), game.id, LOCAL_SERVER)
    assert not any("grade" in frame for frame in shown["frames"])
