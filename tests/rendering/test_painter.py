"""Pictures drawn in a worker process: the same pixels as drawn here, and a worker that
dies loses no picture."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import AsyncIterator

import pytest

from bot.engine import Match
from cogs.wording import hand_text, table_text
from rendering import render_hand, render_table
from rendering.painter import Painter, hand_png, table_png
from tests.rendering.scenes import NAMES, positions


@pytest.fixture
async def painter() -> AsyncIterator[Painter]:
    painter = Painter(1)
    yield painter
    painter.close()


async def test_a_worker_draws_the_same_pictures_as_this_process(painter: Painter) -> None:
    for game in ("cross", "maltese-cross", "merry-go-round", "milo"):
        for view in list(positions(game, 1, every=7)):
            names = NAMES[: view.players]
            text = table_text(view, names)
            assert await painter.draw(table_png, view, text) == render_table(view, text).png
    match = Match("milo", 4, seed=3)
    seat = match.seat_view(match.turn or 0)
    words = hand_text(seat, NAMES)
    assert await painter.draw(hand_png, seat, words) == render_hand(seat, words).png


def dies_in_a_worker(view_number: int) -> int:
    """Stands for a worker killed mid-picture (out of memory, a crash in Pillow)."""
    if multiprocessing.parent_process() is not None:
        os._exit(1)
    return view_number


async def test_a_picture_whose_worker_dies_is_drawn_all_the_same(painter: Painter) -> None:
    assert await painter.draw(dies_in_a_worker, 7) == 7, "drawn here instead"
    view = next(positions("cross", 1))
    text = table_text(view, NAMES[: view.players])
    assert await painter.draw(table_png, view, text) == render_table(view, text).png, (
        "a new worker draws the next one"
    )
