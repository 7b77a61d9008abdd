"""Seeded self-play: thousands of rounds of every game, played as whole matches between
random players, with every action checked against a second reading of the rules (see
``invariants.py``: 28 tiles conserved, every action legal and every legal action offered,
a blocked round really blocked, scores and leads as the rules say, the game ending at
its target) and every match's record replayed to the identical state; and property
tests driven by hypothesis."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import GAMES, Match, Move, Options, Round
from tests.engine.invariants import check_tiles_conserved, checked_step

ROUNDS_PER_GAME = 2000


def options_for(variant: type[Round], index: int) -> tuple[int, Options]:
    """Every player count in turn; every other match with "keep last two" (R-MG-5) or,
    in Milo, a match of two games (R-MI-7)."""
    players = variant.player_counts[index % len(variant.player_counts)]
    options = Options.for_game(
        variant,
        players,
        keep_last_two=variant.offers_keep_last_two and index % 2 == 0,
        match_games=2 if variant.offers_match and index % 2 else None,
    )
    return players, options


def check_lead(match: Match, leads: list[tuple[int, int]]) -> None:
    """Who leads a new round: the holder of the highest double (R-CR-2, R-MC-1, R-MG-2);
    in Milo the holder of 6-6 first, then the next seat each round (R-MI-3), and the seat
    after the previous game's first leader for a new game (R-MI-7). ``leads`` holds the
    (game number, leader) of the match's earlier rounds."""
    round_ = match.round
    if round_.game != "milo":
        doubles = [(t.high, s) for s in range(round_.n) for t in round_.hand(s) if t.is_double]
        expected = max(doubles)[1]
    elif not leads:
        expected = next(s for s in range(4) if "6-6" in {str(t) for t in round_.hand(s)})
    elif leads[-1][0] == match.game_number:
        expected = (leads[-1][1] + 1) % 4
    else:
        expected = (next(seat for g, seat in leads if g == leads[-1][0]) + 1) % 4
    assert round_.leader == round_.turn == expected
    leads.append((match.game_number, round_.leader))


def check_game_end(match: Match, finished: Round, game_number: int) -> None:
    """After a round: a side at the target (exactly 61 in Merry-Go-Round, R-MG-7; else
    the target or more, R-CR-7, R-MC-6, R-MI-6) ends the game and, when it has won enough
    games, the match (R-MI-7); otherwise the scores carry into the next round."""
    target = match.options.target
    scores = finished.scores
    if finished.game == "merry-go-round":
        winners = [side for side, score in enumerate(scores) if score == target]
    else:
        winners = [side for side, score in enumerate(scores) if score >= target]
    assert len(winners) <= 1
    outcome = match.outcome()
    if not winners:
        assert outcome is None and match.game_number == game_number
        assert match.round.scores == scores and match.round is not finished
    elif outcome is not None:
        assert outcome.winner == winners[0]
        assert outcome.games_won[winners[0]] == match.options.match_games
    else:
        assert match.game_number == game_number + 1 and not any(match.round.scores)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_self_play_matches_keep_every_invariant_and_replay(game: str) -> None:
    variant = GAMES[game]
    rounds, index = 0, 0
    while rounds < ROUNDS_PER_GAME:
        players, options = options_for(variant, index)
        match = Match(game, players, options, seed=index)
        picker = random.Random(index)
        leads: list[tuple[int, int]] = []
        seen = None
        while match.outcome() is None:
            round_, game_number = match.round, match.game_number
            if not round_.history:
                check_tiles_conserved(round_)
                check_lead(match, leads)
            seen = checked_step(round_, picker.choice(round_.legal_moves()), match.play, seen)
            if seen is None:
                check_game_end(match, round_, game_number)
        rounds += len(match.rounds)
        replayed = Match.from_record(json.loads(json.dumps(match.record())))
        assert replayed.to_dict() == match.to_dict()
        index += 1


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 1000), min_size=0, max_size=400),
)
def test_property_any_sequence_of_legal_choices_keeps_the_invariants(
    game: str, seed: int, choices: list[int]
) -> None:
    variant = GAMES[game]
    players, options = options_for(variant, seed)
    match = Match(game, players, options, seed=seed)
    seen = None
    for choice in choices:
        if match.outcome() is not None:
            break
        legal = match.legal_moves()
        seen = checked_step(match.round, legal[choice % len(legal)], match.play, seen)
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))).to_dict() == match.to_dict()
    replayed = Match.from_record(json.loads(json.dumps(match.record())))
    assert replayed.to_dict() == match.to_dict()


@given(text=st.sampled_from([m.text for m in Move._interned.values()]))
def test_property_move_text_round_trips(text: str) -> None:
    assert Move.parse(text).text == text
