"""The whole bot under load: N tables played at once by members clicking buttons through
the fake Discord, measuring what a member waits for.

    python benchmarks/e2e.py [--tables 100 200 500] [--duration 60] [--think 2]

For every click, from the moment the interaction is sent on the gateway:

- acknowledgement: until the bot's interaction callback reaches the fake;
- picture: (for a click that plays a move, or Start) until the new table message with
  ``table.png`` is created;
- hand: (for "My hand") until the private picture of the hand arrives;

with p50 and p99 over the clicks sent during a measuring window of ``--duration``
seconds, which opens once every table has started its game. Also: moves per second, the
bot's resident memory (peak, and growth from just after start-up) and its CPU use, each
its own process's and its picture workers' together, and how late its event loop ran a
20 ms timer (p99), which shows a saturated loop.

How: the bot runs in its own process (multiprocessing, 'spawn'), redirected to the fake
the way the tests redirect it, so its memory, CPU and event loop are its own; the fake
and the simulated members run in this process. The fake's OpenAPI validation is switched
off here (``--validate`` keeps it): the tests check every request, and that jsonschema
work is what Discord's servers spend, not the bot. The bot's process also imports the
test helpers it shares with this module (``start_bot``), which adds to its RSS.

This process's cycle collector is off during a run (its garbage is collected after
it). The fake keeps every message of the run, so with the collector on, its full
collections grew long enough to stop the fake and the members several times a minute,
and every click in flight counted that as the bot's delay
(Discord's servers do not stop for the bot's benchmark). This process's own event-loop
lag is printed beside the bot's, to show that the fake kept up.

The workload: tables in servers of up to 50 channels, cycling through the four games,
with 2, 3 or 4 members (Milo: 4). At each table the member named on the table message
waits a think time (uniform between half and one and a half of ``--think`` seconds)
before each click: "My hand", then a tile at random (and its end, when the tile fits in
several places), or Draw/Pass when that is all the hand offers. A finished game is
followed by a new one at the same table. Times come from ``time.perf_counter`` in this
process: the interaction's dispatch stamp and the moment the fake handled the request.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import os
import random
import re
import resource
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too


from benchmarks.bot_process import bot_against_fake, profiled, quiet_logging
from benchmarks.processes import cpu_and_faults, memory_mb
from benchmarks.store import percentile
from data import sqlite_url
from tests.fakediscord import spec
from tests.fakediscord.fixtures import make_server
from tests.fakediscord.server import FakeDiscord, Message
from tests.fakediscord.users import Member, Sent

GAMES = ("cross", "maltese-cross", "merry-go-round", "milo")
CHANNELS_PER_SERVER = 50
WAIT = 60.0
"""Seconds a member waits for an answer before the table counts as stalled."""
LAG_PERIOD = 0.02
TARGETS = {
    500: {"ack": 100.0, "picture": 250.0, "cpu_ms": 5.0, "global": 1.0},
    1000: {"ack": 150.0, "rss": 250.0},
    2000: {"global_429": 0.0},
}
"""The issue's figures by table count: p99 ms, ms of the bot's CPU per move, requests
counted against Discord's global limit per human move, MB, 429s from the global limit."""
YOUR_TURN = re.compile(r"<@(\d+)>, your turn")
TILE = re.compile(r"^\d-\d")


# -- the bot's process ---------------------------------------------------------------------


def bot_memory_mb(key: str, workers: list[int]) -> float:
    """The bot's memory: its own process's and its picture ``workers``' together."""
    return memory_mb(key) + sum(memory_mb(key, pid) for pid in workers)


def cpu_seconds() -> float:
    """User and system CPU of this process, every thread included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def workers_cpu(workers: list[int]) -> dict[int, float]:
    """CPU seconds of each of the bot's picture ``workers``, by pid, from
    ``/proc/<pid>/stat``: the bot's CPU is its own and its workers' together."""
    seconds = {}
    for pid in workers:
        try:
            seconds[pid] = cpu_and_faults(pid)[0]
        except FileNotFoundError:
            continue  # ended meanwhile
    return seconds


def bot_cpu_since(own: float, workers: dict[int, float], now: list[int]) -> float:
    """The bot's CPU seconds since ``own`` and ``workers`` were read, the workers
    running ``now`` included (one started meanwhile counts whole)."""
    spent = workers_cpu(now)
    return cpu_seconds() - own + sum(t - workers.get(pid, 0.0) for pid, t in spent.items())


async def receive(connection: Connection, timeout: float | None = None) -> Any:
    """The next object from the other process, without blocking this event loop (which
    must keep serving the fake, or the bot, meanwhile) or taking a worker thread."""
    loop = asyncio.get_running_loop()
    readable = asyncio.Event()
    loop.add_reader(connection.fileno(), readable.set)
    try:
        await asyncio.wait_for(readable.wait(), timeout)
    finally:
        loop.remove_reader(connection.fileno())
    return connection.recv()


class LoopLag:
    """How late the event loop runs a short timer: every interaction waits in that same
    queue, so a lag near the latencies means the bot's one thread is the bottleneck."""

    def __init__(self) -> None:
        self.samples: list[float] = []

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(LAG_PERIOD)
            self.samples.append((loop.time() - start - LAG_PERIOD) * 1000)


def serve_bot(api: str, gateway: str, database: str, connection: Connection, profile: bool) -> None:
    """The bot's process: start, say so, measure between "measure" and "stop", report;
    ``database`` is the store's URL."""
    quiet_logging()
    asyncio.run(_serve_bot(api, gateway, database, connection, profile))


async def _serve_bot(
    api: str, gateway: str, database: str, connection: Connection, profile: bool
) -> None:
    async with bot_against_fake(api, gateway, database) as bot:
        lag = LoopLag()
        lag_task = asyncio.create_task(lag.run())
        try:
            connection.send(bot_memory_mb("VmRSS", bot.painter.pids))
            assert await receive(connection) == "measure"
            lag.samples.clear()
            cpu, workers, start = cpu_seconds(), workers_cpu(bot.painter.pids), time.perf_counter()
            with profiled(profile, r"(bot|cogs|discord_face|words|rendering|data)/"):
                assert await receive(connection) == "stop"
            report = {
                "cpu": bot_cpu_since(cpu, workers, bot.painter.pids)
                / (time.perf_counter() - start),
                "lag_p99": percentile(lag.samples, 0.99),
                "rss": bot_memory_mb("VmRSS", bot.painter.pids),
                "peak": bot_memory_mb("VmHWM", bot.painter.pids),
            }
        finally:
            lag_task.cancel()
    connection.send(report)


# -- the fake and the members (this process) -----------------------------------------------


class TimedFake(FakeDiscord):  # Discord's rate limits on, at Discord's own pace
    """The fake, noting when each picture arrives and each channel's public messages in
    order, so members wait on cheap checks; it keeps no picture bytes (a move's two
    pictures would otherwise stay in this process for the whole run)."""

    def __init__(self) -> None:
        super().__init__()
        self.pictured_at: dict[int, float] = {}
        self.posts: dict[int, list[Message]] = defaultdict(list)

    def create_message(
        self, channel_id: int, data: dict[str, Any], files: dict[str, bytes], **kwargs: Any
    ) -> Message:
        message = super().create_message(channel_id, data, files, **kwargs)
        if message.visible_to is None:
            self.posts[channel_id].append(message)
        return message

    def apply_edit(self, message: Message, data: dict[str, Any], files: dict[str, bytes]) -> None:
        super().apply_edit(message, data, files)
        if message.files:
            self.pictured_at[message.id] = time.perf_counter()
            message.files.clear()


def skip_validation(method: str, path: str, body: Any) -> list[str]:
    """Stands in for ``spec.validate``: the tests validate; this measures the bot."""
    return []


def is_picture(message: Message) -> bool:
    return any(a["filename"] == "table.png" for a in message.attachments)


def labels(message: Message) -> set[str]:
    return {b.get("label", "") for b in message.buttons()}


def is_game_over(message: Message) -> bool:
    return bool(message.embeds) and message.embeds[0].get("title", "").startswith("Winner:")


@dataclass
class Samples:
    """(dispatched at, milliseconds) per kind; only the measuring window is reported."""

    ack: list[tuple[float, float]] = field(default_factory=list)
    picture: list[tuple[float, float]] = field(default_factory=list)
    hand: list[tuple[float, float]] = field(default_factory=list)

    def add(self, kind: str, sent: Sent, seconds: float) -> None:
        getattr(self, kind).append((sent.interaction.dispatched_at, seconds * 1000))

    def within(self, kind: str, start: float, end: float) -> list[float]:
        return [ms for at, ms in getattr(self, kind) if start <= at <= end]


@dataclass
class Party:
    """One table: its channel and members, played by one task."""

    fake: TimedFake
    channel: int
    game: str
    members: list[Member]
    rng: random.Random
    think: float
    samples: Samples
    stop_at: float = float("inf")
    started: asyncio.Event = field(default_factory=asyncio.Event)

    async def pause(self) -> bool:
        """A member thinks; False once the run is over (no new clicks after it)."""
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        return time.perf_counter() < self.stop_at

    async def acknowledged(self, sent: Sent) -> Sent:
        self.samples.add("ack", sent, await sent.acknowledged(WAIT))
        return sent

    async def next_post(self, seen: int) -> Message:
        """The first table picture or game-over message after the first ``seen`` posts."""
        posts = self.fake.posts[self.channel]
        return await self.fake.wait_for(
            lambda: next((m for m in posts[seen:] if is_picture(m) or is_game_over(m)), None),
            WAIT,
        )

    async def picture_after(self, sent: Sent, seen: int) -> Message:
        """What the move led to; its latency, if it is a picture."""
        await self.acknowledged(sent)
        post = await self.next_post(seen)
        if is_picture(post):
            self.samples.add(
                "picture", sent, self.fake.pictured_at[post.id] - sent.interaction.dispatched_at
            )
        return post

    async def open_game(self) -> Message | None:
        """/domino new, the others join, Start: the first table message (None: run over)."""
        host, *others = self.members
        if not await self.pause():
            return None
        seen = len(self.fake.posts[self.channel])
        opened = await host.slash("domino new", self.channel, game=self.game)
        await (await self.acknowledged(opened)).reply(WAIT)  # the host's private answer
        posts = self.fake.posts[self.channel]
        lobby = await self.fake.wait_for(  # the lobby, posted in the channel for everyone
            lambda: next((m for m in posts[seen:] if "Join" in labels(m)), None), WAIT
        )
        for member in others:
            if not await self.pause():
                return None
            await self.acknowledged(await member.click(lobby, "Join"))

            def joined(member: Member = member) -> bool:
                return member.name in lobby.text()

            await self.fake.wait_for(joined, WAIT)
        if not await self.pause():
            return None
        seen = len(self.fake.posts[self.channel])
        return await self.picture_after(await host.click(lobby, "Start"), seen)

    async def play_move(self, picture: Message) -> Message | None:
        """The member named on the table message plays: hand, tile (and end), or
        Draw/Pass. Returns the next table picture or game-over message (None: run over)."""
        found = YOUR_TURN.search(picture.content)
        assert found, f"no member named on the table message: {picture.content!r}"
        member = next(m for m in self.members if m.id == int(found[1]))
        if not await self.pause():
            return None
        shown = await self.acknowledged(await member.click(picture, "My hand"))
        hand = await shown.reply(WAIT)
        self.samples.add(
            "hand", shown, self.fake.pictured_at[hand.id] - shown.interaction.dispatched_at
        )
        tiles = [b["label"] for b in hand.buttons() if TILE.match(b["label"])]
        label = self.rng.choice(tiles) if tiles else hand.buttons()[0]["label"]
        if not await self.pause():
            return None
        seen = len(self.fake.posts[self.channel])
        sent = await member.click(hand, label)
        if label == "Draw":  # the hand becomes the answer: what the bot drew (R-CR-5, R-MG-5)
            await self.acknowledged(sent)
            await self.fake.wait_for(lambda: hand.content.startswith("You drew") or None, WAIT)
            tiles = [b["label"] for b in hand.buttons() if TILE.match(b["label"])]
            if not tiles:  # nothing fitted, and the bot passed (or nobody could play)
                return await self.picture_after(sent, seen)
            if not await self.pause():
                return None
            seen = len(self.fake.posts[self.channel])
            label = self.rng.choice(tiles)
            sent = await member.click(hand, label)
        if label.endswith("…"):
            ends = await (await self.acknowledged(sent)).reply(WAIT)
            if not await self.pause():
                return None
            seen = len(self.fake.posts[self.channel])
            sent = await member.click(ends, self.rng.choice(ends.buttons())["label"])
        return await self.picture_after(sent, seen)

    async def play(self) -> None:
        """Games one after another until the run is over."""
        try:
            post = await self.open_game()
        finally:  # started, or failed: either way the window need not wait for it
            self.started.set()
        while post is not None:
            # A game's last message carries its final picture too: tell it apart first.
            post = await (self.open_game() if is_game_over(post) else self.play_move(post))


def seat_parties(
    fake: TimedFake, tables: int, samples: Samples, args: argparse.Namespace
) -> list[Party]:
    """Servers of up to 50 channels, a table per channel, fresh members at each."""
    parties: list[Party] = []
    while len(parties) < tables:
        channels = min(CHANNELS_PER_SERVER, tables - len(parties))
        server = make_server(fake, f"Server {len(parties) // CHANNELS_PER_SERVER}", channels)
        for channel in server.channels:
            index = len(parties)
            game = GAMES[index % len(GAMES)]
            count = 4 if game == "milo" else 2 + index % 3
            members = [server.member(f"t{index}p{seat}") for seat in range(count)]
            rng = random.Random(args.seed + index)
            parties.append(Party(fake, channel, game, members, rng, args.think, samples))
    return parties


# -- one run, and the summary ----------------------------------------------------------------


@dataclass
class Result:
    tables: int
    players: int
    duration: float
    samples: Samples
    window: tuple[float, float]
    bot: dict[str, float]
    start_rss: float
    driver_cpu: float
    driver_lag: float
    """This process's event-loop lag p99 in the window, ms: the fake's and the members'."""
    late: int
    stalled: list[str]
    requests: dict[str, int]
    """Requests in the window: counted against the global limit, or through interactions."""
    refused_global: int
    """429s from Discord's global limit during the whole run."""
    refused_routes: int
    """429s from a route's own limit (per channel, per interaction …) during the run."""

    @property
    def moves(self) -> int:
        """Moves made by a member's click in the window (each ends in a picture)."""
        return len(self.samples.within("picture", *self.window))

    def per_move(self, kind: str) -> float:
        return self.requests[kind] / self.moves if self.moves else float("nan")

    @property
    def cpu_ms_per_move(self) -> float:
        """The bot process's CPU (every thread) per move made, in ms."""
        return self.bot["cpu"] * self.duration * 1000 / self.moves if self.moves else float("nan")

    def figures(self, kind: str) -> tuple[int, float, float]:
        """(count, p50, p99) in the window."""
        values = self.samples.within(kind, *self.window)
        if not values:
            return 0, float("nan"), float("nan")
        return len(values), percentile(values, 0.5), percentile(values, 0.99)


class Plays(Protocol):
    """A simulated table (this benchmark's, or the browser face's)."""

    async def play(self) -> None: ...


async def run_party(party: Plays) -> str | None:
    """Play the table; why it stalled, or None."""
    try:
        await party.play()
    except Exception as error:  # one table's failure is a figure, not the end of the run
        return f"{type(error).__name__}: {str(error)[:200]}"
    return None


async def run(tables: int, args: argparse.Namespace) -> Result:
    """A fresh fake and bot process, N tables, a measuring window, then both stopped;
    this process's cycle collector off meanwhile (see the module's docstring)."""
    gc.disable()
    try:
        return await _run(tables, args)
    finally:
        gc.enable()
        gc.collect()


async def _run(tables: int, args: argparse.Namespace) -> Result:
    fake = TimedFake()
    await fake.start()
    samples = Samples()
    parties = seat_parties(fake, tables, samples, args)
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or sqlite_url(Path(folder) / "domino.db")
        bot = context.Process(
            target=serve_bot,
            args=(fake.api_base, fake.gateway_url, database, theirs, args.profile),
            name="domino-bot",
        )
        bot.start()
        theirs.close()  # so that the bot's end closing (or its crash) ends our reads
        try:
            start_rss = await receive(ours, WAIT)
            tasks = [asyncio.create_task(run_party(p)) for p in parties]
            await asyncio.gather(*(p.started.wait() for p in parties))
            ours.send("measure")
            counted = dict(fake.limiter.requests) if fake.limiter else {}
            driver_cpu, start = cpu_seconds(), time.perf_counter()
            for party in parties:
                party.stop_at = start + args.duration
            lag = LoopLag()
            lag_task = asyncio.create_task(lag.run())
            await asyncio.sleep(args.duration)
            lag_task.cancel()
            end = time.perf_counter()
            driver_cpu = (cpu_seconds() - driver_cpu) / (end - start)
            now = dict(fake.limiter.requests) if fake.limiter else {}
            requests = {k: now.get(k, 0) - counted.get(k, 0) for k in ("global", "interaction")}
            stalled = [why for why in await asyncio.gather(*tasks) if why]
            ours.send("stop")
            report = await receive(ours, WAIT)
        finally:
            bot.join(WAIT)
            if bot.is_alive():
                bot.kill()
    await fake.stop()
    late = sum("acknowledged after" in v for v in fake.violations)
    refused_global = fake.limiter.refused.get("global", 0) if fake.limiter else 0
    refused_routes = fake.limiter.refused.get("user", 0) if fake.limiter else 0
    return Result(
        tables,
        sum(len(p.members) for p in parties),
        args.duration,
        samples,
        (start, end),
        report,
        start_rss,
        driver_cpu,
        percentile(lag.samples, 0.99),
        late,
        stalled,
        requests,
        refused_global,
        refused_routes,
    )


HEADER = (
    f"{'tables':>6}{'players':>8}{'moves/s':>8}"
    f"{'ack n':>7}{'p50':>8}{'p99':>8}"
    f"{'pic n':>7}{'p50':>8}{'p99':>8}"
    f"{'hand p50':>9}{'p99':>8}"
    f"{'RSS MB':>8}{'peak':>6}{'+start':>7}"
    f"{'bot CPU':>8}{'ms/move':>8}{'lag p99':>8}{'driver':>7}{'its lag':>8}"
    f"{'glob/mv':>8}{'int/mv':>7}{'429g':>6}{'429r':>6}"
)


def line(result: Result) -> str:
    ack_n, ack_50, ack_99 = result.figures("ack")
    pic_n, pic_50, pic_99 = result.figures("picture")
    _, hand_50, hand_99 = result.figures("hand")
    bot = result.bot
    return (
        f"{result.tables:>6}{result.players:>8}{pic_n / result.duration:>8.1f}"
        f"{ack_n:>7}{ack_50:>8.0f}{ack_99:>8.0f}"
        f"{pic_n:>7}{pic_50:>8.0f}{pic_99:>8.0f}"
        f"{hand_50:>9.0f}{hand_99:>8.0f}"
        f"{bot['rss']:>8.0f}{bot['peak']:>6.0f}{bot['rss'] - result.start_rss:>+7.0f}"
        f"{bot['cpu']:>8.2f}{result.cpu_ms_per_move:>8.2f}{bot['lag_p99']:>8.1f}"
        f"{result.driver_cpu:>7.2f}{result.driver_lag:>8.1f}"
        f"{result.per_move('global'):>8.2f}{result.per_move('interaction'):>7.2f}"
        f"{result.refused_global:>6}{result.refused_routes:>6}"
    )


def verdict(result: Result) -> str | None:
    """The issue's targets for this table count, against this run."""
    targets = TARGETS.get(result.tables)
    if targets is None:
        return None
    measured = {
        "ack": ("acknowledgement p99", result.figures("ack")[2], "ms"),
        "picture": ("picture posted p99", result.figures("picture")[2], "ms"),
        "cpu_ms": ("bot CPU per move", result.cpu_ms_per_move, "ms"),
        "global": ("global-limited requests per move", result.per_move("global"), ""),
        "rss": ("RSS (peak)", result.bot["peak"], "MB"),
        "global_429": ("429s from the global limit", float(result.refused_global), ""),
    }
    checks = [(*measured[key], limit) for key, limit in targets.items()]
    checks.append(("stalled tables", float(len(result.stalled)), "", 0.0))
    return f"targets at {result.tables} tables: " + "; ".join(
        f"{name} {value:.2f}{unit} ≤ {limit:g}: {'met' if value <= limit else 'MISSED'}"
        for name, value, unit, limit in checks
    )


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


async def main(args: argparse.Namespace) -> None:
    if not args.validate:
        spec.validate = skip_validation
    print(f"think {args.think} s per click, {args.duration:.0f} s measured per run; "
          f"{load_average()}", flush=True)  # fmt: skip
    results = []
    for tables in args.tables:
        result = await run(tables, args)
        results.append(result)
        if len(results) == 1:
            print(HEADER)
        print(line(result), flush=True)
        for why in sorted(set(result.stalled)):
            print(f"    stalled: {result.stalled.count(why)} × {why}")
        if result.late:
            print(f"    {result.late} interactions acknowledged after Discord's 3 s deadline")
    print(
        "ms from the interaction's dispatch; n: clicks dispatched in the window; RSS: the bot "
        "process at the end, its peak, and its growth since start-up; bot CPU and driver "
        "(fake + members) in cores, and the bot's CPU per move in ms; lag: the bot's event "
        "loop, ms late on a 20 ms timer (p99), and its lag: the driver's, the same way; "
        "glob/mv and int/mv: requests per member's move counted against Discord's global "
        "limit, and through interactions; 429g: 429s from the global limit, 429r: from a "
        "route's own limit (the fake enforces Discord's limits at their real pace)"
    )
    for result in results:
        said = verdict(result)
        if said:
            print(said)
    print(load_average())


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 200, 500])
    parser.add_argument("--duration", type=float, default=60, help="seconds measured per run")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a click")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database",
        help="the store's URL (default: a new SQLite file); a PostgreSQL database given here"
        " should be empty: each run's tables stay in it",
    )
    parser.add_argument("--validate", action="store_true", help="keep the fake's validation")
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the bot's event loop (slows it)"
    )
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse()))
