"""The graded replay through the fake Discord: a finished game replayed before its
analysis is made is unmarked (and the replay starts none); once the coach has analysed
it (by itself, at the game's end), its replay's alt text says each move the coach graded
worse than good, with the grade and the better move, as the frames' lines do."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.players.coach import Analysis, Grade
from bot.standings import find_game
from rendering import render_replay
from tests.e2e.conftest import Running
from tests.e2e.test_after_the_game import Played, finished
from tests.fakediscord.fixtures import Server
from words import boards, coaching, replays


@pytest.fixture
async def held(running: Running, server: Server) -> tuple[Played, asyncio.Event]:
    """A finished game of Ann and Bob whose analysis, queued at its end, waits in the
    coach until the event is set."""
    bot = await running.start()
    release = asyncio.Event()
    in_worker = bot.coach._in_worker

    async def later(
        record: dict[str, Any], seats: list[int], stood_in: tuple[int, ...]
    ) -> dict[str, Any]:
        await release.wait()
        return await in_worker(record, seats, stood_in)

    bot.coach._in_worker = later  # type: ignore[method-assign]
    return await finished(bot, server), release


async def replay_described(played: Played, name: str) -> str:
    """The alt text of the replay ``name`` asks for (a short game: one file)."""
    sent = await played.member(name).slash("domino replay", played.channel, game=played.game_id)
    post = await sent.reply(60)
    [gif] = [a for a in post.attachments if a["filename"].endswith(".gif")]
    return str(gif["description"])


async def test_the_replay_marks_the_graded_moves_once_the_game_is_analysed(
    held: tuple[Played, asyncio.Event],
) -> None:
    coached, release = held
    before = await replay_described(coached, "Ann")
    assert "coach" not in before
    assert await coached.bot.store.get_analysis(coached.game_id) is None  # none started

    release.set()
    await coached.bot.coach.settled()
    stored = await coached.bot.store.get_analysis(coached.game_id)
    analysis = Analysis.from_dict(stored)
    marked = coaching.marked_moves(analysis)
    every = [move for seat in analysis.seats for move in seat.moves]
    assert {move.action for move in every if move.grade is not Grade.GOOD} == set(marked)
    assert marked, "the driver's first-button moves cost something"

    after = await replay_described(coached, "Bob")  # Ann waits out her cool-down
    # What the words say of this game with the stored analysis's marks (its rounds said
    # more briefly than before if the marks need the room: the deal is random, and so is
    # how many moves the coach marks).
    game = await find_game(coached.bot.store, coached.game_id, coached.server.guild_id)
    names = boards.seat_labels(game.participants)
    replay = render_replay(game.record, replays.replay_text(names, marked))
    assert after == replays.describe_replay(replay, names, 0, marked)
    assert before == replays.describe_replay(replay, names, 0)
    assert "The coach marked " in after
    listed = after.split("The coach marked ")[1]
    shown = [action for action in sorted(marked) if f"move {action + 1}, " in listed]
    # As many as the alt text's 1,024 characters hold, in order, each once with its note.
    assert shown and shown == sorted(marked)[: len(shown)]
    assert all(coaching.replay_note(marked[action].move) in listed for action in shown)
    assert listed.count("; ") + 1 == len(shown)
    assert len(shown) == len(marked) or len(after) > 900, "cut only for want of room"
