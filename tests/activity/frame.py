"""Discord's client frame for the Activity tests: a page that holds the bot's page in an
``<iframe>``, as Discord's client does, and answers its Embedded App SDK (``frame.js``).

Where it stands. The SDK takes messages only from a few origins (its own page's, and
Discord's: ``https://discord.com`` and the like), so the frame must be on one of them.
Each browser context maps ``https://discord.com`` to this frame's server (Playwright
routes every request for it there, so no certificate is needed) and lets that origin
reach the bot on the loopback address (Chromium's Local Network Access permission: in
production the page comes from Discord's proxy, a public address, and nothing is asked).
The ``<iframe>`` loads the bot's own ``http://127.0.0.1:<port>/`` with the query Discord
adds; the page's socket then has the bot's own origin, which the server allows (in
production it is ``https://<app id>.discordsays.com``, which the server allows too).

Who it stands for. :meth:`FrameServer.stand` makes a frame for one member of the fake
Discord in one Activity instance; the frame's server answers the frame's questions from
the fake (``fake.activities``): a code when the page's ``authorize`` is accepted, whether
the token of its ``authenticate`` is good, who is in the instance. The server runs on the
fake's event loop; :func:`open_activity` (Playwright's sync API) opens a frame in a new
browser context and gives the harness of ``tests/browser`` a person whose page is the
Activity's.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from aiohttp import web

from tests.browser.harness import SOCKETS_KEPT, WAIT_MS, Monitor, Person
from tests.fakediscord.server import FakeDiscord

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Frame, Keyboard, Mouse, Page, Route

DISCORD = "https://discord.com"
"""The frame's origin: Discord's own, as the SDK expects its parent's to be."""
HERE = Path(__file__).parent
INVALID_CLIENTID = 4007
INVALID_TOKEN = 4009
INVALID_USER = 4010
"""Discord's RPC error codes for a command it refuses (the SDK's ``RPCErrorCodes``)."""


@dataclass(frozen=True)
class Stand:
    """What one frame stands for: a member of the fake Discord, in an Activity instance
    of an application (the fake's own unless told), in a guild channel."""

    frame_id: str
    user_id: int
    instance_id: str
    client_id: int
    guild_id: int
    channel_id: int
    page: str
    """The Activity's page, loaded in the frame with Discord's query added."""
    locale: str = "en-US"

    @property
    def url(self) -> str:
        """The frame's own address (on :data:`DISCORD`)."""
        return f"{DISCORD}/activities/{self.frame_id}"

    def query(self) -> dict[str, str]:
        """What Discord adds to the Activity's address."""
        return {
            "instance_id": self.instance_id,
            "location_id": f"gc-{self.guild_id}-{self.channel_id}",
            "launch_id": self.instance_id.split("-")[1],
            "frame_id": self.frame_id,
            "platform": "desktop",
            "guild_id": str(self.guild_id),
            "channel_id": str(self.channel_id),
        }


class FrameServer:
    """The frames' server, on the fake Discord's event loop: the frame's files, and its
    questions answered from ``fake``."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.stands: dict[str, Stand] = {}
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/activities/{frame}", self._page)
        app.router.add_get("/frame.js", self._script)
        app.router.add_get("/activities/{frame}/setup", self._setup)
        app.router.add_post("/activities/{frame}/authorize", self._authorize)
        app.router.add_post("/activities/{frame}/authenticate", self._authenticate)
        app.router.add_get("/activities/{frame}/participants", self._participants)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def stand(
        self,
        user_id: int,
        instance_id: str,
        page: str,
        *,
        locale: str = "en-US",
    ) -> Stand:
        """A frame for ``user_id`` in the running instance ``instance_id`` (whether or not
        the user is one of its participants: the bot must find out), showing ``page``."""
        instance = self.fake.activities.instances[instance_id]
        made = Stand(
            uuid.uuid4().hex,
            user_id,
            instance_id,
            instance.application_id,
            instance.guild_id,
            instance.channel_id,
            page,
            locale,
        )
        self.stands[made.frame_id] = made
        return made

    def _of(self, request: web.Request) -> Stand:
        made = self.stands.get(request.match_info["frame"])
        if made is None:
            raise web.HTTPNotFound()
        return made

    def _user(self, user_id: int) -> dict[str, Any]:
        """The member as the SDK's commands show a user (no null where it wants none)."""
        user = self.fake.users[user_id]
        return {key: value for key, value in user.items() if value is not None}

    async def _page(self, request: web.Request) -> web.StreamResponse:
        self._of(request)
        return web.FileResponse(HERE / "frame.html")

    async def _script(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(HERE / "frame.js", headers={"Content-Type": "text/javascript"})

    async def _setup(self, request: web.Request) -> web.Response:
        made = self._of(request)
        return web.json_response(
            {
                "client_id": str(made.client_id),
                "page": made.page,
                "query": made.query(),
                "user": self._user(made.user_id),
                "locale": made.locale,
            }
        )

    async def _authorize(self, request: web.Request) -> web.Response:
        """The member accepts the page's ``authorize``: a code for them, for the
        application the page names (only the frame's own)."""
        made = self._of(request)
        args = await request.json()
        if args.get("client_id") != str(made.client_id):
            return _refused(INVALID_CLIENTID, "Invalid client id")
        if args.get("response_type") != "code":
            return _refused(INVALID_CLIENTID, "Invalid response type")
        scope = args.get("scope") or []
        scopes = scope.split() if isinstance(scope, str) else list(scope)
        code = self.fake.activities.authorize(
            made.user_id, made.client_id, scopes, locale=made.locale
        )
        return web.json_response({"code": code})

    async def _authenticate(self, request: web.Request) -> web.Response:
        """The page's ``authenticate``: a live token of this application, for this member,
        is answered with the user, scopes and application; anything else is refused."""
        made = self._of(request)
        token = (await request.json()).get("access_token")
        grant = self.fake.activities.grant_for(token) if isinstance(token, str) else None
        if grant is None or grant.client_id != made.client_id:
            return _refused(INVALID_TOKEN, "Invalid OAuth2 access token")
        if grant.user_id != made.user_id:
            return _refused(INVALID_USER, "The token is another user's")
        user = self._user(made.user_id)
        application = self.fake.application(made.client_id)
        return web.json_response(
            {
                "access_token": token,
                "user": {
                    "id": user["id"],
                    "username": user["username"],
                    "discriminator": user["discriminator"],
                    "global_name": user.get("global_name"),
                    "avatar": user.get("avatar"),
                    "public_flags": 0,
                },
                "scopes": list(grant.scopes),
                "expires": datetime.fromtimestamp(grant.expires_at, UTC).isoformat(),
                "application": {
                    "id": application["id"],
                    "name": application["name"],
                    "description": application["description"],
                    "icon": application["icon"],
                },
            }
        )

    async def _participants(self, request: web.Request) -> web.Response:
        """Who is in the frame's instance now (none once it has ended)."""
        made = self._of(request)
        instance = self.fake.activities.instances.get(made.instance_id)
        users = [] if instance is None else instance.users
        return web.json_response({"participants": [self._participant(u) for u in users]})

    def _participant(self, user_id: int) -> dict[str, Any]:
        user = self.fake.users[user_id]
        return {
            "id": user["id"],
            "username": user["username"],
            "global_name": user.get("global_name"),
            "discriminator": user["discriminator"],
            "avatar": user.get("avatar"),
            "flags": 0,
            "bot": False,
        }


def _refused(code: int, message: str) -> web.Response:
    """The frame answers its command with Discord's RPC error."""
    return web.json_response({"code": code, "message": message}, status=400)


# -- the browser side (Playwright's sync API) --------------------------------------------------


class InFrame:
    """The Activity's page as the harness of ``tests/browser`` drives a page: the
    document is the ``<iframe>``'s (found once the frame has loaded it); the keyboard,
    the mouse and the events (sockets, errors) are the tab's, which sees its frames'."""

    def __init__(self, tab: Page) -> None:
        self.tab = tab
        self._frame: Frame | None = None

    @property
    def frame(self) -> Frame:
        if self._frame is None:
            element = self.tab.wait_for_selector("iframe#activity[src]", timeout=WAIT_MS)
            assert element is not None
            frame = element.content_frame()
            assert frame is not None, "the frame holds no page"
            self._frame = frame
        return self._frame

    @property
    def keyboard(self) -> Keyboard:
        return self.tab.keyboard

    @property
    def mouse(self) -> Mouse:
        return self.tab.mouse

    def emulate_media(self, **media: Any) -> None:
        """Emulate media features (reduced motion) for the tab, and so for its frame."""
        self.tab.emulate_media(**media)

    def on(self, event: str, handler: Callable[..., object]) -> None:
        self.tab.on(event, handler)  # type: ignore[call-overload]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.frame, name)


@dataclass
class Activity:
    """A member's Activity open in a browser: the harness's person (whose page is the
    one in the frame) and the frame's tab."""

    person: Person
    tab: Page
    sdk: bool = True
    """Whether the page is to speak to Discord at all: a bot with no Activity set up
    tells its page so, and the page then loads no SDK (no handshake)."""

    def record(self) -> dict[str, Any]:
        """What the frame kept: the page's commands, logs, refusals and problems."""
        kept: dict[str, Any] = self.tab.evaluate(
            "() => JSON.parse(JSON.stringify(window.discordFrame))"
        )
        return kept

    def commands(self) -> list[str]:
        """The commands the page's SDK sent, in order (its console apart)."""
        return [entry["cmd"] for entry in self.record()["commands"]]

    def token(self) -> str:
        """The access token the page told the bot's server (on its socket; the first
        told, as sockets a test forges on the page are watched too)."""
        told = [m for m in self.person.sent if m.get("type") == "activity"]
        assert told, f"{self.person.label}'s page never joined its Activity"
        token: str = told[0]["token"]
        return token

    def participants_changed(self) -> bool:
        """Tell the page who is in the instance now, as Discord does when someone comes
        or goes; whether it was told (it must have subscribed)."""
        told: bool = self.tab.evaluate("() => window.discordFrame.participantsChanged()")
        return told


def open_activity(
    browser: Browser,
    monitor: Monitor,
    frames_url: str,
    stand: Stand,
    label: str,
    prepare: Callable[[BrowserContext], None] | None = None,
    width: int = 1280,
) -> Activity:
    """``stand``'s member opens the Activity: a browser context of their own, ``width``
    pixels wide (Discord's mobile client gives an Activity a phone's width), Discord's
    origin mapped to the frames' server (``frames_url``), the frame loaded, the page in
    it watched by ``monitor`` (their guest id is their Discord id). ``prepare`` sets the
    context up further before anything loads (a route of a test's own)."""
    from playwright.sync_api import Error as PlaywrightError

    context = browser.new_context(locale=stand.locale, viewport={"width": width, "height": 900})
    context.set_default_timeout(WAIT_MS)
    # A Chromium from before Local Network Access knows no such permission, nor needs it.
    with contextlib.suppress(PlaywrightError):
        context.grant_permissions(["local-network-access"], origin=DISCORD)

    def to_frames(route: Route) -> None:
        local = frames_url + route.request.url.removeprefix(DISCORD)
        route.fulfill(response=route.fetch(url=local))

    context.route(f"{DISCORD}/**", to_frames)
    context.add_init_script(SOCKETS_KEPT)
    if prepare is not None:
        prepare(context)
    tab = context.new_page()
    page = InFrame(tab)
    person = Person(label, context, cast("Page", page), guest_id=str(stand.user_id))
    monitor.attach(person)
    tab.goto(stand.url)
    page.frame.wait_for_load_state()
    return Activity(person, tab)


def problems(activity: Activity) -> list[str]:
    """What the page did against Discord's protocol, and commands the frame did not
    answer: each one named."""
    kept = activity.record()
    found: list[str] = list(kept["problems"])
    if kept["handshakes"] != int(activity.sdk):
        found.append(f"{kept['handshakes']} handshakes")
    if kept["closed"] is not None:
        found.append(f"the page closed the connection: {json.dumps(kept['closed'])}")
    return found
