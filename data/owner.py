"""One bot process per SQLite file.

A bot keeps its open tables in memory and runs their turn timers and computer players
itself. Two processes on one SQLite file would each run them, each blind to the other's
writes: the first to write a move wins, the other's write of the same version is refused,
and the pages it serves stay on a table that no longer moves. PostgreSQL is for several
processes (with shards that split the servers between them); on SQLite the second start is
refused, while the first runs, with a reason (it is most often the same bot started
again in another terminal).

The hold is an advisory lock (``flock``) on a file beside the database, so SQLite's own
locks on the database file are never touched; the system lets it go when the process
ends, however it ends, so a crash never leaves the database held.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path

from data.errors import StoreError
from data.url import parse_url

HELD = (
    "another bot process is using it (the bot is running already?): stop that one first,"
    " or give this one its own DATABASE_URL (several processes on one database need"
    " PostgreSQL)"
)


def lock_path(database: Path) -> Path:
    """The file whose lock stands for the database's (``var/domino.db-bot.lock``)."""
    return database.with_name(database.name + "-bot.lock")


@contextlib.contextmanager
def held(url: str) -> Iterator[None]:
    """Hold the SQLite file ``url`` names for this process until the block ends
    (PostgreSQL: nothing to hold). :class:`StoreError` (``busy``) if another process
    holds it. A lock file that cannot be made (a folder that cannot be written) is left
    to the store to refuse, in its own words, as it opens."""
    database = parse_url(url).path
    if database is None:
        yield
        return
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
        handle = lock_path(database).open("a")
    except OSError:
        yield
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreError("busy", HELD) from None
        yield
