"""The tournament's whole games (``benchmarks/players.py --whole-games``): what tells who
plays Merry-Go-Round better, where rounds cannot be drawn apart (R-MG-4, R-MG-7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.players import Seating, chooser, play_deal, play_game, run
from bot.engine import GAMES, Options


@pytest.mark.parametrize("game", ["merry-go-round", "milo"])
def test_a_deal_played_as_whole_games_gives_each_game_to_the_side_with_more_points(
    game: str,
) -> None:
    """R-MG-7 (exactly 61 ends the game), R-MI-6 (first team to 5): each of the deal's two
    games is won by the side that ends it ahead, and takes at least one round."""
    row = play_deal((game, "normal", "easy", 7, "game"))

    assert row["unit"] == "game"
    assert len(row["shares"]) == len(row["margins"]) == len(row["rounds"]) == 2
    for share, margin, rounds in zip(row["shares"], row["margins"], row["rounds"], strict=True):
        assert share in (0.0, 1.0)
        assert (share == 1.0) == (margin > 0), (share, margin)
        assert rounds >= 1


def test_a_merry_go_round_game_ends_when_a_side_reaches_exactly_61() -> None:
    """R-MG-7: the winner's score is exactly the target; nobody went past it."""
    variant = GAMES["merry-go-round"]
    options = Options.for_game(variant, 2)
    decide = Seating(["normal"] * 2, [chooser("normal", seed) for seed in (1, 2)], {}, {}).decide

    result = play_game(variant, 2, options, 11, decide, a_side=0)

    winner, loser = sorted(result.scores, reverse=True)
    assert winner == options.target == 61
    assert loser < 61
    assert result.share == float(result.scores[0] == 61)
    assert result.rounds >= 1


def test_rounds_and_whole_games_of_one_pairing_are_kept_apart(tmp_path: Path) -> None:
    """A results file may hold a pairing's rounds and its whole games, interleaved: each
    summary and each resumed run reads only its own."""
    results = tmp_path / "results.jsonl"
    pairing = ("milo", "normal", "easy")
    rows = [play_deal((*pairing, seed, unit)) for seed in (40, 41) for unit in ("round", "game")]
    results.write_text("".join(json.dumps(row) + "\n" for row in rows))

    games = run(pairing, range(40, 42), results, workers=1, play=False, unit="game")
    rounds = run(pairing, range(40, 42), results, workers=1, play=False, unit="round")

    assert sorted(r["deal"] for r in games) == sorted(r["deal"] for r in rounds) == [40, 41]
    assert all(r["unit"] == "game" for r in games)
    assert all("unit" not in r for r in rounds)
