"""What a face (the Discord chat today, a browser page next) hears of the tables: every
stored action, in order, through a :class:`Listener`; after a restart, each action its
face has not shown, marked :class:`Resumed`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.events import Event
from bot.snapshot import TableSnapshot


@dataclass(frozen=True, slots=True)
class Resumed:
    """What the listeners are told came ``via`` when a restarted service hands back an
    action a channel has not been shown (its ``version``): the bot may have stopped
    just after a post and before noting it, so the channel may show it already."""

    version: int


class Listener(Protocol):
    """What hears of every stored action (the Discord face's announcer)."""

    def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
        """``table`` as stored after the action, with what it caused (none: show the
        table as it stands). Called under the table's lock, in the order the actions
        were stored, so it must not wait for anything: it queues. ``via`` is whatever
        the caller of :meth:`TableService.act` gave (the Discord face passes the
        interaction, to answer through it); the service never looks at it."""

    async def close(self) -> None:
        """The service is stopping: finish or drop what is under way."""
