"""The tournament's bridge to the ``dominoes`` package: its players, driven inside our
Milo engine, make legal moves, see no more than their seat may, and do what they say."""

from __future__ import annotations

import random

import pytest

from bot.engine import Milo, Tile

pytest.importorskip(
    "dominoes", reason="needs the dominoes package: pip install -r requirements/bench.txt"
)
from benchmarks import dominoes_bridge as bridge  # after the skip: it imports dominoes


def test_the_package_players_finish_rounds_with_legal_moves() -> None:
    for player in (bridge.bota_gorda, bridge.probabilistic_alphabeta()):
        for seed in range(3):
            round_ = Milo.deal(4, random.Random(seed))
            rng = random.Random(seed)
            while round_.outcome() is None:
                move = bridge.package_move(player, round_.seat_view(round_.turn), rng)
                assert move in round_.legal_moves()
                round_.play(move)


def test_bota_gorda_plays_its_heaviest_tile() -> None:
    round_ = Milo.deal(4, random.Random(1))
    rng = random.Random(1)
    while round_.outcome() is None:
        legal = round_.legal_moves()
        move = bridge.package_move(bridge.bota_gorda, round_.seat_view(round_.turn), rng)
        assert move.tile is None or move.tile.value == max(m.tile.value for m in legal if m.tile)
        round_.play(move)


def test_the_package_gets_its_hand_the_public_state_and_only_a_guess_at_the_rest() -> None:
    round_ = Milo.deal(4, random.Random(2))
    rng = random.Random(2)
    for _ in range(9):
        round_.play(bridge.package_move(bridge.bota_gorda, round_.seat_view(round_.turn), rng))
    seat = round_.turn
    game = bridge.package_game(round_.seat_view(seat), rng)
    hands = [{Tile(d.first, d.second) for d in hand} for hand in game.hands]
    assert hands[seat] == set(round_.hand(seat))
    assert [len(h) for h in hands] == [len(round_.hand(s)) for s in range(4)]
    others = [t for s in range(4) if s != seat for t in hands[s]]
    assert sorted(others) == sorted(t for s in range(4) if s != seat for t in round_.hand(s))
    assert (game.board.left_end(), game.board.right_end()) == tuple(round_.line_ends)
    assert sum(move is None for move in game.moves) == sum(
        m.tile is None for _, m in round_.history
    )
    truth = [set(round_.hand(s)) for s in range(4)]
    guesses = [
        bridge.package_game(round_.seat_view(seat), random.Random(i)).hands for i in range(5)
    ]
    assert any(
        {Tile(d.first, d.second) for d in guess[s]} != truth[s]
        for guess in guesses
        for s in range(4)
    )
