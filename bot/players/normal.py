"""Normal: a sound heuristic. Shed weight, play doubles early, keep numbers you can follow,
score fives in Merry-Go-Round (and never bust past 61 when a safe play exists), start
Maltese arms you can cap, and in Milo leave numbers your opponents lack, not your
partner.

A move's score is the sum of named parts (:class:`Terms`), so that a hint can say which
part decided a choice (:mod:`bot.players.advice`) from the very figures the player
weighed."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine import Move, Round, ScoreKind, SeatView, SpinnerLayout, Tile
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


PARTS = (
    "domino",
    "target",
    "points",
    "bust",
    "weight",
    "double",
    "follow",
    "can_cap",
    "opponent_lacks",
    "partner_lacks",
)
"""The parts of a move's score, named as its :class:`Weights`; the more decisive first,
which is the order a hint prefers when two parts decide a choice equally."""


@dataclass(frozen=True, slots=True)
class Terms:
    """How much the heuristic likes one move, part by part (each part weighted already;
    a cost is negative), with the figures behind the parts. :attr:`total` is the score."""

    weight: float = 0.0
    double: float = 0.0
    domino: float = 0.0
    points: float = 0.0
    bust: float = 0.0
    target: float = 0.0
    follow: float = 0.0
    can_cap: float = 0.0
    opponent_lacks: float = 0.0
    partner_lacks: float = 0.0
    pips: int = 0
    """The tile's value: the pips it sheds."""
    gained: int = 0
    """Points it adds to the side's score at once: the play's (R-MG-4), and the round's
    if it ends the round."""
    open_sum: int = 0
    """When the play itself scores: what the open ends add up to after it (R-MG-4)."""
    follows: int = 0
    """Tiles left in the hand that match an open end after it."""
    cap: int = 0
    """Maltese Cross: the number of the arm it opens, whose double the hand holds (R-MC-3)."""
    opponent_number: int = 0
    """Milo: the highest number it leaves open that the next opponent has shown it lacks."""
    partner_number: int = 0
    """Milo: the highest number it leaves open that the partner has shown it lacks."""

    def part(self, name: str) -> float:
        """The part called ``name`` (one of :data:`PARTS`)."""
        value: float = getattr(self, name)
        return value

    @property
    def total(self) -> float:
        # Every part is a whole or half number, so the sum is exact in any order.
        return sum(self.part(name) for name in PARTS)


def move_terms(
    view: SeatView, round_: Round, move: Move, knowledge: Knowledge, w: Weights = Weights()
) -> Terms:
    """How much the heuristic likes ``move`` (played on a copy of ``round_``), by part."""
    tile = move.tile
    if tile is None:
        return Terms()
    seat = view.seat
    variant = view.public.variant
    side = variant.side_of(seat)
    after = round_.copy()
    before = after.scores[side]
    events = len(after.score_events)
    after.play(move)
    new_events = after.score_events[events:]
    gained = after.scores[side] - before
    busts = any(e.bust and e.side == side for e in new_events)
    reaches = variant.exact_target and after.scores[side] == after.options.target
    ends = set(after.open_ends().values())
    follow_mask = 0
    for pip in ends:
        follow_mask |= SUIT[pip]
    follows = (after.hands[seat] & follow_mask).bit_count()
    cap: int | None = None
    layout = view.public.layout
    if variant.has_caps and isinstance(layout, SpinnerLayout) and layout.phase == "cross":
        far = tile.other(layout.spinner.high)  # the number this tile opens an arm with
        if after.hands[seat] & Tile(far, far).bit:
            cap = far
    opponent_lacks: list[int] = []
    partner_lacks: list[int] = []
    if variant.teams:
        opponent = (seat + 1) % view.public.players  # the next to play: the other side
        (partner,) = variant.partners(seat)
        for pip in ends:
            if knowledge.lacking(opponent) & SUIT[pip] == SUIT[pip]:
                opponent_lacks.append(pip)
            if knowledge.lacking(partner) & SUIT[pip] == SUIT[pip]:
                partner_lacks.append(pip)
    return Terms(
        weight=w.weight * tile.value,
        double=w.double if tile.is_double else 0.0,
        domino=w.domino if not after.hands[seat] else 0.0,
        points=w.points * gained,
        bust=-w.bust if busts else 0.0,
        target=w.target if reaches else 0.0,
        follow=w.follow * follows,
        can_cap=w.can_cap if cap is not None else 0.0,
        opponent_lacks=w.opponent_lacks * len(opponent_lacks),
        partner_lacks=-w.partner_lacks * len(partner_lacks),
        pips=tile.value,
        gained=gained,
        open_sum=next((e.open_sum or 0 for e in new_events if e.kind is ScoreKind.PLAY), 0),
        follows=follows,
        cap=cap or 0,
        opponent_number=max(opponent_lacks, default=0),
        partner_number=max(partner_lacks, default=0),
    )


@dataclass(frozen=True, slots=True)
class Judgement:
    """A decision and what it weighed: each legal move's :class:`Terms`, in the order of
    ``SeatView.legal`` (none when the move was forced)."""

    move: Move
    terms: tuple[Terms, ...]


def judge(view: SeatView, rng: random.Random) -> Judgement:
    """The move the heuristic likes best on a guessed deal (ties broken at random)."""
    moves = view.legal
    if len(moves) == 1:
        return Judgement(moves[0], ())
    knowledge = infer(view)
    hands, boneyard = sample_deal(view, knowledge, rng)
    round_ = Round.from_seat_view(view, hands, boneyard)
    terms = tuple(move_terms(view, round_, move, knowledge) for move in moves)
    scored = [(t.total, rng.random(), move) for t, move in zip(terms, moves, strict=True)]
    return Judgement(max(scored, key=lambda item: item[:2])[2], terms)


@dataclass(frozen=True, slots=True)
class NormalPlayer:
    seed: int = 0

    def judge(self, view: SeatView) -> Judgement:
        """The move this player makes here, with what it weighed."""
        return judge(view, rng_for(self.seed, view))

    def choose(self, view: SeatView) -> Move:
        return self.judge(view).move
