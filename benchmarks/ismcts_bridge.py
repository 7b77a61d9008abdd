"""OpenSpiel's ISMCTS playing any of our games inside our engine, move by move, through
the OpenSpiel games of :mod:`benchmarks.openspiel_games`.

Each time the ISMCTS seat is to move, its search starts from worlds made from that
seat's view only: its own hand, the public history, and a guess at the other hands and
the boneyard that respects every pass and draw it saw (a seat that passed or drew held
nothing that fitted then), drawn afresh for every simulation by the sampler our own
levels use (:func:`bot.players.simulate.sample_deal`). So every world it searches is one
the seat cannot rule out, and nothing hidden reaches it.
"""

from __future__ import annotations

import functools
import random
from typing import Literal

from open_spiel.python.algorithms import ismcts, mcts

from benchmarks import openspiel_games
from bot.engine import Move, Round, SeatView
from bot.players.knowledge import Knowledge, infer
from bot.players.simulate import sample_deal

Returns = Literal["win", "points"]
"""What the search plays for: the round's winner, or its points (see
:mod:`benchmarks.openspiel_games`)."""
SIMULATIONS = 400
UCT_C = 2.0
"""OpenSpiel's own examples' exploration constant; the returns lie in −1..1."""
POINTS_SCALE = 15.0
"""Playing for points (``returns="points"``), the exploration constant is this many times
:data:`UCT_C`: about a round's usual margin (the expert's tree squashes margins by the
same), so that exploring weighs against the returns as it does against −1..1. Not tuned."""


def describe(returns: Returns) -> str:
    """The peer's settings, as a tournament prints them beside its figures."""
    plays_for = (
        "+1 a won round, -1 a lost one"
        if returns == "win"
        else "the round's points less the other side's"
    )
    return (
        f"OpenSpiel ISMCTS, {SIMULATIONS} simulations, UCT c {exploration(returns):g}, "
        f"one random rollout, returns {plays_for}"
    )


def exploration(returns: Returns) -> float:
    """UCT's constant, scaled to the returns' size."""
    return UCT_C * (POINTS_SCALE if returns == "points" else 1.0)


@functools.cache
def game_for(game: str, players: int, returns: Returns = "win") -> openspiel_games.DominoGame:
    return openspiel_games.load(game, players=players, returns=returns)


class Worlds:
    """The OpenSpiel states one seat cannot tell apart, made from its view alone."""

    def __init__(self, view: SeatView, rng: random.Random, returns: Returns = "win") -> None:
        self.view = view
        self.rng = rng
        self.knowledge: Knowledge = infer(view)
        self.game = game_for(view.public.variant.game, view.public.players, returns)

    def guess(self) -> Round:
        """A round the seat cannot tell from the real one."""
        hands, boneyard = sample_deal(self.view, self.knowledge, self.rng)
        return Round.from_seat_view(self.view, hands, boneyard)

    def resample(self, state: object, player: int) -> openspiel_games.DominoState:
        """ISMCTS's resampler: a fresh world for the seat (``state`` is the root, and
        ``player`` the seat, whose view this already is)."""
        return self.game.state_for(self.guess())


def ismcts_move(
    view: SeatView, seed: int, simulations: int = SIMULATIONS, returns: Returns = "win"
) -> Move:
    """ISMCTS's move for the seat whose view this is, playing for the round's winner
    (``returns`` "win", what the tournament counts) or for its points ("points", what
    adds up to the game; see :mod:`benchmarks.openspiel_games`)."""
    if len(view.legal) == 1:
        return view.legal[0]
    rng = random.Random(f"{seed}:{len(view.public.history)}")
    worlds = Worlds(view, rng, returns)
    randomness = openspiel_games.random_state_for(rng.getrandbits(32))
    bot = ismcts.ISMCTSBot(
        worlds.game,
        mcts.RandomRolloutEvaluator(1, randomness),
        exploration(returns),
        simulations,
        random_state=randomness,
    )
    bot.set_resampler(worlds.resample)
    move = openspiel_games.move_of(int(bot.step(worlds.resample(None, view.seat))))
    assert move in view.legal, f"ISMCTS chose {move}, which our engine does not allow"
    return move
