"""Filling in what a seat cannot see with a guess. The round a guess gives
(:meth:`bot.engine.Round.from_seat_view`) is the only way a computer player gets a full
round to try moves on."""

from __future__ import annotations

import random

from bot.engine import TILES, SeatView, Tile
from bot.engine.tiles import indices
from bot.players.knowledge import Knowledge


def sample_deal(
    view: SeatView, knowledge: Knowledge, rng: random.Random, tries: int = 20
) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands and boneyard for the unseen tiles, consistent with what the seat saw: hand
    sizes, the boneyard count and each lot's ban (see :mod:`bot.players.knowledge`).
    The most constrained lots are filled first. Falls back to ignoring the bans if the
    random fill keeps failing (they are sound, so a consistent deal exists, but finding
    one by chance can take long)."""
    seat = view.seat
    players = view.public.players
    lots = sorted(
        ((other, lot.count, lot.banned) for other, held in enumerate(knowledge.lots)
         if other != seat for lot in held),
        key=lambda item: -item[2].bit_count(),
    )  # fmt: skip
    for attempt in range(tries + 1):
        constrained = attempt < tries
        free = list(indices(knowledge.unseen))
        rng.shuffle(free)
        hands: list[list[int]] = [[] for _ in range(players)]
        for other, count, banned in lots:
            if not constrained:
                banned = 0
            allowed = [i for i in free if not banned >> i & 1]
            if len(allowed) < count:
                break
            taken = set(allowed[:count])
            hands[other] += allowed[:count]
            free = [i for i in free if i not in taken]
        else:
            full = [
                [TILES[i] for i in hands[s]] if s != seat else list(view.hand)
                for s in range(players)
            ]
            return full, [TILES[i] for i in free]
    raise AssertionError("unreachable: the unconstrained fill always succeeds")
