"""Seeded self-play: thousands of rounds of every game, with the invariants checked after
every action (28 tiles conserved, every action legal, blocked really blocked, scores as
the rules say), and property tests driven by hypothesis."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import GAMES, Match, Move, Options
from tests.engine.invariants import check_finished, check_move, check_tiles_conserved

ROUNDS_PER_GAME = 2000


@pytest.mark.parametrize("game", sorted(GAMES))
def test_self_play_rounds_keep_every_invariant(game: str) -> None:
    variant = GAMES[game]
    picker = random.Random(game)
    for index in range(ROUNDS_PER_GAME):
        players = variant.player_counts[index % len(variant.player_counts)]
        keep_last_two = variant.offers_keep_last_two and index % 2 == 0
        options = Options.for_game(variant, players, keep_last_two=keep_last_two)
        scores = [
            picker.randrange(62) if game == "merry-go-round" else 0
            for _ in range(2 if variant.teams else players)
        ]
        round_ = variant.deal(players, random.Random(index), options=options, scores=scores)
        check_tiles_conserved(round_)
        while round_.outcome() is None:
            move = picker.choice(round_.legal_moves())
            check_move(round_, move)
            round_.play(move)
            check_tiles_conserved(round_)
        check_finished(round_)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_self_play_matches_replay_from_their_records(game: str) -> None:
    variant = GAMES[game]
    for seed in range(25):
        players = variant.player_counts[seed % len(variant.player_counts)]
        match = Match(game, players, seed=seed)
        picker = random.Random(seed)
        while match.outcome() is None:
            match.play(picker.choice(match.legal_moves()))
        outcome = match.outcome()
        assert outcome is not None
        replayed = Match.from_record(json.loads(json.dumps(match.record())))
        assert replayed.to_dict() == match.to_dict()


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
    players = variant.player_counts[seed % len(variant.player_counts)]
    match = Match(game, players, seed=seed)
    for choice in choices:
        if match.outcome() is not None:
            break
        legal = match.legal_moves()
        move = legal[choice % len(legal)]
        round_ = match.round
        check_move(round_, move)
        match.play(move)
        if round_.outcome() is not None:
            check_finished(round_)
        check_tiles_conserved(match.round)
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))).to_dict() == match.to_dict()


@given(text=st.sampled_from([m.text for m in Move._interned.values()]))
def test_property_move_text_round_trips(text: str) -> None:
    assert Move.parse(text).text == text
