"""Seeded self-played positions of every game, for the picture tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.engine import GAMES, LineLayout, Match, PublicView, Tile

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def positions(game: str, rounds: int, every: int = 1) -> Iterator[PublicView]:
    """Public views along seeded random rounds of ``game``, ending with the final one."""
    variant = GAMES[game]
    for seed in range(rounds):
        players = variant.player_counts[seed % len(variant.player_counts)]
        match = Match(game, players, seed=seed)
        picker = random.Random(seed)
        step = 0
        while not match.rounds:
            if step % every == 0:
                yield match.view()
            match.play(picker.choice(match.legal_moves()))
            step += 1
        final = match.previous
        assert final is not None
        yield final.view()  # the round on its own: round 1 of game 1


def table_tiles(view: PublicView) -> list[Tile]:
    layout = view.layout
    if layout is None:
        return []
    if isinstance(layout, LineLayout):
        return [placed.tile for placed in layout.tiles]
    return [layout.spinner, *(placed.tile for arm in layout.arms for placed in arm.tiles)]
