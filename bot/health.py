"""Whether the bot is up: what a container's health check asks, ``python -m bot.health``.

A bot can run and yet serve nobody (its connection to Discord lost and not yet back), so
the bot itself says how it is: while every one of its shards is connected it renews a
small note beside its database every :data:`BEAT_SECONDS`, and it deletes the note when
it stops. The check reads the note: fresh means healthy. It needs nothing but the files
(no port to open, nothing to install in the image), and reads the same settings as the
bot (``DATABASE_URL`` says where the note is, ``SHARD_IDS`` which: processes that run
different shards from one folder each keep their own).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Protocol

BEAT_SECONDS = 15.0
"""How often a connected bot renews its note."""
STALE_SECONDS = 4 * BEAT_SECONDS
"""A note older than this is from a bot that has stopped renewing it (disconnected, hung
or killed)."""
NOTE = "health.json"
"""The note of a bot that runs every shard; one that runs some has its own
(:func:`note_name`)."""


def note_name(shard_ids: tuple[int, ...] | None) -> str:
    """The note of the process that runs ``shard_ids`` (None: all of them)."""
    if shard_ids is None:
        return NOTE
    return f"health-{'-'.join(str(shard) for shard in shard_ids)}.json"


class Connected(Protocol):
    """The client, as the note needs it."""

    async def wait_until_ready(self) -> None: ...

    def is_closed(self) -> bool: ...

    @property
    def connected(self) -> bool:
        """Every shard this process runs is connected to Discord's gateway."""
        ...


class Health:
    """The bot's side: the note in ``folder``, renewed while the bot is connected."""

    def __init__(self, folder: Path, shard_ids: tuple[int, ...] | None = None) -> None:
        self.path = folder / note_name(shard_ids)
        self._task: asyncio.Task[None] | None = None

    def watch(self, client: Connected) -> None:
        """Renew the note from now on, while ``client`` is connected."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._beat(client), name="health")

    def stopped(self) -> None:
        """The bot has stopped: no note, so the check fails at once."""
        if self._task is not None:
            self._task.cancel()
        self.path.unlink(missing_ok=True)

    def beat(self, client: Connected) -> bool:
        """Renew the note if ``client`` is connected; whether it was renewed. The note
        is written whole or not at all, so a check never reads half of one."""
        if client.is_closed() or not client.connected:
            return False
        part = self.path.with_suffix(".part")
        part.write_text(json.dumps({"pid": os.getpid(), "at": time.time()}))
        os.replace(part, self.path)
        return True

    async def _beat(self, client: Connected) -> None:
        await client.wait_until_ready()
        while not client.is_closed():
            self.beat(client)
            await asyncio.sleep(BEAT_SECONDS)


def check(
    folder: Path, now: float | None = None, shard_ids: tuple[int, ...] | None = None
) -> tuple[bool, str]:
    """Whether the bot whose note is in ``folder`` (the one running ``shard_ids``) is
    healthy, and one line saying why."""
    path = folder / note_name(shard_ids)
    try:
        note = json.loads(path.read_text())
        age = (time.time() if now is None else now) - float(note["at"])
    except FileNotFoundError:
        return False, f"not running: no {path.name} in {folder} (the bot is stopped or starting)"
    except (OSError, ValueError, KeyError, TypeError) as error:
        return False, f"unreadable {path}: {error}"
    if age > STALE_SECONDS:
        return False, f"not connected: the bot last said it was connected {age:.0f} s ago"
    return True, f"healthy: connected to Discord ({age:.0f} s ago)"


def main() -> int:
    """Exit 0 when healthy, 1 when not, saying which in one line."""
    from bot.config import ConfigError, local_folder_from_env, shard_ids_from_env

    try:
        folder = local_folder_from_env()
        shard_ids = shard_ids_from_env(None)  # the .env read just above
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    healthy, why = check(folder, shard_ids=shard_ids)
    print(why, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
