"""The replay's words, all written in ``words.replays``: the line over each move, the
round cards and the last card, and the alt text, which must say the game, every round's
winner with the points (R-CR-6, R-MG-6, R-MI-5; a tie, R-ALL-8) and the final result
(R-CR-7, R-MG-7, R-MI-6, R-MI-7) within Discord's 1,024 characters, however long the
match and the names."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from bot.engine import GAMES, Match, Options, PublicView
from bot.engine.__main__ import play_random
from rendering import Pace, Replay, played, render_replay
from words.replays import describe_replay, replay_text

NAMES = ["Ann", "Bob", "Cat", "Dan"]
LONG_NAMES = ["W" * 32, "M" * 32, "Ж" * 32, "Ш" * 32]
"""Discord's longest display names."""
GAMES_PLAYED = {
    "cross": ("cross", 3, 4, 25, None),
    "maltese-cross": ("maltese-cross", 3, 1, 25, None),
    "merry-go-round": ("merry-go-round", 4, 2, None, None),
    "milo": ("milo", 4, 4, 2, None),
    "milo match": ("milo", 4, 4, 2, 2),
    "long cross": ("cross", 2, 3, None, None),
    "long milo match": ("milo", 4, 1, None, 3),
    "longest milo match": ("milo", 4, 1, None, 9),
}


@cache
def record(name: str) -> dict[str, Any]:
    game, players, seed, target, games = GAMES_PLAYED[name]
    options = Options.for_game(GAMES[game], players, target=target, match_games=games)
    return play_random(game, players, seed, options).record()


def words_only(data: dict[str, Any]) -> Replay:
    """What the alt text reads of a replay, without drawing it: the rounds as they
    ended and the match's end."""
    rounds, last = [], None
    for _, view, ended in played(data):
        if ended:
            rounds.append(view)
        last = view
    assert last is not None and last.match_outcome is not None
    return Replay((), tuple(rounds), last, len(data["actions"]))


def side_names(view: PublicView, names: list[str]) -> list[str]:
    return [" & ".join(names[s] for s in side) for side in view.variant.sides_of(view.players)]


def round_name(view: PublicView, number: int) -> str:
    if view.options.match_games > 1:
        return f"Game {view.game_number} round {view.round_number}"
    return f"Round {number}"


def short(names: list[str]) -> list[str]:
    """The names as the alt text cuts them when whole ones would not fit."""
    return [name if len(name) <= 12 else name[:12] + "…" for name in names]


def sides_said(text: str, replay: Replay, names: list[str]) -> list[str]:
    """The sides' names as the text uses them after listing the seats: whole, or cut."""
    final = replay.final
    assert final is not None and final.match_outcome is not None
    for shown in (names, short(names)):
        sides = side_names(final, shown)
        verb = "win the match" if final.options.match_games > 1 else "wins the game"
        if f"{sides[final.match_outcome.winner]} {verb}" in text:
            return sides
    raise AssertionError(f"no winner said in {text!r}")


def check_result(text: str, replay: Replay, sides: list[str]) -> None:
    final = replay.final
    assert final is not None and final.match_outcome is not None
    for side, score in enumerate(final.match_outcome.scores):
        assert f"{sides[side]} {score}" in text
    for side, won in enumerate(final.match_outcome.games_won):
        if final.options.match_games > 1:
            assert f"{sides[side]} {won}" in text


def check_every_round(text: str, replay: Replay, sides: list[str]) -> str:
    """Every round's winner (or tie) is said: each round with its points, or the rounds
    each side won, game by game, or (a match too long for that) each game's winner.
    Returns which of these the text says."""
    if "rounds won" not in text.lower() and "Games won, in order" not in text:
        for number, view in enumerate(replay.rounds, 1):
            outcome = view.outcome
            assert outcome is not None
            who = "a tie" if outcome.winner is None else f"{sides[outcome.winner]} wins"
            gains = ", ".join(f"{sides[s]} +{p}" for s, p in enumerate(outcome.points) if p)
            assert f"{round_name(view, number)}: {who}, {gains or 'no points'}." in text
        return "each round"
    games: dict[int, list[PublicView]] = {}
    for view in replay.rounds:
        games.setdefault(view.game_number, []).append(view)
    if "Games won, in order" in text:
        winners = [sides[next(s for s, t in enumerate(views[-1].scores) if t >= views[-1].target)]
                   for views in games.values()]  # fmt: skip
        assert f"Games won, in order: {', '.join(winners)}." in text
        return "each game"
    for game, views in games.items():
        head = f"Game {game} rounds won" if len(games) > 1 else "Rounds won"
        said = re.search(rf"{head}: ([^.]*)\.", text)
        assert said, head
        listed = dict(_split(item) for item in said.group(1).split("; "))
        expected: dict[str, list[int]] = {}
        for number, view in enumerate(views, 1):
            assert view.outcome is not None
            winner = view.outcome.winner
            expected.setdefault("tied" if winner is None else sides[winner], []).append(number)
        assert listed == expected
    return "rounds won"


def _split(item: str) -> tuple[str, list[int]]:
    """``Ann & Cat 1, 4, 5`` → ("Ann & Cat", [1, 4, 5])."""
    parts = re.fullmatch(r"(.+?) (\d+(?:, \d+)*)", item)
    assert parts, item
    return parts[1], [int(n) for n in parts[2].split(", ")]


@pytest.mark.parametrize("name", sorted(GAMES_PLAYED))
@pytest.mark.parametrize("names", [NAMES, LONG_NAMES], ids=["short", "longest"])
def test_alt_text_names_every_rounds_winner_and_the_result_within_1024(
    name: str, names: list[str]
) -> None:
    data = record(name)
    replay = words_only(data)
    seats = names[: data["players"]]
    text = describe_replay(replay, seats)
    assert len(text) <= 1024
    assert text.startswith(f"Replay of {GAMES[data['game']].title}")
    sides = sides_said(text, replay, seats)
    check_result(text, replay, sides)
    check_every_round(text, replay, sides)


def test_the_longer_the_match_the_shorter_each_round_is_said() -> None:
    """Each round with its points while that fits; then the rounds each side won; for a
    match too long even for that (first to 9 games, R-MI-7), who won each game."""
    cases = [("cross", NAMES[:3], "each round"), ("long milo match", NAMES, "rounds won"),
             ("long milo match", LONG_NAMES, "rounds won"),
             ("longest milo match", LONG_NAMES, "each game")]  # fmt: skip
    for name, names, form in cases:
        replay = words_only(record(name))
        text = describe_replay(replay, names)
        assert len(text) <= 1024
        assert check_every_round(text, replay, sides_said(text, replay, names)) == form


def test_each_file_of_a_split_replay_says_which_rounds_it_shows() -> None:
    data = record("cross")
    shown = render_replay(data, replay_text(NAMES[:3]), pace=Pace(longest_ms=20_000))
    assert len(shown.parts) >= 2
    for index, part in enumerate(shown.parts):
        text = describe_replay(shown, NAMES[:3], index)
        first, last = part.rounds.start + 1, part.rounds.stop
        span = f"from round {first} to round {last}" if first != last else f"round {first}"
        assert f"Part {index + 1} of {len(shown.parts)}: {span}." in text
        assert check_every_round(text, shown, NAMES[:3]) == "each round"


def test_the_move_line_says_the_move_its_number_and_who_made_it() -> None:
    data = record("cross")
    text = replay_text(NAMES[:3])
    total = len(data["actions"])
    seen = set()
    for index, view, _ in played(data):
        seat, move = view.history[-1]
        line = text.move(view, index + 1, total)
        assert line.startswith(f"Move {index + 1} of {total}: {NAMES[seat]} ")
        if move.tile is None:
            assert line.endswith({"draw": " draws", "pass": " passes"}[move.kind.value])
        elif move.end_name is None:
            assert line.endswith(f"leads {move.tile}")
        else:
            assert line.endswith(f"plays {move.tile} on {move.end_name}")
        seen.add(move.kind)
    assert len(seen) == 3  # plays, draws and passes all said


def test_a_round_card_says_how_it_was_won_the_points_and_each_hand_count() -> None:
    data = record("milo match")
    text = replay_text(NAMES)
    match = Match.from_record(data)
    rounds = words_only(data).rounds
    assert [view.outcome for view in rounds] == match.rounds
    game_ends = 0
    for view in rounds:
        outcome = view.outcome
        assert outcome is not None
        lines = text.round_over(view)
        assert lines[0] == f"Round {view.round_number} of game {view.game_number} over"
        assert lines[1] == outcome.describe(NAMES) + "."
        sides = side_names(view, NAMES)
        for side, gained in enumerate(outcome.points):
            assert f"{sides[side]} +{gained} → {view.scores[side]}" in lines[2]
        game_ends += any(line.endswith(f"win game {view.game_number}") for line in lines)
        for seat in range(4):
            assert text.hand(view, seat) == f"{NAMES[seat]} · count {outcome.counts[seat]}"
    assert game_ends == sum(match.games_won)  # R-MI-7: each game's end is said


def test_the_last_card_says_who_won() -> None:
    final = words_only(record("cross")).final
    assert final is not None and final.match_outcome is not None
    lines = replay_text(NAMES[:3]).final(final)
    assert lines[0] == f"{NAMES[final.match_outcome.winner]} wins the game"
    assert lines[1].startswith("Final scores: ")
