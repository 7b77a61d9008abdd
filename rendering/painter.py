"""Where pictures are drawn: in a worker process, so the bot's event loop keeps its core.

Drawing a table takes a few milliseconds of Pillow and Python. In a thread of the bot's
own process that work holds the interpreter lock, and every request the event loop
makes (each one a system call that lets go of the lock) waited for a picture to finish
before the loop could go on: at 500 tables the loop spent about a third of its time
waiting so. A worker process draws on the machine's other core instead. The words are
chosen in the bot's process (``cogs.wording``) and handed over with the engine's view,
both plain data, and PNG bytes come back.

Long one-off pictures (a replay's GIF, a leaderboard card) stay in threads: in the one
worker they would hold up every table's next picture behind them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from typing import ParamSpec, TypeVar

from bot.engine import PublicView, SeatView
from rendering.hand import HandText, render_hand
from rendering.table import TableText, render_table

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")


def table_png(view: PublicView, text: TableText) -> bytes:
    """A table's picture, as PNG bytes (what crosses back from the worker)."""
    return render_table(view, text).png


def hand_png(view: SeatView, text: HandText) -> bytes:
    """A hand's picture, as PNG bytes."""
    return render_hand(view, text).png


def _end_with_parent() -> None:
    """In each worker: end when the bot's process ends, however it ends. A worker waits
    for pictures on a pipe that its parent's death does not close, so after a SIGKILL it
    would wait forever (and hold its memory)."""
    parent = multiprocessing.parent_process()
    assert parent is not None, "runs in a worker"
    threading.Thread(target=_exit_after, args=(parent,), daemon=True).start()


def _exit_after(parent: BaseProcess) -> None:
    parent.join()
    os._exit(0)


class Painter:
    """Draws in ``processes`` worker processes (0: in threads of this process, where a
    machine cannot spare a process). The workers start with the first picture, from a
    fresh interpreter (``spawn``: forking a process that runs an event loop and threads
    is unsafe), and a worker that dies is replaced: the picture it was drawing is drawn
    in a thread instead, so a post is never lost to it."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    async def draw(self, render: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``render(*args, **kwargs)``, off the event loop. ``render`` and its arguments
        must pickle (a module's function, the engine's views, the ``*Text`` words)."""
        call = functools.partial(render, *args, **kwargs)
        if self.processes == 0:
            return await asyncio.to_thread(call)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor(), call)
        except BrokenProcessPool:
            log.warning("a picture worker stopped; starting another, drawing this one here")
            self._pool = None
            return await asyncio.to_thread(call)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_end_with_parent,
            )
        return self._pool

    def close(self) -> None:
        """Stop the workers (pictures not yet drawn are dropped: the announcer posts the
        newest state after the next start)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
