"""The bot's share of Discord's global rate limit.

Discord lets a bot make 50 requests a second in all outside interaction responses (an
interaction's callback, follow-ups and their edits, which use its token, do not count).
Crossing it earns a 429 with ``global: true`` for every table at once, so the announcer
asks this budget before each channel request and stays below a share of the limit:
when tables change faster than the share allows, each table waits its turn, and what it
posts then is its newest state (the announcer skips the stale ones).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

DISCORD_GLOBAL_LIMIT = 50
"""Requests a second Discord allows a bot outside interaction endpoints."""


class RequestBudget:
    """At most ``per_second`` requests in any one second (a sliding window, so no
    second of Discord's, however it counts, sees more), granted first come, first
    served."""

    def __init__(self, per_second: int, clock: Callable[[], float] = time.monotonic) -> None:
        if not 1 <= per_second <= DISCORD_GLOBAL_LIMIT:
            raise ValueError(f"a budget of 1 to {DISCORD_GLOBAL_LIMIT} requests a second")
        self.per_second = per_second
        self._clock = clock
        self._sent: deque[float] = deque()
        self._turn = asyncio.Lock()
        self.granted = 0
        self.waited = 0.0
        """Requests granted, and seconds spent waiting for them (for the benchmark)."""

    async def take(self) -> None:
        """Wait until one more request fits in the last second, then count it."""
        async with self._turn:
            while True:
                now = self._clock()
                while self._sent and now - self._sent[0] >= 1.0:
                    self._sent.popleft()
                if len(self._sent) < self.per_second:
                    break
                pause = 1.0 - (now - self._sent[0])
                self.waited += pause
                await asyncio.sleep(pause)
            self._sent.append(now)
            self.granted += 1
