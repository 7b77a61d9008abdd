"""A big tournament's rounds opened through the fake Discord: a Swiss of 256 members at
tables of four (Cross), at Discord's real rate limits, measuring how long a round takes to
open and what it costs the bot.

    python benchmarks/tournament.py [--players 256] [--seed 1] [--validate]

What is done: the bot runs in its own process (``benchmarks/e2e.py``'s way: spawned,
pointed at the fake, its CPU and memory its own and its picture workers'), the fake and
the members in this one. The fake enforces Discord's limits at Discord's pace
(``RateLimits()``, speed 1), and the bot keeps its default request budget. An organiser
announces the Swiss with ``/domino tournament new``; every member clicks *Sign up* on the
announcement, then *Check in* once check-in opens (the buttons, as members would: each a
real interaction, their seed read from the store). The tournament service's clock is the
benchmark's, in the bot's process (as the e2e tests move theirs): check-in and the start
come when the benchmark says, without waiting an hour.

Round 1: the start comes (``run_due``), the service pairs the round and opens its 64
tables, each in a thread of its own with its lobby posted, and the pairing is announced in
the tournament's channel. Round 2: a random result for every round-1 table is recorded
through the service (the call it makes when it hears a table's end; the games are not
played, and their lobbies stay open), the last of them ends the round, and round 2 is
paired and opened the same way, after the round-over message and the standings picture.

For each round: the service's own pairing call (wall and CPU); from the round's start (the
start called, or the round's last result recorded) until the service had opened every
table, until the last lobby was posted, and until the pairing announcement began and was
complete (every table's thread named in it); the requests the fake admitted in that time,
counted against the global limit or through interactions, and its 429s; the bot's CPU
seconds; its resident memory (at the start, its peak sampled every 100 ms, and its growth).
Times are ``time.perf_counter`` in both processes (Linux's monotonic clock, one for all
processes), so the bot's start stamps and the fake's arrival stamps compare.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

from benchmarks.bot_process import bot_against_fake, quiet_logging
from benchmarks.e2e import (
    LoopLag,
    bot_cpu_since,
    bot_memory_mb,
    cpu_seconds,
    load_average,
    receive,
    skip_validation,
    workers_cpu,
)
from benchmarks.store import percentile
from bot.client import DominoBot
from bot.engine import find_variant
from bot.tournaments.model import Tournament
from bot.tournaments.seating import Pairings
from bot.tournaments.service import TournamentService
from data import sqlite_url
from tests.fakediscord import spec
from tests.fakediscord.fixtures import Server, make_server
from tests.fakediscord.ratelimits import GLOBAL, INTERACTION, USER, RateLimits
from tests.fakediscord.server import FakeDiscord, Message
from tests.fakediscord.users import Member
from tests.tables.helpers import Clock

WAIT = 600.0
"""Seconds to wait for any one step before the run counts as stuck (a round's 64 tables
take a minute and more at Discord's pace)."""
CLICKS_AT_ONCE = 16
"""Members clicking at the same moment while signing up and checking in."""
SAMPLE_EVERY = 0.1
"""Seconds between samples of the bot's resident memory."""
THREAD = re.compile(r"<#(\d+)>")


# -- the bot's process ---------------------------------------------------------------------


@dataclass
class Pairing:
    """The service's pairing calls, timed (the wall clock and the process's CPU)."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def wrap(self, service: TournamentService) -> None:
        """Time ``service``'s own pairing call, as the service makes it."""
        pair: Callable[[Tournament], Pairings | None] = service._pair

        def timed(tournament: Tournament) -> Pairings | None:
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return pair(tournament)
            finally:
                self.cpu.append(time.process_time() - cpu)
                self.wall.append(time.perf_counter() - wall)

        setattr(service, "_pair", timed)  # noqa: B010 (an instance's method, replaced)


class Measure:
    """The bot's CPU and memory from :meth:`begin` to :meth:`end`, its peak memory
    sampled meanwhile, and how late its event loop ran a short timer (a stalled loop would
    delay every member's click); ``workers`` gives the picture workers' pids at the
    moment."""

    def __init__(self, workers: Callable[[], list[int]]) -> None:
        self.workers = workers
        self.peak = 0.0
        self._sampler: asyncio.Task[None] | None = None
        self._cpu = 0.0
        self._workers_cpu: dict[int, float] = {}
        self.rss = 0.0
        self.lag = LoopLag()
        self._lag: asyncio.Task[None] | None = None

    def begin(self) -> None:
        self.rss = self.peak = bot_memory_mb("VmRSS", self.workers())
        self._cpu, self._workers_cpu = cpu_seconds(), workers_cpu(self.workers())
        self._sampler = asyncio.create_task(self._sample())
        self._lag = asyncio.create_task(self.lag.run())

    async def _sample(self) -> None:
        while True:
            await asyncio.sleep(SAMPLE_EVERY)
            self.peak = max(self.peak, bot_memory_mb("VmRSS", self.workers()))

    def end(self) -> dict[str, float]:
        for task in (self._sampler, self._lag):
            if task is not None:
                task.cancel()
        now = bot_memory_mb("VmRSS", self.workers())
        return {
            "lag_p99": percentile(self.lag.samples, 0.99),
            "lag_max": max(self.lag.samples, default=0.0),
            "cpu": bot_cpu_since(self._cpu, self._workers_cpu, self.workers()),
            "rss_start": self.rss,
            "rss_end": now,
            "rss_peak": max(self.peak, now),
            "rss_lifetime_peak": bot_memory_mb("VmHWM", self.workers()),
        }


def serve_bot(api: str, gateway: str, database: str, connection: Connection) -> None:
    """The bot's process: start, then do what this benchmark's process asks, in turn."""
    quiet_logging()
    asyncio.run(_serve_bot(api, gateway, database, connection))


async def _serve_bot(api: str, gateway: str, database: str, connection: Connection) -> None:
    async with bot_against_fake(api, gateway, database) as bot:
        assert bot.tournaments is not None and bot.herald is not None
        clock = Clock()
        clock.now = time.time()
        bot.tournaments.clock = clock
        pairing = Pairing()
        pairing.wrap(bot.tournaments)
        steps = Steps(bot, bot.tournaments, clock, pairing)
        connection.send("ready")
        while (asked := await receive(connection)) != "stop":
            name, *arguments = asked
            connection.send(await getattr(steps, name)(*arguments))


@dataclass
class Steps:
    """What the benchmark's process asks the bot's for, each answered with a reply."""

    bot: DominoBot
    service: TournamentService
    clock: Clock
    pairing: Pairing
    measure: Measure | None = None
    budget_before: tuple[int, float] = (0, 0.0)

    async def checkin(self, tournament_id: str) -> str:
        """Check-in opens."""
        self.clock.now = self.service.get(tournament_id).settings.checkin_at
        return "open"

    async def settle(self) -> str:
        """Until the herald has posted everything told so far."""
        assert self.bot.herald is not None
        await self.bot.herald.settled()
        return "settled"

    def _begin(self) -> None:
        self.measure = Measure(lambda: self.bot.painter.pids)
        self.measure.begin()
        assert self.bot.herald is not None
        budget = self.bot.herald.budget
        self.budget_before = (budget.granted, budget.waited)

    async def start(self, tournament_id: str) -> dict[str, Any]:
        """Round 1: the start comes, and the service pairs and opens the round."""
        tournament = self.service.get(tournament_id)
        self._begin()
        began = time.perf_counter()
        self.clock.now = tournament.settings.start_at
        await self.service.run_due()
        return self._opened(tournament_id, began)

    async def results(self, tournament_id: str, seed: int) -> dict[str, Any]:
        """A random result for each of the round's tables, through the service; the last
        ends the round, and the service pairs and opens the next."""
        tournament = self.service.get(tournament_id)
        rng = random.Random(seed)
        sides = len(find_variant(tournament.settings.game).sides_of(tournament.settings.size))
        tables = [d.table_id for d in tournament.tables_of(tournament.round) if d.table_id]
        recording = time.perf_counter()
        for table_id in tables[:-1]:
            await self.service._record(tournament_id, table_id, _scores(rng, sides))
        recorded = time.perf_counter() - recording
        self._begin()
        began = time.perf_counter()
        await self.service._record(tournament_id, tables[-1], _scores(rng, sides))
        return {**self._opened(tournament_id, began), "recording": recorded}

    def _opened(self, tournament_id: str, began: float) -> dict[str, Any]:
        tournament = self.service.get(tournament_id)
        return {
            "round": tournament.round,
            "tables": len(tournament.tables_of(tournament.round)),
            "began": began,
            "opened": time.perf_counter(),
            "pairing_wall": self.pairing.wall[-1],
            "pairing_cpu": self.pairing.cpu[-1],
        }

    async def end(self) -> dict[str, float]:
        """The bot's CPU and memory since the round began, and its request budget's use."""
        assert self.measure is not None and self.bot.herald is not None
        budget = self.bot.herald.budget
        return {
            **self.measure.end(),
            "budget_granted": budget.granted - self.budget_before[0],
            "budget_waited": budget.waited - self.budget_before[1],
        }


def _scores(rng: random.Random, sides: int) -> list[int]:
    """A table's game points, side by side: one reached the target, the rest less."""
    scores = [rng.randrange(0, 100) for _ in range(sides)]
    scores[rng.randrange(sides)] = 100 + rng.randrange(0, 30)
    return scores


# -- the fake and the members (this process) -----------------------------------------------


class TournamentFake(FakeDiscord):
    """The fake, noting when each lobby arrives in a thread of the tournament's channel,
    and when each of that channel's messages names a thread (the pairing's lines)."""

    def __init__(self, rate_limits: RateLimits) -> None:
        super().__init__(rate_limits=rate_limits)
        self.channel = 0
        self.lobbies: dict[int, float] = {}
        self.named: dict[int, float] = {}
        self.began: dict[int, float] = {}
        """When "Round N begins" was posted, by N."""

    def create_message(
        self, channel_id: int, data: dict[str, Any], files: dict[str, bytes], **kwargs: Any
    ) -> Message:
        message = super().create_message(channel_id, data, files, **kwargs)
        now = time.perf_counter()
        if message.visible_to is not None:
            return message
        if channel_id == self.channel:
            for thread in THREAD.findall(message.content or ""):
                self.named.setdefault(int(thread), now)
            found = re.search(r"Round (\d+) begins", message.content or "")
            if found:
                self.began.setdefault(int(found[1]), now)
        elif self.channels[channel_id].get("parent_id") == str(self.channel) and any(
            b.get("label") == "Join" for b in message.buttons()
        ):
            self.lobbies.setdefault(channel_id, now)
        return message


async def all_of(members: list[Member], act: Callable[[Member], Awaitable[None]]) -> None:
    """``act`` for every member, :data:`CLICKS_AT_ONCE` at a time."""
    turn = asyncio.Semaphore(CLICKS_AT_ONCE)

    async def one(member: Member) -> None:
        async with turn:
            await act(member)

    await asyncio.gather(*(one(m) for m in members))


def clicking(announcement: Message, label: str, answer: str) -> Callable[[Member], Awaitable[None]]:
    """A member clicks ``label`` on the announcement and is answered ``answer``."""

    async def act(member: Member) -> None:
        reply = await (await member.click(announcement, label)).reply(WAIT)
        assert answer in reply.content, reply.content

    return act


@dataclass
class Round:
    """One round's figures, from the bot's process and the fake."""

    opened: dict[str, Any]
    lobbies: list[float]
    announced: tuple[float, float]
    requests: dict[str, int]
    refused: dict[str, int]
    routes: dict[str, int]
    bot: dict[str, float]


class Run:
    """The fake, the bot's process and the members, through one tournament."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.fake = TournamentFake(RateLimits())
        self.connection: Connection | None = None

    async def ask(self, *asked: Any) -> Any:
        """A step of the bot's process, and its reply."""
        assert self.connection is not None
        self.connection.send(asked)
        return await receive(self.connection, WAIT)

    async def round(self, *asked: Any) -> Round:
        """Start a round (``asked`` of the bot's process) and wait until its every lobby
        is posted and the pairing is announced whole."""
        fake = self.fake
        assert fake.limiter is not None
        requests = dict(fake.limiter.requests)
        refused = dict(fake.limiter.refused)
        routes = dict(fake.limiter.refused_routes)
        before = set(fake.lobbies)
        opened = await self.ask(*asked)
        tables = opened["tables"]

        def threads() -> list[int] | None:
            new = [t for t in fake.lobbies if t not in before]
            return new if len(new) >= tables else None

        round_threads: list[int] = await fake.wait_for(threads, WAIT)
        await fake.wait_for(lambda: all(t in fake.named for t in round_threads), WAIT)
        bot = await self.ask("end")
        return Round(
            opened,
            [fake.lobbies[t] for t in round_threads],
            (fake.began[opened["round"]], max(fake.named[t] for t in round_threads)),
            {k: fake.limiter.requests[k] - requests.get(k, 0) for k in (GLOBAL, INTERACTION)},
            {k: fake.limiter.refused[k] - refused.get(k, 0) for k in (GLOBAL, USER)},
            {
                f"{method} {route}": count - routes.get((method, route), 0)
                for (method, route), count in fake.limiter.refused_routes.items()
                if count > routes.get((method, route), 0)
            },
            bot,
        )

    async def enter(self, server: Server) -> tuple[str, float]:
        """The tournament announced, every member signed up and checked in; its id and
        the seconds the clicks took."""
        fake, channel = self.fake, server.channels[0]
        boss = server.member("Organiser", manager=True)
        members = [server.member(f"Player {n}") for n in range(self.args.players)]
        reply = await (
            await boss.slash(
                "domino tournament new",
                channel,
                game="cross",
                format="swiss",
                rounds=2,
                seats=4,
                start_in=60,
                checkin=15,
            )
        ).reply(WAIT)
        assert "Sign-up is open" in reply.content, reply.content

        def announcement() -> Message | None:
            return next(
                (
                    m
                    for m in fake.public(channel)
                    if any(b["label"] == "Sign up" for b in m.buttons())
                ),
                None,
            )

        posted: Message = await fake.wait_for(announcement, WAIT)
        tournament_id = posted.buttons()[0]["custom_id"].split(":")[1]
        started = time.perf_counter()
        await all_of(members, clicking(posted, "Sign up", "signed up"))
        await self.ask("checkin", tournament_id)
        await all_of(members, clicking(posted, "Check in", "checked in"))
        return tournament_id, time.perf_counter() - started

    async def __call__(self) -> tuple[float, list[Round]]:
        fake = self.fake
        await fake.start()
        server = make_server(fake, "Tournament Server", 1)
        fake.channel = server.channels[0]
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self.connection = ours
        with tempfile.TemporaryDirectory() as folder:
            database = sqlite_url(Path(folder) / "domino.db")
            bot = context.Process(
                target=serve_bot,
                args=(fake.api_base, fake.gateway_url, database, theirs),
                name="domino-bot",
            )
            bot.start()
            theirs.close()  # so that the bot's end closing (or its crash) ends our reads
            try:
                assert await receive(ours, WAIT) == "ready"
                tournament_id, entering = await self.enter(server)
                await self.ask("settle")
                rounds = [await self.round("start", tournament_id)]
                rounds.append(await self.round("results", tournament_id, self.args.seed))
                ours.send("stop")
            finally:
                bot.join(WAIT)
                if bot.is_alive():
                    bot.kill()
        await fake.stop()
        return entering, rounds


# -- the report ------------------------------------------------------------------------------


def report(round_: Round) -> list[str]:
    opened, bot = round_.opened, round_.bot
    began = opened["began"]
    first, last = (at - began for at in round_.announced)
    since = sorted(at - began for at in round_.lobbies)
    global_ = round_.requests[GLOBAL]
    lines = [
        f"round {opened['round']}: {opened['tables']} tables",
        f"  pairing (the service's call): {opened['pairing_wall'] * 1000:.1f} ms wall,"
        f" {opened['pairing_cpu'] * 1000:.1f} ms CPU",
        f"  from the round's start: the service had opened every table at"
        f" {opened['opened'] - began:.1f} s;"
        f" lobbies posted: first {since[0]:.1f} s, half {since[len(since) // 2]:.1f} s,"
        f" last {since[-1]:.1f} s; pairing announced from {first:.1f} s, whole at {last:.1f} s",
        f"  requests: {global_} against the global limit"
        f" ({global_ / max(last, since[-1]):.1f}/s), {round_.requests[INTERACTION]} through"
        f" interactions; budget granted {bot['budget_granted']:.0f}, waited"
        f" {bot['budget_waited']:.1f} s; 429s: {round_.refused[GLOBAL]} global,"
        f" {round_.refused[USER]} route",
        f"  bot CPU {bot['cpu']:.2f} s; RSS {bot['rss_start']:.0f} MB at the start, peak"
        f" {bot['rss_peak']:.0f} MB, {bot['rss_end'] - bot['rss_start']:+.1f} MB at the end"
        f" (lifetime peak {bot['rss_lifetime_peak']:.0f} MB); its event loop late on a 20 ms"
        f" timer by {bot['lag_p99']:.1f} ms at p99, {bot['lag_max']:.0f} ms at most",
    ]
    if "recording" in opened:
        lines.append(f"  the round's other results recorded in {opened['recording']:.1f} s")
    lines += [f"  429 on {route}: {count}" for route, count in round_.routes.items()]
    return lines


async def main(args: argparse.Namespace) -> None:
    if not args.validate:
        spec.validate = skip_validation
    print(f"Swiss of {args.players} at tables of four (Cross); {load_average()}", flush=True)
    started = time.perf_counter()
    entering, rounds = await Run(args)()
    print(f"{args.players} signed up and checked in with the buttons in {entering:.1f} s")
    for round_ in rounds:
        print("\n".join(report(round_)))
    print(f"the whole run {time.perf_counter() - started:.0f} s; {load_average()}")


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--validate", action="store_true", help="keep the fake's validation")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse()))
