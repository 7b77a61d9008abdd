"""Milo against the PyPI ``dominoes`` package, which plays the same four-seat partnership
block game with no boneyard (its scoring differs: compare leftover pips, not points).

Both engines play the same deals in lockstep, our moves chosen at random; at every step
they must agree on the seat to play, the legal (tile, end value) moves, the open ends,
the passes and the end of the round.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import PASS, Milo, Move, Options, Reason, Tile

pytest.importorskip(
    "dominoes", reason="needs the dominoes package: pip install -r requirements/bench.txt"
)
import dominoes  # after the skip

DEALS = 1000


def their_game(round_: Milo) -> dominoes.Game:
    """A ``dominoes.Game`` on the same hands, led with 6-6 as R-MI-3 says."""
    hands = [
        dominoes.Hand([dominoes.Domino(t.high, t.low) for t in round_.hand(s)]) for s in range(4)
    ]
    six_six = dominoes.Domino(6, 6)
    leader = round_.leader
    game = dominoes.Game(dominoes.Board(), hands, [], leader, ((six_six, True),), leader, None)
    game.make_move(six_six, True)
    return game


def their_moves(game: dominoes.Game) -> set[tuple[Tile, int]]:
    ends = (game.board.left_end(), game.board.right_end())
    return {(Tile(d.first, d.second), ends[0] if left else ends[1]) for d, left in game.valid_moves}


def line_end(round_: Milo, move: Move) -> int:
    """The number on the end (L or R) that ``move`` plays on."""
    assert move.end is not None, move
    return round_.line_ends[move.end - 4]


def our_moves(round_: Milo) -> set[tuple[Tile, int]]:
    return {(m.tile, line_end(round_, m)) for m in round_.legal_moves() if m.tile is not None}


def our_passes_until_a_play(round_: Milo) -> int:
    """Pass for every seat that cannot play (the package skips them itself)."""
    passes = 0
    while round_.outcome() is None and round_.legal_moves() == (PASS,):
        round_.play(PASS)
        passes += 1
    return passes


@pytest.mark.parametrize("chunk", range(4))
def test_milo_agrees_with_the_dominoes_package(chunk: int) -> None:
    options = Options.for_game(Milo, 4)
    for seed in range(chunk * DEALS // 4, (chunk + 1) * DEALS // 4):
        ours = Milo.deal(4, random.Random(seed), options=options)
        theirs = their_game(ours)
        ours.play(Move.parse("6-6"))
        their_passes = theirs.moves.count(None)
        picker = random.Random(seed)
        while True:
            assert our_passes_until_a_play(ours) == their_passes
            if ours.outcome() is not None or theirs.result is not None:
                break
            assert ours.turn == theirs.turn
            assert our_moves(ours) == their_moves(theirs)
            assert sorted(ours.line_ends) == sorted(
                (theirs.board.left_end(), theirs.board.right_end())
            )
            move = picker.choice(ours.legal_moves())
            assert move.tile is not None  # a play: the seats that could not play passed
            left = theirs.board.left_end() == line_end(ours, move)
            ours.play(move)
            before = len(theirs.moves)
            theirs.make_move(dominoes.Domino(move.tile.high, move.tile.low), left)
            their_passes = theirs.moves[before:].count(None)
        outcome = ours.outcome()
        assert outcome is not None and theirs.result is not None
        assert (outcome.reason is Reason.DOMINO) == theirs.result.won
        their_counts = [sum(d.first + d.second for d in hand) for hand in theirs.hands]
        assert list(outcome.counts) == their_counts
        assert sum(1 for m in theirs.moves if m is None) == sum(
            1 for _, move in ours.history if move is PASS
        )
