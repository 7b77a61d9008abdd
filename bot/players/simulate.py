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
    sizes, the boneyard count and the numbers each seat is known to lack. Falls back to
    ignoring those constraints if the random fill keeps failing (they are sound, so a
    consistent deal exists, but finding one by chance can take long)."""
    seat = view["seat"]
    sizes = view["hand_sizes"]
    others = sorted(
        (s for s in range(view["players"]) if s != seat),
        key=lambda s: -knowledge.lacking[s].bit_count(),
    )
    for attempt in range(tries + 1):
        constrained = attempt < tries
        free = list(indices(knowledge.unseen))
        rng.shuffle(free)
        hands: dict[int, list[int]] = {}
        for other in others:
            banned = knowledge.lacking[other] if constrained else 0
            allowed = [i for i in free if not banned >> i & 1]
            if len(allowed) < sizes[other]:
                break
            taken = allowed[: sizes[other]]
            hands[other] = taken
            chosen = set(taken)
            free = [i for i in free if i not in chosen]
        else:
            full = [
                [str(TILES[i]) for i in hands[s]] if s != seat else view["hand"]
                for s in range(view["players"])
            ]
            return full, [str(TILES[i]) for i in free]
    raise AssertionError("unreachable: the unconstrained fill always succeeds")


def rebuild(view: dict[str, Any], hands: list[list[str]], boneyard: list[str]) -> Round:
    return find_variant(view["game"]).from_dict({**view, "hands": hands, "boneyard": boneyard})
