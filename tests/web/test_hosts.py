"""The names the browser face answers for (``web.hosts``): a DNS rebinding attack (a
site whose name now points at the bot's machine, so its page's ``Origin`` and ``Host``
agree) gets neither the page, nor a cookie, nor a socket; the bot's own names, its IP
addresses, the operator's public names and the Activity's keep working."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from data.repository import Repository
from tests.web.conftest import Page, Site
from tests.web.test_activity import Discord
from web.hosts import KnownHosts
from web.identity import COOKIE

PUBLIC = "domino.example.com"


def headers(host: str, origin: str) -> dict[str, str]:
    """What a browser sends from a page at ``origin`` to the server it reached as ``host``."""
    return {"Host": host, "Origin": origin}


async def test_a_rebound_name_gets_no_page_no_cookie_and_no_socket(site: Site) -> None:
    """The attacker's page at http://rebound.example:<port>, its name now resolving to
    127.0.0.1, asks the bot as its browser would: same name in ``Host`` and ``Origin``."""
    host = f"rebound.example:{site.client.port}"
    forged = headers(host, f"http://{host}")
    async with aiohttp.ClientSession() as session:
        for path in ("/", "/static/app.js", "/api/boards"):
            answer = await session.get(site.client.make_url(path), headers=forged)
            assert answer.status == 421, path
            assert "WEB_PUBLIC_HOSTS" in await answer.text()
        named = await session.post(
            site.client.make_url("/api/guest"), json={"name": "Eve"}, headers=forged
        )
        assert named.status == 421 and COOKIE not in named.cookies
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(site.client.make_url("/ws"), headers=forged)
        assert refused.value.status == 421


@pytest.mark.parametrize(
    "host",
    ["localhost", "127.0.0.1", "[::1]", "192.168.1.5"],
    ids=["localhost", "ipv4-loopback", "ipv6-loopback", "lan-address"],
)
async def test_this_machines_names_and_any_ip_address_are_answered(site: Site, host: str) -> None:
    """The page on this machine, and on a LAN by the machine's address (``WEB_HOST``):
    an address names no one else's site, so no page can rebind it."""
    await can_play(site, f"{host}:{site.client.port}", f"http://{host}:{site.client.port}")


@pytest.fixture
async def public_site(store: Repository) -> AsyncIterator[Site]:
    """The bot behind a reverse proxy at https://domino.example.com, with the Activity."""
    served = Site(store, Discord(), public_hosts=(PUBLIC,))
    await served.start()
    yield served
    await served.close_pages()
    await served.stop()


async def test_the_public_name_and_the_activitys_are_answered(public_site: Site) -> None:
    """Through the proxy (its port not the bot's), and inside Discord, whose proxy asks
    the URL mapping's name (the public one) for a page of the Activity's origin."""
    await can_play(public_site, PUBLIC, f"https://{PUBLIC}")
    await can_play(public_site, PUBLIC, "https://555.discordsays.com")
    await can_play(public_site, "555.discordsays.com", "https://555.discordsays.com")


async def test_a_rebound_name_is_refused_beside_a_public_one(public_site: Site) -> None:
    async with aiohttp.ClientSession() as session:
        forged = headers("rebound.example", "https://rebound.example")
        answer = await session.get(public_site.client.make_url("/"), headers=forged)
        assert answer.status == 421
        another_site = headers(PUBLIC, "https://rebound.example")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(public_site.client.make_url("/ws"), headers=another_site)
        assert refused.value.status == 403


async def can_play(site: Site, host: str, origin: str) -> None:
    """A page asked for as ``host`` from ``origin`` is served, takes a name and opens its
    socket, greeted by that name. An HTTPS origin stands for a TLS proxy in front of the
    bot: the browser holds a Secure cookie then, and sends it on that HTTPS leg."""
    sent = headers(host, origin)
    proxied = [str(site.client.make_url("/"))] if origin.startswith("https://") else []
    jar = aiohttp.CookieJar(unsafe=True, treat_as_secure_origin=proxied)
    async with aiohttp.ClientSession(cookie_jar=jar) as session:
        page = await session.get(site.client.make_url("/"), headers=sent)
        assert page.status == 200 and "<html" in await page.text()
        named = await session.post(
            site.client.make_url("/api/guest"), json={"name": "Ann"}, headers=sent
        )
        assert named.status == 200, await named.text()
        socket = await session.ws_connect(site.client.make_url("/ws"), headers=sent)
        hello = await Page(session, socket, None).next("hello")
        await socket.close()
    assert hello["you"]["name"] == "Ann"


@pytest.mark.parametrize(
    ("header", "known"),
    [
        ("LOCALHOST:8080", True),  # browsers lower-case names; a name is any case
        ("[::ffff:127.0.0.1]:8080", True),
        ("Domino.Example.com", True),
        ("127.0.0.1.nip.io:8080", False),  # a public name that resolves to loopback
        ("localhost.rebound.example", False),
        ("rebound.example@localhost", False),
        ("localhost:8080/x", False),
        ("", False),
        (None, False),
    ],
)
def test_only_a_whole_known_name_is_known(header: str | None, known: bool) -> None:
    assert KnownHosts.of([PUBLIC]).knows(header) is known
