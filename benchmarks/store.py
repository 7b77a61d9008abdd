"""Storage speed, for either database: a durable per-action write, writes from many tables
at once (SQLite's group commit shares one sync among them; PostgreSQL's server shares its
log flushes), leaderboard queries over 100,000 finished games and 10,000 players, and
opening the store and loading 1,000 active tables. Targets: write p50 <= 2 ms,
leaderboard p50 <= 20 ms, loading <= 1 s.

    python benchmarks/store.py                                   # SQLite, in a temporary folder
    python benchmarks/store.py --database postgresql://postgres@127.0.0.1:5432/test
    python benchmarks/store.py --tables 1 10 100 500             # the concurrent write runs
    python benchmarks/store.py --only writes                     # writes, leaderboard, loading

Nothing is left behind: SQLite files go in a temporary folder (with ``sqlite:///path``,
beside that path, removed afterwards); on PostgreSQL each part runs in a schema of its
own in that database, dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

from bot.commands import Join, Play, Start
from bot.engine import Cross, Options
from bot.table import Table
from data import open_store, parse_url, sqlite_url
from data.backend import Session
from data.models import GLOBAL, Participant, TableRow
from data.ratings import ordinal, rate
from data.repository import Repository

GAMES, PLAYERS, GUILDS = 100_000, 10_000, 50
ACTIONS_PER_RUN = 3000
"""Writes in each concurrent run, shared among its tables."""


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def summary(times: list[float]) -> str:
    return f"p50 {statistics.median(times):.2f} ms, p99 {percentile(times, 0.99):.2f} ms"


def state_of_realistic_size() -> dict[str, Any]:
    """A mid-game table's state (its game record inside) exactly as the service stores it:
    four seats, a match a few rounds in."""
    table = Table("bench", 1, 2, 3, "cross", Options.for_game(Cross, 4), seed=1)
    for member in range(3, 7):
        table.apply(Join(member, f"Player {member}"))
    table.apply(Start(table.host_id))
    assert table.match is not None
    picker = random.Random(1)
    while len(table.match.rounds) < 3:
        user = table.seats[table.seat_to_move()].user_id
        assert user is not None
        table.apply(Play(user, picker.choice(table.legal_for(user))))
    return table.to_dict()


class Place:
    """Where the benchmark makes its databases: each :meth:`fresh` one is new and empty,
    and gone afterwards."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self.kind = "sqlite" if url is None else parse_url(url).kind

    @asynccontextmanager
    async def fresh(self) -> AsyncIterator[str]:
        if self.kind == "postgresql":
            assert self.url is not None
            async with _schema(self.url) as url:
                yield url
            return
        folder = None if self.url is None else parse_url(self.url).path
        with tempfile.TemporaryDirectory(dir=folder and folder.parent) as temporary:
            yield sqlite_url(Path(temporary) / "bench.db")


@asynccontextmanager
async def _schema(url: str) -> AsyncIterator[str]:
    import asyncpg  # only for PostgreSQL

    schema = f"domino_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield url + ("&" if "?" in url else "?") + f"search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


def table_row(table_id: str, channel: int, state: dict[str, Any]) -> TableRow:
    return TableRow(table_id, 1, channel, 3, "cross", "playing", 1, state)


async def bench_writes(store: Repository, state: dict[str, Any]) -> list[float]:
    """One table, one action after another: each waits for its own durable commit."""
    row = table_row("bench", 1, state)
    await store.create_table(row)
    times = []
    for version in range(2, 2002):
        row.version = version
        start = time.perf_counter()
        await store.save_action(row, version - 1, {"kind": "play", "move": "6-5 N"})
        times.append((time.perf_counter() - start) * 1000)
    return times


async def bench_concurrent(
    store: Repository, tables: int, state: dict[str, Any]
) -> tuple[float, list[float], int]:
    """``tables`` tables each storing actions one after another, all at once: actions a
    second, each action's wait, and the commits made (SQLite; 0 where not counted)."""
    rows = [table_row(f"c{tables}-{n}", tables * 10_000 + n, state) for n in range(tables)]
    for row in rows:
        await store.create_table(row)
    each = max(1, ACTIONS_PER_RUN // tables)
    times: list[float] = []

    async def play(row: TableRow) -> None:
        for version in range(2, 2 + each):
            row.version = version
            start = time.perf_counter()
            await store.save_action(row, version - 1, {"kind": "play", "move": "6-5 N"})
            times.append((time.perf_counter() - start) * 1000)

    commits = getattr(store.backend, "commits", 0)
    start = time.perf_counter()
    await asyncio.gather(*(play(row) for row in rows))
    elapsed = time.perf_counter() - start
    return len(times) / elapsed, times, getattr(store.backend, "commits", 0) - commits


async def fill_finished_games(store: Repository) -> None:
    """What record_finished_game would leave after GAMES games between PLAYERS players,
    written in bulk in one transaction: through the store, one transaction per game, it
    would take minutes. The totals and ratings are computed as the store does (the tests
    check the store against the same brute force)."""
    rng = random.Random(7)
    stats: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0] * 6)
    ratings: dict[int, tuple[float, float]] = {}
    games, seats = [], []
    names: dict[tuple[int, int], float] = {}
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
            assert p.user_id is not None
            seats.append((f"g{index}", p.seat, p.team, p.user_id, None, p.final_score, int(p.won),
                          p.rounds_won, p.points, 0, 0, f"Player {p.user_id}"))  # fmt: skip
            names[p.user_id, guild] = float(index)
            for scope in (guild, GLOBAL):
                row = stats[p.user_id, scope]
                for i, value in enumerate((1, int(p.won), p.rounds_won, p.points, 0, 0)):
                    row[i] += value

    async def fill(tx: Session) -> None:
        await tx.executemany(
            "INSERT INTO games (id, table_id, guild_id, game, finished_at, record)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            games,
        )
        await tx.executemany(
            "INSERT INTO game_seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", seats
        )
        await tx.executemany(
            "INSERT INTO player_stats VALUES (?, 'cross', ?, ?, ?, ?, ?, ?, ?, ?)",
            [(user, scope, *values, ordinal(ratings[user]))
             for (user, scope), values in stats.items()],
        )  # fmt: skip
        await tx.executemany(
            "INSERT INTO ratings VALUES (?, 'cross', ?, ?, ?)",
            [(user, mu, sigma, ordinal((mu, sigma))) for user, (mu, sigma) in ratings.items()],
        )
        await tx.executemany(
            "INSERT INTO member_names VALUES (?, ?, ?, ?)",
            [(user, guild, f"Player {user}", at) for (user, guild), at in names.items()],
        )

    async def analyze(tx: Session) -> None:
        await tx.execute("ANALYZE")

    await store.backend.write(fill)
    await store.backend.write(analyze)


async def bench_leaderboard(store: Repository, guild: int | None, order: str) -> list[float]:
    """A page of the board and the caller's own rank (usually off the page)."""
    times = []
    for i in range(200):
        start = time.perf_counter()
        await store.leaderboard("cross", guild, order, page=i % 5, user_id=1 + i * 37)
        times.append((time.perf_counter() - start) * 1000)
    return times


async def bench_loading(url: str, state: dict[str, Any]) -> float:
    """Start-up: open the store and read back every open table (as the service resumes)."""
    async with await open_store(url) as store:
        await asyncio.gather(
            *(store.create_table(table_row(f"t{i}", i, state)) for i in range(1000))
        )
    start = time.perf_counter()
    async with await open_store(url) as store:
        rows = await store.load_active_tables()
        elapsed = time.perf_counter() - start
    assert len(rows) == 1000
    return elapsed


async def main(url: str | None, concurrency: list[int], parts: list[str]) -> None:
    place = Place(url)
    state = state_of_realistic_size()
    size = len(json.dumps(state)) / 1024
    print(f"{place.kind}; table state (its game record inside): {size:.1f} KB of JSON")
    if "writes" in parts:
        async with place.fresh() as fresh, await open_store(fresh) as store:
            writes = await bench_writes(store, state)
            print(f"save_action, durable, one table: {summary(writes)} over {len(writes)} writes")
            for tables in concurrency:
                rate_, times, commits = await bench_concurrent(store, tables, state)
                shared = f", {len(times) / commits:.1f} actions a commit" if commits else ""
                print(f"  {tables:>4} tables at once: {rate_:,.0f} actions/s,"
                      f" each {summary(times)}{shared}")  # fmt: skip
    if "leaderboard" in parts:
        async with place.fresh() as fresh, await open_store(fresh) as store:
            start = time.perf_counter()
            await fill_finished_games(store)
            took = time.perf_counter() - start
            print(f"filled {GAMES:,} finished games, {PLAYERS:,} players in {took:.0f} s")
            for order in ("rating", "wins", "points"):
                for guild, name in ((None, "global"), (1, "one server")):
                    times = await bench_leaderboard(store, guild, order)
                    print(f"leaderboard by {order}, {name}, page + own rank: {summary(times)}")
    if "loading" in parts:
        async with place.fresh() as fresh:
            loading = await bench_loading(fresh, state)
            print(f"opening the store and loading 1,000 active tables: {loading * 1000:.0f} ms")


PARTS = ["writes", "leaderboard", "loading"]

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a DATABASE_URL (default: SQLite, temporary)")
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 10, 100, 500],
                        help="tables writing at once, one run each")  # fmt: skip
    parser.add_argument("--only", nargs="+", choices=PARTS, default=PARTS, help="parts to run")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.database, arguments.tables, arguments.only))
