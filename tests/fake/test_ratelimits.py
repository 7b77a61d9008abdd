"""The fake enforces Discord's rate limits: the global 50 a second (interaction endpoints
outside it), per-route buckets reported in headers, and 429s shaped as Discord's, which
discord.py reads and waits out by itself."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web

from tests.fakediscord.fixtures import make_server, serving
from tests.fakediscord.ratelimits import (
    GLOBAL,
    INTERACTION,
    MESSAGES,
    USER,
    Limiter,
    RateLimits,
)
from tests.fakediscord.server import FakeDiscord

SEND = ("POST", "/channels/{channel_id}/messages")
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
GET_CHANNEL = ("GET", "/channels/{channel_id}")
CALLBACK = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
FOLLOW_UP = ("POST", "/webhooks/{webhook_id}/{webhook_token}")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def body(response: web.Response) -> dict[str, Any]:
    assert isinstance(response.body, bytes)
    return json.loads(response.body)  # type: ignore[no-any-return]


def in_channel(channel: int, message: int | None = None) -> dict[str, str]:
    parts = {"channel_id": str(channel)}
    if message is not None:
        parts["message_id"] = str(message)
    return parts


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def limiter(clock: Clock) -> Limiter:
    return Limiter(RateLimits(), clock)


def test_a_channel_takes_five_messages_in_five_seconds_then_a_429_says_how_long_to_wait(
    limiter: Limiter, clock: Clock
) -> None:
    remaining = []
    for _ in range(5):
        refusal, headers = limiter.admit(*SEND, in_channel(1))
        assert refusal is None
        remaining.append(headers["X-RateLimit-Remaining"])
        assert headers["X-RateLimit-Limit"] == "5"
        assert headers["X-RateLimit-Bucket"] == MESSAGES.hash
    assert remaining == ["4", "3", "2", "1", "0"]
    clock.now += 2.0
    refusal, headers = limiter.admit(*SEND, in_channel(1))
    assert refusal is not None and refusal.status == 429
    assert body(refusal) == {
        "message": "You are being rate limited.",
        "retry_after": 3.0,
        "global": False,
    }
    assert refusal.headers["X-RateLimit-Scope"] == USER
    assert refusal.headers["Retry-After"] == "3"
    assert refusal.headers["Via"], "discord.py takes a 429 without Via for a Cloudflare ban"
    assert headers["X-RateLimit-Remaining"] == "0"
    assert headers["X-RateLimit-Reset-After"] == "3.000"
    assert limiter.admit(*SEND, in_channel(2))[0] is None, "another channel has its own bucket"
    clock.now += 3.0
    assert limiter.admit(*SEND, in_channel(1))[0] is None, "the window has reset"
    assert limiter.refused == {USER: 1}
    assert limiter.refused_routes == {SEND: 1}
    assert limiter.requests == {GLOBAL: 7}


def test_sending_and_editing_report_one_bucket_but_are_counted_apart(limiter: Limiter) -> None:
    for _ in range(5):
        assert limiter.admit(*SEND, in_channel(1))[0] is None
    refusal, headers = limiter.admit(*EDIT, in_channel(1, 7))
    assert refusal is None
    assert headers["X-RateLimit-Bucket"] == MESSAGES.hash
    assert headers["X-RateLimit-Remaining"] == "4"


def test_the_global_limit_refuses_the_51st_request_of_a_second_whatever_its_route(
    limiter: Limiter, clock: Clock
) -> None:
    for channel in range(50):
        assert limiter.admit(*SEND, in_channel(channel))[0] is None
    clock.now += 0.25
    refusal, headers = limiter.admit(*GET_CHANNEL, in_channel(99))
    assert refusal is not None and refusal.status == 429
    assert body(refusal) == {
        "message": "You are being rate limited.",
        "retry_after": 0.75,
        "global": True,
    }
    assert refusal.headers["X-RateLimit-Global"] == "true"
    assert refusal.headers["X-RateLimit-Scope"] == GLOBAL
    assert refusal.headers["Retry-After"] == "1"
    assert headers == {}, "a global refusal says nothing of the route's bucket"
    clock.now += 0.75
    assert limiter.admit(*GET_CHANNEL, in_channel(99))[0] is None, "a new second"
    assert limiter.refused == {GLOBAL: 1}
    assert limiter.requests == {GLOBAL: 51}


def test_a_refused_request_uses_up_nothing_of_the_global_limit(limiter: Limiter) -> None:
    for _ in range(5):
        assert limiter.admit(*SEND, in_channel(0))[0] is None
    for _ in range(10):
        assert limiter.admit(*SEND, in_channel(0))[0] is not None
    for channel in range(1, 46):
        assert limiter.admit(*SEND, in_channel(channel))[0] is None
    assert limiter.admit(*SEND, in_channel(46))[0] is not None, "the 51st admitted is one too many"
    assert limiter.refused == {USER: 10, GLOBAL: 1}


def test_interaction_endpoints_are_outside_the_global_limit(limiter: Limiter) -> None:
    for channel in range(50):
        assert limiter.admit(*SEND, in_channel(channel))[0] is None
    assert limiter.admit(*SEND, in_channel(50))[0] is not None
    for n in range(60):
        callback = {"interaction_id": str(n), "interaction_token": f"token{n}"}
        assert limiter.admit(*CALLBACK, callback)[0] is None
        follow_up = {"webhook_id": "1", "webhook_token": f"token{n}"}
        assert limiter.admit(*FOLLOW_UP, follow_up)[0] is None
    assert limiter.requests == {GLOBAL: 50, INTERACTION: 120}
    assert limiter.refused == {GLOBAL: 1}


def test_an_interactions_follow_ups_take_five_in_two_seconds(
    limiter: Limiter, clock: Clock
) -> None:
    token = {"webhook_id": "1", "webhook_token": "abc"}
    for _ in range(5):
        assert limiter.admit(*FOLLOW_UP, token)[0] is None
    refusal, _ = limiter.admit(*FOLLOW_UP, token)
    assert refusal is not None and body(refusal)["retry_after"] == 2.0
    other = {"webhook_id": "1", "webhook_token": "def"}
    assert limiter.admit(*FOLLOW_UP, other)[0] is None, "each interaction has its own bucket"


def test_a_faster_clock_shortens_every_window_and_says_so(clock: Clock) -> None:
    limiter = Limiter(RateLimits(speed=10), clock)
    _, headers = limiter.admit(*SEND, in_channel(1))
    assert headers["X-RateLimit-Reset-After"] == "0.500"
    for channel in range(2, 51):
        limiter.admit(*SEND, in_channel(channel))
    refusal, _ = limiter.admit(*SEND, in_channel(51))
    assert refusal is not None and body(refusal)["retry_after"] == 0.1


async def test_responses_carry_the_bucket_and_the_sixth_message_in_a_channel_is_refused() -> None:
    async with serving(FakeDiscord()) as fake:
        channel = make_server(fake).channels[0]
        url = f"{fake.api_base}/channels/{channel}/messages"
        async with aiohttp.ClientSession() as session:
            answers = []
            for n in range(6):
                async with session.post(url, json={"content": f"move {n}"}) as response:
                    answers.append((response.status, dict(response.headers)))
            unknown = f"{fake.api_base}/webhooks/{fake.application_id}/nope/messages/@original"
            async with session.get(unknown) as response:
                missing = response.status, dict(response.headers)
    assert [status for status, _ in answers] == [200] * 5 + [429]
    remaining = [headers["X-RateLimit-Remaining"] for _, headers in answers]
    assert remaining == ["4", "3", "2", "1", "0", "0"]
    assert all(h["X-RateLimit-Bucket"] == MESSAGES.hash for _, h in answers)
    assert answers[-1][1]["X-RateLimit-Scope"] == USER
    assert len(fake.public(channel)) == 5, "the refused message was not posted"
    assert missing[0] == 404 and "X-RateLimit-Bucket" in missing[1], "errors carry them too"
    assert fake.limiter is not None
    assert fake.limiter.refused == {USER: 1}


async def test_without_limits_nothing_is_refused_or_counted() -> None:
    async with serving(FakeDiscord(rate_limits=None)) as fake:
        channel = make_server(fake).channels[0]
        url = f"{fake.api_base}/channels/{channel}/messages"
        async with aiohttp.ClientSession() as session:
            statuses = []
            for n in range(8):
                async with session.post(url, json={"content": f"move {n}"}) as response:
                    statuses.append(response.status)
                    assert "X-RateLimit-Bucket" not in response.headers
    assert statuses == [200] * 8
    assert fake.limiter is None


async def logged_in(fake: FakeDiscord) -> discord.Client:
    client = discord.Client(intents=discord.Intents.none())
    await client.login("fake-token")
    return client


async def test_discord_py_meets_a_channels_bucket_and_waits_without_a_single_429(
    error_log: Any,
) -> None:
    async with serving(FakeDiscord(rate_limits=RateLimits(speed=20))) as fake:
        channel = make_server(fake).channels[0]
        client = await logged_in(fake)
        try:
            target = client.get_partial_messageable(channel)
            await asyncio.gather(*(target.send(f"move {n}") for n in range(12)))
        finally:
            await client.close()
    assert fake.limiter is not None
    assert sorted(m.content for m in fake.public(channel)) == sorted(f"move {n}" for n in range(12))
    assert fake.limiter.refused == {}, "discord.py read the headers and waited for the reset"


async def test_discord_py_waits_out_the_global_limit_and_every_message_is_posted(
    error_log: Any,
) -> None:
    """Sixty channels at once, at Discord's own pace: the first fifty (with the login's
    two requests) pass, the rest are refused with ``global: true``; discord.py pauses and
    retries them."""
    async with serving(FakeDiscord()) as fake:
        channels = make_server(fake, channels=60).channels
        client = await logged_in(fake)
        try:
            sends = (client.get_partial_messageable(c).send("hello") for c in channels)
            await asyncio.gather(*sends)
        finally:
            await client.close()
    assert fake.limiter is not None
    assert all(len(fake.public(c)) == 1 for c in channels)
    assert fake.limiter.refused[GLOBAL] > 0
    assert fake.limiter.refused[USER] == 0
    assert fake.limiter.requests[GLOBAL] == 62, "sixty messages and the login's two requests"
