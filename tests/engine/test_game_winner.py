"""A view names the side that won the game with its round as the match decides it, so
that no face re-derives the rule (R-CR-7, R-MC-6, R-MG-7, R-MI-6, R-MI-7)."""

from __future__ import annotations

import random

import pytest

from bot.engine import GAMES, Match, Options


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_finished_rounds_view_names_the_game_winner_the_match_counts(game: str) -> None:
    variant = GAMES[game]
    players = variant.player_counts[-1]
    games = 2 if variant.offers_match else 1
    options = Options.for_game(variant, players, match_games=games)
    decided = 0
    for seed in range(3):
        match, picker = Match(game, players, options, seed=seed), random.Random(seed)
        while match.outcome() is None:
            before = match.view()
            if match.play(picker.choice(match.legal_moves())) is None:
                continue
            outcome = match.outcome()
            if outcome is not None:  # the match's last round: its view is the match's end
                assert match.view().game_winner == outcome.winner
                decided += 1
                continue
            ended = match.previous_view()
            assert ended is not None
            winner = ended.game_winner
            if winner is None:  # the game goes on with a new round
                assert match.view().game_number == before.game_number
            else:  # a game of the match won: the next begins
                assert match.view().game_number == before.game_number + 1
                assert match.view().games_won[winner] == before.games_won[winner] + 1
                decided += 1
    assert decided >= 3
