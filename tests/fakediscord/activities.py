"""What the fake Discord keeps and answers for an Activity (a web page Discord embeds in a
channel): the OAuth2 grants that identify its players and the running instances of it.

Discord's side of the Embedded App SDK, as its developer documentation describes it:

- The page's ``authorize`` command, once the user accepts, gets a **code** from Discord's
  client: :meth:`Activities.authorize` is that client. A code is for one application
  (``client_id``), is single-use and expires :data:`CODE_LIFETIME` seconds after it was
  issued.
- The app's server exchanges the code at ``POST /oauth2/token`` (a form, with the client's
  id and secret) for an **access token** of the user: :func:`exchange_code`. The route is
  not in Discord's OpenAPI description, so the form is checked here, by hand, against the
  OAuth2 documentation; a malformed request is a :attr:`FakeDiscord.violations` entry as
  well as Discord's refusal.
- ``GET /users/@me`` with ``Authorization: Bearer <access token>`` is that user
  (:func:`current_user`); the page's ``authenticate`` command trusts the same token.
- A user who launches the Activity in a channel starts an **instance** there, or joins the
  channel's running one; the instance ends when its last user leaves.
  ``GET /applications/{application_id}/activity-instances/{instance_id}`` with the bot's
  token tells the app's server who is in it and where (:func:`get_instance`), so that
  server can refuse a page that only claims to be inside Discord.
- Answering an interaction with ``LAUNCH_ACTIVITY`` (callback type 12) opens the Activity
  in the interaction's channel for the user who sent it (:meth:`Activities.launch_for`).

Times are read from :attr:`Activities.clock`, which the tests can move forward instead of
waiting.
"""

from __future__ import annotations

import base64
import binascii
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord, Files, Interaction, Parts

FORM = "application/x-www-form-urlencoded"
"""The only body the token endpoint takes (the OAuth2 documentation: JSON is refused)."""
CODE_LIFETIME = 100.0
"""Seconds an authorization code can be exchanged for (Discord's staff, discord-api-docs
issue 2526: codes "are one time use and expire 100 seconds after creation")."""
TOKEN_LIFETIME = 604_800
"""Seconds an access token lasts: the ``expires_in`` of Discord's documented example."""
CLIENT_SECRET = "fake-client-secret"
"""The fake application's OAuth2 client secret."""
LAUNCH_ACTIVITY = 12
"""The interaction callback type that launches the app's Activity."""
AUTOCOMPLETE = 4
"""The one interaction type (besides a ping) that cannot be answered by launching."""
ENTRY_POINT = 4
"""The type of an application's Entry Point command (``PRIMARY_ENTRY_POINT``)."""
ENTRY_POINT_REMOVED = {
    "message": "You cannot remove this app's Entry Point command in a bulk update operation."
    " Please include the Entry Point command in your update request or delete it separately.",
    "code": 50240,
}
"""Discord's refusal of a global overwrite without the Entry Point command."""
UNAUTHORIZED = {"message": "401: Unauthorized", "code": 0}
NOT_FOUND = {"message": "404: Not Found", "code": 0}
"""What Discord answers for an unknown activity instance (its Activities guide)."""
INVALID_GRANT = {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
"""Discord's answer for a code it will not exchange: unknown, used, expired, or another
client's (the same words for each, as reported in discord-api-docs issue 5579)."""
Answer = tuple[int, dict[str, Any]]


class Clock:
    """The fake's time for grants: the monotonic clock, plus however far the tests have
    moved it forward."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def now(self) -> float:
        return time.monotonic() + self.ahead

    def advance(self, seconds: float) -> None:
        """As if ``seconds`` had passed (a code or token expires without a test waiting)."""
        self.ahead += seconds


@dataclass
class Grant:
    """What a user allowed an application: the scopes, for one client, until a time."""

    user_id: int
    client_id: int
    scopes: tuple[str, ...]
    expires_at: float
    locale: str = "en-US"
    redirect_uri: str | None = None
    """The redirect URI the code was asked for with, which its exchange must repeat."""
    used: bool = False
    """An authorization code already exchanged (a second exchange is refused)."""


@dataclass
class Instance:
    """One running Activity of an application in a guild channel."""

    application_id: int
    launch_id: int
    guild_id: int
    channel_id: int
    users: list[int] = field(default_factory=list)
    """The connected users, in the order they came."""

    @property
    def location_id(self) -> str:
        return f"gc-{self.guild_id}-{self.channel_id}"

    @property
    def id(self) -> str:
        """Shaped as Discord's are: launch id, location kind, guild and channel."""
        return f"i-{self.launch_id}-{self.location_id}"

    def to_dict(self) -> dict[str, Any]:
        """The ``EmbeddedActivityInstance`` of Discord's OpenAPI description."""
        return {
            "application_id": str(self.application_id),
            "instance_id": self.id,
            "launch_id": str(self.launch_id),
            "location": {
                "id": self.location_id,
                "kind": "gc",
                "channel_id": str(self.channel_id),
                "guild_id": str(self.guild_id),
            },
            "users": [str(user) for user in self.users],
        }


class Activities:
    """The fake Discord's Activities: ``fake.activities``.

    Read by tests: :attr:`instances` (the running ones by id), :attr:`launched` (the
    instance each ``LAUNCH_ACTIVITY`` answer opened, by interaction id), :attr:`tokens`
    (access tokens' grants)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.clock = Clock()
        self.applications: dict[int, str] = {fake.application_id: CLIENT_SECRET}
        """Client secrets by application (client) id: the fake's own, and any
        :meth:`add_application` made for a test of another app's codes."""
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, Grant] = {}
        self.instances: dict[str, Instance] = {}
        self.launched: dict[int, str] = {}

    @property
    def client_id(self) -> int:
        """The fake application's OAuth2 client id (on Discord, the application's id)."""
        return self.fake.application_id

    @property
    def client_secret(self) -> str:
        return self.applications[self.client_id]

    def add_application(self) -> tuple[int, str]:
        """Another application with Activities: (its client id, its secret)."""
        client_id = self.fake.new_id()
        self.applications[client_id] = secrets.token_urlsafe(24)
        return client_id, self.applications[client_id]

    def enable(self) -> dict[str, Any]:
        """Turn Activities on for the fake application, as the developer portal does: a
        global Entry Point command, "Launch", that Discord handles by launching it."""
        command = {
            "id": str(self.fake.new_id()),
            "application_id": str(self.fake.application_id),
            "version": str(self.fake.new_id()),
            "name": "launch",
            "description": "",
            "type": ENTRY_POINT,
            "handler": 2,
            "integration_types": [0, 1],
            "contexts": [0, 1, 2],
            "default_member_permissions": None,
            "guild_id": None,
        }
        self.fake.commands.setdefault(None, []).append(command)
        return command

    # -- OAuth2 ----------------------------------------------------------------------------

    def authorize(
        self,
        user_id: int,
        client_id: int | None = None,
        scopes: Iterable[str] = ("identify",),
        *,
        locale: str = "en-US",
        redirect_uri: str | None = None,
    ) -> str:
        """A code for ``client_id`` (by default the fake's app), as Discord's client hands
        one to the page when the user accepts its ``authorize`` request. ``locale`` is
        the user's Discord language, which ``GET /users/@me`` reports."""
        client_id = self.client_id if client_id is None else client_id
        if client_id not in self.applications:
            raise ValueError(f"no application {client_id} on this fake Discord")
        if user_id not in self.fake.users:
            raise ValueError(f"no user {user_id} on this fake Discord")
        code = secrets.token_urlsafe(22)
        expires = self.clock.now() + CODE_LIFETIME
        self.codes[code] = Grant(
            user_id, client_id, tuple(scopes), expires, locale, redirect_uri=redirect_uri
        )
        return code

    def exchange(self, form: dict[str, str], basic: tuple[str, str] | None) -> Answer:
        """Discord's answer to a token request: the access token for a good code, else
        the OAuth2 error a client reads (``invalid_client``, ``invalid_grant`` …)."""
        grant_type = form.get("grant_type")
        if grant_type != "authorization_code":
            self.fake.violation(
                f"POST /oauth2/token: grant_type {grant_type!r} (the fake knows only "
                "authorization_code)"
            )
            return 400, {"error": "unsupported_grant_type"}
        client_id, secret = basic or (form.get("client_id", ""), form.get("client_secret", ""))
        if not client_id.isdigit() or self.applications.get(int(client_id)) != secret:
            return 401, {"error": "invalid_client"}
        code = form.get("code")
        if not code:
            self.fake.violation("POST /oauth2/token: no code")
            return 400, {"error": "invalid_request", "error_description": 'Missing "code".'}
        grant = self.codes.get(code)
        if (
            grant is None
            or grant.used
            or grant.client_id != int(client_id)
            or grant.expires_at <= self.clock.now()
            or (grant.redirect_uri is not None and form.get("redirect_uri") != grant.redirect_uri)
        ):
            return 400, INVALID_GRANT
        grant.used = True
        token = secrets.token_urlsafe(22)
        self.tokens[token] = Grant(
            grant.user_id,
            grant.client_id,
            grant.scopes,
            self.clock.now() + TOKEN_LIFETIME,
            grant.locale,
        )
        return 200, {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": TOKEN_LIFETIME,
            "refresh_token": secrets.token_urlsafe(22),
            "scope": " ".join(grant.scopes),
        }

    def grant_for(self, access_token: str) -> Grant | None:
        """The live grant behind an access token; None for an unknown or expired one (what
        Discord's client checks when the page sends ``authenticate``)."""
        grant = self.tokens.get(access_token)
        if grant is None or grant.expires_at <= self.clock.now():
            return None
        return grant

    def expire(self, access_token: str) -> None:
        """End an access token now, as if its lifetime had run out."""
        self.tokens[access_token].expires_at = self.clock.now()

    def user_for(self, access_token: str) -> dict[str, Any] | None:
        """The user an access token with the ``identify`` scope stands for, as
        ``GET /users/@me`` shows it; None if the token is not good for that."""
        grant = self.grant_for(access_token)
        if grant is None or "identify" not in grant.scopes:
            return None
        return {
            **self.fake.users[grant.user_id],
            "banner": None,
            "accent_color": None,
            "mfa_enabled": False,
            "locale": grant.locale,
            "premium_type": 0,
        }

    # -- instances -------------------------------------------------------------------------

    def launch(self, application_id: int, channel_id: int, guild_id: int, user_id: int) -> str:
        """``user_id`` opens the application's Activity in a guild channel: they join the
        instance running there, or start one. A user is in one Activity at a time, as in
        Discord's client, so they leave any other first. Returns the instance's id."""
        channel = self.fake.channels.get(channel_id)
        if channel is None or int(channel["guild_id"]) != guild_id:
            raise ValueError(f"no channel {channel_id} in guild {guild_id}")
        if user_id not in self.fake.guilds[guild_id]["members"]:
            raise ValueError(f"user {user_id} is not a member of guild {guild_id}")
        running = next(
            (
                i
                for i in self.instances.values()
                if i.application_id == application_id and i.channel_id == channel_id
            ),
            None,
        )
        for other in list(self.instances.values()):
            if other is not running and user_id in other.users:
                self.leave(other.id, user_id)
        if running is None:
            running = Instance(application_id, self.fake.new_id(), guild_id, channel_id)
            self.instances[running.id] = running
        if user_id not in running.users:
            running.users.append(user_id)
        return running.id

    def leave(self, instance_id: str, user_id: int) -> None:
        """``user_id`` closes the Activity; the instance ends with its last user (its id is
        never used again: the next launch there starts a new one)."""
        instance = self.instances[instance_id]
        instance.users.remove(user_id)
        if not instance.users:
            del self.instances[instance_id]

    def launch_for(self, interaction: Interaction) -> str:
        """Answering ``interaction`` with ``LAUNCH_ACTIVITY``: the fake app's Activity opens
        in the interaction's channel for the user who sent it. Returns the instance id."""
        if interaction.kind == AUTOCOMPLETE:
            self.fake.violation(f"interaction {interaction.id}: an autocomplete cannot launch")
        guild_id = int(self.fake.channels[interaction.channel_id]["guild_id"])
        instance_id = self.launch(
            self.fake.application_id, interaction.channel_id, guild_id, interaction.user_id
        )
        self.launched[interaction.id] = instance_id
        return instance_id


# -- routes (registered in tests/fakediscord/server.py) ---------------------------------------


def _basic_credentials(request: web.Request) -> tuple[str, str] | None:
    """(client id, secret) from an ``Authorization: Basic`` header, the other way the
    OAuth2 documentation allows a client to identify itself."""
    scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        client_id, _, secret = base64.b64decode(encoded, validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return "", ""
    return client_id, secret


async def exchange_code(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Answer:
    """``POST /oauth2/token``: only a form, as Discord's OAuth2 documentation says (a JSON
    body is answered ``unsupported_grant_type``, as Discord does)."""
    if request.content_type != FORM or not isinstance(body, dict):
        fake.violation(f"POST /oauth2/token: a {request.content_type} body (Discord takes {FORM})")
        return 400, {"error": "unsupported_grant_type"}
    return fake.activities.exchange(body, _basic_credentials(request))


def current_user(fake: FakeDiscord, authorization: str) -> Answer:
    """``GET /users/@me`` with a user's ``Bearer`` token."""
    user = fake.activities.user_for(authorization.removeprefix("Bearer "))
    return (200, user) if user is not None else (401, UNAUTHORIZED)


def current_authorization(fake: FakeDiscord, authorization: str) -> Answer:
    """``GET /oauth2/@me`` with a user's ``Bearer`` token: its application, scopes,
    expiry and (with ``identify``) user."""
    token = authorization.removeprefix("Bearer ")
    grant = fake.activities.grant_for(token) if authorization.startswith("Bearer ") else None
    if grant is None:
        return 401, UNAUTHORIZED
    answer: dict[str, Any] = {
        "application": fake.application(grant.client_id),
        "scopes": list(grant.scopes),
        "expires": datetime.fromtimestamp(grant.expires_at, UTC).isoformat(),
    }
    user = fake.activities.user_for(token)
    if user is not None:
        answer["user"] = user
    return 200, answer


def entry_point_of(commands: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    return next((c for c in commands if c.get("type") == ENTRY_POINT), None)


async def get_instance(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Answer:
    """``GET /applications/{application_id}/activity-instances/{instance_id}``, with the
    bot's token only (the OpenAPI description's security for it); an instance of another
    application, or one asked for under another application's id, is not found."""
    if request.headers.get("Authorization") != f"Bot {fake.token}":
        return 401, UNAUTHORIZED
    instance = fake.activities.instances.get(parts["instance_id"])
    application_id = parts["application_id"]
    if (
        instance is None
        or application_id != str(fake.application_id)
        or str(instance.application_id) != application_id
    ):
        return 404, NOT_FOUND
    return 200, instance.to_dict()
