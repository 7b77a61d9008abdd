"""Seeded self-played positions of every game, for the picture tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from bot.engine import GAMES, Match

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def positions(game: str, rounds: int, every: int = 1) -> Iterator[dict[str, Any]]:
    """Public views along seeded random rounds of ``game``, ending with the final one."""
    variant = GAMES[game]
    for seed in range(rounds):
        players = variant.player_counts[seed % len(variant.player_counts)]
        match = Match(game, players, seed=seed)
        picker = random.Random(seed)
        step = 0
        while not match.rounds:
            if step % every == 0:
                yield match.public_view()
            match.play(picker.choice(match.legal_moves()))
            step += 1
        final = match.previous
        assert final is not None
        view = final.public_view()
        view.update(
            round_number=1,
            game_number=1,
            target=match.options.target,
            games_won=[0] * len(view["scores"]),
            match_over=None,
        )
        yield view


def table_tiles(view: dict[str, Any]) -> list[str]:
    layout = view["layout"]
    if layout is None:
        return []
    if layout["kind"] == "line":
        return [t["tile"] for t in layout["tiles"]]
    return [layout["spinner"], *(t["tile"] for arm in layout["arms"].values() for t in arm)]
