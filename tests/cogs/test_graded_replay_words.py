"""The Discord replay's words for an analysed game: the line over each move's frame says
the coach's grade and the better move for exactly the moves graded worse than good, and
the alt text says them too, within Discord's limit (and in the file that shows them,
when a replay is split). Without an analysis, the words are the plain replay's."""

from __future__ import annotations

import dataclasses
from functools import cache

from bot.engine import Move
from bot.players.coach import Analysis, Grade, analyse
from rendering import Replay, ReplayPart, played
from tests.players.test_coach import SMALL
from tests.tables.test_coaching import milo_game
from words import coaching, i18n
from words.pictures import ALT_LIMIT
from words.replays import describe_replay, replay_text

NAMES = ["Ann", "Bob", "Cat", "Dan"]


@cache
def analysis() -> Analysis:
    """The coach tests' Milo round, seat 1 (Bob) judged at a small budget."""
    return analyse(milo_game().record, [1], SMALL)


def lines(marked: dict[int, coaching.Marked]) -> list[str]:
    """The line over each move's frame, in the record's order."""
    record = milo_game().record
    text = replay_text(NAMES, marked)
    total = len(record["actions"])
    return [text.move(view, index + 1, total) for index, view, _ in played(record)]


def words_only(part_actions: range | None = None) -> Replay:
    """What the alt text reads of the round's replay, without drawing it (one file, or
    a file showing only ``part_actions`` of two)."""
    record = milo_game().record
    rounds, last = [], None
    for _, view, ended in played(record):
        if ended:
            rounds.append(view)
        last = view
    total = len(record["actions"])
    parts: tuple[ReplayPart, ...] = ()
    if part_actions is not None:
        rest = range(part_actions.stop, total)
        parts = tuple(
            ReplayPart(b"", 1, 1, 1, 1, 1, actions, range(1)) for actions in (part_actions, rest)
        )
    return Replay(parts, tuple(rounds), last, total)


def test_each_graded_move_not_good_has_its_mark_on_its_line() -> None:
    marked = coaching.marked_moves(analysis())
    judged = {move.action: move for move in analysis().seat(1).moves}
    assert set(marked) == {a for a, m in judged.items() if m.grade is not Grade.GOOD}
    assert len(marked) < len(judged), "a good move is judged too, and left plain"
    plain, graded = lines({}), lines(marked)
    for action, (line, with_note) in enumerate(zip(plain, graded, strict=True)):
        if action not in marked:
            assert with_note == line
            continue
        move = marked[action].move
        assert marked[action].seat == 1 and line.startswith(f"Move {action + 1} of ")
        assert with_note == f"{line} — {coaching.replay_note(move)}"
    blunder = marked[24].move  # Bob's 1-1 gives the round away: 3-1 was the expert's
    assert (blunder.played, blunder.better) == (Move.parse("1-1 L"), Move.parse("3-1 R"))
    assert graded[24] == "Move 25 of 26: Bob plays 1-1 on L — ?? blunder (3-1 on R was better)"


def test_the_alt_text_says_the_marked_moves() -> None:
    marked = coaching.marked_moves(analysis())
    said = describe_replay(words_only(), NAMES, 0, marked)
    plain = describe_replay(words_only(), NAMES)
    assert len(said) <= ALT_LIMIT and said.startswith(plain)
    assert "The coach marked " in said and "coach" not in plain
    for action, judged in marked.items():
        assert f"move {action + 1}, Bob plays" in said
        assert coaching.replay_note(judged.move) in said
    assert said.count("; ") + 1 == len(marked)  # every marked move, once


def test_a_split_replays_alt_text_says_only_its_own_files_marks() -> None:
    """Bob's first and last judged moves marked (as mistakes, whatever the analysis made
    of them): a replay split between them says each in its own file's alt text."""
    judged = analysis().seat(1).moves
    marked = {
        move.action: coaching.Marked(1, dataclasses.replace(move, grade=Grade.MISTAKE))
        for move in (judged[0], judged[-1])
    }
    first, last = min(marked), max(marked)
    assert first < last
    replay = words_only(range(0, last))
    assert f"move {first + 1}," in describe_replay(replay, NAMES, 0, marked)
    assert f"move {last + 1}," not in describe_replay(replay, NAMES, 0, marked)
    assert f"move {last + 1}," in describe_replay(replay, NAMES, 1, marked)
    assert f"move {first + 1}," not in describe_replay(replay, NAMES, 1, marked)


def test_marks_that_do_not_all_fit_are_said_as_far_as_they_go() -> None:
    """Long names leave room for only some marks: the alt text stays within the limit,
    with the marks that fit, in order."""
    judged = analysis().seat(1).moves[0]
    bad = dataclasses.replace(judged, grade=Grade.MISTAKE)
    marked = {action: coaching.Marked(1, bad) for action in range(40)}
    names = ["W" * 32, "M" * 32, "Ж" * 32, "Ш" * 32]
    said = describe_replay(words_only(), names, 0, marked)
    assert len(said) <= ALT_LIMIT
    assert "The coach marked move 1, " in said and said.endswith(".")
    assert "move 40," not in said


def test_the_marks_speak_spanish() -> None:
    marked = coaching.marked_moves(analysis())
    with i18n.speaking(i18n.for_locale("es-ES")):
        line = lines(marked)[24]
        said = describe_replay(words_only(), NAMES, 0, marked)
    assert line.endswith(" — ?? error grave (3-1 en D era mejor)"), line
    assert f"El entrenador marcó jugada {min(marked) + 1}, Bob juega " in said
