"""The tournament's bridge to OpenSpiel's ISMCTS: driven inside our Milo engine it makes
legal moves, its game offers exactly our legal moves, and it sees no more than its seat
may (its worlds differ from the real deal, honour every pass, and a deal its seat cannot
tell apart gets the same move)."""

from __future__ import annotations

import random

import pytest

from bot.engine import Milo, Move, Round, Tile
from bot.players.knowledge import infer
from tests.players.test_players import twin

pytest.importorskip("open_spiel", reason="needs OpenSpiel: pip install -r requirements/bench.txt")
from benchmarks import ismcts_bridge as bridge  # after the skip: it imports OpenSpiel

SIMULATIONS = 20


def ismcts_positions(seeds: range) -> list[Round]:
    """Positions where seats 0 and 2 (ISMCTS) must choose, from rounds against hard."""
    from bot.players import computer_player

    found = []
    for seed in seeds:
        round_ = Milo.deal(4, random.Random(seed))
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


def os_moves(worlds: bridge.Worlds) -> set[tuple[Tile, int]]:
    out = set()
    for action in worlds.root.legal_actions():
        chosen = bridge.ACTIONS[action]
        out.add((Tile(int(chosen.tile[0]), int(chosen.tile[1])), int(chosen.edge)))
    return out


def our_moves(round_: Round) -> set[tuple[Tile, int]]:
    ends = round_.open_ends()
    return {(m.tile, ends[m.end_name]) for m in round_.legal_moves() if m.tile and m.end_name}


def test_ismcts_offers_our_legal_moves_and_plays_one_of_them() -> None:
    positions = ismcts_positions(range(3))
    assert len(positions) >= 10
    for round_ in positions:
        view = round_.seat_view(round_.turn)
        worlds = bridge.Worlds(view, random.Random(0))
        assert os_moves(worlds) == our_moves(round_)
        for action in worlds.root.legal_actions():
            assert worlds.move(action) in round_.legal_moves()


def test_its_worlds_keep_its_hand_and_the_history_and_honour_every_pass() -> None:
    """R-MI-4: a seat that passed held no tile matching either end, in every world."""
    hidden_differed = False
    for round_ in ismcts_positions(range(3, 5)):
        seat = round_.turn
        view = round_.seat_view(seat)
        worlds = bridge.Worlds(view, random.Random(1))
        lacking = infer(view)
        me = worlds.player(seat)
        key = worlds.root.information_state_string(me)
        for _ in range(5):
            world = worlds.resample(worlds.root, me)
            assert world.information_state_string(me) == key
            for other in range(4):
                held = {Tile(int(a), int(b)) for a, b in world.hands[worlds.player(other)]}
                assert len(held) == len(round_.hand(other))
                if other == seat:
                    assert held == set(round_.hand(seat))
                    continue
                assert not any(t.bit & lacking.lacking(other) for t in held)
                hidden_differed |= held != set(round_.hand(other))
            # the world replays: its dealt hands make every public play and pass
            worlds._replay(
                [[Tile(int(a), int(b)) for a, b in world.hands[worlds.player(s)]] for s in range(4)]
            )
    assert hidden_differed


def test_ismcts_cannot_tell_deals_its_seat_cannot_see_apart() -> None:
    rng = random.Random(9)
    for round_ in ismcts_positions(range(5, 6))[:6]:
        seat = round_.turn
        other = twin(round_, seat, rng)
        first = bridge.ismcts_move(round_.seat_view(seat), 3, SIMULATIONS)
        second = bridge.ismcts_move(other.seat_view(seat), 3, SIMULATIONS)
        assert isinstance(first, Move) and first == second
