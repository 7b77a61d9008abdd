"""The browser face's web server (aiohttp): the page, the guest cookie, the read-only
pages' data and the socket (``docs/WEB.md``).

It runs in the bot's own process, on the bot's event loop and table service: with no
Discord token it is the whole bot (``bot.local``); with one, it runs beside the Discord
face when ``WEB_PORT`` is set.
"""

from __future__ import annotations

import asyncio
import errno
import inspect
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, hdrs, web

from bot.coaching import Coach
from bot.refusals import Malformed, Refusal
from bot.service import TableService
from bot.standings import Standings
from web import actions, reads
from web.activity import Activities, activity_host, activity_origin
from web.face import Reader, WebFace
from web.hosts import KnownHosts
from web.identity import (
    COOKIE,
    COOKIE_DAYS,
    LOCAL_SERVER,
    Guest,
    Signer,
    checked_name,
    new_guest_id,
)
from web.languages import choose
from words import refusals

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
PAGES = ("/", "/t/{table}", "/replay/{game}", "/rules/{game}", "/boards")
"""The page's own paths: each serves the same page, which reads its path."""
ELSEWHERE = r"/{path:(?!(?:api|static|ws)(?:/|$)).*}"
"""Any other path but the API's, the page's files' and the socket's: an address typed
by hand (a slash added at its end, a word guessed). It is answered 404 with the page
all the same, which says what is there in the reader's language, with its links."""
GUEST_MOST_BYTES = 1024
SOCKET_MOST_BYTES = 64 * 1024
"""aiohttp drops a socket whose message is longer; up to this, a message over the
protocol's own limit (``web.protocol.MOST_BYTES``) gets a clear refusal instead."""
HEARTBEAT_SECONDS = 30.0
"""aiohttp pings each socket this often, so a page that vanished is noticed."""
FRAMED_BY = "'self' https://discord.com https://*.discord.com https://discordapp.com"
"""Who may show the pages in a frame: the page itself, and Discord (the Activity, in its
web and desktop clients, canary and PTB among them). Another site framing the page could
dress it up to have a reader click what it hides (clickjacking)."""
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
        f" connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors {FRAMED_BY}"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
MISDIRECTED = (
    "This server does not answer for this address. Open it at its own address (localhost,"
    " or its IP address); its operator can add the name to WEB_PUBLIC_HOSTS."
)
"""The answer to a request for a name the server does not know (``web.hosts``): for the
operator who reached it by a name they have not listed yet."""

FACE_KEY = web.AppKey("face", WebFace)
SIGNER_KEY = web.AppKey("signer", Signer)
HOSTS_KEY = web.AppKey("hosts", KnownHosts)
TAKING_UP_KEY = web.AppKey("taking_up", asyncio.Task[None])
REPLAYING_KEY = web.AppKey("replaying", asyncio.Lock)
"""Held while a replay is built: one at a time, as the Discord face's are (a long
match's is seconds of a thread and tens of megabytes)."""


def make_app(
    service: TableService,
    signer: Signer,
    activities: Activities | None = None,
    coach: Coach | None = None,
    public_hosts: Iterable[str] = (),
) -> web.Application:
    """The web application over ``service`` (its face is added to the service as a
    listener while the application runs, and to ``coach``'s heralds: a finished table's
    summary shows each member's accuracy once the game is analysed); with
    ``activities``, also the page of the Discord Activity (``web.activity``). It answers
    requests for ``localhost``, IP addresses and ``public_hosts`` only (``web.hosts``)."""
    app = web.Application(
        middlewares=[_headers, _known_host, _worded], client_max_size=GUEST_MOST_BYTES
    )
    face = WebFace(service, activities)
    app[FACE_KEY] = face
    app[SIGNER_KEY] = signer
    app[REPLAYING_KEY] = asyncio.Lock()
    app[HOSTS_KEY] = KnownHosts.of(
        public_hosts, None if activities is None else activity_host(activities.client_id)
    )
    for path in PAGES:
        app.router.add_get(path, _page)
    app.router.add_static("/static/", STATIC, follow_symlinks=False)
    app.router.add_post("/api/guest", _guest)
    app.router.add_post("/api/token", _token)
    app.router.add_get("/api/boards", _boards)
    app.router.add_get("/api/rules/{game}", _rules)
    app.router.add_get("/api/games/{game}", _game)
    app.router.add_get("/ws", _socket)
    app.router.add_get(ELSEWHERE, _nowhere)  # last: every route above comes first

    async def listening(app: web.Application) -> None:
        service.add_listener(face)
        if coach is not None:
            coach.add_herald(face)
        app[TAKING_UP_KEY] = asyncio.create_task(face.take_up(), name="web-take-up")

    async def closing(app: web.Application) -> None:
        app[TAKING_UP_KEY].cancel()
        service.remove_listener(face)
        if coach is not None:
            coach.remove_herald(face)
        await face.close()

    app.on_startup.append(listening)
    app.on_shutdown.append(closing)
    return app


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    response = await handler(request)
    if not isinstance(response, web.WebSocketResponse):
        response.headers.update(SECURITY_HEADERS)
    return response


@web.middleware
async def _known_host(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every request (the page, its files, the API, the socket) is for a name this
    server knows, or is refused before anything is read or changed: a rebound name's
    page would pass the same-origin check (``web.hosts``)."""
    if not request.app[HOSTS_KEY].knows(request.headers.get(hdrs.HOST)):
        return web.Response(status=421, text=MISDIRECTED)
    return await handler(request)


WORDED = frozenset({405, 413, 415})
"""What aiohttp refuses on its own (the wrong method, a body too long) or the API does
(a body that is not JSON), worded for the API's callers (``_worded``)."""


@web.middleware
async def _worded(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A request to the API the page never makes (the wrong method, a body that is not
    JSON or too long) is answered as the API answers every refusal, in words in the
    asker's language (``{"refused": text}``, which the page shows), not in aiohttp's
    English; nothing was read, so nothing changed."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status not in WORDED or not request.path.startswith("/api/"):
            raise
        answer = _refused(Malformed(), request, error.status)
        if hdrs.ALLOW in error.headers:  # a 405 says which methods are
            answer.headers[hdrs.ALLOW] = error.headers[hdrs.ALLOW]
        return answer


async def _page(request: web.Request) -> web.StreamResponse:
    return _index()


async def _nowhere(request: web.Request) -> web.StreamResponse:
    """An address that is none of the page's (:data:`ELSEWHERE`)."""
    return _index(404)


def _index(status: int = 200) -> web.FileResponse:
    """The page itself, which reads its address (never cached: a new bot's page is the
    one that matches its server)."""
    return web.FileResponse(
        STATIC / "index.html", status=status, headers={"Cache-Control": "no-cache"}
    )


def _guest_of(request: web.Request) -> Guest | None:
    return request.app[SIGNER_KEY].read(request.cookies.get(COOKIE))


def _same_origin(request: web.Request) -> bool:
    """The request comes from a page this server served (a socket or a form from
    another site carries its own ``Origin``, and never gets this one): this server's
    own, or the Activity's, which Discord's proxy serves the same page under. The
    ``Host`` it is compared with is one the server knows (``_known_host``), so a rebound
    name's page, whose origin is its own name, never gets here."""
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    activities = request.app[FACE_KEY].activities
    if activities is not None and origin == activity_origin(activities.client_id):
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == request.host


def _refused(refusal: Refusal, request: web.Request, status: int = 400) -> web.Response:
    language = choose(request.query.get("lang"), request.headers.get("Accept-Language"))
    face = request.app[FACE_KEY]
    with face.speaking(language):
        text = refusals.refusal(refusal)
    return web.json_response({"refused": text}, status=status)


async def _posted(request: web.Request) -> dict[str, Any]:
    """A page's JSON object, from this server's own page (or the Activity's) only, and
    sent as JSON, as the page sends it (a body of another type, which a form can send,
    is refused unread); a body that is not a JSON object reads as an empty one (its
    fields are then missing, and refused as such)."""
    if not _same_origin(request):
        raise web.HTTPForbidden(text="cross-origin request refused")
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType()
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        return {}
    return body if isinstance(body, dict) else {}


async def _guest(request: web.Request) -> web.Response:
    """Take a name: the guest's cookie, signed; the same guest keeps their id when they
    change their name."""
    body = await _posted(request)
    try:
        name = checked_name(body.get("name"))
    except Refusal as refusal:
        return _refused(refusal, request)
    known = _guest_of(request)
    guest = Guest(known.id if known is not None else new_guest_id(), name)
    response = web.json_response({"id": str(guest.id), "name": guest.name})
    response.set_cookie(
        COOKIE,
        request.app[SIGNER_KEY].sign(guest),
        max_age=COOKIE_DAYS * 24 * 3600,
        httponly=True,
        samesite="Strict",
        # Behind a TLS proxy the request reaches the bot as plain HTTP, but the page's
        # origin (checked by ``_posted``) says it was served over HTTPS: never send the
        # cookie back in the clear then.
        secure=request.secure or urlsplit(request.headers["Origin"]).scheme == "https",
        path="/",
    )
    return response


async def _token(request: web.Request) -> web.Response:
    """The Activity's page exchanges its ``authorize`` code for an access token (the
    SDK's ``authenticate`` needs it): the exchange is the server's, as only it holds
    the application's secret."""
    activities = request.app[FACE_KEY].activities
    if activities is None:
        raise web.HTTPNotFound()
    code = (await _posted(request)).get("code")
    if not isinstance(code, str) or not 0 < len(code) <= 256:
        return _refused(Malformed("code"), request)
    try:
        token = await activities.exchange(code)
    except Refusal as refusal:
        return _refused(refusal, request, 401)
    return web.json_response({"access_token": token})


async def _read(
    request: web.Request, build: Callable[[], Awaitable[dict[str, Any]] | dict[str, Any]]
) -> web.Response:
    """A read-only page's data, worded in the asker's language (refused: 404)."""
    language = choose(request.query.get("lang"), request.headers.get("Accept-Language"))
    face = request.app[FACE_KEY]
    try:
        with face.speaking(language):
            made = build()
            data = await made if inspect.isawaitable(made) else made
    except Refusal as refusal:
        return _refused(refusal, request, 404)
    body = await asyncio.to_thread(_dumps, data)  # a long replay's is megabytes
    return web.json_response(text=body)


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


async def _boards(request: web.Request) -> web.Response:
    store = request.app[FACE_KEY].service.store
    guest = _guest_of(request)
    reader = None if guest is None else (guest.id, guest.name)
    return await _read(request, lambda: reads.boards(Standings(store), LOCAL_SERVER, reader))


async def _rules(request: web.Request) -> web.Response:
    return await _read(request, lambda: reads.rules(request.match_info["game"]))


async def _game(request: web.Request) -> web.Response:
    store = request.app[FACE_KEY].service.store
    game = request.match_info["game"]
    async with request.app[REPLAYING_KEY]:
        return await _read(request, lambda: reads.replay(Standings(store), game, LOCAL_SERVER))


async def _socket(request: web.Request) -> web.StreamResponse:
    """One page's socket: ``hello`` first, then its messages one at a time, in order."""
    if not _same_origin(request):
        raise web.HTTPForbidden(text="cross-origin socket refused")
    socket = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS, max_msg_size=SOCKET_MOST_BYTES)
    await socket.prepare(request)
    face = request.app[FACE_KEY]
    await face.taken_up()  # after a restart: once its tables, and the last ended, are back
    guest = _guest_of(request)
    reader = Reader(socket, guest, choose(None, request.headers.get("Accept-Language")))
    face.add(reader)
    face.greet(reader)
    try:
        async for message in socket:
            if message.type is WSMsgType.TEXT:
                await actions.handle(face, reader, message.data)
            elif message.type is WSMsgType.BINARY:
                await actions.handle(face, reader, "")
    finally:
        await face.remove(reader)
    return socket


class NotServed(Exception):
    """The page's server could not listen at its host and port (``error``: the port
    taken or not the bot's to use, or a host that is not this machine's): told apart
    from the bot's other failures, so the operator is sent to the right setting."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.error = error

    @property
    def port_taken(self) -> bool:
        """The port is in use, or closed to the bot: another port is the remedy."""
        return self.error.errno in (errno.EADDRINUSE, errno.EACCES)


async def serve(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Start serving ``app`` at ``host``:``port``; the caller cleans the runner up.
    :class:`NotServed` if it cannot listen there."""
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as error:
        await runner.cleanup()
        raise NotServed(error) from error
    return runner
