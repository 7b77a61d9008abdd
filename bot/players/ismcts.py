"""Information-set Monte Carlo tree search (ISMCTS, Cowling, Powley and Whitehouse, 2012):
one search tree over what a seat can tell apart, grown through many guessed deals.

Why not search each guessed deal on its own, as the expert does in the other games:
that search sees every hand and the boneyard's order in each guess, so it picks,
deal by deal, the continuation that suits that deal — a choice no player who cannot see
the tiles can make — and a move that only pays if one knows the hidden tiles looks
better than it is (strategy fusion). In Maltese Cross, where hands are drawn from a
boneyard, the expert built that way won about half the rounds against OpenSpiel's ISMCTS.
Here every simulation plays one guessed deal (a fresh boneyard order each time)
down a single tree whose nodes are the moves made from the seat's view, so a move must
do well across the guesses from the same node on, as it would have to at the table.

- **The tree.** A node's children are keyed by move. A move is picked by UCB among the
  moves legal in this simulation's deal, counting how often each was available (a
  move another seat could make only in some guesses); a node with an untried legal
  move tries one, picked at random, then the round is played out.
- **Playouts** use the expert's shrewd policy (:func:`bot.players.search.shrewd_step`):
  a scoring play, then a move that leaves the next seat stuck, then the heaviest tile.
- **Worth** (:class:`Worth`) is, for the side that made each move, a share for the
  round's result (1 won, 0 lost, one half tied: a round's winner takes the points,
  R-CR-6) and the rest for how many points it scored or gave away: the game is a race
  to a target, so a round won small does not make up for one lost big.
- **Work** is counted in moves made, playouts' tries included, and a simulation's own
  cost (:data:`SIMULATION_COST`), never timed: the same seed gives the same tree.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine import Move, Round, RoundOutcome
from bot.players.search import played_out, result_value, shrewd_step, weight

SIMULATION_COST = 3
"""What starting a simulation costs, in moves: copying the guess, shuffling its boneyard
and choosing among the tree's moves on the way down cost about as much as three moves
made (profiled on Maltese Cross decisions), and are counted so that the work of a
decision says what its time will be."""


@dataclass(slots=True)
class Node:
    """The statistics of one move from one node of the tree: how often it was picked
    (``visits``), how often it was legal when its parent was reached (``available``),
    and the worth gathered through it, to the side that made it (``total``)."""

    children: dict[Move, Node] = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    total: float = 0.0
    points: float = 0.0
    """A root move's: the round's points gathered through it (see :class:`Search`)."""

    def upper_bound(self, exploration: float) -> float:
        """UCB1 over the times the move could have been picked, not the parent's visits:
        a move legal in few guesses is not thereby explored as if it were rare."""
        mean = self.total / self.visits
        return mean + exploration * math.sqrt(math.log(self.available) / self.visits)


@dataclass(frozen=True, slots=True)
class Worth:
    """What a finished round is worth to a side, between 0 and 1: a share ``win_share``
    for the round's result (1 won, 0 lost, ½ tied) and the rest for its points, the
    side's points less the best other side's (:func:`bot.players.search.result_value`),
    squashed by ``tanh(margin / scale)`` so that a few big rounds do not drown the many
    small ones."""

    win_share: float = 1.0
    scale: float = 15.0

    def __call__(self, outcome: RoundOutcome, side: int) -> float:
        won = 0.5 if outcome.winner is None else float(outcome.winner == side)
        margin = result_value(outcome, side)
        return self.win_share * won + (1 - self.win_share) * 0.5 * (
            1 + math.tanh(margin / self.scale)
        )


@dataclass(frozen=True, slots=True)
class Search:
    """What a search found at the root: each legal move's visits, mean worth and mean
    points (the round's points for the seat's side less the best other side's, over the
    simulations through the move: what the coach grades a points game in)."""

    moves: tuple[Move, ...]
    visits: tuple[int, ...]
    worth: tuple[float, ...]
    points: tuple[float, ...]
    simulations: int

    @property
    def best(self) -> Move:
        """The most visited move (the robust choice), the heaviest tile among equals."""
        ranked = zip(self.visits, (weight(m) for m in self.moves), self.moves, strict=True)
        return max(ranked, key=lambda item: item[:2])[2]


def search(
    moves: Sequence[Move],
    worlds: Sequence[Round],
    work: float,
    rng: random.Random,
    exploration: float,
    spent: int = 0,
    worth: Worth = Worth(),
) -> Search:
    """Grow one tree from the root whose legal moves are ``moves``, one simulation per
    guessed deal, taking ``worlds`` in turn (each a round the seat cannot tell from the
    real one; weigh them by repeating the likelier) until ``spent`` and the moves made
    reach ``work``. Every root move is tried at least once."""
    root = Node()
    sides = [worlds[0].side_of(seat) for seat in range(len(worlds[0].hands))]
    simulations = 0
    while spent < work or len(root.children) < len(moves):
        round_ = worlds[simulations % len(worlds)].copy()
        rng.shuffle(round_.boneyard)  # the draws are chance, not part of the guess
        simulations += 1
        path, spent_here = _descend(root, round_, sides, rng, exploration)
        outcome, played = played_out(round_, shrewd_step)
        spent += spent_here + played + SIMULATION_COST
        worths = {side: worth(outcome, side) for side in set(sides)}  # once a side
        for node, side in path:
            node.visits += 1
            node.total += worths[side]
        first, side = path[0]
        first.points += result_value(outcome, side)
    children = [root.children[move] for move in moves]
    return Search(
        tuple(moves),
        tuple(child.visits for child in children),
        tuple(child.total / child.visits for child in children),
        tuple(child.points / child.visits for child in children),
        simulations,
    )


def _descend(
    node: Node, round_: Round, sides: list[int], rng: random.Random, exploration: float
) -> tuple[list[tuple[Node, int]], int]:
    """Follow the tree through ``round_`` (played on as it goes) until a move new to the
    tree is made or the round ends: the nodes passed, each with the side that moved
    there, and the moves made."""
    path: list[tuple[Node, int]] = []
    while round_.outcome() is None:
        legal = round_.legal_moves()
        side = sides[round_.turn]
        if len(legal) == 1:  # forced: passed through, not a choice to try
            node = node.children.setdefault(legal[0], Node())
            node.available += 1
            round_.play(legal[0])
            path.append((node, side))
            continue
        for move in legal:
            child = node.children.get(move)
            if child is not None:
                child.available += 1
        untried = [move for move in legal if move not in node.children]
        if untried:
            move = rng.choice(untried)
            child = node.children[move] = Node(available=1)
            round_.play(move)
            path.append((child, side))
            break
        move = max(legal, key=lambda m: node.children[m].upper_bound(exploration))
        node = node.children[move]
        round_.play(move)
        path.append((node, side))
    return path, len(path)
