"""Table options (RULES.md, "Table options every game should offer"): refused with a
clear message before the table opens."""

from __future__ import annotations

import pytest

from bot.engine import (
    GAMES,
    Cross,
    InvalidOptions,
    MalteseCross,
    MerryGoRound,
    Milo,
    Options,
    Round,
)
from tests.engine.builders import OptionKeywords


@pytest.mark.parametrize("game", list(GAMES.values()))
def test_every_game_has_a_default_target(game: type[Round]) -> None:
    players = game.player_counts[-1]
    assert Options.for_game(game, players).target == game.default_target


@pytest.mark.parametrize(
    ("game", "players", "options", "message"),
    [
        (Cross, 3, {"target": 5}, "between 10 and 1000"),
        (Cross, 3, {"target": 5000}, "between 10 and 1000"),
        (Milo, 4, {"target": 0}, "between 1 and 25"),
        (Cross, 3, {"keep_last_two": True}, "Merry-Go-Round option"),
        (MalteseCross, 2, {"match_games": 3}, "Milo option"),
        (Milo, 4, {"match_games": 10}, "1 to 9 games"),
        (MerryGoRound, 2, {"target": 60}, "exactly 61"),
        (Milo, 3, {}, "played by 4 players"),
    ],
)
def test_out_of_range_options_are_refused(
    game: type[Round], players: int, options: OptionKeywords, message: str
) -> None:
    with pytest.raises(InvalidOptions, match=message):
        Options.for_game(game, players, **options)


def test_unknown_options_are_refused() -> None:
    with pytest.raises(InvalidOptions, match="unknown option 'speed'"):
        Options.from_dict(Cross, 2, {"target": 100, "speed": 3})


def test_game_options_are_accepted() -> None:
    assert Options.for_game(MerryGoRound, 3, keep_last_two=True).keep_last_two
    assert Options.for_game(Milo, 4, match_games=3, target=3) == Options(3, False, 3)
