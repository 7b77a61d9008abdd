"""What a face (the Discord chat today, a browser page next) hears of the tables: every
stored action, in order, through a :class:`Listener`; after a restart, each action its
face has not shown, marked :class:`Resumed`. What a face has shown of a table
(:class:`Shown`) is its own: each face notes it under its name, so that two faces
following one table never hide an action from each other or repeat one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.events import Event
from bot.snapshot import TableSnapshot


@dataclass(frozen=True, slots=True)
class Resumed:
    """What a listener is told came ``via`` when a restarted service hands back an
    action its face has not been shown (its ``version``): the bot may have stopped
    just after a post and before noting it, so the face may show it already."""

    version: int


@dataclass(frozen=True, slots=True)
class Shown:
    """What a face has shown of a table: up to ``version``, and, for a face that posts
    messages, the latest one (the Discord face: the lobby, then the latest table
    message, whose buttons the next one strips)."""

    version: int = 0
    message_id: int | None = None


class Listener(Protocol):
    """What hears of every stored action (the Discord face's announcer)."""

    face: str
    """The name of the face it shows the tables on (``discord``): what it has shown is
    noted and handed back under this name."""

    catches_up: bool
    """Whether, after a restart, it is told each stored action its face has not shown
    (a face that posts messages); a face whose readers are sent the table as stored
    when they connect (the browser's) needs none of them, and is not told."""

    def shows(self, guild_id: int) -> bool:
        """Whether its face shows the tables of server ``guild_id`` at all (the Discord
        face: not the browser's own local tables). A face that catches up is handed back,
        and waited for to show a table's end, only on the tables it shows: else a local
        table would be read back for the Discord face at every restart, and its end kept
        for it until pruned."""

    def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
        """``table`` as stored after the action, with what it caused (none: show the
        table as it stands). Called under the table's lock, in the order the actions
        were stored, so it must not wait for anything: it queues. ``via`` is whatever
        the caller of :meth:`TableService.act` gave (the Discord face passes the
        interaction, to answer through it); the service never looks at it."""

    def forgotten(self, user_id: int) -> None:
        """``user_id`` was forgotten (``/domino forget-me``: the store no longer holds
        them): let go of what the face keeps of them in memory (a closed table it still
        shows, say)."""

    async def close(self) -> None:
        """The service is stopping: finish or drop what is under way."""
