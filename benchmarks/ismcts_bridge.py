"""Driving OpenSpiel's ISMCTS inside our Milo engine, move by move.

OpenSpiel's ``python_team_dominoes`` plays Milo's line (R-MI-2) with its passes (R-MI-4):
a seat that cannot play is skipped. Each time the ISMCTS seat is to move, this bridge
builds an OpenSpiel state from that seat's view only: its own hand, the public
plays (with the end each covered, read off the layout) and a guess at the other hands
that respects every pass it saw (a seat that passed held nothing that fitted). The
search's resampler draws fresh guesses the same way, so every world it searches is one
the seat cannot rule out, and nothing hidden reaches it.

Two changes to the game as OpenSpiel ships it, both said in ``docs/PLAYERS.md``:

- its returns are Milo's (R-MI-5: 1 point for the side that dominoes, 2 if both ends
  then match; blocked, 1 for the side with the lower count), not the pips its own
  scoring counts, so it plays for the result the tournament scores;
- its legal actions are looked up in a dict instead of ``list.index`` over their
  strings: the same lists in the same order, several times faster, so a tournament of
  hundreds of deals fits in hours.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]
from open_spiel.python.games import team_dominoes as td  # type: ignore[import-untyped]

from bot.engine import LineLayout, Move, SeatView, Tile
from bot.players.knowledge import infer
from bot.players.simulate import sample_deal

SIMULATIONS = 400
UCT_C = 2.0
"""OpenSpiel's own examples' exploration constant; Milo's returns lie in −2..2."""

OsTile = tuple[float, float]
ACTIONS = td._ACTIONS
"""OpenSpiel's actions by index: a player, a tile (low, high) and the number it covers."""
_INDEX = {(a.player, a.tile, a.edge): i for i, a in enumerate(ACTIONS)}


def _os_tile(tile: Tile) -> OsTile:
    return (float(tile.low), float(tile.high))


class MiloState(td.DominoesState):  # type: ignore[misc]
    """``python_team_dominoes`` with Milo's returns and a fast legal-action lookup."""

    def get_legal_actions(self, player: int) -> list[int]:
        hand = self.hands[player]
        if not self.open_edges:
            actions = [_INDEX[player, tile, None] for tile in hand]
        else:
            edges = self.open_edges
            actions = []
            for tile in hand:
                if tile[0] in edges:
                    actions.append(_INDEX[player, tile, tile[0]])
                if tile[0] != tile[1] and tile[1] in edges:
                    actions.append(_INDEX[player, tile, tile[1]])
        actions.sort()
        return actions

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * 4
        last = self.actions_history[-1].player
        if not self.hands[last]:  # dominoed
            team = last % 2
            points = 2.0 if self.open_edges[0] == self.open_edges[1] else 1.0
        else:  # blocked: the lower team count scores 1, a tie nothing
            counts = [sum(a + b for hand in self.hands[t::2] for a, b in hand) for t in (0, 1)]
            if counts[0] == counts[1]:
                return [0.0] * 4
            team, points = (0 if counts[0] < counts[1] else 1), 1.0
        return [points if p % 2 == team else -points for p in range(4)]


class MiloGame(td.DominoesGame):  # type: ignore[misc]
    def new_initial_state(self) -> MiloState:
        return MiloState(self)


GAME = MiloGame()


def played_edges(view: SeatView) -> dict[Tile, float | None]:
    """Each tile on the line and the number it covered (None for the lead), read off the
    public layout: a tile left of the lead covered its right-hand number, and so on."""
    layout = view.public.layout
    if layout is None:
        return {}
    assert isinstance(layout, LineLayout)
    lead = layout.lead_index
    edges: dict[Tile, float | None] = {}
    for i, placed in enumerate(layout.tiles):
        edges[placed.tile] = None if i == lead else float(placed.right if i < lead else placed.left)
    return edges


class Worlds:
    """The OpenSpiel worlds one seat cannot tell apart, made from its view alone."""

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        self.seat = view.seat
        self.leader = view.public.leader
        self.knowledge = infer(view)
        edges = played_edges(view)
        self.history: list[tuple[int, OsTile, float | None]] = []
        self.played: list[list[Tile]] = [[] for _ in range(4)]
        for seat, move in view.public.history:
            if move.tile is None:
                continue  # a pass: OpenSpiel skips a seat that cannot play
            self.played[seat].append(move.tile)
            self.history.append((self.player(seat), _os_tile(move.tile), edges[move.tile]))
        self.root = self._replay(self._guess())

    def player(self, seat: int) -> int:
        """OpenSpiel's player 0 always leads; ours is whoever led (teams keep parity)."""
        return (seat - self.leader) % 4

    def _guess(self) -> list[list[Tile]]:
        """Current hands: the seat's own, and a guess at the others honouring the passes."""
        while True:
            hands, _ = sample_deal(self.view, self.knowledge, self.rng)
            if not any(
                t.bit & self.knowledge.lacking(seat) for seat in range(4) for t in hands[seat]
            ):  # sample_deal's last resort ignores the passes; never use that one
                return hands

    def _replay(self, hands: list[list[Tile]]) -> MiloState:
        """Deal the hands as they were before the round, then make every public play."""
        state = GAME.new_initial_state()
        dealt = [sorted(_os_tile(t) for t in hands[s] + self.played[s]) for s in range(4)]
        by_player = [dealt[(p + self.leader) % 4] for p in range(4)]
        for k in range(7):
            for player in range(4):
                state.apply_action(td._DECK.index(by_player[player][k]))
        for player, tile, edge in self.history:
            assert state.current_player() == player, "a guess broke a pass"
            state.apply_action(_INDEX[player, tile, edge])
        return state

    def resample(self, state: Any, player: int) -> MiloState:
        """ISMCTS's resampler: the root with new guesses at the other hands (the same as
        replaying a fresh deal, without the replay's cost)."""
        hands = self._guess()
        world = self.root.clone()
        for seat in range(4):
            if seat != self.seat:
                world.hands[self.player(seat)] = sorted(_os_tile(t) for t in hands[seat])
        return world  # type: ignore[no-any-return]

    def move(self, action: int) -> Move:
        """Our move for an OpenSpiel action: the tile on the end showing its edge."""
        chosen = ACTIONS[action]
        tile = Tile(int(chosen.tile[0]), int(chosen.tile[1]))
        ends = self.view.public.open_ends
        for move in self.view.legal:
            end = move.end_name
            if move.tile is tile and (
                chosen.edge is None or (end is not None and ends[end] == int(chosen.edge))
            ):
                return move
        raise AssertionError(f"OpenSpiel chose {chosen}, which our engine does not allow")


def ismcts_move(view: SeatView, seed: int, simulations: int = SIMULATIONS) -> Move:
    """ISMCTS's move for the seat whose view this is."""
    if len(view.legal) == 1:
        return view.legal[0]
    rng = random.Random(f"{seed}:{len(view.public.history)}")
    worlds = Worlds(view, rng)
    randomness = np.random.RandomState(rng.getrandbits(32))
    bot = ismcts.ISMCTSBot(
        GAME,
        mcts.RandomRolloutEvaluator(1, randomness),
        UCT_C,
        simulations,
        random_state=randomness,
    )
    bot.set_resampler(worlds.resample)
    return worlds.move(int(bot.step(worlds.root)))
