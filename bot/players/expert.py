"""Expert: the hard player's idea — try every move on many guessed deals — with better
guesses and a better search of them.

- Guesses are weighted by how likely they make what the other seats did (see
  :mod:`bot.players.beliefs`): a large pool of deals consistent with every pass and draw
  is drawn, each weighed by replaying the round through the engine, and the deals
  searched are drawn from that pool in proportion to their weight.
- In Maltese Cross the guesses feed one search tree, played for the round's winner and
  its points (:mod:`bot.players.ismcts`, :data:`TREES`), so that no guess's hidden tiles
  steer a choice the seat makes without seeing them; in Cross, such a tree decides once
  few tiles are left.
- Otherwise each guessed deal is searched apart: exactly, by alpha-beta to the
  end of the round, once few tiles are left (most of a round's decisions that matter),
  and played out before that by a policy that takes a block when there is one (in Milo,
  on four times as many guesses, see :data:`TEAM_WINS`). Each guess is judged by what
  the game's rounds are scored on: who wins in Milo (searched on bare hands, see
  :mod:`bot.players.milo_search`), the margin elsewhere, and in Merry-Go-Round the
  margin and a bonus for winning the round (see :data:`PLAY_POINTS`).

All of it is counted in moves made, never timed, so it is deterministic given its seed."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bot.engine import Move, Round, SeatView
from bot.players import ismcts, milo_search
from bot.players.base import rng_for
from bot.players.beliefs import Deal, can_replay, weighed_deals
from bot.players.search import evaluate, shrewd_step, weight


@dataclass(frozen=True, slots=True)
class Effort:
    work: int
    """Moves per decision: weighing guesses, searching and playing out. A count, not a
    clock (replays stay exact); sized so that a decision stays a small part of the pause
    between a table's computer moves (``docs/BENCHMARKS.md`` times it)."""
    exact_below: int
    """Tiles left (in hands and boneyard) from which a guess is searched exactly."""
    exact_limit: int
    """Moves one exact search may take before it gives way to a playout."""
    min_samples: int = 12
    """Guesses searched even when they take more than ``work`` (up to twice as much)."""
    round_bonus: float = 0.0
    """Points a guess's value gains for winning the round, on top of its margin (see
    :data:`PLAY_POINTS`)."""
    played_out_scale: int = 1
    """Guesses weighed and searched, and work, are this many times more in a decision
    whose guesses will all be played out (too many tiles left for an exact search)."""


POINTS = Effort(work=24000, exact_below=18, exact_limit=2500, min_samples=4)
"""Cross, whose rounds score points that add up to a target: the margin matters, and
drawing makes exact searches grow fast. Once few tiles are left a tree decides instead
(:data:`TREES`); a tree from the first move, as in Maltese Cross, won more rounds but
fewer points (``docs/PLAYERS.md``)."""
PLAY_POINTS = replace(POINTS, round_bonus=3.0)
"""Merry-Go-Round, where most points are fives scored during play (R-MG-4) and either
seat scores them, so the seat with more points may still lose the round (R-MG-6). A won
round counts 3 points more: against hard that wins more rounds and keeps the points edge
(5 and 10 won slightly and far more rounds, but gave most or all of the points edge up)."""
TEAM_WINS = Effort(work=48000, exact_below=19, exact_limit=6000, played_out_scale=4)
"""Team rounds worth a point or two (Milo, R-MI-5): who wins is what counts, which the
null-window search proves cheaply enough to search from the middle of the round (see
:mod:`bot.players.milo_search`, which also makes each move a few integer operations).
Before that, four times the guesses and work: a playout on Milo's line reads a block off
the hands, so a decision whose guesses are all played out costs far less than one
searched exactly, and with the same work its early choices rested on too few guesses.
More guesses won more rounds against the outside programs, four times the most; and half
as much work again (48,000, from 32,000) won more against ISMCTS on the tuning deals, for
a decision CPU time still well within the others' (``docs/PLAYERS.md``)."""


@dataclass(frozen=True, slots=True)
class TreeEffort:
    """How much one tree search over the guesses may do (see :mod:`bot.players.ismcts`)."""

    work: int
    """Moves per decision, weighing guesses and simulations alike: a count, not a clock."""
    exploration: float
    """UCB's exploration constant, for worths between 0 and 1."""
    worth: ismcts.Worth
    """What a simulation's round is worth (its winner, its points, or a share of each)."""
    from_tiles: int | None = None
    """The tree decides once at most this many tiles are left (in hands and boneyard,
    once moved), each guess searched apart before that; None: it decides every move."""


_TREE = TreeEffort(work=16000, exploration=0.35, worth=ismcts.Worth(win_share=0.5, scale=15.0))
TREES = {"maltese-cross": _TREE, "cross": replace(_TREE, from_tiles=POINTS.exact_below)}
"""The games searched by one tree over the guesses: Maltese Cross, whose caps and dead
arms (R-MC-3, R-MC-5) hang on the boneyard's draws, chance that no guess may foresee, and
whose rounds are won by dominoing or the lowest count and scored by the other hands'
counts (R-MC-6, R-CR-6). Half of a simulation's worth is who won the round and half its
points: played for the winner alone, the tree won more rounds than searching each guess
apart but gave points away against hard, and the game is a race to 100 points. With
both, it won more rounds against hard and ISMCTS with at least the old points edge, on
the tuning deals and on the held-out ones (``docs/PLAYERS.md``).

And Cross, with the same tree, from the point its guesses were searched exactly (at
most 18 tiles left): an exact search of a guess knows which tile each draw brings, and
plays for draws no seat can foresee. With the tree there the expert won a little more
against hard and ISMCTS on the tuning deals, for the same points, in less time; a tree
from the first move gave points away, and one until then, with the exact search after,
won fewer rounds and points against ISMCTS (``docs/PLAYERS.md``)."""


@dataclass(frozen=True, slots=True)
class ExpertPlayer:
    seed: int = 0
    pool: int = 160
    """Deals weighed before choosing which to search."""
    max_samples: int = 160

    def choose(self, view: SeatView) -> Move:
        moves = view.legal
        if len(moves) == 1:
            return moves[0]
        return self.weigh(view).best

    def weigh(self, view: SeatView, budget: float = 1.0) -> Weighing:
        """Value each of ``view``'s legal moves (at least two): the guessed deals, the
        searches and the counted work of a decision, times ``budget`` (the coach judges
        with the same search). Its ``best`` is the move :meth:`choose` makes."""
        variant = view.public.variant
        after = sum(view.public.hand_sizes) + view.public.boneyard_count - 1  # tiles, once moved
        tree = TREES.get(variant.game)
        if tree is not None and (tree.from_tiles is None or after <= tree.from_tiles):
            return self._weigh_tree(view, tree, budget)
        effort = TEAM_WINS if variant.teams else PLAY_POINTS if variant.scores_plays else POINTS
        moves = view.legal
        rng = rng_for(self.seed, view)
        scale = (effort.played_out_scale if after > effort.exact_below else 1) * budget
        guesses, order, done = self._guesses(view, rng, scale)
        work = effort.work * scale
        side = variant.side_of(view.seat)
        totals = [0.0] * len(moves)
        wins = [0.0] * len(moves)
        shares = 0.0
        known: milo_search.Known = {}
        on_milo_line = milo_search.applies(variant)
        try_exact = True  # until one exact search outgrows its limit: then play out
        searched = 0
        for searched, (index, share) in enumerate(order, 1):
            hands, boneyard = guesses[index]
            base = Round.from_seat_view(view, hands, boneyard)
            for i, move in enumerate(moves):
                trial = base if i == len(moves) - 1 else base.copy()  # the last uses it up
                trial.play(move)
                if on_milo_line:
                    value, spent, gave_up = milo_search.judge(
                        trial, side, effort.exact_below, effort.exact_limit, try_exact, known
                    )
                else:
                    value, spent, gave_up = evaluate(
                        trial,
                        side,
                        effort.exact_below,
                        effort.exact_limit,
                        shrewd_step,
                        try_exact,
                        effort.round_bonus,
                    )
                try_exact = try_exact and not gave_up
                totals[i] += share * value
                wins[i] += share * (value > 0.5)  # a proven win (1 ± its tie-break), 1–2 points
                done += spent
            shares += share
            if done >= work and (searched >= effort.min_samples or done >= 2 * work):
                break
        # Ties are common once every guess is searched exactly (each move wins, or
        # loses, in all of them): then shed the heaviest tile, which counts for the
        # side if the round ends blocked, and which a fallible opponent lets through.
        ranked = [(t, weight(m)) for m, t in zip(moves, totals, strict=True)]
        best = max(ranked)
        chosen = rng.choice([m for m, r in zip(moves, ranked, strict=True) if r == best])
        worth = wins if on_milo_line else totals
        return Weighing(moves, tuple(w / shares for w in worth), chosen, searched)

    def _weigh_tree(self, view: SeatView, effort: TreeEffort, budget: float) -> Weighing:
        """One tree over the weighed guesses, each as often as its weight says; a move's
        worth is the round's points in the simulations through it (the tree itself plays
        for :attr:`TreeEffort.worth`, which also counts who wins)."""
        rng = rng_for(self.seed, view)
        guesses, order, done = self._guesses(view, rng, budget)
        worlds = [
            Round.from_seat_view(view, *guesses[index])
            for index, times in order
            for _ in range(round(times))
        ]
        work = effort.work * budget
        found = ismcts.search(view.legal, worlds, work, rng, effort.exploration, done, effort.worth)
        return Weighing(found.moves, found.points, found.best, found.simulations)

    def _guesses(
        self, view: SeatView, rng: random.Random, scale: float
    ) -> tuple[list[Deal], list[tuple[int, float]], int]:
        """Deals the seat cannot rule out (hands, boneyard), which of them to search and
        how often (``pool`` and ``max_samples`` times ``scale``; in proportion to how
        likely each makes the others' play, while that can be replayed), and the moves
        the weighing took."""
        pool = max(1, round(self.pool * scale))
        max_samples = max(1, round(self.max_samples * scale))
        weigh = can_replay(view)
        guesses, weights, done = weighed_deals(view, rng, pool if weigh else max_samples, weigh)
        order = (
            _resample(weights, max_samples, rng)
            if weigh
            else [(i, 1.0) for i in range(len(guesses))]
        )
        return guesses, order, done


@dataclass(frozen=True, slots=True)
class Weighing:
    """What a decision found: each legal move's mean worth over the guesses searched (the
    round's points, or in Milo the share of guesses the move wins), the move chosen, and
    how many guesses were searched (in Maltese Cross, the tree's simulations)."""

    moves: tuple[Move, ...]
    """The seat's legal moves, in the view's order."""
    worth: tuple[float, ...]
    """Per move, its mean worth."""
    best: Move
    """The expert's choice."""
    guesses: int
    """How many guessed deals were searched."""


def _resample(weights: list[float], count: int, rng: random.Random) -> list[tuple[int, float]]:
    """Systematic resampling: ``count`` draws in proportion to ``weights``, as (index,
    times drawn), in random order so that stopping early keeps the proportions. With no
    weight anywhere (no guess could explain the play: the model is too sure), every
    guess counts alike."""
    total = sum(weights)
    if total <= 0:
        weights, total = [1.0] * len(weights), float(len(weights))
    step = total / count
    point = rng.random() * step
    drawn: dict[int, float] = {}
    cumulative = 0.0
    for index, share in enumerate(weights):
        cumulative += share
        while point < cumulative:
            drawn[index] = drawn.get(index, 0.0) + 1.0
            point += step
    order = list(drawn.items())
    rng.shuffle(order)
    return order
