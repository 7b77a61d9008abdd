"""The fake Discord: an aiohttp server on 127.0.0.1 with the REST routes discord.py uses
and a gateway websocket (sharded like Discord's: :mod:`tests.fakediscord.gateway`). It
keeps the guilds, channels, messages (public, or ephemeral to one user), registered
commands and interactions; it enforces Discord's rate limits
(:mod:`tests.fakediscord.ratelimits`); it checks every request against the OpenAPI
description and Discord's documented limits, and records each breach in
:attr:`FakeDiscord.violations`, which the fixture turns into a test failure."""

from __future__ import annotations

import asyncio
import itertools
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from aiohttp import web

from tests.fakediscord import activities, spec
from tests.fakediscord.forms import read_body
from tests.fakediscord.gateway import Gateway, Session, shard_of
from tests.fakediscord.ratelimits import DISCORD, VIA, Limiter, RateLimits

API = "/api/v10"
EPHEMERAL = 1 << 6
ACK_DEADLINE = 3.0
ALL_PERMISSIONS = str((1 << 50) - 1)
NONCE_WINDOW = 300.0
"""Discord checks an enforced nonce "in the past few minutes"."""
JSON = "application/json"
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
"""The bot's permissions the fake checks, as Discord's permission bits number them."""
THREAD = 11
MISSING_ACCESS = {"message": "Missing Access", "code": 50001}
MISSING_PERMISSIONS = {"message": "Missing Permissions", "code": 50013}
UNKNOWN_CHANNEL = {"message": "Unknown Channel", "code": 10003}
UNKNOWN_MESSAGE = {"message": "Unknown Message", "code": 10008}
EMPTY_MESSAGE = {"message": "Cannot send an empty message", "code": 50006}
WRONG_CHANNEL_TYPE = {"message": "Cannot execute action on this channel type", "code": 50024}

T = TypeVar("T")


@dataclass
class Message:
    id: int
    channel_id: int
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    """Attachment bytes by filename."""
    flags: int = 0
    visible_to: int | None = None
    """The one user who sees an ephemeral message; None: everyone."""
    interaction_id: int | None = None
    posted_with: list[dict[str, Any]] = field(default_factory=list)
    """The components the message was posted with (edits change :attr:`components`)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author,
            "content": self.content,
            "timestamp": "2026-11-22T12:00:00.000000+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 0,
            "flags": self.flags,
        }

    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])]

    def text(self) -> str:
        """Everything a reader sees in words: content, embeds and attachment alt text."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
        parts += [a.get("description", "") for a in self.attachments]
        return "\n".join(p for p in parts if p)


DROPPED = 0
"""A fault (:meth:`FakeDiscord.fail_next`): the connection is closed with no answer, as a
reset or a network blip does; discord.py then raises aiohttp's error, not an HTTP one."""
ANSWER_LOST = -1
"""A fault: the request is done (the message made), then the connection is closed before
the answer, as when the connection drops just as Discord answers."""


@dataclass
class Held:
    """A request the fake keeps waiting (:meth:`FakeDiscord.hold_next`): ``arrived`` is
    set when it comes, and it is answered once the test sets ``release``; the test acts
    meanwhile, as if Discord were slow to answer."""

    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Interaction:
    id: int
    token: str
    user_id: int
    channel_id: int
    kind: int
    dispatched_at: float
    message_id: int | None = None
    """The message a component was clicked on."""
    acknowledged_at: float | None = None
    response_type: int | None = None
    original_id: int | None = None
    followups: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """discord.py reads a body as JSON only if Content-Type is exactly application/json
    (aiohttp's own helper appends a charset). Written with orjson, as discord.py reads
    it: the fake's CPU is taken from the bot it measures."""
    return web.Response(
        body=orjson.dumps(data),
        status=status,
        headers={"Content-Type": JSON, **VIA, **(headers or {})},
    )


BOT_TOKEN = "fake-token"


class FakeDiscord:
    """Start with ``await fake.start()``; point discord.py at :attr:`api_base` and
    :attr:`gateway_url`.

    ``rate_limits``: the limits enforced (Discord's by default; None: none), counted in
    :attr:`limiter` (None when off). ``shards``: the shard count ``GET /gateway/bot``
    recommends, which :meth:`add_guild` spreads new guilds over."""

    def __init__(self, *, rate_limits: RateLimits | None = DISCORD, shards: int = 1) -> None:
        if shards < 1:
            raise ValueError(f"a bot has at least one shard, not {shards}")
        self.shards = shards
        self.token = BOT_TOKEN
        """The one bot token this Discord knows; logging in with another is refused."""
        self.limiter = Limiter(rate_limits) if rate_limits is not None else None
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.application_id = self.new_id()
        self.bot_user = self._user_dict(self.application_id, "Domino Referee", bot=True)
        self.users: dict[int, dict[str, Any]] = {}
        self.guilds: dict[int, dict[str, Any]] = {}
        self.left: dict[int, dict[str, Any]] = {}
        """Guilds the bot was removed from (:meth:`remove_bot`), by id."""
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, Message] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.interactions: dict[str, Interaction] = {}
        self.violations: list[str] = []
        self.requests: list[tuple[str, str, float]] = []
        """(method, path, when) of every request, for benchmarks."""
        self.faults: dict[tuple[str, str], list[int]] = {}
        self.held: dict[tuple[str, str], list[Held]] = {}
        self.held_events: dict[str, list[dict[str, Any]]] = {}
        """Gateway events kept from the bot by their name (:meth:`hold_events`)."""
        self.nonce_window = NONCE_WINDOW
        """Seconds a message's nonce is held against a second message (see :meth:`sent`)."""
        self._nonces: dict[tuple[int, str, str], tuple[int, float]] = {}
        """(channel, author, nonce) → (the message made with it, when)."""
        self.sync_count = 0
        self.activities = activities.Activities(self)
        """OAuth2 grants and running Activities (:mod:`tests.fakediscord.activities`)."""
        self._waiting: dict[asyncio.Future[Any], Callable[[], Any]] = {}
        """What each :meth:`wait_for` waits for, by the future that answers it."""
        self.gateway = Gateway(
            lambda: list(self.guilds), self._ready, self.guild_payload, self._notify
        )
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- setting the scene ---------------------------------------------------------------

    def new_id(self, shard: int | None = None) -> int:
        """A fresh snowflake, later than every earlier one; with ``shard``, one whose
        guild would be on that shard of :attr:`shards` (the ids skip ahead to it)."""
        candidate = next(self._ids)
        if shard is None:
            return candidate
        if not 0 <= shard < self.shards:
            raise ValueError(f"no shard {shard} among {self.shards}")
        step = (shard - shard_of(candidate, self.shards)) % self.shards
        if step == 0:
            return candidate
        chosen = ((candidate >> 22) + step) << 22
        self._ids = itertools.count(chosen + 1)
        return chosen

    @staticmethod
    def _user_dict(user_id: int, name: str, bot: bool = False) -> dict[str, Any]:
        """A user as Discord's user object shows them (``UserResponse``)."""
        return {
            "id": str(user_id),
            "username": name.lower().replace(" ", "_"),
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def another_application(self, name: str = "Domino Referee (2)") -> None:
        """The token now logs in as another application (a new token put in ``.env``),
        whose bot user is another and which has no commands yet."""
        self.application_id = self.new_id()
        self.bot_user = self._user_dict(self.application_id, name, bot=True)
        self.commands.clear()

    def add_guild(
        self, name: str = "Test Server", channels: int = 3, shard: int | None = None
    ) -> dict[str, Any]:
        """A guild the bot is in, on ``shard`` (by default the shards take turns)."""
        if shard is None:
            shard = len(self.guilds) % self.shards
        guild_id = self.new_id(shard)
        guild = {"id": guild_id, "name": name, "members": [], "channels": [], "nicks": {}}
        self.guilds[guild_id] = guild
        for index in range(channels):
            self.add_channel(guild_id, f"table-{index + 1}")
        return guild

    def add_channel(
        self,
        guild_id: int,
        name: str,
        kind: int = 0,
        parent: int | None = None,
        channel_id: int | None = None,
    ) -> int:
        channel_id = channel_id or self.new_id()
        channel = {
            "id": str(channel_id),
            "type": kind,
            "name": name,
            "guild_id": str(guild_id),
            "position": len(self.guilds[guild_id]["channels"]),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": str(parent) if parent else None,
        }
        if kind == 11:
            channel.update(
                owner_id=str(self.application_id),
                message_count=0,
                member_count=1,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": "2026-11-22T12:00:00+00:00",
                    "locked": False,
                },
            )
        self.channels[channel_id] = channel
        self.guilds[guild_id]["channels"].append(channel_id)
        return channel_id

    def add_role(self, guild_id: int, name: str) -> dict[str, Any]:
        """A role of the guild (no permissions of its own), as the guild's payload lists
        it: add it before the bot connects, so that its cache knows the role."""
        role = {
            "id": str(self.new_id()),
            "name": name,
            "permissions": "0",
            "position": len(self.guilds[guild_id].setdefault("roles", [])) + 1,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        self.guilds[guild_id]["roles"].append(role)
        return role

    def add_user(self, guild_id: int, name: str) -> dict[str, Any]:
        user = self._user_dict(self.new_id(), name)
        self.users[int(user["id"])] = user
        self.guilds[guild_id]["members"].append(int(user["id"]))
        return user

    def set_nick(self, guild_id: int, user_id: int, nick: str | None) -> None:
        """Give a member a nickname in the guild (None: take it away), as they or a
        moderator would. Discord tells a bot of it only with the members intent, which
        the bot does not ask for: it sees the nickname in interactions and in
        :meth:`guild_member` answers, not as an event."""
        nicks = self.guilds[guild_id]["nicks"]
        if nick is None:
            nicks.pop(user_id, None)
        else:
            nicks[user_id] = nick

    async def deny(self, channel_id: int, *permissions: int) -> None:
        """Take ``permissions`` from the bot in a channel (and its threads), as a server's
        owner does with a permission overwrite for the bot; none: give back all it was
        denied. A connected bot is told (CHANNEL_UPDATE), and its interactions there say
        it (``app_permissions``)."""
        channel = self.channels[channel_id]
        bot = str(self.application_id)
        kept = [o for o in channel["permission_overwrites"] if o["id"] != bot]
        if permissions:
            denied = str(sum(set(permissions)))
            kept.append({"id": bot, "type": 1, "allow": "0", "deny": denied})
        channel["permission_overwrites"] = kept
        await self.dispatch("CHANNEL_UPDATE", channel)

    def bot_permissions(self, channel_id: int) -> int:
        """The bot's permissions in a channel: all but what :meth:`deny` took there (a
        thread's are its parent channel's)."""
        channel = self.channels[channel_id]
        if channel["type"] == THREAD:
            channel = self.channels.get(int(channel["parent_id"]), channel)
        bot = str(self.application_id)
        denied = 0
        for overwrite in channel["permission_overwrites"]:
            if overwrite["id"] == bot:
                denied |= int(overwrite["deny"])
        return int(ALL_PERMISSIONS) & ~denied

    async def delete_channel(self, channel_id: int) -> None:
        """A moderator deletes a channel or thread (a channel, with its threads): the bot
        is told (CHANNEL_DELETE, THREAD_DELETE) and its requests there are answered 404
        Unknown Channel."""
        channel = self.channels.pop(channel_id)
        guild_id = int(channel["guild_id"])
        self.guilds[guild_id]["channels"].remove(channel_id)
        if channel["type"] == THREAD:
            gone = {key: channel[key] for key in ("id", "guild_id", "parent_id", "type")}
            await self.dispatch("THREAD_DELETE", gone)
            return
        for thread in [c for c in self.channels.values() if c["parent_id"] == str(channel_id)]:
            self.channels.pop(int(thread["id"]))
            self.guilds[guild_id]["channels"].remove(int(thread["id"]))
        await self.dispatch("CHANNEL_DELETE", channel)

    def delete_message(self, message_id: int) -> None:
        """A moderator deletes a message (the bot, without the message intents, is not
        told): requests about it are answered 404 Unknown Message."""
        del self.messages[message_id]

    async def remove_bot(self, guild_id: int) -> None:
        """The bot is kicked from a guild: told by GUILD_DELETE, and its requests in the
        guild's channels are answered 403 Missing Access."""
        await self.dispatch("GUILD_DELETE", {"id": str(guild_id)})
        self.left[guild_id] = self.guilds.pop(guild_id)

    def refused_in(self, channel_id: int, *needed: int) -> tuple[int, dict[str, Any]] | None:
        """Discord's answer to a request of the bot's in a channel that it may not make
        there: 404 Unknown Channel for a channel that is no more, 403 Missing Access in
        a guild the bot has left or a channel it cannot see, 403 Missing Permissions
        without one of the ``needed`` permissions; None: allowed."""
        channel = self.channels.get(channel_id)
        if channel is None:
            gone = any(channel_id in g["channels"] for g in self.left.values())
            return (403, MISSING_ACCESS) if gone else (404, UNKNOWN_CHANNEL)
        granted = self.bot_permissions(channel_id)
        if not granted & VIEW_CHANNEL:
            return 403, MISSING_ACCESS
        if any(not granted & permission for permission in needed):
            return 403, MISSING_PERMISSIONS
        return None

    def fail_next(self, method: str, template: str, *statuses: int) -> None:
        """Make the next requests to an API route fail with these statuses, in order
        (403: Missing Permissions; 404: Unknown Channel; 429: a route's rate limit;
        :data:`DROPPED`: the connection closed with no answer, the request not done;
        :data:`ANSWER_LOST`: the same once the request is done)."""
        self.faults.setdefault((method, template), []).extend(statuses)

    def hold_next(self, method: str, template: str) -> Held:
        """Keep the next request to an API route waiting until the test releases it."""
        held = Held()
        self.held.setdefault((method, template), []).append(held)
        return held

    def hold_events(self, event: str) -> list[dict[str, Any]]:
        """Keep the gateway's ``event`` events from the bot, until the test lets them go
        (:meth:`release_events`): Discord promises no order between its answer to a
        request and the events of what it did (a thread's ``THREAD_CREATE`` may come
        after the answer that made it). The list the events are kept in, in order."""
        return self.held_events.setdefault(event, [])

    async def release_events(self, event: str) -> None:
        """Send the ``event`` events held so far, in order, and hold no more."""
        for data in self.held_events.pop(event, []):
            await self.gateway.dispatch(event, data)

    # -- reading what happened ------------------------------------------------------------

    def visible(self, channel_id: int, user_id: int | None = None) -> list[Message]:
        """Messages in a channel as ``user_id`` sees them (None: only public ones)."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and (m.visible_to is None or m.visible_to == user_id)
        ]

    def public(self, channel_id: int) -> list[Message]:
        return self.visible(channel_id, None)

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 10.0) -> T:
        """Wait (without polling) until ``predicate()`` is truthy; return its value."""
        value = predicate()
        if value:
            return value
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting[answer] = predicate
        try:
            return await asyncio.wait_for(answer, timeout)
        except TimeoutError:
            raise AssertionError(f"waited {timeout} s for a condition that never came") from None
        finally:
            self._waiting.pop(answer, None)

    async def _notify(self) -> None:
        """Something changed: answer every waiter whose condition now holds. The
        conditions are tried here, in one pass, rather than by waking every waiting
        task to try its own (an ``asyncio.Condition``): at 1,000 tables those wake-ups
        were a fifth of the fake's CPU."""
        for answer, predicate in list(self._waiting.items()):
            if answer.done():
                continue
            try:
                value = predicate()
            except Exception as error:  # the waiter's to see, as if it had asked itself
                answer.set_exception(error)
                continue
            if value:
                answer.set_result(value)

    def violation(self, text: str) -> None:
        self.violations.append(text)

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", API + "/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- the gateway --------------------------------------------------------------------------

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to the sessions of its guild's shard (and unsharded ones),
        or keep it while events of its name are held (:meth:`hold_events`)."""
        held = self.held_events.get(event)
        if held is not None:
            held.append(data)
            await self._notify()
            return
        await self.gateway.dispatch(event, data)

    def _ready(self, session: Session, guilds: list[int]) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.bot_user,
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "shard": list(session.shard or (0, 1)),
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def application(self, application_id: int) -> dict[str, Any]:
        """An application's object, as ``GET /oauth2/applications/@me`` shows it."""
        return _application_object(self, application_id)

    def guild_member(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """A member of a guild (the bot too) as Discord's guild member object shows them
        (``GuildMemberResponse`` of the OpenAPI description): their user, their nickname
        there, no roles (a :class:`~tests.fakediscord.users.Member`'s interactions add
        their own)."""
        user = self.bot_user if user_id == self.application_id else self.users[user_id]
        return {
            "user": user,
            "nick": self.guilds[guild_id]["nicks"].get(user_id),
            "avatar": None,
            "banner": None,
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "premium_since": None,
            "communication_disabled_until": None,
            "pending": False,
            "deaf": False,
            "mute": False,
            "flags": 0,
        }

    def guild_payload(self, guild_id: int) -> dict[str, Any]:
        guild = self.guilds[guild_id]
        everyone = {
            "id": str(guild_id),
            "name": "@everyone",
            "permissions": ALL_PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(guild_id),
            "name": guild["name"],
            "icon": None,
            "owner_id": str(self.new_id()),
            "roles": [everyone, *guild.get("roles", [])],
            "emojis": [],
            "stickers": [],
            "features": [],
            "members": [self.guild_member(guild_id, self.application_id)]
            + [self.guild_member(guild_id, u) for u in guild["members"]],
            "channels": [
                self.channels[c] for c in guild["channels"] if self.channels[c]["type"] == 0
            ],
            "threads": [
                self.channels[c] for c in guild["channels"] if self.channels[c]["type"] == 11
            ],
            "member_count": len(guild["members"]) + 1,
            "large": False,
            "unavailable": False,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "nsfw_level": 0,
            "preferred_locale": guild.get("preferred_locale", "en-US"),
            "system_channel_flags": 0,
        }

    # -- REST -----------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        method = request.method
        self.requests.append((method, path, time.perf_counter()))
        operation = spec.find(method, path)
        template = operation.template if operation else path
        parts = dict(zip(_placeholders(template), path.strip("/").split("/"), strict=False))
        body, files = await self._read_body(request)  # read even if refused: keeps the connection
        headers: dict[str, str] = {}
        if self.limiter is not None:
            refusal, headers = self.limiter.admit(method, template, parts)
            if refusal is not None:
                return refusal
        if (method, template) not in UNDESCRIBED:  # those check their own requests
            for problem in spec.validate(method, path, _as_discord_reads(body)):
                self.violation(problem)
        pending = self.faults.get((method, template))
        if pending:
            status = pending.pop(0)
            if status == DROPPED:
                if request.transport is not None:
                    request.transport.close()  # no answer at all: a reset, a blip
                return web.Response(status=500)  # never reaches the bot
            if status != ANSWER_LOST:
                return self._fault(status)
            await ROUTES[method, template](self, parts, body, files, request)  # done, then lost
            await self._notify()
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=500)
        if held := self.held.get((method, template)):
            hold = held.pop(0)
            hold.arrived.set()
            await hold.release.wait()
        handler = ROUTES.get((method, template))
        if handler is None:
            self.violation(f"{method} {path}: the fake has no handler for it")
            return json_response({"message": "404: Not Found", "code": 0}, 404, headers)
        try:
            result = await handler(self, parts, body, files, request)
        except web.HTTPException as refused:  # Discord's rate-limit headers come with errors too
            refused.headers.update({**VIA, **headers})
            raise
        await self._notify()
        if result is None:
            return web.Response(status=204, headers={**VIA, **headers})
        status, data = result
        return json_response(data, status, headers)

    @staticmethod
    def _fault(status: int) -> web.Response:
        if status == 429:
            return json_response(
                {"message": "You are being rate limited.", "retry_after": 0.05, "global": False},
                status=429,
                headers={"Retry-After": "0.05", "X-RateLimit-Scope": "user"},
            )
        if status == 403:
            return json_response(MISSING_PERMISSIONS, status=403)
        if status == 404:  # a channel deleted without the bot being told (it was away)
            return json_response(UNKNOWN_CHANNEL, status=404)
        return json_response({"message": "Internal Server Error", "code": 0}, status=status)

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[str, bytes]]:
        if not request.can_read_body:
            return None, {}
        if request.content_type == activities.FORM:  # OAuth2's token endpoint
            return dict(urllib.parse.parse_qsl((await request.read()).decode())), {}
        return read_body(request.headers.get("Content-Type", ""), await request.read())

    # -- messages and limits ---------------------------------------------------------------------

    def check_limits(self, data: dict[str, Any], where: str) -> None:
        content = data.get("content") or ""
        if len(content) > 2000:
            self.violation(f"{where}: content of {len(content)} characters (limit 2000)")
        rows = data.get("components") or []
        if len(rows) > 5:
            self.violation(f"{where}: {len(rows)} action rows (limit 5)")
        for row in rows:
            if len(row.get("components", [])) > 5:
                self.violation(f"{where}: a row of {len(row['components'])} buttons (limit 5)")
            for item in row.get("components", []):
                if len(item.get("custom_id") or "") > 100:
                    self.violation(f"{where}: custom_id over 100 characters")
        embeds = data.get("embeds") or []
        if sum(_embed_text(embed) for embed in embeds) > 6000:
            self.violation(f"{where}: the embeds' text together over 6000 characters")
        for embed in embeds:
            if len(embed.get("title") or "") > 256 or len(embed.get("description") or "") > 4096:
                self.violation(f"{where}: embed title or description too long")
            fields = embed.get("fields") or []
            if len(fields) > 25:
                self.violation(f"{where}: more than 25 embed fields")
            if any(len(f.get("name", "")) > 256 or len(f.get("value", "")) > 1024 for f in fields):
                self.violation(f"{where}: an embed field's name or value too long")
            footer = (embed.get("footer") or {}).get("text") or ""
            texts = [embed.get("title"), embed.get("description"), footer]
            texts += [t for f in fields for t in (f.get("name"), f.get("value"))]
            if len(footer) > 2048 or sum(len(t or "") for t in texts) > 6000:
                self.violation(f"{where}: an embed's footer or whole text too long")

    def create_message(
        self,
        channel_id: int,
        data: dict[str, Any],
        files: dict[str, bytes],
        *,
        visible_to: int | None = None,
        interaction_id: int | None = None,
    ) -> Message:
        self.check_limits(data, "message")
        message = Message(
            self.new_id(),
            channel_id,
            self.bot_user,
            visible_to=visible_to,
            interaction_id=interaction_id,
        )
        self.apply_edit(message, data, files)
        message.posted_with = message.components
        self.messages[message.id] = message
        return message

    def sent(self, channel_id: int, data: dict[str, Any], files: dict[str, bytes]) -> Message:
        """A message the bot sends to a channel, as Discord makes it: with ``nonce`` and
        ``enforce_nonce`` (discord.py sends both with every message), a nonce the bot
        used in that channel within :attr:`nonce_window` seconds makes no second
        message: the first one is answered again."""
        nonce, enforced = data.get("nonce"), data.get("enforce_nonce")
        key = (channel_id, str(self.bot_user["id"]), str(nonce))
        now = time.monotonic()
        if enforced and nonce is not None and key in self._nonces:
            message_id, at = self._nonces[key]
            if now - at <= self.nonce_window and message_id in self.messages:
                return self.messages[message_id]
        message = self.create_message(channel_id, data, files)
        if enforced and nonce is not None:
            self._nonces[key] = (message.id, now)
        return message

    def apply_edit(self, message: Message, data: dict[str, Any], files: dict[str, bytes]) -> None:
        self.check_limits(data, "edit")
        if "content" in data:
            message.content = data["content"] or ""
        if "embeds" in data:
            message.embeds = data["embeds"] or []
        if "components" in data:
            message.components = data["components"] or []
        if "flags" in data and data["flags"] is not None:
            message.flags = data["flags"]
        if "attachments" in data:
            kept = []
            for item in data["attachments"] or []:
                filename = item.get("filename") or next(
                    (a["filename"] for a in message.attachments if a["id"] == str(item["id"])), ""
                )
                kept.append(
                    {
                        "id": str(item["id"]) if "filename" not in item else str(self.new_id()),
                        "filename": filename,
                        "size": len(files.get(filename, b"")),
                        "url": f"https://cdn.fake/{filename}",
                        "proxy_url": f"https://cdn.fake/{filename}",
                        "description": item.get("description"),
                        "content_type": "image/png",
                    }
                )
                if filename in files:
                    message.files[filename] = files[filename]
            message.attachments = kept

    def interaction_for(self, token: str) -> Interaction:
        found = self.interactions.get(token)
        if found is None:
            raise web.HTTPNotFound(
                text='{"message": "Unknown Webhook", "code": 10015}', content_type=JSON
            )
        return found

    def acknowledge(self, interaction: Interaction) -> None:
        now = time.perf_counter()
        if interaction.acknowledged_at is not None:
            self.violation(f"interaction {interaction.id} acknowledged twice")
            raise web.HTTPBadRequest(
                text='{"message": "Interaction has already been acknowledged.", "code": 40060}',
                content_type=JSON,
            )
        if now - interaction.dispatched_at > ACK_DEADLINE:
            late = now - interaction.dispatched_at
            self.violation(f"interaction {interaction.id} acknowledged after {late:.1f} s")
        interaction.acknowledged_at = now


def _as_discord_reads(body: Any) -> Any:
    """The one known gap between the spec and what Discord accepts: discord.py numbers new
    attachments in ``payload_json`` with integer ids (0, 1 …), where the spec types every
    attachment id as a snowflake string. Discord takes both, so only that field is read
    as a string before validating; everything else is checked as sent."""
    if isinstance(body, dict) and isinstance(body.get("data"), dict):
        return {**body, "data": _as_discord_reads(body["data"])}
    if isinstance(body, dict) and isinstance(body.get("attachments"), list):
        fixed = [
            {**a, "id": str(a["id"])} if isinstance(a, dict) and isinstance(a.get("id"), int) else a
            for a in body["attachments"]
        ]
        return {**body, "attachments": fixed}
    return body


Parts = dict[str, str]
"""A request path's placeholders by name (``channel_id`` …)."""
Files = dict[str, bytes]
"""Uploaded files' bytes by filename."""
Handler = Callable[..., Any]
ROUTES: dict[tuple[str, str], Handler] = {}
UNDESCRIBED: set[tuple[str, str]] = set()
"""Routes Discord's OpenAPI description leaves out (their handlers check requests)."""


def route(method: str, template: str, *, described: bool = True) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        ROUTES[method, template] = handler
        if not described:
            UNDESCRIBED.add((method, template))
        return handler

    return register


def _embed_text(embed: dict[str, Any]) -> int:
    """The characters Discord counts of one embed towards a message's 6,000."""
    fields = embed.get("fields") or []
    texts = [
        embed.get("title"),
        embed.get("description"),
        (embed.get("footer") or {}).get("text"),
        (embed.get("author") or {}).get("name"),
    ]
    texts += [t for f in fields for t in (f.get("name"), f.get("value"))]
    return sum(len(t or "") for t in texts)


def _placeholders(template: str) -> list[str]:
    return [
        part.strip("{}") if part.startswith("{") else part
        for part in template.strip("/").split("/")
    ]


@route("GET", "/users/@me")
async def _me(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    authorization = request.headers.get("Authorization", "")
    if authorization.startswith("Bearer "):  # a user's OAuth2 token (an Activity's player)
        return activities.current_user(fake, authorization)
    if authorization != f"Bot {fake.token}":
        return 401, {"message": "401: Unauthorized", "code": 0}
    return 200, fake.bot_user


@route("GET", "/users/{user_id}")
async def _user(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    """A user by id (``fetch_user``): their name as every server sees it."""
    user = fake.users.get(int(parts["user_id"]))
    return (200, user) if user is not None else (404, {"message": "Unknown User", "code": 10013})


route("POST", "/oauth2/token", described=False)(activities.exchange_code)
route("GET", "/applications/{application_id}/activity-instances/{instance_id}")(
    activities.get_instance
)


@route("GET", "/gateway/bot")
async def _gateway_bot(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
    return 200, {"url": fake.gateway_url, "shards": fake.shards, "session_start_limit": limit}


@route("GET", "/oauth2/applications/@me")
async def _application(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    return 200, fake.application(fake.application_id)


@route("GET", "/oauth2/@me")
async def _authorization(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    """A user's token: which application it was granted to, its scopes and user (how an
    app's server tells its own users' tokens from another app's)."""
    return activities.current_authorization(fake, request.headers.get("Authorization", ""))


def _application_object(fake: FakeDiscord, application_id: int) -> dict[str, Any]:
    return {
        "id": str(application_id),
        "name": "Domino Referee",
        "icon": None,
        "description": "",
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": fake.bot_user,
        "verify_key": "fake",
        "type": None,
        "flags": 0,
        "flags_new": "0",
        "summary": "",
        "team": None,
    }


async def _put_commands(fake: FakeDiscord, guild: int | None, body: list[dict[str, Any]]) -> Any:
    entry = activities.entry_point_of(fake.commands.get(guild, []))
    if entry is not None and not any(c.get("type") == activities.ENTRY_POINT for c in body):
        return 400, activities.ENTRY_POINT_REMOVED
    fake.sync_count += 1
    stored = []
    for command in body:
        kept = entry is not None and command.get("id") == entry["id"]
        stored.append(
            {
                **command,
                "id": command["id"] if kept else str(fake.new_id()),
                "application_id": str(fake.application_id),
                "version": str(fake.new_id()),
                "guild_id": str(guild) if guild else None,
                "type": command.get("type", 1),
                "default_member_permissions": command.get("default_member_permissions"),
            }
        )
    fake.commands[guild] = stored
    return 200, stored


@route("GET", "/applications/{application_id}/commands")
async def _get_global(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    return 200, fake.commands.get(None, [])


@route("PUT", "/applications/{application_id}/commands")
async def _put_global(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    return await _put_commands(fake, None, body)


@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def _put_guild(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    guild_id = int(parts["guild_id"])
    if guild_id not in fake.guilds:  # the application was never in it, or was removed
        return 403, MISSING_ACCESS
    return await _put_commands(fake, guild_id, body)


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
async def _callback(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    interaction = fake.interaction_for(parts["interaction_token"])
    fake.acknowledge(interaction)
    kind = body["type"]
    interaction.response_type = kind
    data = body.get("data") or {}
    resource: dict[str, Any] = {"type": kind}
    if kind in (4, 5):  # a message now, or "thinking" to be edited later
        ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
        message = fake.create_message(
            interaction.channel_id,
            data,
            files,
            visible_to=interaction.user_id if ephemeral else None,
            interaction_id=interaction.id,
        )
        interaction.original_id = message.id
        resource["message"] = message.to_dict()
    elif kind == 7 and interaction.message_id is not None:  # update the clicked message
        message = fake.messages[interaction.message_id]
        fake.apply_edit(message, data, files)
        interaction.original_id = message.id
        resource["message"] = message.to_dict()
    elif kind == 8:
        choices = data.get("choices") or []
        if len(choices) > 25:
            fake.violation(f"{len(choices)} autocomplete choices (limit 25)")
        interaction.choices = choices
    elif kind == 6:
        interaction.original_id = interaction.message_id
    elif kind == activities.LAUNCH_ACTIVITY:
        resource["activity_instance"] = {"id": fake.activities.launch_for(interaction)}
    answer = {
        "id": str(interaction.id),
        "type": interaction.kind,
        "response_message_loading": kind == 5,
        "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL),
    }
    if interaction.original_id is not None:
        answer["response_message_id"] = str(interaction.original_id)
    if "activity_instance" in resource:
        answer["activity_instance_id"] = resource["activity_instance"]["id"]
    return 200, {"interaction": answer, "resource": resource if len(resource) > 1 else None}


def _original(fake: FakeDiscord, interaction: Interaction, message_ref: str) -> Message:
    if message_ref == "@original":
        if interaction.original_id is None:
            raise web.HTTPNotFound(
                text='{"message": "Unknown Message", "code": 10008}', content_type=JSON
            )
        return fake.messages[interaction.original_id]
    return fake.messages[int(message_ref)]


@route("POST", "/webhooks/{webhook_id}/{webhook_token}")
async def _followup(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    interaction = fake.interaction_for(parts["webhook_token"])
    if interaction.acknowledged_at is None:
        fake.violation(f"follow-up to interaction {interaction.id} before acknowledging it")
    ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
    if interaction.response_type == 5 and not interaction.followups and interaction.original_id:
        message = fake.messages[interaction.original_id]  # the first follow-up ends the thinking
        fake.apply_edit(message, body, files)
    else:
        message = fake.create_message(
            interaction.channel_id,
            body,
            files,
            visible_to=interaction.user_id if ephemeral else None,
            interaction_id=interaction.id,
        )
    interaction.followups.append(message.id)
    return 200, message.to_dict()


@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
async def _get_original(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    interaction = fake.interaction_for(parts["webhook_token"])
    return 200, _original(fake, interaction, "@original").to_dict()


@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
async def _edit_original(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    interaction = fake.interaction_for(parts["webhook_token"])
    message = _original(fake, interaction, "@original")
    fake.apply_edit(message, body, files)
    return 200, message.to_dict()


@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def _edit_followup(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    interaction = fake.interaction_for(parts["webhook_token"])
    message = _original(fake, interaction, parts["message_id"])
    fake.apply_edit(message, body, files)
    return 200, message.to_dict()


@route("POST", "/channels/{channel_id}/messages")
async def _send(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    """A message in a channel, as the bot's permissions there allow: Send Messages (Send
    Messages in Threads in a thread), Attach Files for files; without Embed Links its
    embeds are left out, as Discord does (and a message left empty is refused)."""
    channel_id = int(parts["channel_id"])
    in_thread = channel_id in fake.channels and fake.channels[channel_id]["type"] == THREAD
    needed = [SEND_MESSAGES_IN_THREADS if in_thread else SEND_MESSAGES]
    if files:
        needed.append(ATTACH_FILES)
    refused = fake.refused_in(channel_id, *needed)
    if refused is not None:
        return refused
    if body.get("embeds") and not fake.bot_permissions(channel_id) & EMBED_LINKS:
        body = {**body, "embeds": []}
        if not body.get("content") and not files:
            return 400, EMPTY_MESSAGE
    message = fake.sent(channel_id, body, files)
    return 200, message.to_dict()


def _in_channel(fake: FakeDiscord, parts: Parts) -> Message | tuple[int, dict[str, Any]]:
    """The message a request names in its channel, or Discord's refusal: the channel's
    (gone, or not the bot's to see), or 404 Unknown Message."""
    refused = fake.refused_in(int(parts["channel_id"]))
    if refused is not None:
        return refused
    message = fake.messages.get(int(parts["message_id"]))
    if message is None or message.channel_id != int(parts["channel_id"]):
        return 404, UNKNOWN_MESSAGE
    return message


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def _edit(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    message = _in_channel(fake, parts)
    if not isinstance(message, Message):
        return message
    fake.apply_edit(message, body, files)
    return 200, message.to_dict()


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def _delete(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    """The bot deletes a message of its own (a tournament's heading whose thread Discord
    did not make)."""
    message = _in_channel(fake, parts)
    if not isinstance(message, Message):
        return message
    fake.delete_message(message.id)
    return None


@route("GET", "/guilds/{guild_id}/members/{user_id}")
async def _get_member(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    """One member of a guild the bot is in, with the bot's token (no intent needed, as
    for listing members); Discord's 404s for a guild it is not in and a user who is not
    a member."""
    if request.headers.get("Authorization") != f"Bot {fake.token}":
        return 401, {"message": "401: Unauthorized", "code": 0}
    guild = fake.guilds.get(int(parts["guild_id"])) if parts["guild_id"].isdigit() else None
    if guild is None:
        return 404, {"message": "Unknown Guild", "code": 10004}
    user_id = int(parts["user_id"]) if parts["user_id"].isdigit() else None
    if user_id is None or (user_id not in guild["members"] and user_id != fake.application_id):
        return 404, {"message": "Unknown Member", "code": 10007}
    return 200, fake.guild_member(guild["id"], user_id)


@route("GET", "/channels/{channel_id}/messages")
async def _history(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    """The channel's latest messages that everyone sees, newest first (``limit``, 1 to
    100, default 50; ``before`` a message id); none without Read Message History, as
    Discord answers."""
    refused = fake.refused_in(int(parts["channel_id"]))
    if refused is not None:
        return refused
    if not fake.bot_permissions(int(parts["channel_id"])) & READ_MESSAGE_HISTORY:
        return 200, []
    try:
        limit = int(request.query.get("limit", "50"))
        before = int(request.query.get("before", str(2**63)))
    except ValueError:
        return 400, {"message": "Invalid Form Body", "code": 50035}
    if not 1 <= limit <= 100:
        return 400, {"message": "Invalid Form Body", "code": 50035}
    shown = [m for m in fake.public(int(parts["channel_id"])) if m.id < before]
    return 200, [m.to_dict() for m in reversed(shown[-limit:])]


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def _get_message(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    refused = fake.refused_in(int(parts["channel_id"]), READ_MESSAGE_HISTORY)
    if refused is not None:
        return refused
    message = fake.messages.get(int(parts["message_id"]))
    if message is None or message.channel_id != int(parts["channel_id"]):
        return 404, UNKNOWN_MESSAGE
    return 200, message.to_dict()


@route("GET", "/channels/{channel_id}")
async def _get_channel(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    refused = fake.refused_in(int(parts["channel_id"]))
    return refused or (200, fake.channels[int(parts["channel_id"])])


@route("POST", "/channels/{channel_id}/messages/{message_id}/threads")
async def _thread(
    fake: FakeDiscord, parts: Parts, body: Any, files: Files, request: web.Request
) -> Any:
    refused = fake.refused_in(int(parts["channel_id"]), CREATE_PUBLIC_THREADS)
    if refused is not None:
        return refused
    parent = fake.channels[int(parts["channel_id"])]
    if parent["type"] == THREAD:  # no thread of a thread
        return 400, WRONG_CHANNEL_TYPE
    thread_id = fake.add_channel(  # a thread started from a message takes the message's id
        int(parent["guild_id"]),
        body["name"],
        kind=11,
        parent=int(parent["id"]),
        channel_id=int(parts["message_id"]),
    )
    thread = fake.channels[thread_id]
    await fake.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
    return 200, thread
