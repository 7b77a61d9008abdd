"""Where pictures are drawn: in a worker process, so the bot's event loop keeps its core.

Drawing a table is Pillow and Python work. In a thread of the bot's own process that
work holds the interpreter lock, and every request the event loop makes (each one a
system call that lets go of the lock) waited for a picture to finish before the loop
could go on: under load the loop spent much of its time waiting so. A worker process
(:mod:`rendering.worker`) draws on the machine's other core instead. The words are
chosen in the bot's process (the ``words`` package) and handed over with what the picture
shows of the engine's view (``TableScene``, ``HandScene``), both plain data, and PNG
bytes come back.

The worker is a plain child process spoken to over its standard input and output, read
by the event loop itself: no helper threads in the bot's process, and the worker imports
only Pillow and the engine (a ``multiprocessing`` worker imports the bot's whole
``__main__``, discord.py and all, memory it has no use for).

Long one-off pictures (a replay's GIF, a leaderboard card) stay in threads: in the one
worker they would hold up every table's next picture behind them.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import os
import pickle
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, cast

from rendering.hand import HandScene, HandText, draw_hand
from rendering.table import TableScene, TableText, draw_table
from rendering.worker import HEADER

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent
"""The folder ``rendering`` and ``bot`` are imported from, for the worker's imports."""

HEAP_PAD = 32 << 20
"""Bytes of free heap the worker's C allocator keeps instead of giving them back to the
system (glibc's ``MALLOC_TOP_PAD_``; other allocators ignore it). Each picture allocates
and frees its image buffers, and glibc gave them back and faulted fresh zeroed pages in
for the next picture. 32 MB holds every buffer a picture needs, so no picture faults
pages in, for a worker a few MB larger; a smaller pad cost more than the default
(setting it also turns off glibc's own adjustment of when it maps memory apart).
``benchmarks/render.py`` ("in the worker") measures it; ``docs/BENCHMARKS.md`` has the
figures. A setting already in the environment wins."""


def table_png(scene: TableScene, text: TableText) -> bytes:
    """A table's picture, as PNG bytes (what crosses back from the worker)."""
    return draw_table(scene, text).png


def hand_png(scene: HandScene, text: HandText) -> bytes:
    """A hand's picture, as PNG bytes."""
    return draw_hand(scene, text).png


class WorkerGone(Exception):
    """The worker process ended before it answered."""


IN_FLIGHT = 8
"""Calls a worker holds at once. The others wait in :class:`Worker`'s queues, where a
hand asked for meanwhile goes ahead of them: it waits for at most these few pictures'
drawing. Fewer, and the worker idles whenever the busy event loop is
slow to read its answers and send it more, so pictures wait and the bot makes fewer
moves a second under load; more gained nothing (``benchmarks/e2e.py``; the figures are
in ``docs/BENCHMARKS.md``)."""


class Worker:
    """One drawing process. It is sent a call only while it holds fewer than
    :data:`IN_FLIGHT`; the calls marked ``first`` (a hand a member's click waits on) are
    sent ahead of the others (tables' pictures), each kind in the order asked, and a
    call whose caller stopped waiting before it was sent is never drawn."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self._numbers = itertools.count()
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._first: deque[tuple[int, Callable[[], Any]]] = deque()
        self._rest: deque[tuple[int, Callable[[], Any]]] = deque()
        self._sent = 0
        """Calls sent and not yet answered."""
        self._reader = asyncio.create_task(self._read(), name=f"painter-{process.pid}")

    @classmethod
    async def start(cls) -> Worker:
        paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {"MALLOC_TOP_PAD_": str(HEAP_PAD), **os.environ}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "rendering.worker",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env={**env, "PYTHONPATH": os.pathsep.join(paths)},
        )  # fmt: skip
        return cls(process)

    @property
    def alive(self) -> bool:
        return not self._reader.done()

    async def call(self, call: Callable[[], T], first: bool = False) -> T:
        if self.process.stdin is None or not self.alive:
            raise WorkerGone()
        number = next(self._numbers)
        answer = self._waiting[number] = asyncio.get_running_loop().create_future()
        (self._first if first else self._rest).append((number, call))
        self._send()
        ok, value = await answer
        if not ok:
            raise cast(BaseException, value)
        return cast(T, value)

    def _send(self) -> None:
        """Send the worker the next calls waiting, up to :data:`IN_FLIGHT` held."""
        stdin = self.process.stdin
        assert stdin is not None
        while self._sent < IN_FLIGHT and (self._first or self._rest):
            number, call = (self._first or self._rest).popleft()
            answer = self._waiting[number]
            if answer.done():  # its caller was cancelled
                del self._waiting[number]
                continue
            try:
                data = pickle.dumps((number, call), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as error:  # a call that does not pickle: its caller's error
                del self._waiting[number]
                answer.set_exception(error)
                continue
            stdin.write(HEADER.pack(len(data)) + data)
            self._sent += 1

    async def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                header = await stdout.readexactly(HEADER.size)
                number, *answer = pickle.loads(await stdout.readexactly(HEADER.unpack(header)[0]))
                self._sent -= 1
                waiting = self._waiting.pop(number)
                if not waiting.done():
                    waiting.set_result(answer)
                self._send()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # it ended
        finally:
            waiting_now, self._waiting = self._waiting, {}
            self._first.clear()
            self._rest.clear()
            for waiting in waiting_now.values():
                if not waiting.done():
                    waiting.set_exception(WorkerGone())

    async def stop(self) -> None:
        self._reader.cancel()
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()


class Painter:
    """Draws in ``processes`` worker processes, in turn (0: in threads of this process,
    where a machine cannot spare a process). The workers start with the first picture;
    a worker that ends is replaced, and the pictures it had not drawn are drawn in a
    thread instead, so a post is never lost to it."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._workers: list[Worker] = []
        self._turn = itertools.count()
        self._starting = asyncio.Lock()
        """Held while a worker starts: the pictures asked for meanwhile wait for it."""

    async def draw(self, render: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``render(*args, **kwargs)``, off the event loop. ``render`` and its arguments
        must pickle (a module's function, the engine's views, the ``*Text`` words)."""
        return await self._draw(functools.partial(render, *args, **kwargs), first=False)

    async def draw_first(self, render: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """As :meth:`draw`, ahead of the pictures waiting to be drawn: for a picture a
        member's click waits on (their hand), where a table's picture is only as late as
        the post that carries it. At 1,000 tables a hand waited behind tables' pictures
        often enough that many missed :data:`discord_face.acting.ANSWER_WITHIN`, so
        their clicks were acknowledged first, one request more each."""
        return await self._draw(functools.partial(render, *args, **kwargs), first=True)

    async def _draw(self, call: Callable[[], T], first: bool) -> T:
        if self.processes == 0:
            return await asyncio.to_thread(call)
        try:
            worker = await self._worker()
            return await worker.call(call, first)
        except (WorkerGone, OSError):
            log.warning("a picture worker ended; drawing this picture here")
            return await asyncio.to_thread(call)

    async def _worker(self) -> Worker:
        self._workers[:] = [worker for worker in self._workers if worker.alive]
        if len(self._workers) < self.processes:
            async with self._starting:
                if len(self._workers) < self.processes:
                    started = await Worker.start()
                    self._workers.append(started)
                    return started
        return self._workers[next(self._turn) % len(self._workers)]

    @property
    def pids(self) -> list[int]:
        """The worker processes running now (the benchmark counts their CPU and memory
        as the bot's)."""
        return [worker.process.pid for worker in self._workers if worker.alive]

    async def close(self) -> None:
        """Stop the workers (pictures not yet drawn are dropped: the announcer posts the
        newest state after the next start)."""
        workers, self._workers = self._workers, []
        await asyncio.gather(*(worker.stop() for worker in workers))
