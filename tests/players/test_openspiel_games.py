"""Our four games as OpenSpiel games (``benchmarks/openspiel_games.py``), held to the
engine: on random play the legal actions are the engine's legal moves at every step, a
draw's chance node offers exactly the boneyard, and the returns are the engine's round
result; a player's information state and observation come from its own seat's view, so
changing the tiles it cannot see changes neither."""

from __future__ import annotations

import random

import pytest

from bot.engine import DRAW, GAMES, TILES, Round
from tests.players.test_players import twin

pytest.importorskip("pyspiel", reason="needs OpenSpiel: pip install -r requirements/bench.txt")
from benchmarks import openspiel_games as og  # after the skip: it imports OpenSpiel

SEEDS = range(25)


def random_episode(
    game: og.DominoGame, rng: random.Random
) -> tuple[og.DominoState, list[tuple[list[int], int]], list[int]]:
    """Play one episode at random: the final state, each player step's legal actions and
    action, and the tiles drawn in order."""
    state = game.new_initial_state()
    steps: list[tuple[list[int], int]] = []
    drawn: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            action = rng.choice(outcomes)[0]
            if state.round is not None:
                assert {i for i, _ in outcomes} == set(state.round.boneyard)
                drawn.append(action)
        else:
            legal = state.legal_actions()
            action = rng.choice(legal)
            steps.append((legal, action))
        state.apply_action(action)
    return state, steps, drawn


def engine_round(state: og.DominoState, drawn: list[int]) -> Round:
    """A fresh engine round of the episode's deal, its boneyard in the order drawn."""
    assert state.round is not None
    rules = state.body.rules
    size = rules.hand_size
    hands = [state.dealt_to(seat) for seat in range(rules.players)]
    assert all(len(hand) == size for hand in hands)
    rest = [i for i in range(len(TILES)) if i not in drawn and all(i not in h for h in hands)]
    return rules.variant(
        [[TILES[i] for i in hand] for hand in hands],
        [TILES[i] for i in drawn + rest],
        options=rules.options,
    )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_play_offers_the_engines_moves_and_returns_its_result(game: str) -> None:
    """R-ALL-4: the seat to move has exactly the engine's legal moves, draws and passes
    included; the returns follow the engine's winner (R-CR-6, R-MC-6, R-MG-6, R-MI-5)."""
    loaded = og.load(game)
    variant = GAMES[game]
    rng = random.Random(game)
    drew = ties = 0
    for _ in SEEDS:
        state, steps, drawn = random_episode(loaded, rng)
        drew += len(drawn)
        referee = engine_round(state, drawn)
        for legal, action in steps:
            assert legal == sorted(og.action_of(m) for m in referee.legal_moves())
            referee.play(og.move_of(action))
        outcome = referee.outcome()
        assert outcome is not None and state.round is not None
        assert state.round.outcome() == outcome
        returns = state.returns()
        if outcome.winner is None:
            ties += 1
            assert returns == [0.0] * len(returns)
        else:
            for seat, value in enumerate(returns):
                assert value == (1.0 if variant.side_of(seat) == outcome.winner else -1.0)
    if variant.drawing.name != "NO_BONEYARD":
        assert drew > 0  # the draws' chance nodes were exercised
    assert ties < len(SEEDS)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_points_returns_are_each_sides_round_points_less_the_others(game: str) -> None:
    loaded = og.load(game, returns="points")
    rng = random.Random(1)
    for _ in range(10):
        state, _, _ = random_episode(loaded, rng)
        assert state.round is not None
        outcome = state.round.outcome()
        assert outcome is not None
        mine, theirs = outcome.points
        returns = state.returns()
        assert returns[0] == mine - theirs and returns[1] == theirs - mine
        assert sum(returns) == 0


def positions(game: str, count: int) -> list[og.DominoState]:
    """States where a player is to move, from random episodes."""
    loaded = og.load(game)
    rng = random.Random(3)
    found: list[og.DominoState] = []
    while len(found) < count:
        state = loaded.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            if rng.random() < 0.2:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found[:count]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_players_information_state_holds_no_tile_its_seat_cannot_see(game: str) -> None:
    """R-ALL-6: the other hands and the boneyard's order are hidden. Dealing them afresh
    changes no player's information state or observation but changes the game."""
    loaded = og.load(game)
    rng = random.Random(5)
    changed_own = 0
    for state in positions(game, 15):
        assert state.round is not None
        for seat in range(loaded.num_players()):
            other = loaded.state_for(twin(state.round, seat, rng))
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert other.observation_string(seat) == state.observation_string(seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            # another seat sees its own hand, which the fresh deal changed
            for looker in range(loaded.num_players()):
                if looker != seat and other.round is not None:
                    changed_own += other.information_state_string(
                        looker
                    ) != state.information_state_string(looker)
    assert changed_own > 0


def test_while_dealing_a_player_sees_only_the_tiles_dealt_to_it() -> None:
    loaded = og.load("cross")
    hand = GAMES["cross"].hand_size(2)
    first, second = loaded.new_initial_state(), loaded.new_initial_state()
    tiles = list(range(len(TILES)))
    random.Random(2).shuffle(tiles)
    for i in range(hand + 3):  # seat 0's hand, then three of seat 1's
        first.apply_action(tiles[i])
        second.apply_action(tiles[i] if i < hand else tiles[-1 - i])
    assert first.information_state_string(0) == second.information_state_string(0)
    assert first.information_state_tensor(0) == second.information_state_tensor(0)
    assert first.information_state_string(1) != second.information_state_string(1)


def test_a_draw_is_the_players_action_then_chance_picks_the_tile() -> None:
    """R-CR-5: a seat that cannot play draws; the tile drawn is chance's."""
    loaded = og.load("cross")
    rng = random.Random(4)
    for _ in range(20):
        state = loaded.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            elif state.legal_actions() == [og.DRAW_ACTION]:
                seat, round_ = state.current_player(), state.round
                assert round_ is not None
                state.apply_action(og.DRAW_ACTION)
                assert state.is_chance_node()
                tile = rng.choice(state.chance_outcomes())[0]
                state.apply_action(tile)
                assert TILES[tile] in round_.hand(seat)
                assert round_.history[-1] == (seat, DRAW)
                return
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no draw in twenty rounds")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_openspiels_own_checks_of_a_game_pass(game: str) -> None:
    """OpenSpiel's random simulation test: its API's promises (players, chance outcomes
    summing to one, information state and observation shapes, returns at the end)."""
    import pyspiel

    pyspiel.random_sim_test(og.load(game), num_sims=5, serialize=False, verbose=False)
