"""Marks of tournament news done with (posted, or given up) that the store failed.

A start tells the herald again every piece of news not marked, so a mark the store
fails for a moment (busy, a connection cut) would have the piece posted a second time at
the next start, however long after (Discord's nonce guards a few minutes only). A mark
that fails is kept here, with the time it was done with, and written again on a backoff
(the tournament service's deadline loop runs :meth:`Marks.run_due`) until the store
takes it; a stop writes those still waiting once more (:meth:`Marks.flush`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.tournaments.model import News
from data.repository import Repository, StoreError

log = logging.getLogger(__name__)

FIRST_SECONDS = 5.0
"""The first wait before marks the store failed are written again (doubled at each
failure, up to :data:`LONGEST_SECONDS`)."""
LONGEST_SECONDS = 600.0

_Key = tuple[str, int, int]
"""A piece of news by its name: tournament, version, ordinal."""


class Marks:
    """The marks waiting for the store, each with when its piece was done with and why
    it was given up (None: posted)."""

    def __init__(self, store: Repository, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._waiting: dict[_Key, tuple[float, str | None]] = {}
        self._retry: tuple[float, float] | None = None
        """When the waiting marks are written again, and the wait that led there."""

    @property
    def due(self) -> float | None:
        """When :meth:`run_due` has marks to write again, if any wait."""
        return self._retry[0] if self._waiting and self._retry is not None else None

    async def mark(self, news: News, given_up: str | None) -> bool:
        """Mark ``news`` done now; False if the store failed it (kept, to write again)."""
        key = (news.tournament_id, news.version, news.ordinal)
        self._waiting[key] = (self.clock(), given_up)
        return await self._write([key])

    async def run_due(self) -> None:
        """Write the waiting marks again, if their wait is over."""
        due = self.due
        if due is not None and due <= self.clock():
            await self._write(list(self._waiting))

    async def flush(self) -> None:
        """Write every waiting mark once more (at a stop); one the store fails still is
        logged, its piece told again at the next start."""
        if self._waiting and not await self._write(list(self._waiting)):
            log.warning("%d pieces of tournament news posted and not marked: told again at"
                        " the next start", len(self._waiting))  # fmt: skip

    async def _write(self, keys: list[_Key]) -> bool:
        """Write the marks of ``keys`` in order, stopping at the first the store fails
        (it is down: the rest would fail too), which counts the next try."""
        for key in keys:
            waiting = self._waiting.get(key)
            if waiting is None:  # written meanwhile, by another try
                continue
            at, given_up = waiting
            try:
                await self.store.news_posted(*key, at, given_up)
            except StoreError as error:
                log.warning("tournament %s: its news of version %d not marked done (%s);"
                            " tried again later", key[0], key[1], error.fault)  # fmt: skip
                last = self._retry
                wait = FIRST_SECONDS if last is None else min(2 * last[1], LONGEST_SECONDS)
                self._retry = (self.clock() + wait, wait)
                return False
            if self._waiting.get(key) == waiting:
                del self._waiting[key]
        if not self._waiting:
            self._retry = None
        return True
