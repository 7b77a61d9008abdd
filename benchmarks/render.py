"""Picture speed and size: draw + PNG encode for a typical layout (8 tiles on the table)
and a full one (the longest of 200 seeded rounds), per game, and the same drawn by the
bot's picture worker (its CPU, page faults and memory); then a whole game's replay
(``/domino replay``: every frame drawn and written as GIF) for a few seeded games; then
what a drawing process holds after the pictures of many tables at once (the bot's
picture worker: every table's header names its own players and scores).

    python benchmarks/render.py

A picture's time includes building its words (``words.pictures.table_text``), as the bot
does for every table it posts. Wall-clock p50/p95 is what a player waits for; the CPU p50
beside it is the thread's own time, so on a machine shared with other work a slow wall
figure can be told apart from a slow picture.
"""

from __future__ import annotations

import asyncio
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

from benchmarks.processes import cpu_and_faults, memory_mb
from bot.engine import GAMES, LineLayout, Match, PublicView
from bot.engine.__main__ import play_random
from rendering import render_replay, render_table
from rendering.hand import render_hand
from rendering.painter import Painter, table_png
from rendering.palette import _inked_line, _inked_word
from rendering.table import TableScene
from words.pictures import hand_text, table_text
from words.replays import replay_text

REPLAY_SEEDS = range(5)

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


def pictures() -> None:
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


def measure_replays(game: str) -> tuple[float, float, int, int, float, float]:
    """Over seeded whole games at the game's largest table, between random players: p50
    of the replay's wall and CPU time (s), moves and frames, total and largest file (KB)."""
    players = max(GAMES[game].player_counts)
    names = NAMES[:players]
    wall, cpu, moves, frames, total, largest = [], [], [], [], [], []
    for seed in REPLAY_SEEDS:
        record = play_random(game, players, seed).record()
        start, start_cpu = time.perf_counter(), time.thread_time()
        replay = render_replay(record, replay_text(names))
        wall.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
        moves.append(replay.actions)
        frames.append(sum(part.frames for part in replay.parts))
        total.append(sum(len(part.gif) for part in replay.parts) / 1024)
        largest.append(max(len(part.gif) for part in replay.parts) / 1024)
    p50 = statistics.median
    return p50(wall), p50(cpu), int(p50(moves)), int(p50(frames)), p50(total), p50(largest)


def many_tables(tables: int = 500, moves: int = 6000) -> None:
    """Pictures of ``tables`` seeded games open at once, each with its own four names, a
    table and the mover's hand after every move, the tables taking turns at random as
    in a busy bot: memory grown, and words of text found already inked."""
    picker = random.Random(1)
    rss_before = memory_mb()
    games = sorted(GAMES)
    open_tables = [
        (Match(games[seed % len(games)], 4, seed=seed),
         [f"Player{picker.randrange(10**6)}" for _ in range(4)])
        for seed in range(tables)
    ]  # fmt: skip
    cpu, drawn = time.process_time(), 0
    for _ in range(moves):
        match, names = picker.choice(open_tables)
        if match.outcome() is not None:
            continue
        match.play(picker.choice(match.legal_moves()))
        view, seat = match.view(), match.seat_view(match.round.turn)
        render_table(view, table_text(view, names))
        render_hand(seat, hand_text(seat, names))
        drawn += 1
    cpu = time.process_time() - cpu
    words, lines = _inked_word.cache_info(), _inked_line.cache_info()
    print(
        f"many tables: {tables} tables at once, {drawn} tables and {drawn} hands drawn, "
        f"{cpu * 1000 / drawn:.2f} ms CPU a move (the move, both pictures, their words); "
        f"words found inked {words.hits / (words.hits + words.misses):.0%}, centred "
        f"lines {lines.hits / (lines.hits + lines.misses):.0%}; RSS grew "
        f"{memory_mb() - rss_before:.0f} MB"
    )


def in_the_worker(rounds: int = 100) -> None:
    """The eight layouts of :func:`pictures` drawn ``rounds`` times by the bot's picture
    worker (``rendering.painter``), ten asked for at a time: its CPU and page faults a
    picture, the pickles both ways included (the faults are what ``painter.HEAP_PAD``
    saves)."""
    views = [view for game in sorted(GAMES) for view in scenes(game)]
    calls = [(TableScene.of(view), table_text(view, NAMES[: view.players])) for view in views]

    async def draw() -> tuple[float, float, int, float]:
        painter = Painter(1)
        try:
            for call in calls:  # the worker is up, its fonts loaded and its words inked
                await painter.draw(table_png, *call)
            worker = painter.pids[0]
            cpu, faults = cpu_and_faults(worker)
            count = 0
            for _ in range(rounds):
                for first in range(0, len(calls), 10):
                    batch = calls[first : first + 10]
                    await asyncio.gather(*(painter.draw(table_png, *call) for call in batch))
                    count += len(batch)
            cpu_after, faults_after = cpu_and_faults(worker)
            rss = memory_mb("VmRSS", worker)
            return (cpu_after - cpu) * 1000 / count, (faults_after - faults) / count, count, rss
        finally:
            await painter.close()

    cpu, faults, count, rss = asyncio.run(draw())
    print(
        f"in the worker: {count} table pictures, {cpu:.2f} ms of its CPU and "
        f"{faults:.1f} page faults a picture; its RSS {rss:.0f} MB"
    )


def main() -> None:
    many_tables()
    print()
    pictures()
    in_the_worker()
    print()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"replays: p50 over {len(REPLAY_SEEDS)} seeded games, largest table")
    print(
        f"{'game':<16}{'moves':>7}{'frames':>8}{'s':>7}{'CPU s':>7}{'ms/frame':>9}"
        f"{'KB':>8}{'max file':>9}"
    )
    for game in sorted(GAMES):
        wall, cpu, moves, frames, total, largest = measure_replays(game)
        print(
            f"{game:<16}{moves:>7}{frames:>8}{wall:>7.2f}{cpu:>7.2f}"
            f"{wall * 1000 / frames:>9.1f}{total:>8.0f}{largest:>9.0f}"
        )
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {after:.0f} MB (before the replays {before:.0f} MB)")


if __name__ == "__main__":
    main()
