"""Normal: a sound heuristic. Shed weight, play doubles early, keep numbers you can follow,
score fives in Merry-Go-Round (and never bust past 61 when a safe play exists), start
Maltese arms you can cap, and in Milo leave numbers your opponents lack, not your
partner."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine import Move, Round, SeatView, SpinnerLayout, Tile
from bot.engine.tiles import SUIT
from bot.players.base import rng_for
from bot.players.knowledge import Knowledge, infer
from bot.players.simulate import sample_deal


@dataclass(frozen=True, slots=True)
class Weights:
    weight: float = 1.0
    double: float = 4.0
    follow: float = 1.5
    points: float = 12.0
    bust: float = 40.0
    target: float = 1000.0
    domino: float = 1000.0
    can_cap: float = 6.0
    opponent_lacks: float = 4.0
    partner_lacks: float = 3.0


def score_move(
    view: SeatView, round_: Round, move: Move, knowledge: Knowledge, w: Weights = Weights()
) -> float:
    """How much the heuristic likes ``move`` (played on a copy of ``round_``)."""
    tile = move.tile
    if tile is None:
        return 0.0
    seat = view.seat
    variant = view.public.variant
    side = variant.side_of(seat)
    after = round_.copy()
    before = after.scores[side]
    events = len(after.score_events)
    after.play(move)
    value: float = w.weight * tile.value + (w.double if tile.is_double else 0.0)
    if not after.hands[seat]:
        value += w.domino
    gained = after.scores[side] - before
    value += w.points * gained
    if any(e.bust and e.side == side for e in after.score_events[events:]):
        value -= w.bust
    if variant.exact_target and after.scores[side] == after.options.target:
        value += w.target
    ends = set(after.open_ends().values())
    follow_mask = 0
    for pip in ends:
        follow_mask |= SUIT[pip]
    value += w.follow * (after.hands[seat] & follow_mask).bit_count()
    layout = view.public.layout
    if variant.has_caps and isinstance(layout, SpinnerLayout) and layout.phase == "cross":
        far = tile.other(layout.spinner.high)  # the number this tile opens an arm with
        if after.hands[seat] & Tile(far, far).bit:
            value += w.can_cap
    if variant.teams:
        opponent = (seat + 1) % view.public.players  # the next to play: the other side
        (partner,) = variant.partners(seat)
        for pip in ends:
            if knowledge.lacking(opponent) & SUIT[pip] == SUIT[pip]:
                value += w.opponent_lacks
            if knowledge.lacking(partner) & SUIT[pip] == SUIT[pip]:
                value -= w.partner_lacks
    return value


def best_move(view: SeatView, rng: random.Random, knowledge: Knowledge | None = None) -> Move:
    moves = view.legal
    if len(moves) == 1:
        return moves[0]
    knowledge = knowledge or infer(view)
    hands, boneyard = sample_deal(view, knowledge, rng)
    round_ = Round.from_seat_view(view, hands, boneyard)
    scored = [(score_move(view, round_, move, knowledge), rng.random(), move) for move in moves]
    return max(scored, key=lambda item: item[:2])[2]


@dataclass(frozen=True, slots=True)
class NormalPlayer:
    seed: int = 0

    def choose(self, view: SeatView) -> Move:
        return best_move(view, rng_for(self.seed, view))
