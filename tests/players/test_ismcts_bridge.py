"""The tournament's bridge to OpenSpiel's ISMCTS, in every game: driven inside our engine
it makes legal moves, its search's root offers exactly our legal moves, and it sees no
more than its seat may (its worlds differ from the real deal, keep its hand and the
history, honour every pass and draw, and a deal its seat cannot tell apart gets the same
move)."""

from __future__ import annotations

import random

import pytest

from bot.engine import GAMES, MerryGoRound, Move, Options, Round
from tests.engine.builders import build, play
from tests.players.test_players import twin

pytest.importorskip("open_spiel", reason="needs OpenSpiel: pip install -r requirements/bench.txt")
from benchmarks import ismcts_bridge as bridge  # after the skip: it imports OpenSpiel
from benchmarks import openspiel_games as og

SIMULATIONS = 20


def ismcts_positions(game: str, seeds: range) -> list[Round]:
    """Positions where seat 0 (ISMCTS) must choose, from rounds against hard."""
    from bot.players import computer_player

    variant = GAMES[game]
    players = og.DEFAULT_PLAYERS[game]
    found = []
    for seed in seeds:
        round_ = variant.deal(
            players, random.Random(seed), options=Options.for_game(variant, players)
        )
        hard = computer_player("hard", seed)
        while round_.outcome() is None:
            seat = round_.turn
            view = round_.seat_view(seat)
            if seat % 2 == 0:
                if len(view.legal) > 1:
                    found.append(round_.copy())
                move = bridge.ismcts_move(view, seed, SIMULATIONS)
            else:
                move = hard.choose(view)
            assert move in round_.legal_moves()
            round_.play(move)
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_ismcts_offers_our_legal_moves_and_plays_one_of_them(game: str) -> None:
    positions = ismcts_positions(game, range(2))
    assert len(positions) >= 5
    for round_ in positions:
        worlds = bridge.Worlds(round_.seat_view(round_.turn), random.Random(0))
        root = worlds.resample(None, round_.turn)
        assert [og.move_of(a) for a in root.legal_actions()] == sorted(
            round_.legal_moves(), key=og.action_of
        )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_its_worlds_keep_its_hand_and_the_history_and_honour_every_pass(game: str) -> None:
    """R-ALL-4: a seat that passed or drew held no tile that fitted then, in every world."""
    hidden_differed = False
    for round_ in ismcts_positions(game, range(2, 4)):
        seat = round_.turn
        view = round_.seat_view(seat)
        worlds = bridge.Worlds(view, random.Random(1))
        key = og.load(game).state_for(round_.copy()).information_state_string(seat)
        for _ in range(5):
            world = worlds.resample(None, seat)
            assert world.information_state_string(seat) == key
            assert world.round is not None
            assert world.round.history == round_.history
            for other in range(round_.n):
                held = set(world.round.hand(other))
                assert len(held) == len(round_.hand(other))
                if other == seat:
                    assert held == set(round_.hand(seat))
                    continue
                assert not any(t.bit & worlds.knowledge.lacking(other) for t in held)
                hidden_differed |= held != set(round_.hand(other))
    assert hidden_differed


@pytest.mark.parametrize("game", sorted(GAMES))
def test_ismcts_cannot_tell_deals_its_seat_cannot_see_apart(game: str) -> None:
    rng = random.Random(9)
    for round_ in ismcts_positions(game, range(5, 6))[:4]:
        seat = round_.turn
        other = twin(round_, seat, rng)
        first = bridge.ismcts_move(round_.seat_view(seat), 3, SIMULATIONS)
        second = bridge.ismcts_move(other.seat_view(seat), 3, SIMULATIONS)
        assert isinstance(first, Move) and first == second


def test_playing_for_points_it_takes_the_placement_that_scores() -> None:
    """R-MG-4, R-MG-6: either placement of its last tile wins the round, and only one
    scores fives (the other seat's 0-0 leaves no round points). Playing for points, the
    peer that checks the expert's whole games takes the one that scores."""
    round_ = build(MerryGoRound, ["1-0 2-0 4-0 4-4 5-3 5-4 6-6", "0-0 4-2 4-3 5-0 5-1 5-2 6-5"])
    play(round_, "4-4", "4-3 N", "4-0 W", "4-2 S", "5-4 E", "5-0 E", "1-0 W", "5-1 W")
    play(round_, "2-0 E", "6-5 W", "6-6 W", "5-2 E")
    gained = {}
    for move in round_.legal_moves():
        after = round_.copy()
        after.play(move)
        ended = after.outcome()
        assert ended is not None and ended.winner == 0
        gained[move.text] = after.scores[0] - round_.scores[0]
    assert sorted(gained.values()) == [0, 4]

    chosen = bridge.ismcts_move(round_.seat_view(0), 1, returns="points")

    assert gained[chosen.text] == 4
