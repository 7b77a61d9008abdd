"""Storage speed: a durable per-action write (WAL, synchronous=FULL: synced at every
commit), leaderboard queries over 100,000 finished games and 10,000 players, and loading
1,000 active tables. Targets: write p50 <= 2 ms, leaderboard p50 <= 20 ms, loading <= 1 s.
Everything is written under a temporary folder and removed afterwards.

    python benchmarks/store.py
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bot.engine import Cross, Options
from bot.table import Table
from data.models import GLOBAL, Participant, TableRow
from data.ratings import ordinal, rate
from data.sqlite import SqliteStore

GAMES, PLAYERS, GUILDS = 100_000, 10_000, 50


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def summary(times: list[float]) -> str:
    return f"p50 {statistics.median(times):.2f} ms, p99 {percentile(times, 0.99):.2f} ms"


def state_of_realistic_size() -> tuple[dict[str, Any], dict[str, Any]]:
    """A mid-game table's state and game record exactly as the service stores them: four
    seats, a match a few rounds in."""
    table = Table("bench", 1, 2, 3, "cross", Options.for_game(Cross, 4), seed=1)
    for user in range(4):
        table.join(user, f"Player {user}")
    table.start(table.host_id)
    assert table.match is not None
    picker = random.Random(1)
    while len(table.match.rounds) < 3:
        user = table.seats[table.seat_to_move()].user_id
        assert user is not None
        table.play(user, picker.choice(table.match.legal_moves()))
    return table.to_dict(), table.match.record()


async def bench_writes(
    store: SqliteStore, state: dict[str, Any], record: dict[str, Any]
) -> list[float]:
    row = TableRow("bench", 1, 2, 3, "cross", "playing", 1, state, record, None, None, 0, 0)
    await store.create_table(row)
    times = []
    for version in range(2, 2002):
        row.version = version
        start = time.perf_counter()
        await store.save_action(row, version - 1, {"kind": "play", "move": "6-5 N"})
        times.append((time.perf_counter() - start) * 1000)
    return times


async def fill_finished_games(store: SqliteStore) -> None:
    """What record_finished_game would leave after GAMES games between PLAYERS players,
    written in bulk: through the store, one transaction per game, it would take minutes.
    The totals and ratings are computed as the store does (the tests check the store
    against the same brute force)."""
    rng = random.Random(7)
    stats: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0] * 6)
    ratings: dict[int, tuple[float, float]] = {}
    games, seats = [], []
    for index in range(GAMES):
        users = rng.sample(range(1, PLAYERS + 1), rng.randint(2, 4))
        winner = rng.randrange(len(users))
        guild = rng.randint(1, GUILDS)
        people = [
            Participant(seat=s, team=s, final_score=100 if s == winner else rng.randint(0, 99),
                        won=s == winner, user_id=u, rounds_won=rng.randint(0, 4),
                        points=rng.randint(0, 120))
            for s, u in enumerate(users)
        ]  # fmt: skip
        ratings.update(rate(people, ratings))
        games.append((f"g{index}", f"t{index}", guild, "cross", float(index), "{}"))
        for p in people:
            seats.append((f"g{index}", p.seat, p.team, p.user_id, None, p.final_score, int(p.won),
                          p.rounds_won, p.points, 0, 0))  # fmt: skip
            for scope in (guild, GLOBAL):
                row = stats[p.user_id, scope]  # type: ignore[index]
                for i, value in enumerate((1, int(p.won), p.rounds_won, p.points, 0, 0)):
                    row[i] += value
    db = store._db
    await db.execute("BEGIN")
    await db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)", games)
    await db.executemany("INSERT INTO game_seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", seats)
    await db.executemany(
        "INSERT INTO player_stats VALUES (?, 'cross', ?, ?, ?, ?, ?, ?, ?, ?)",
        [(user, scope, *values, ordinal(ratings[user])) for (user, scope), values in stats.items()],
    )
    await db.executemany(
        "INSERT INTO ratings VALUES (?, 'cross', ?, ?, ?)",
        [(user, mu, sigma, ordinal((mu, sigma))) for user, (mu, sigma) in ratings.items()],
    )
    await db.executemany(
        "INSERT INTO player_names VALUES (?, ?, ?)",
        [(user, f"Player {user}", float(GAMES)) for user in ratings],
    )
    await db.execute("COMMIT")
    await db.execute("ANALYZE")


async def bench_leaderboard(store: SqliteStore, guild: int | None, order: str) -> list[float]:
    """A page of the board and the caller's own rank (usually off the page)."""
    times = []
    for i in range(200):
        start = time.perf_counter()
        await store.leaderboard("cross", guild, order, page=i % 5, user_id=1 + i * 37)
        times.append((time.perf_counter() - start) * 1000)
    return times


async def bench_loading(path: Path, state: dict[str, Any], record: dict[str, Any]) -> float:
    """Start-up: open the file and read back every open table (as the service resumes)."""
    store = await SqliteStore.open(path)
    for i in range(1000):
        row = TableRow(f"t{i}", 1, i, 3, "cross", "playing", 1, state, record, None, None, i, i)
        await store.create_table(row)
    await store.close()
    start = time.perf_counter()
    store = await SqliteStore.open(path)
    rows = await store.load_active_tables()
    elapsed = time.perf_counter() - start
    assert len(rows) == 1000
    await store.close()
    return elapsed


async def main() -> None:
    state, record = state_of_realistic_size()
    size = (len(json.dumps(state)) + len(json.dumps(record))) / 1024
    print(f"table state + record: {size:.1f} KB of JSON")
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "bench.db")
        writes = await bench_writes(store, state, record)
        print(f"save_action, durable (WAL, synchronous=FULL): {summary(writes)}"
              f" over {len(writes)} writes")  # fmt: skip
        unsynced = await SqliteStore.open(Path(folder) / "unsynced.db")
        await unsynced._db.execute("PRAGMA synchronous=NORMAL")
        print(f"  for comparison, the same without a sync per commit (synchronous=NORMAL): "
              f"{summary(await bench_writes(unsynced, state, record))}")  # fmt: skip
        await unsynced.close()
        start = time.perf_counter()
        await fill_finished_games(store)
        took = time.perf_counter() - start
        print(f"filled {GAMES:,} finished games, {PLAYERS:,} players in {took:.0f} s")
        for order in ("rating", "wins", "points"):
            for guild, name in ((None, "global"), (1, "one server")):
                times = await bench_leaderboard(store, guild, order)
                print(f"leaderboard by {order}, {name}, page + own rank: {summary(times)}")
        await store.close()
        loading = await bench_loading(Path(folder) / "tables.db", state, record)
        print(f"opening the store and loading 1,000 active tables: {loading * 1000:.0f} ms")


if __name__ == "__main__":
    asyncio.run(main())
