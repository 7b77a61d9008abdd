"""The browser face's HTTP API as a clumsy or hostile client calls it: a request the page
never sends (the wrong method, a body that is not JSON or too long) is answered in
words, in the asker's language, as the page reads a refusal (``{"refused": text}``), and
changes nothing (no cookie is set)."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot.refusals import Malformed
from tests.web.conftest import Site
from web.identity import COOKIE
from web.marks import WebMarks
from words import i18n, marks
from words.refusals import refusal

SPANISH = "es-ES"


def unread(language: str) -> str:
    """What the server says of a request it could not read, in ``language``."""
    with i18n.speaking(i18n.for_locale(language)), marks.using(WebMarks({}, lambda _: None)):
        return refusal(Malformed())


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/api/guest", {}, 405),
        ("PUT", "/api/guest", {"json": {"name": "Ann"}}, 405),
        ("POST", "/api/boards", {}, 405),
        # A form's body (what another site's form could send), and JSON sent as text.
        ("POST", "/api/guest", {"data": {"name": "Ann"}}, 415),
        ("POST", "/api/guest", {"data": '{"name": "Ann"}', "content_type": "text/plain"}, 415),
        ("POST", "/api/guest", {"json": {"name": "Ann", "more": "x" * 2000}}, 413),
    ],
    ids=["get", "put", "post-a-read", "form", "text", "too-long"],
)
async def test_a_request_the_page_never_sends_is_refused_in_words_and_changes_nothing(
    site: Site, method: str, path: str, body: dict[str, Any], status: int
) -> None:
    headers = {"Origin": site.origin, "Accept-Language": SPANISH}
    if "content_type" in body:
        headers["Content-Type"] = body.pop("content_type")
    async with aiohttp.ClientSession() as session:
        answer = await session.request(method, site.client.make_url(path), headers=headers, **body)
        assert answer.status == status
        assert (await answer.json())["refused"] == unread(SPANISH)
        assert COOKIE not in answer.cookies


@pytest.mark.parametrize("scheme", ["http", "https"])
async def test_the_guest_cookie_is_kept_to_https_when_the_page_came_over_it(
    site: Site, scheme: str
) -> None:
    """Behind a TLS proxy the bot hears plain HTTP: the page's origin says how it was
    served, and a page served over HTTPS gets a cookie its browser never sends in the
    clear (a local page over HTTP keeps working)."""
    origin = site.origin.replace("http://", f"{scheme}://", 1)
    async with aiohttp.ClientSession() as session:
        answer = await session.post(
            site.client.make_url("/api/guest"), json={"name": "Ann"}, headers={"Origin": origin}
        )
        assert answer.status == 200
        cookie = answer.cookies[COOKIE]
        assert bool(cookie["secure"]) is (scheme == "https")
        assert cookie["httponly"] and cookie["samesite"] == "Strict"


@pytest.mark.parametrize(
    "path", ["/", "/t/ab12cd34", "/replay/ab12cd34", "/static/app.js", "/api/boards"]
)
async def test_only_discord_and_the_page_itself_may_frame_it(site: Site, path: str) -> None:
    """Another site could show the page in a frame of its own, dressed up to have a
    reader click what it hides; the page, its files and its API say that only Discord
    (the Activity) and the page itself may frame them."""
    answer = await site.client.get(path, headers={"Origin": site.origin})
    policy = answer.headers["Content-Security-Policy"]
    directives = {words[0]: words[1:] for words in (part.split() for part in policy.split(";"))}
    framed_by = directives.get("frame-ancestors", [])
    assert sorted(framed_by) == sorted(
        ["'self'", "https://discord.com", "https://*.discord.com", "https://discordapp.com"]
    ), policy
