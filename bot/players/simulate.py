"""Rebuilding a round from a seat's view with the hidden tiles filled in by a guess —
the only way a computer player gets a full round to try moves on."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import TILES, Round, find_variant
from bot.engine.tiles import indices
from bot.players.knowledge import Knowledge


def sample_deal(
    view: dict[str, Any], knowledge: Knowledge, rng: random.Random, tries: int = 20
) -> tuple[list[list[str]], list[str]]:
    """Hands and boneyard for the unseen tiles, consistent with what the seat saw: hand
    sizes, the boneyard count and each lot's ban (see :mod:`bot.players.knowledge`).
    The most constrained lots are filled first. Falls back to ignoring the bans if the
    random fill keeps failing (they are sound, so a consistent deal exists, but finding
    one by chance can take long)."""
    seat = view["seat"]
    lots = sorted(
        ((other, lot.count, lot.banned) for other, held in enumerate(knowledge.lots)
         if other != seat for lot in held),
        key=lambda item: -item[2].bit_count(),
    )  # fmt: skip
    for attempt in range(tries + 1):
        constrained = attempt < tries
        free = list(indices(knowledge.unseen))
        rng.shuffle(free)
        hands: list[list[int]] = [[] for _ in range(view["players"])]
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
                [str(TILES[i]) for i in hands[s]] if s != seat else view["hand"]
                for s in range(view["players"])
            ]
            return full, [str(TILES[i]) for i in free]
    raise AssertionError("unreachable: the unconstrained fill always succeeds")


def rebuild(view: dict[str, Any], hands: list[list[str]], boneyard: list[str]) -> Round:
    return find_variant(view["game"]).from_dict({**view, "hands": hands, "boneyard": boneyard})
