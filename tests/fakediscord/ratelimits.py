"""Discord's rate limits, as the fake enforces them, so the tests and the benchmark see the
429s Discord would send and discord.py's own handling of them (it reads the headers,
sleeps before an exhausted bucket, and waits out a 429's ``retry_after``).

Two kinds of limit, as Discord's rate-limit documentation describes them:

- the **global** limit: 50 requests a second for the bot, whatever the route. Interaction
  endpoints are not bound to it: the callback (``/interactions/{id}/{token}/callback``)
  and the webhooks used with an interaction's token (``/webhooks/{application_id}/
  {token}/...``, the fake's only token webhooks). Exceeding it: 429, ``global: true``,
  ``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global``.
- **per-route buckets**: a number of requests per window for each top-level resource in
  the path (channel, guild, webhook id and token; an interaction for its callback).
  Discord publishes no figures ("should not be hard coded"); the fake uses the commonly
  observed ones:

  ==============================================  ============  ==========================
  route                                           limit         per
  ==============================================  ============  ==========================
  POST /channels/{id}/messages                    5 per 5 s     channel
  PATCH /channels/{id}/messages/{id}              5 per 5 s     channel (counted apart
                                                                from sending, though both
                                                                report one bucket hash)
  POST/GET/PATCH /webhooks/{app}/{token}/...      5 per 2 s     interaction (discord-api-
                                                                docs issue 2701)
  every other route                               5 per 1 s     route and resource (an
                                                                assumption: no figure is
                                                                commonly reported)
  ==============================================  ============  ==========================

  Every response carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``,
  ``-Reset-After`` and ``-Bucket``; exceeding a bucket gives 429, ``global: false``,
  ``X-RateLimit-Scope: user``.

Windows are fixed, as Discord's are: a window opens with its first request and resets
``per`` seconds later. A refused request uses up neither its bucket nor the global limit.
Every response also carries ``Via``: discord.py takes a 429 without it for a Cloudflare
ban, not a rate limit.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from aiohttp import web

GLOBAL = "global"
"""A request class: counted against the bot's global limit."""
INTERACTION = "interaction"
"""A request class: an interaction endpoint, outside the global limit."""
USER = "user"
"""The scope of a 429 for an exhausted per-route bucket."""
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token", "interaction_id")
"""Top-level resources: each value has its own bucket (Discord keys an interaction
callback by the interaction)."""
VIA = {"Via": "1.1 google"}
PRUNE_AT = 10_000
"""Windows kept before expired ones are dropped (one per interaction token otherwise
piles up in a long benchmark)."""


@dataclass(frozen=True, slots=True)
class Bucket:
    """``limit`` requests per ``per`` seconds; ``name`` is what ``X-RateLimit-Bucket``
    reports (as a hash, like Discord's): routes that share a name report one bucket
    but are still counted apart, as Discord does for sending and editing messages."""

    name: str
    limit: int
    per: float

    @property
    def hash(self) -> str:
        return hashlib.md5(self.name.encode()).hexdigest()


MESSAGES = Bucket("channel messages", 5, 5.0)
INTERACTION_WEBHOOK = Bucket("interaction webhook", 5, 2.0)
DISCORD_BUCKETS: Mapping[tuple[str, str], Bucket] = {
    ("POST", "/channels/{channel_id}/messages"): MESSAGES,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): MESSAGES,
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): INTERACTION_WEBHOOK,
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): INTERACTION_WEBHOOK,
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): INTERACTION_WEBHOOK,
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): (
        INTERACTION_WEBHOOK
    ),
}
DEFAULT_BUCKET = Bucket("route", 5, 1.0)


@dataclass(frozen=True)
class RateLimits:
    """The limits a :class:`~tests.fakediscord.server.FakeDiscord` enforces; the defaults
    are Discord's (see the module's docstring). Pass ``rate_limits=None`` to the fake for
    none at all (and no rate-limit headers)."""

    global_per_second: int = 50
    buckets: Mapping[tuple[str, str], Bucket] = field(default_factory=lambda: DISCORD_BUCKETS)
    default: Bucket = DEFAULT_BUCKET
    speed: float = 1.0
    """How much faster than Discord's the limits' clock runs: every window lasts
    ``per / speed`` seconds (and the headers say so); the counts stay Discord's. The tests'
    members click within milliseconds, far faster than people, so the test fixture runs
    this clock faster too (``--discord-speed``): a whole game is not minutes of waiting on
    a channel's bucket, and discord.py still meets every bucket and waits on it."""

    def bucket(self, method: str, template: str) -> Bucket:
        return self.buckets.get((method, template), self.default)


@dataclass(slots=True)
class Window:
    """One fixed window of a limit: it opens with its first request."""

    limit: int
    per: float
    opened: float = -math.inf
    used: int = 0

    def refresh(self, now: float) -> None:
        if now >= self.opened + self.per:
            self.opened, self.used = now, 0

    def take(self, now: float) -> bool:
        """Use one request of the window; False if none is left."""
        self.refresh(now)
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def reset_after(self, now: float) -> float:
        return max(0.0, self.opened + self.per - now)

    def remaining(self) -> int:
        return self.limit - self.used


def to_ms(seconds: float) -> float:
    """Rounded up to the millisecond, as Discord writes times: a client that waits what it
    is told is never early (and float noise beyond a microsecond does not count)."""
    return math.ceil(round(seconds * 1000, 3)) / 1000


def is_interaction_endpoint(parts: Mapping[str, str]) -> bool:
    """The callback and interaction-token webhooks: outside the global limit."""
    return "interaction_token" in parts or "webhook_token" in parts


class Limiter:
    """Admits or refuses each request and counts what it did. Read by tests and
    benchmarks: :attr:`requests` (admitted requests by class, :data:`GLOBAL` or
    :data:`INTERACTION`), :attr:`refused` (429s by scope, :data:`GLOBAL` or :data:`USER`)
    and :attr:`refused_routes` (429s by ``(method, route template)``)."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.requests: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.refused_routes: Counter[tuple[str, str]] = Counter()
        self._global = Window(limits.global_per_second, 1.0 / limits.speed)
        self._windows: dict[tuple[str, str, tuple[str, ...]], Window] = {}

    def admit(
        self, method: str, template: str, parts: Mapping[str, str]
    ) -> tuple[web.Response | None, dict[str, str]]:
        """(a 429 to send instead of handling the request, or None; the rate-limit
        headers for the response)."""
        now = self.clock()
        bucket = self.limits.bucket(method, template)
        window = self._window(method, template, parts, bucket)
        window.refresh(now)
        kind = INTERACTION if is_interaction_endpoint(parts) else GLOBAL
        if kind == GLOBAL:
            self._global.refresh(now)
            if self._global.remaining() <= 0:
                return self._refuse(method, template, GLOBAL, self._global.reset_after(now)), {}
        if not window.take(now):
            headers = self._headers(bucket, window, now)
            refusal = self._refuse(method, template, USER, window.reset_after(now), headers)
            return refusal, headers
        if kind == GLOBAL:
            self._global.take(now)
        self.requests[kind] += 1
        return None, self._headers(bucket, window, now)

    def _window(
        self, method: str, template: str, parts: Mapping[str, str], bucket: Bucket
    ) -> Window:
        resource = tuple(parts[name] for name in MAJOR_PARAMETERS if name in parts)
        key = (method, template, resource)
        window = self._windows.get(key)
        if window is None:
            if len(self._windows) >= PRUNE_AT:
                self._prune()
            window = self._windows[key] = Window(bucket.limit, bucket.per / self.limits.speed)
        return window

    def _prune(self) -> None:
        now = self.clock()
        self._windows = {k: w for k, w in self._windows.items() if w.reset_after(now) > 0}

    @staticmethod
    def _headers(bucket: Bucket, window: Window, now: float) -> dict[str, str]:
        reset_after = to_ms(window.reset_after(now))
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(window.remaining()),
            "X-RateLimit-Reset": f"{to_ms(time.time() + reset_after):.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket.hash,
        }

    def _refuse(
        self,
        method: str,
        template: str,
        scope: str,
        retry_after: float,
        headers: dict[str, str] | None = None,
    ) -> web.Response:
        retry_after = to_ms(retry_after)
        self.refused[scope] += 1
        self.refused_routes[method, template] += 1
        is_global = scope == GLOBAL
        extra = {"X-RateLimit-Global": "true"} if is_global else {}
        body = {"message": "You are being rate limited.", "retry_after": retry_after}
        return web.Response(
            body=json.dumps({**body, "global": is_global}).encode(),
            status=429,
            headers={
                "Content-Type": "application/json",
                **(headers or {}),
                **extra,
                **VIA,
                "Retry-After": str(math.ceil(retry_after)),
                "X-RateLimit-Scope": scope,
            },
        )


DISCORD = RateLimits()
"""Discord's limits: the fake's default."""
