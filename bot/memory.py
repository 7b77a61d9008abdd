"""How the bot's process keeps its memory: set once it has started (either face)."""

from __future__ import annotations

import gc

GC_YOUNGEST = 5_000
"""New container objects between two collections of the youngest generation (Python's
default is 700)."""


def settle_memory() -> None:
    """Tell Python's cycle collector how this process lives, once it is set up.

    Everything made while starting (modules, the commands, the catalogues, the open
    tables) lives as long as the process: frozen, the collector never scans it again.
    And each click leaves cycles of short-lived objects (discord.py's interactions,
    messages, views and buttons), which only the collector frees; a young collection
    stops the event loop for a time that grows with the objects it holds. With the
    default 700 the collector ran very often and promoted much of that into the older
    generations, whose collections are long; with a much larger threshold each young
    collection grew long enough to show in the answers' p99. 5,000 keeps every pause
    short, for a little more of the collector's CPU (``benchmarks/e2e.py``; the figures
    are in docs/BENCHMARKS.md)."""
    gc.freeze()
    gc.set_threshold(GC_YOUNGEST, *gc.get_threshold()[1:])
