"""Picture speed and size: draw + PNG encode for a typical layout (8 tiles on the table)
and a full one (the longest of 200 seeded rounds), per game.

    python benchmarks/render.py

A picture's time includes building its words (``cogs.wording.table_text``), as the bot
does for every table it posts. Wall-clock p50/p95 is what a player waits for; the CPU p50
beside it is the thread's own time, so on a machine shared with other work a slow wall
figure can be told apart from a slow picture.
"""

from __future__ import annotations

import random
import statistics
import time

from bot.engine import GAMES, LineLayout, Match, PublicView
from cogs.wording import table_text
from rendering import render_table

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def on_table(view: PublicView) -> int:
    layout = view.layout
    if layout is None:
        return 0
    if isinstance(layout, LineLayout):
        return len(layout.tiles)
    return 1 + sum(len(arm.tiles) for arm in layout.arms)


def scenes(game: str) -> tuple[PublicView, PublicView]:
    """(a view with 8 tiles on the table, the fullest final view of 200 rounds)."""
    players = max(GAMES[game].player_counts)
    typical, full = None, None
    for seed in range(200):
        match = Match(game, players, seed=seed)
        picker = random.Random(seed)
        while not match.rounds:
            view = match.view()
            if typical is None and on_table(view) == 8:
                typical = view
            match.play(picker.choice(match.legal_moves()))
        assert match.previous is not None
        final = match.previous.view()  # the round on its own: round 1 of game 1
        if full is None or on_table(final) > on_table(full):
            full = final
    assert typical is not None and full is not None
    return typical, full


def measure(view: PublicView, runs: int = 60) -> tuple[float, float, float, int]:
    """(wall p50, wall p95, CPU p50) in ms, and the PNG's size in bytes."""
    names = NAMES[: view.players]
    render_table(view, table_text(view, names))  # warm the caches once, as a running bot has
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        png = render_table(view, table_text(view, names)).png
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
    wall.sort()
    return statistics.median(wall), wall[int(len(wall) * 0.95)], statistics.median(cpu), len(png)


def main() -> None:
    print(
        f"{'game':<16}{'layout':<9}{'tiles':>6}{'p50 ms':>9}{'p95 ms':>9}{'CPU p50':>9}"
        f"{'PNG KB':>9}"
    )
    for game in sorted(GAMES):
        for name, view in zip(("typical", "full"), scenes(game), strict=True):
            p50, p95, cpu, size = measure(view)
            print(
                f"{game:<16}{name:<9}{on_table(view):>6}{p50:>9.2f}{p95:>9.2f}{cpu:>9.2f}"
                f"{size / 1024:>9.1f}"
            )


if __name__ == "__main__":
    main()
