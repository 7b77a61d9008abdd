"""The browser face under load: N tables played by simulated pages over the bot's
WebSocket (no browsers), measuring how long a move takes to reach every page of its table.

    python benchmarks/web.py [--tables 500] [--duration 60] [--think 2]

The bot runs as ``python -m bot`` runs with no ``DISCORD_TOKEN`` (``bot.local.serve_local``:
the browser face alone), in its own process (multiprocessing, 'spawn'), on a free port and
a new SQLite file, so its CPU, memory and event loop are its own. The pages run in this
process as aiohttp WebSocket clients, as the page's own code talks (``docs/WEB.md``): a
guest takes a name (``POST /api/guest`` with the page's ``Origin``, for the cookie), then
opens ``/ws`` with the same ``Origin``.

The workload: tables cycling through the four games, with 2, 3 or 4 guests (Milo: 4),
each guest with one socket, and one spectator socket per table. The host opens the table,
the others follow its link (``watch``) and join, the host starts; then the guest whose
turn it is waits a think time (uniform between half and one and a half of ``--think``
seconds) and plays a random legal move from its own frame (a tile's move, or its
``draw_move``/``pass_move``). A finished game is followed by a new table, opened again by
the same host. ``--lobby`` makes each host's page follow the lobby's list first, as the
page at ``/`` does before its form opens a table; ``--languages`` gives the pages of a
table their languages in turn (``Accept-Language``).

Measured, over a window of ``--duration`` seconds that opens once every table has started
its first game:

- for every move sent in the window, the time from sending it until each socket of its
  table (the players' and the spectator's) has received a frame of a newer version: p50,
  p99 and the most until the last socket of the table has it, and p50 and p99 over every
  socket; how many moves took longer than the goal's 100 ms, and in how many distinct
  seconds they were sent (a few seconds: a stop that held every table at once);
- moves per second, and the bot's CPU per move (its process's CPU time over the window,
  divided by the moves accepted in it); the bot's event-loop lag (p99 and the most, ms
  late on a 20 ms timer) and this process's, which shows whether the pages kept up; the
  bot's longest cycle collection (a full one stops every table at once); and the cores
  the machine's other processes kept busy in the window (on a shared machine, a p99
  measured beside them says as much about them as about the bot);
- memory per open socket: the bot's RSS once every page's socket is open and greeted,
  minus its RSS before any was opened, divided by their number (before any table opens);
- refusals: a refusal means a page raced, and is printed; the sockets the bot closed
  (it closes a page that falls too far behind), and the lobby lists it sent.

``--folder`` chooses where the SQLite file is made (tmpfs, say, to take the disk out);
``--profile`` prints cProfile's view of the bot's event loop over the window.

This process's cycle collector is off during a run (as in ``benchmarks/e2e.py``). The
bot's process imports this module, and ``benchmarks/e2e.py`` with it, which adds to its
RSS (not to the difference per socket).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import random
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

import aiohttp
import orjson

from benchmarks.bot_process import profiled
from benchmarks.e2e import (
    GAMES,
    WAIT,
    LoopLag,
    cpu_seconds,
    load_average,
    receive,
    run_party,
)
from benchmarks.processes import cpu_and_faults, memory_mb
from benchmarks.store import percentile
from bot.config import Settings
from bot.local import serve_local
from data import sqlite_url
from web.identity import COOKIE

GOAL_P99_MS = 100.0
GOAL_TABLES = 500
"""The issue's goal: p99 from an accepted action to the last socket of its table, ms,
at this many tables on the 2-core machine."""
OPENING_AT_ONCE = 32
"""Pages opening their socket at the same moment while the sockets are opened."""
LIST_STARTS = '{"type":"tables"'
"""How the bot's lobby list begins (its JSON written compactly, the type first)."""
SETTLE_SECONDS = 2.0
"""How long the bot's memory is left to settle before it is read."""


# -- the bot's process ---------------------------------------------------------------------


def serve_bot(database: str, port: int, connection: Connection, profile: bool) -> None:
    """The bot's process: the local table served as ``python -m bot`` serves it with no
    token; its event-loop lag and cycle collections measured between "measure" and "stop",
    then reported."""
    logging.basicConfig(level=logging.WARNING, format="bot process: %(name)s: %(message)s")
    settings = Settings(
        discord_token="",
        database_url=database,
        computer_pace_seconds=0.05,
        web_port=port,
        web_secret="the benchmark's secret",
        log_level="WARNING",
        coach_after_games=False,  # its worker would take the core the figures are of
    )
    asyncio.run(_serve_bot(settings, connection, profile))


class Collections:
    """The bot's cycle collections: the longest pause (ms), and how many full ones,
    which stop every table at once for as long as they take."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.full = 0
        self._began = 0.0

    def note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        self.longest = max(self.longest, (time.perf_counter() - self._began) * 1000)
        self.full += info["generation"] == 2


async def _serve_bot(settings: Settings, connection: Connection, profile: bool) -> None:
    started = asyncio.Event()
    serving = asyncio.create_task(serve_local(settings, started))
    listening = asyncio.create_task(started.wait())
    await asyncio.wait({serving, listening}, return_when=asyncio.FIRST_COMPLETED)
    if serving.done():  # it could not start: say why
        listening.cancel()
        serving.result()
        return
    lag = LoopLag()
    lag_task = asyncio.create_task(lag.run())
    connection.send("ready")
    assert await receive(connection) == "measure"
    lag.samples.clear()
    collections = Collections()
    gc.callbacks.append(collections.note)
    with profiled(profile, r"(bot|web|words|rendering|data)/"):
        assert await receive(connection) == "stop"
    gc.callbacks.remove(collections.note)
    lag_task.cancel()
    connection.send(
        {
            "lag": spread(lag.samples)[1:],
            "gc_longest": collections.longest,
            "gc_full": collections.full,
        }
    )
    os.kill(os.getpid(), signal.SIGTERM)  # serve_local's own way to stop
    await serving


# -- the pages (this process) --------------------------------------------------------------


@dataclass(eq=False)
class Move:
    """A move sent: for the table's ``version``, at ``sent``; the sockets that have not
    yet received a newer version, and the ms each that has took."""

    table: str
    version: int
    sent: float
    waiting: set[Page]
    arrivals: list[float] = field(default_factory=list)
    refused: bool = False

    def arrived(self, page: Page, frame: dict[str, Any], at: float) -> bool:
        """Note ``frame`` reaching ``page``; whether every socket now has the move."""
        if page in self.waiting and frame["id"] == self.table and frame["version"] > self.version:
            self.waiting.discard(page)
            self.arrivals.append((at - self.sent) * 1000)
        return not self.waiting


@dataclass(eq=False)
class Page:
    """One page's socket: the newest table frame it was sent, the table it was told it
    opened, the refusals it was sent; a move in flight is told of each frame."""

    socket: aiohttp.ClientWebSocketResponse
    guest_id: str | None
    table: dict[str, Any] | None = None
    opened: str | None = None
    refusals: list[str] = field(default_factory=list)
    lists: int = 0
    """Lobby lists (``tables``) received."""
    closed: bool = False
    """The bot closed the socket (as it does to a page that fell too far behind)."""
    in_flight: list[Move] = field(default_factory=list)
    """The moves of this page's table that not every socket has yet (the table's list,
    shared by its pages)."""
    _waiters: list[asyncio.Future[None]] = field(default_factory=list)

    async def send(self, **message: Any) -> None:
        await self.socket.send_str(orjson.dumps(message).decode())

    async def read(self) -> None:
        """Take every frame as it comes, until the socket closes (the lobby's lists
        counted, not read: this process need not spend their reading)."""
        async for message in self.socket:
            if message.type is not aiohttp.WSMsgType.TEXT:
                continue
            at = time.perf_counter()
            if message.data.startswith(LIST_STARTS):
                self.lists += 1
                continue
            frame = orjson.loads(message.data)
            kind = frame["type"]
            if kind == "table":
                self.table = frame
                self.in_flight[:] = [m for m in self.in_flight if not m.arrived(self, frame, at)]
            elif kind == "opened":
                self.opened = frame["table"]
            elif kind == "refused":
                self.refusals.append(frame["text"])
            self._wake()
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def until(self, ready: Callable[[Page], bool]) -> None:
        """Wait until ``ready`` holds of this page (a table stalls after ``WAIT`` s)."""
        async with asyncio.timeout(WAIT):
            while not ready(self):
                if self.closed:
                    raise ConnectionError("the bot closed the page's socket")
                waiter = asyncio.get_running_loop().create_future()
                self._waiters.append(waiter)
                await waiter

    async def at_table(self, table_id: str, version: int = 0) -> dict[str, Any]:
        """This page's frame of ``table_id``, once it is of ``version`` or newer."""
        await self.until(lambda p: _is_at(p.table, table_id, version))
        assert self.table is not None
        return self.table

    async def after(self, frame: dict[str, Any]) -> bool:
        """Wait for this page's answer to an action sent on ``frame``: a newer frame
        (True) or a refusal (False)."""
        refusals = len(self.refusals)
        table, newer = frame["id"], frame["version"] + 1
        await self.until(lambda p: len(p.refusals) > refusals or _is_at(p.table, table, newer))
        return len(self.refusals) == refusals


def _is_at(frame: dict[str, Any] | None, table_id: str, version: int) -> bool:
    return frame is not None and frame["id"] == table_id and frame["version"] >= version


def legal_actions(frame: dict[str, Any]) -> list[tuple[str, str | None]]:
    """What the owner of ``frame``'s hand may do now, as the page offers it: (action,
    move) for each tile's move, and ``draw`` or ``pass`` when the frame offers them."""
    actions: list[tuple[str, str | None]] = [
        ("play", move["move"]) for tile in frame["hand"] or () for move in tile["moves"]
    ]
    if frame["draw_move"]:
        actions.append(("draw", None))
    if frame["pass_move"]:
        actions.append(("pass", None))
    return actions


@dataclass
class Site:
    """Where the bot serves: its address, and one HTTP session for every page (each page
    carries its own cookie, so the session keeps none)."""

    base: str
    session: aiohttp.ClientSession

    async def open_page(self, name: str | None, language: str) -> Page:
        """A page's socket, greeted: a guest called ``name``, or a spectator (None)."""
        headers = {"Origin": self.base, "Accept-Language": language}
        guest_id = None
        if name is not None:
            answer = await self.session.post(
                f"{self.base}/api/guest", json={"name": name}, headers=headers
            )
            answer.raise_for_status()
            guest_id = (await answer.json())["id"]
            headers["Cookie"] = f"{COOKIE}={answer.cookies[COOKIE].value}"
        opened = await self.session.ws_connect(f"{self.base}/ws", headers=headers, max_msg_size=0)
        page = Page(opened, guest_id)
        hello = orjson.loads((await opened.receive(WAIT)).data)
        assert hello["type"] == "hello", hello
        return page


@dataclass(eq=False)
class Party:
    """One table's pages (the guests, the host first, and the spectator), played by one
    task: a table opened, joined and started, then its moves, game after game."""

    game: str
    guests: list[Page]
    spectator: Page
    rng: random.Random
    think: float
    lobby: bool
    moves: list[Move] = field(default_factory=list)
    stop_at: float = float("inf")
    started: asyncio.Event = field(default_factory=asyncio.Event)
    games: int = 0

    def __post_init__(self) -> None:
        self.in_flight: list[Move] = []
        """The moves sent here that not every socket of the table has yet."""
        for page in self.pages:
            page.in_flight = self.in_flight

    @property
    def pages(self) -> list[Page]:
        return [*self.guests, self.spectator]

    async def pause(self) -> bool:
        """A guest thinks; False once the run is over (nothing is sent after it)."""
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        return time.perf_counter() < self.stop_at

    async def open_table(self) -> dict[str, Any] | None:
        """Open, follow, join, start: the first frame of the game (None: run over)."""
        host, *others = self.guests
        if not await self.pause():
            return None
        if self.lobby:  # the page at / follows the list, then its form opens a table
            await host.send(type="lobby")
        host.opened = None
        await host.send(type="open", game=self.game, target=None, keep_last_two=None,
                        match_games=None, hints=False)  # fmt: skip
        await host.until(lambda p: p.opened is not None)
        assert host.opened is not None
        table_id = host.opened
        frame = await host.at_table(table_id)
        await self.spectator.send(type="watch", table=table_id)
        for guest in others:  # each follows the table's link, then joins
            if not await self.pause():
                return None
            await guest.send(type="watch", table=table_id)
            frame = await guest.at_table(table_id, frame["version"])
            await guest.send(type="act", table=table_id, version=frame["version"], action="join")
            if not await guest.after(frame):
                raise RuntimeError(f"join refused: {guest.refusals[-1]}")
            frame = await guest.at_table(table_id)
        if not await self.pause():
            return None
        frame = await host.at_table(table_id, frame["version"])
        await host.send(type="act", table=table_id, version=frame["version"], action="start")
        if not await host.after(frame):
            raise RuntimeError(f"start refused: {host.refusals[-1]}")
        self.games += 1
        return await host.at_table(table_id)

    async def play_game(self, frame: dict[str, Any]) -> bool:
        """Moves until the game ends (True) or the run is over (False)."""
        by_id = {page.guest_id: page for page in self.guests}
        while frame["status"] == "playing":
            actor = by_id[frame["seats"][frame["turn"]]["id"]]
            mine = await actor.at_table(frame["id"], frame["version"])
            if not await self.pause():
                return False
            mine = await actor.at_table(frame["id"])  # the newest, after thinking
            if mine["status"] != "playing" or mine["turn"] != mine["you"]:
                frame = mine
                continue
            action, move = self.rng.choice(legal_actions(mine))
            sent = Move(mine["id"], mine["version"], time.perf_counter(), set(self.pages))
            self.moves.append(sent)
            self.in_flight.append(sent)
            await actor.send(type="act", table=mine["id"], version=mine["version"],
                             action=action, **({"move": move} if move else {}))  # fmt: skip
            if not await actor.after(mine):
                sent.refused = True
                with contextlib.suppress(ValueError):
                    self.in_flight.remove(sent)
            frame = await actor.at_table(mine["id"])
        return True

    async def play(self) -> None:
        """Games one after another until the run is over."""
        try:
            frame = await self.open_table()
        finally:  # started, or failed: either way the window need not wait for it
            self.started.set()
        while frame is not None and await self.play_game(frame):
            frame = await self.open_table()


async def open_parties(site: Site, tables: int, args: argparse.Namespace) -> list[Party]:
    """Every table's pages, their sockets open and greeted (the tables not yet opened)."""
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    languages = args.languages

    async def page(name: str | None, number: int) -> Page:
        async with gate:
            return await site.open_page(name, languages[number % len(languages)])

    parties = []
    for index in range(tables):
        game = GAMES[index % len(GAMES)]
        count = 4 if game == "milo" else 2 + index % 3
        opened = await asyncio.gather(
            *(page(f"t{index}p{seat}", seat) for seat in range(count)), page(None, count)
        )
        rng = random.Random(args.seed + index)
        parties.append(Party(game, opened[:-1], opened[-1], rng, args.think, args.lobby))
    return parties


# -- one run, and its figures ----------------------------------------------------------------


@dataclass
class Result:
    tables: int
    sockets: int
    duration: float
    moves: list[Move]
    """The moves sent in the window."""
    bot_cpu: float
    """The bot's CPU seconds in the window."""
    bot_lag: tuple[float, float]
    """The bot's event loop, ms late on a 20 ms timer: p99, and the most (a single stop
    of a second is under the p99 of a minute's samples, yet delays every table)."""
    bot_gc: tuple[float, int]
    """The bot's longest cycle collection in the window (ms), and its full collections."""
    rss_before: float
    rss_with_sockets: float
    rss_end: float
    driver_cpu: float
    driver_lag: tuple[float, float]
    others: float
    """Cores the machine's other processes kept busy in the window."""
    refusals: list[str]
    closed: int
    """Sockets the bot closed during the run."""
    lists: int
    """Lobby lists sent to the pages during the run."""
    stalled: list[str]
    setup: float
    """Seconds from the first table opened until every table had started."""
    games: int

    @property
    def accepted(self) -> list[Move]:
        return [move for move in self.moves if not move.refused]

    @property
    def delivered(self) -> list[Move]:
        return [move for move in self.accepted if not move.waiting]

    @property
    def cpu_ms_per_move(self) -> float:
        return self.bot_cpu * 1000 / len(self.accepted) if self.accepted else float("nan")

    @property
    def kb_per_socket(self) -> float:
        return (self.rss_with_sockets - self.rss_before) * 1024 / self.sockets

    def to_last(self) -> tuple[float, float, float]:
        """p50, p99 and the most, ms, until the last socket of the table had the move."""
        return spread([max(move.arrivals) for move in self.delivered])

    def per_socket(self) -> tuple[float, float, float]:
        """p50, p99 and the most, ms, over every socket of every move."""
        return spread([ms for move in self.accepted for ms in move.arrivals])

    def late(self) -> tuple[int, int]:
        """Moves that reached the last socket of their table after the goal's time, and
        in how many seconds of the window they were sent: a few seconds holding many
        is a stop that held up every table at once, many seconds a bot short of CPU."""
        late = [move for move in self.delivered if max(move.arrivals) > GOAL_P99_MS]
        return len(late), len({int(move.sent) for move in late})


def spread(samples: Sequence[float]) -> tuple[float, float, float]:
    """p50, p99 and the most of ``samples``."""
    if not samples:
        return float("nan"), float("nan"), float("nan")
    ordered = list(samples)
    return percentile(ordered, 0.5), percentile(ordered, 0.99), max(ordered)


async def settled_rss(pid: int) -> float:
    """The bot's RSS in MB, read once it has stopped changing."""
    await asyncio.sleep(SETTLE_SECONDS)
    before = memory_mb("VmRSS", pid)
    while True:
        await asyncio.sleep(SETTLE_SECONDS / 4)
        now = memory_mb("VmRSS", pid)
        if abs(now - before) < 0.1:
            return now
        before = now


def machine_busy() -> float:
    """CPU seconds every process of the machine has used since it booted (``/proc/stat``):
    over the window, less the bot's and this process's, what others took of the cores."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, and waiting for I/O
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def run(tables: int, args: argparse.Namespace) -> Result:
    """A fresh bot process, N tables, a measuring window, then the bot stopped; this
    process's cycle collector off meanwhile (see the module's docstring)."""
    gc.disable()
    try:
        return await _run(tables, args)
    finally:
        gc.enable()
        gc.collect()


async def _run(tables: int, args: argparse.Namespace) -> Result:
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    port = free_port()
    connector = aiohttp.TCPConnector(limit=0)
    session = aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar())
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        bot = context.Process(
            target=serve_bot,
            args=(sqlite_url(Path(folder) / "domino.db"), port, theirs, args.profile),
            name="domino-bot",
        )
        bot.start()
        theirs.close()  # so that the bot's end closing (or its crash) ends our reads
        assert bot.pid is not None
        readers: list[asyncio.Task[None]] = []
        try:
            assert await receive(ours, WAIT) == "ready"
            rss_before = await settled_rss(bot.pid)
            site = Site(f"http://127.0.0.1:{port}", session)
            parties = await open_parties(site, tables, args)
            pages = [page for party in parties for page in party.pages]
            rss_with_sockets = await settled_rss(bot.pid)
            readers = [asyncio.create_task(page.read()) for page in pages]
            setup = time.perf_counter()
            tasks = [asyncio.create_task(run_party(party)) for party in parties]
            await asyncio.gather(*(party.started.wait() for party in parties))
            ours.send("measure")
            start = time.perf_counter()
            setup = start - setup
            driver_cpu, bot_cpu, busy = cpu_seconds(), cpu_and_faults(bot.pid)[0], machine_busy()
            for party in parties:
                party.stop_at = start + args.duration
            lag = LoopLag()
            lag_task = asyncio.create_task(lag.run())
            await asyncio.sleep(args.duration)
            lag_task.cancel()
            end = time.perf_counter()
            bot_cpu = cpu_and_faults(bot.pid)[0] - bot_cpu
            driver_cpu = cpu_seconds() - driver_cpu
            others = (machine_busy() - busy - bot_cpu - driver_cpu) / (end - start)
            driver_cpu /= end - start
            games = sum(party.games for party in parties)
            stalled = [why for why in await asyncio.gather(*tasks) if why]
            closed = sum(page.closed for page in pages)
            with contextlib.suppress(TimeoutError):  # the last moves reach every socket
                async with asyncio.timeout(WAIT):
                    while any(page.in_flight for page in pages):
                        await asyncio.sleep(0.1)
            rss_end = memory_mb("VmRSS", bot.pid)
            ours.send("stop")
            report = await receive(ours, WAIT)
        finally:
            for task in readers:
                task.cancel()
            await session.close()
            bot.join(WAIT)
            if bot.is_alive():
                bot.kill()
    moves = [m for party in parties for m in party.moves if start <= m.sent <= end]
    return Result(
        tables,
        len(pages),
        end - start,
        moves,
        bot_cpu,
        tuple(report["lag"]),
        (report["gc_longest"], report["gc_full"]),
        rss_before,
        rss_with_sockets,
        rss_end,
        driver_cpu,
        spread(lag.samples)[1:],
        others,
        [text for page in pages for text in page.refusals],
        closed,
        sum(page.lists for page in pages),
        stalled,
        setup,
        games,
    )


def report(result: Result) -> list[str]:
    """The run's figures, plainly."""
    last_50, last_99, last_most = result.to_last()
    each_50, each_99, _ = result.per_socket()
    late, seconds = result.late()
    accepted = result.accepted
    lines = [
        f"{result.tables} tables, {result.sockets} sockets; every table "
        f"{'started or stalled' if result.stalled else 'started'} in "
        f"{result.setup:.0f} s; {result.duration:.0f} s measured",
        f"  moves: {len(accepted) / result.duration:.1f}/s ({len(accepted)} accepted in the "
        f"window; {result.games} games started in the run)",
        f"  from a move sent to the last socket of its table: p50 {last_50:.1f} ms, "
        f"p99 {last_99:.1f} ms, most {last_most:.0f} ms ({len(result.delivered)} moves; "
        f"{late} over {GOAL_P99_MS:g} ms, sent in {seconds} distinct seconds)",
        f"  from a move sent to each socket: p50 {each_50:.1f} ms, p99 {each_99:.1f} ms "
        f"({sum(len(m.arrivals) for m in accepted)} deliveries)",
        f"  bot: CPU {result.bot_cpu / result.duration:.2f} cores, "
        f"{result.cpu_ms_per_move:.2f} ms a move; event-loop lag p99 {result.bot_lag[0]:.1f} "
        f"ms, most {result.bot_lag[1]:.0f} ms; longest cycle collection "
        f"{result.bot_gc[0]:.0f} ms ({result.bot_gc[1]} full); RSS {result.rss_end:.0f} MB "
        "at the end",
        f"  memory per open socket: {result.kb_per_socket:.1f} KB (RSS {result.rss_before:.1f} "
        f"MB before the sockets, {result.rss_with_sockets:.1f} MB with {result.sockets} open)",
        f"  this process (the pages): CPU {result.driver_cpu:.2f} cores, event-loop lag p99 "
        f"{result.driver_lag[0]:.1f} ms, most {result.driver_lag[1]:.0f} ms; other processes: "
        f"{result.others:.2f} cores",
        f"  refused: {len(result.refusals)}; sockets closed by the bot: {result.closed}; "
        f"lobby lists sent: {result.lists}",
    ]
    for text, count in Counter(result.refusals).most_common(5):
        lines.append(f"    {count} × {text}")
    undelivered = len(accepted) - len(result.delivered)
    if undelivered:
        lines.append(f"  {undelivered} moves never reached every socket of their table")
    for why, count in Counter(result.stalled).most_common():
        lines.append(f"  stalled: {count} × {why}")
    if result.tables == GOAL_TABLES:
        met = "met" if last_99 <= GOAL_P99_MS else "MISSED"
        lines.append(f"  goal: p99 to the last socket ≤ {GOAL_P99_MS:g} ms at "
                     f"{GOAL_TABLES} tables: {met}")  # fmt: skip
    return lines


async def main(args: argparse.Namespace) -> None:
    print("python " + " ".join(sys.argv), flush=True)
    print(f"think {args.think} s a move, {args.duration:.0f} s measured; languages "
          f"{' '.join(args.languages)}; hosts follow the lobby: {args.lobby}; "
          f"{load_average()}", flush=True)  # fmt: skip
    for tables in args.tables:
        result = await run(tables, args)
        print("\n".join(report(result)), flush=True)
    print(load_average())


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[500])
    parser.add_argument("--duration", type=float, default=60, help="seconds measured per run")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--languages", nargs="+", default=["en-US"],
        help="the pages of a table speak these in turn (Accept-Language)",
    )  # fmt: skip
    parser.add_argument(
        "--lobby", action="store_true",
        help="each host's page follows the lobby's list before opening, as the page at / does",
    )  # fmt: skip
    parser.add_argument(
        "--folder", help="where the SQLite file is made (default: the system's temporary folder)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the bot's event loop (slows it)"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
