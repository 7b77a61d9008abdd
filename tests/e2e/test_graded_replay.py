"""The graded replay through the fake Discord: a finished game replayed before anyone
asked for its analysis is unmarked (and the replay starts none); once a member has asked
(``/domino analysis``), its replay's alt text says each move the coach graded worse than
good, with the grade and the better move, as the frames' lines do."""

from __future__ import annotations

from bot.players.coach import Grade
from tests.e2e.test_after_the_game import Played
from tests.e2e.test_coaching import ask, coached
from words import coaching

__all__ = ["coached"]  # the fixture, shared with the coach's tests


async def replay_described(played: Played, name: str) -> str:
    """The alt text of the replay ``name`` asks for (a short game: one file)."""
    sent = await played.member(name).slash("domino replay", played.channel, game=played.game_id)
    post = await sent.reply(60)
    [gif] = [a for a in post.attachments if a["filename"].endswith(".gif")]
    return str(gif["description"])


async def test_the_replay_marks_the_graded_moves_once_the_game_is_analysed(
    coached: Played,
) -> None:
    before = await replay_described(coached, "Ann")
    assert "coach" not in before
    assert await coached.bot.store.get_analysis(coached.game_id) is None  # none started

    analysis, _ = await ask(coached, coached.member("Ann"))
    marked = coaching.marked_moves(analysis)
    every = [move for seat in analysis.seats for move in seat.moves]
    assert {move.action for move in every if move.grade is not Grade.GOOD} == set(marked)
    assert marked, "the driver's first-button moves cost something"

    after = await replay_described(coached, "Bob")  # Ann waits out her cool-down
    assert after.startswith(before) and "The coach marked " in after
    listed = after.split("The coach marked ")[1]
    shown = [action for action in sorted(marked) if f"move {action + 1}, " in listed]
    # As many as the alt text's 1,024 characters hold, in order, each once with its note.
    assert shown and shown == sorted(marked)[: len(shown)]
    assert all(coaching.replay_note(marked[action].move) in listed for action in shown)
    assert listed.count("; ") + 1 == len(shown)
    assert len(shown) == len(marked) or len(after) > 900, "cut only for want of room"
