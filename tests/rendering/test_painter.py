"""Pictures drawn in a worker process: the same pixels as drawn here, a hand drawn ahead
of the tables' pictures waiting, a worker that dies loses no picture, and a worker ends
with the bot's process."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import pickle
import select
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Match
from rendering import render_hand, render_table
from rendering.hand import HandScene
from rendering.painter import IN_FLIGHT, Painter, hand_png, table_png
from rendering.table import TableScene
from rendering.worker import HEADER
from tests.rendering.scenes import NAMES, positions
from words.pictures import hand_text, table_text


@pytest.fixture
async def painter() -> AsyncIterator[Painter]:
    painter = Painter(1)
    yield painter
    await painter.close()


async def test_a_worker_draws_the_same_pictures_as_this_process(painter: Painter) -> None:
    for game in ("cross", "maltese-cross", "merry-go-round", "milo"):
        for view in list(positions(game, 1, every=7)):
            names = NAMES[: view.players]
            text = table_text(view, names)
            assert (
                await painter.draw(table_png, TableScene.of(view), text)
                == render_table(view, text).png
            )
    match = Match("milo", 4, seed=3)
    seat = match.seat_view(match.turn or 0)
    words = hand_text(seat, NAMES)
    assert await painter.draw(hand_png, HandScene.of(seat), words) == render_hand(seat, words).png


async def test_pictures_asked_for_at_once_share_the_one_worker(painter: Painter) -> None:
    """The first pictures of a busy moment all wait for the one worker starting."""
    drawn_by = await asyncio.gather(*(painter.draw(os.getpid) for _ in range(6)))
    assert len(set(drawn_by)) == 1 and drawn_by[0] != os.getpid()
    assert painter.pids == drawn_by[:1]


def slow_picture(number: int) -> int:
    """Stands for a table's picture that takes a while to draw."""
    time.sleep(0.05)
    return number


async def test_a_hand_is_drawn_ahead_of_the_tables_pictures_waiting(painter: Painter) -> None:
    """A member's click waits on their hand; tables' pictures asked for before it wait
    longer, but keep their own order."""
    await painter.draw(os.getpid)  # the worker is up
    finished: list[str] = []

    async def table(number: int) -> None:
        await painter.draw(slow_picture, number)
        finished.append(f"table {number}")

    async def hand() -> None:
        await painter.draw_first(os.getpid)
        finished.append("hand")

    count = IN_FLIGHT + 6
    tables = [asyncio.create_task(table(number)) for number in range(count)]
    await asyncio.gather(*tables, hand())  # the tasks start in turn: the hand's last
    assert finished.index("hand") <= IN_FLIGHT, finished  # after those the worker holds
    assert [name for name in finished if name != "hand"] == [f"table {n}" for n in range(count)]


def drawn_into(record: Path, number: int) -> int:
    """Stands for a picture, and notes that it was drawn."""
    with record.open("a") as notes:
        notes.write(f"{number}\n")
    return slow_picture(number)


async def test_a_picture_nobody_waits_for_any_more_is_not_drawn(
    painter: Painter, tmp_path: Path
) -> None:
    """A post cancelled (the bot closing, a newer state to post) while its picture
    waits for the worker costs the worker nothing."""
    await painter.draw(os.getpid)  # the worker is up
    record = tmp_path / "drawn"
    count = IN_FLIGHT + 4
    pictures = [asyncio.create_task(painter.draw(drawn_into, record, n)) for n in range(count)]
    await asyncio.sleep(0)  # each has asked for its picture: the worker holds the first ones
    pictures[IN_FLIGHT + 2].cancel()
    await asyncio.gather(*pictures, return_exceptions=True)
    drawn = [str(n) for n in range(count) if n != IN_FLIGHT + 2]
    assert record.read_text().split() == drawn


def dies_in_a_worker(here: int) -> int:
    """Stands for a worker killed mid-picture (out of memory, a crash in Pillow): it
    ends any process but ``here``."""
    if os.getpid() != here:
        os._exit(1)
    return here


async def test_a_picture_whose_worker_dies_is_drawn_all_the_same(painter: Painter) -> None:
    here = os.getpid()
    assert await painter.draw(dies_in_a_worker, here) == here, "drawn here instead"
    view = next(positions("cross", 1))
    text = table_text(view, NAMES[: view.players])
    assert (
        await painter.draw(table_png, TableScene.of(view), text) == render_table(view, text).png
    ), "a new worker draws the next one"


class ReadableHereOnly:
    """Stands for a call the worker cannot even read (its module fails to import there):
    it comes out of its pickle in this process only."""

    def __init__(self, here: int) -> None:
        self.here = here

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return read_here_only, (self.here,)

    def __call__(self) -> int:
        return os.getpid()


def read_here_only(here: int) -> ReadableHereOnly:
    if os.getpid() != here:
        raise ImportError("stands for a module the worker cannot import")
    return ReadableHereOnly(here)


async def test_a_call_the_worker_cannot_read_is_drawn_here(painter: Painter) -> None:
    here = os.getpid()
    assert await painter.draw(ReadableHereOnly(here)) == here, "drawn here instead"
    assert await painter.draw(os.getpid) != here, "a new worker draws the next one"


async def test_ctrl_c_in_the_terminal_is_left_to_the_bot_not_the_worker(
    painter: Painter, capfd: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C reaches every process of the terminal's group: the worker leaves it to the
    bot, which stops it, instead of dying with a KeyboardInterrupt under the bot's last
    line."""
    worker = await painter.draw(os.getpid)
    os.kill(worker, signal.SIGINT)
    # No wait: the signal is the idle worker's before the next picture reaches it, so a
    # worker that did not ignore it dies before or while drawing that one (drawn then by
    # a new worker, or here).
    assert await painter.draw(os.getpid) == worker
    assert painter.pids == [worker], "the worker ended on Ctrl-C"
    assert "KeyboardInterrupt" not in capfd.readouterr().err


def draw_once_then_wait(report: Connection) -> None:
    """A bot's process, in short: it draws (starting its worker), says which process
    drew, and waits to be killed with its event loop running."""

    async def run() -> None:
        painter = Painter(1)
        report.send(await painter.draw(os.getpid))
        await asyncio.to_thread(report.recv)

    asyncio.run(run())


def test_a_worker_ends_when_the_bots_process_is_killed() -> None:
    spawn = multiprocessing.get_context("spawn")
    ours, theirs = spawn.Pipe()
    bot = spawn.Process(target=draw_once_then_wait, args=(theirs,))
    bot.start()
    worker = ours.recv()
    assert worker != bot.pid, "drawn in a worker of the bot's process"
    watch = os.pidfd_open(worker)
    try:
        bot.kill()
        bot.join()
        ended, _, _ = select.select([watch], [], [], 10.0)
        assert ended, "the worker outlived the killed process"
    finally:
        os.close(watch)


def test_a_worker_whose_bot_is_gone_ends_quietly() -> None:
    """Killed, the bot leaves its worker answering into a closed pipe: the worker ends
    without a traceback in the log."""
    call = pickle.dumps((1, functools.partial(sum, [1, 2])))
    read, write = os.pipe()
    os.close(read)  # nobody reads the answers any more
    try:
        ended = subprocess.run(
            [sys.executable, "-m", "rendering.worker"],
            input=HEADER.pack(len(call)) + call,
            stdout=write,
            stderr=subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[2],
            timeout=60,
            check=False,
        )
    finally:
        os.close(write)
    assert (ended.returncode, ended.stderr.decode()) == (0, "")
