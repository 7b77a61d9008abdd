"""The replay of a whole game (``/domino replay``): one frame for every action of the
record, a card at each round's end and one for the result, as GIFs within Discord's
upload limit, sped up and then split when a game is long, and the same bytes for the
same record. (Its words and alt text are tested in ``tests/cogs/test_replay_words.py``.)"""

from __future__ import annotations

import dataclasses
import io
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageSequence

from bot.engine import GAMES, Match, Move, Options, PublicView, ReplayError
from bot.engine.__main__ import play_random
from rendering import Pace, Replay, ReplayText, played, render_replay
from rendering.replay import UPLOAD_LIMIT
from words.replays import replay_text

NAMES = ["Ann", "Bob", "Cat", "Dan"]
GAME_RECORDS = {
    # Short seeded games between random players (low targets keep the test fast).
    "cross": ("cross", 3, 4, 25, None),
    "maltese-cross": ("maltese-cross", 3, 1, 25, None),
    "merry-go-round": ("merry-go-round", 2, 9, None, None),  # 61 exactly, always
    "milo": ("milo", 4, 4, 2, None),
    "milo match": ("milo", 4, 4, 2, 2),
}


@cache
def record(name: str) -> dict[str, Any]:
    game, players, seed, target, games = GAME_RECORDS[name]
    options = Options.for_game(GAMES[game], players, target=target, match_games=games)
    return play_random(game, players, seed, options).record()


@cache
def replay(name: str) -> Replay:
    return render_replay(record(name), replay_text(NAMES[: record(name)["players"]]))


def frames(gif: bytes) -> list[tuple[tuple[int, int], int]]:
    """Each frame of a GIF as a viewer shows it: its size and how long it stays up."""
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    return [(frame.size, frame.info["duration"]) for frame in ImageSequence.Iterator(image)]


def round_ends(data: dict[str, Any]) -> set[int]:
    """The indexes of the actions that ended a round, from the engine itself."""
    match = Match(data["game"], data["players"], Options(**data["options"]), seed=data["seed"])
    return {i for i, (_, move) in enumerate(data["actions"]) if match.play(move) is not None}


def expected_durations(data: dict[str, Any], move_ms: int, pace: Pace) -> list[int]:
    """A move's frame for every action; a round card after each that ended a round; the
    result last."""
    ends = round_ends(data)
    durations = []
    for index in range(len(data["actions"])):
        durations.append(move_ms)
        if index in ends:
            durations.append(pace.round_ms)
    return [*durations, pace.final_ms]


@pytest.mark.parametrize("name", sorted(GAME_RECORDS))
def test_every_action_has_its_frame_then_each_round_end_and_the_result(name: str) -> None:
    data, shown = record(name), replay(name)
    match = Match.from_record(data)
    assert shown.actions == len(data["actions"])
    assert len(shown.rounds) == len(match.rounds) >= 1
    assert [view.outcome for view in shown.rounds] == match.rounds
    assert shown.final is not None and shown.final.match_outcome == match.outcome()
    assert len(shown.parts) == 1
    part = shown.parts[0]
    assert len(part.gif) <= UPLOAD_LIMIT
    seen = frames(part.gif)
    assert len(seen) == part.frames == len(data["actions"]) + len(match.rounds) + 1
    assert {size for size, _ in seen} == {(part.width, part.height)}
    assert [ms for _, ms in seen] == expected_durations(data, part.move_ms, Pace())
    assert part.duration_ms == sum(ms for _, ms in seen) <= Pace().longest_ms
    assert part.actions == range(len(data["actions"]))


def test_a_milo_match_of_several_games_is_replayed_game_after_game() -> None:
    """R-MI-7: the rounds of every game, numbered within their game."""
    shown = replay("milo match")
    assert shown.final is not None and shown.final.match_outcome is not None
    games = [view.game_number for view in shown.rounds]
    assert games == sorted(games) and games[-1] == sum(shown.final.match_outcome.games_won) > 1
    for view in shown.rounds:
        assert view.outcome is not None and sum(view.games_won) in (
            view.game_number - 1,
            view.game_number,
        )


def recording(text: ReplayText, calls: list[tuple[str, Any]]) -> ReplayText:
    """``text``, noting what each of its words was asked for."""

    def move(view: PublicView, number: int, total: int) -> str:
        calls.append(("move", (view.history[-1], number, total)))
        return text.move(view, number, total)

    def round_over(view: PublicView) -> tuple[str, ...]:
        calls.append(("round", view.outcome))
        return text.round_over(view)

    def hand(view: PublicView, seat: int) -> str:
        calls.append(("hand", seat))
        return text.hand(view, seat)

    def final(view: PublicView) -> tuple[str, ...]:
        calls.append(("final", view.match_outcome))
        return text.final(view)

    return dataclasses.replace(text, move=move, round_over=round_over, hand=hand, final=final)


def test_each_frame_is_worded_by_the_caller_for_its_own_move_and_round() -> None:
    """The header over each frame is asked for with that action (in record order); each
    round's card with its outcome and a label for every seat's hand; the last card with
    the match's outcome."""
    data = record("cross")
    match = Match.from_record(data)
    calls: list[tuple[str, Any]] = []
    render_replay(data, recording(replay_text(NAMES[:3]), calls))
    total = len(data["actions"])
    moves = [args for kind, args in calls if kind == "move"]
    expected = [((seat, Move.parse(text)), i, total) for i, (seat, text) in
                enumerate(data["actions"], 1)]  # fmt: skip
    assert moves == expected
    assert [args for kind, args in calls if kind == "round"] == match.rounds
    assert [args for kind, args in calls if kind == "hand"] == [0, 1, 2] * len(match.rounds)
    assert calls[-1] == ("final", match.outcome())


def test_the_words_given_are_the_words_drawn() -> None:
    data = record("cross")
    english = render_replay(data, replay_text(NAMES[:3])).parts[0].gif
    other = replay_text(["Ana", "Beto", "Carla"])
    other = dataclasses.replace(other, final=lambda view: ("Gana Beto", "Fin de la partida"))
    spanish = render_replay(data, other).parts[0].gif
    assert english != spanish
    assert len(frames(spanish)) == len(frames(english))


def test_the_same_record_gives_the_same_bytes() -> None:
    data = record("milo")
    again = render_replay(data, replay_text(NAMES))
    assert [p.gif for p in again.parts] == [p.gif for p in replay("milo").parts]


def test_a_game_too_long_at_the_usual_pace_has_its_moves_sped_up() -> None:
    data = record("cross")
    usual = replay("cross").parts[0]
    shorter = Pace(longest_ms=usual.duration_ms * 3 // 4)
    shown = render_replay(data, replay_text(NAMES[:3]), pace=shorter)
    assert len(shown.parts) == 1
    part = shown.parts[0]
    assert shorter.fastest_move_ms <= part.move_ms < shorter.move_ms
    assert part.duration_ms <= shorter.longest_ms
    assert [ms for _, ms in frames(part.gif)] == expected_durations(data, part.move_ms, shorter)


def covers_every_action_in_order(shown: Replay, data: dict[str, Any]) -> None:
    """The files, one after the other, show every action once, in order, and every
    frame of the single file the game would have made."""
    actions = [index for part in shown.parts for index in part.actions]
    assert actions == list(range(len(data["actions"])))
    counted = sum(len(frames(part.gif)) for part in shown.parts)
    assert counted == sum(p.frames for p in shown.parts) == shown.actions + len(shown.rounds) + 1


def round_lengths_ms(data: dict[str, Any], pace: Pace) -> list[int]:
    """How long each round lasts at the fastest pace, its card included (the last round,
    the result's card too)."""
    lengths, moves, ends = [], 0, round_ends(data)
    for index in range(len(data["actions"])):
        moves += 1
        if index in ends:
            lengths.append(moves * pace.fastest_move_ms + pace.round_ms)
            moves = 0
    lengths[-1] += pace.final_ms
    return lengths


def test_a_game_too_long_even_at_the_fastest_pace_is_split_at_round_ends() -> None:
    """Each file opens on a round's lead and plays within the longest time, as slowly as
    that allows."""
    data = record("cross")
    pace = Pace(longest_ms=max(round_lengths_ms(data, Pace())))
    shown = render_replay(data, replay_text(NAMES[:3]), pace=pace)
    assert len(shown.parts) >= 2
    covers_every_action_in_order(shown, data)
    starts = {0} | {index + 1 for index in round_ends(data)}
    for part in shown.parts:
        assert part.actions.start in starts
        assert part.duration_ms <= pace.longest_ms and len(part.gif) <= UPLOAD_LIMIT
        slower = part.duration_ms + len(part.actions) * 10
        assert part.move_ms == pace.move_ms or slower > pace.longest_ms


def test_a_round_too_long_for_a_file_on_its_own_is_cut_between_moves() -> None:
    data = record("cross")
    pace = Pace(longest_ms=max(round_lengths_ms(data, Pace())) // 2)
    shown = render_replay(data, replay_text(NAMES[:3]), pace=pace)
    covers_every_action_in_order(shown, data)
    assert all(part.duration_ms <= pace.longest_ms for part in shown.parts)


def test_a_game_too_heavy_for_one_file_is_split_within_the_limit() -> None:
    data = record("cross")
    whole = replay("cross").parts[0]
    limit = len(whole.gif) * 2 // 3
    shown = render_replay(data, replay_text(NAMES[:3]), limit=limit)
    assert len(shown.parts) >= 2
    assert all(len(part.gif) <= limit for part in shown.parts)
    covers_every_action_in_order(shown, data)


def test_asked_for_the_first_files_only_a_replay_makes_those_as_in_the_whole() -> None:
    """``most``: the files a long game's replay posts, the same bytes as the whole
    replay's first ones (its canvas is every frame's), and said not to be the whole; as
    many as the whole has, it is the whole."""
    data = record("cross")
    pace = Pace(longest_ms=max(round_lengths_ms(data, Pace())))
    text = replay_text(NAMES[:3])
    whole = render_replay(data, text, pace=pace)
    assert len(whole.parts) >= 3 and whole.whole
    first = render_replay(data, text, pace=pace, most=2)
    assert first.parts == whole.parts[:2] and not first.whole
    assert (first.rounds, first.final, first.actions) == (whole.rounds, whole.final, whole.actions)
    assert render_replay(data, text, pace=pace, most=len(whole.parts)).whole
    heavy = render_replay(data, text, limit=len(replay("cross").parts[0].gif) * 2 // 3, most=1)
    assert len(heavy.parts) == 1 and not heavy.whole, "one run split by its weight, cut too"


def test_a_record_that_does_not_replay_is_refused_naming_the_action() -> None:
    data = dict(record("cross"))
    seat, move = data["actions"][5]
    data["actions"] = [*data["actions"][:5], [(seat + 1) % 3, move]]  # out of turn
    with pytest.raises(ReplayError) as refused:
        render_replay(data, replay_text(NAMES[:3]))
    assert refused.value.index == 5


def test_a_record_that_stops_mid_game_ends_on_its_last_move() -> None:
    """A table still playing replays too: no result card, nothing made up."""
    data = dict(record("cross"))
    data["actions"] = data["actions"][:30]
    shown = render_replay(data, replay_text(NAMES[:3]))
    assert shown.final is None
    ends = round_ends(data)
    assert len(frames(shown.parts[0].gif)) == 30 + len(ends)


def test_played_shows_the_ended_round_in_its_place() -> None:
    """The action that ends a round is shown with the round it ended, not the next deal."""
    data = record("milo match")
    for _, view, ended in played(data):
        if ended:
            assert view.outcome is not None and view.history
        else:
            assert view.outcome is None
