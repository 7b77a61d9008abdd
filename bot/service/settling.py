"""Writes whose answer was lost: the store may have kept them.

A connection cut just as the database answers (a network blip, a failover, a pooling
proxy restarting) leaves a write's fate unknown: the store says ``unavailable``, yet the
action may be stored. The member is told it was not saved; the table service then asks
the store again, until it answers, and takes up what it holds
(:meth:`TableService.take_up`): a move, a cancel or a new table that was kept after
all is told to every face, instead of waiting for the next action's version conflict,
or for a restart, to be found.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.refusals import NotSaved
from data.repository import StoreError

if TYPE_CHECKING:
    from bot.service.core import TableService

log = logging.getLogger(__name__)

UNANSWERED = "unavailable"
"""The store's fault for a write whose answer never came: it may have been kept."""

FIRST_SECONDS = 1.0
"""How long after a lost answer the store is first asked again."""

LONGEST_SECONDS = 60.0
"""The longest wait between two questions while the store does not answer."""


class Settling:
    """The tables whose last write's fate is unknown, each with its question to the
    store under way (a task, owned here and cancelled at :meth:`close`)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.first_seconds = FIRST_SECONDS
        self._asking: dict[str, asyncio.Task[None]] = {}

    def unsure(self, table_id: str) -> None:
        """A write of ``table_id`` may or may not be stored: find out, once the store
        answers (called by the service, under the table's lock)."""
        if table_id not in self._asking:
            self._asking[table_id] = asyncio.create_task(
                self._ask(table_id), name=f"settle-{table_id}"
            )

    def known(self, table_id: str) -> None:
        """A later write of ``table_id`` was answered (stored, or refused as behind the
        store, which was then taken up): its fate is known, nothing to ask."""
        task = self._asking.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def settled(self) -> None:
        """Until every question under way is answered (for tests and a clean stop)."""
        while self._asking:
            await asyncio.gather(*self._asking.values(), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._asking.values()):
            task.cancel()
        await asyncio.gather(*self._asking.values(), return_exceptions=True)
        self._asking.clear()

    async def _ask(self, table_id: str) -> None:
        wait = self.first_seconds
        try:
            while True:
                await asyncio.sleep(wait)
                try:
                    await self.service.take_up(table_id)
                    return
                except (StoreError, NotSaved) as error:
                    log.info("table %s: the store still does not answer (%s)", table_id,
                             error.fault)  # fmt: skip
                    wait = min(2 * wait or self.first_seconds, LONGEST_SECONDS)
        finally:
            if self._asking.get(table_id) is asyncio.current_task():
                del self._asking[table_id]
