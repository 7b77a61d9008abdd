"""The fake's gateway: websocket sessions, sharded as Discord shards them.

A connection that IDENTIFYs with ``shard: [id, count]`` is told (READY) of, and sent the
events of, only the guilds whose ``(guild_id >> 22) % count == id``; events outside any
guild go to shard 0, as Discord sends DMs. A connection without ``shard`` gets everything.
Each session numbers its own events and keeps the latest of them, so a client that
RESUMEs (after a RECONNECT, say) is sent what it missed, then RESUMED; a session the
client closed with 1000 or 1001 is over, and resuming it is refused (op 9), as Discord
does."""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import WSMsgType, web


def _text(payload: Any) -> str:
    """A gateway frame's text, written with orjson as discord.py reads it (the fake's
    CPU is taken from the bot it measures, on the same machine)."""
    return orjson.dumps(payload).decode()


BACKLOG = 1000
"""Events a session keeps for a RESUME; a client further behind must IDENTIFY again."""
FINAL_CLOSES = (1000, 1001)
"""Close codes that end a session (any other lets the client resume it)."""
INVALID_SHARD = 4010
HEARTBEAT_INTERVAL_MS = 45000


def shard_of(guild_id: int, count: int) -> int:
    """Which of ``count`` shards a guild's events go to (Discord's formula)."""
    return (guild_id >> 22) % count


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to; None for events outside any guild."""
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        return int(data["id"])
    guild = data.get("guild_id")
    return int(guild) if guild is not None else None


@dataclass(eq=False)
class Session:
    """One IDENTIFY's session, across the connections that resume it."""

    id: str
    shard: tuple[int, int] | None
    """``(shard id, shard count)``; None: the connection gets every guild."""
    socket: web.WebSocketResponse | None
    intents: int = 0
    """The gateway intents the IDENTIFY asked for (Discord sends only their events)."""
    seq: int = 0
    resumes: int = 0
    ended: bool = False
    backlog: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=BACKLOG))
    events: Counter[tuple[str, int | None]] = field(default_factory=Counter)
    """How many of each (event, guild id) were sent on this session, replays apart."""

    def serves(self, guild_id: int | None) -> bool:
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id

    def guilds(self, event: str = "GUILD_CREATE") -> set[int]:
        """The guilds this session was sent ``event`` for."""
        return {guild for name, guild in self.events if name == event and guild is not None}

    def can_replay_after(self, seq: int) -> bool:
        return not self.backlog or self.backlog[0]["s"] <= seq + 1


class Gateway:
    """The websocket endpoint and its sessions. ``guild_ids`` lists the guilds the bot
    is in, ``ready`` builds READY's body and ``guild_payload`` a GUILD_CREATE's;
    ``changed`` is awaited after each IDENTIFY, RESUME and disconnection, so that tests
    can wait on :attr:`sessions`."""

    def __init__(
        self,
        guild_ids: Callable[[], list[int]],
        ready: Callable[[Session, list[int]], dict[str, Any]],
        guild_payload: Callable[[int], dict[str, Any]],
        changed: Callable[[], Any],
    ) -> None:
        self._guild_ids = guild_ids
        self._ready = ready
        self._guild_payload = guild_payload
        self._changed = changed
        self.sessions: list[Session] = []
        """Every session, in the order they were identified."""
        self._by_id: dict[str, Session] = {}
        self._open: set[web.WebSocketResponse] = set()

    def live(self, shard_id: int | None = None) -> list[Session]:
        """Sessions not ended (connected, or waiting for their client to resume), of one
        shard if ``shard_id`` is given."""
        return [
            s
            for s in self.sessions
            if not s.ended
            and (shard_id is None or (s.shard is not None and s.shard[0] == shard_id))
        ]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._open.add(socket)
        hello = {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}
        await socket.send_json({"op": 10, "d": hello, "s": None, "t": None}, dumps=_text)
        session: Session | None = None
        async for frame in socket:
            if frame.type != WSMsgType.TEXT:
                continue
            payload = orjson.loads(frame.data)
            if payload["op"] == 1:
                await socket.send_json({"op": 11, "d": None, "s": None, "t": None}, dumps=_text)
            elif payload["op"] == 2:
                session = await self._identify(socket, payload["d"])
            elif payload["op"] == 6:
                session = await self._resume(socket, payload["d"])
        self._open.discard(socket)
        if session is not None and session.socket is socket:
            session.socket = None
            session.ended = socket.close_code in FINAL_CLOSES
            await self._changed()
        return socket

    async def _identify(
        self, socket: web.WebSocketResponse, data: dict[str, Any]
    ) -> Session | None:
        shard = data.get("shard")
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                await socket.close(code=INVALID_SHARD, message=b"Invalid shard.")
                return None
        session = Session(
            secrets.token_hex(16), tuple(shard) if shard else None, socket, data.get("intents", 0)
        )
        self.sessions.append(session)
        self._by_id[session.id] = session
        guilds = [g for g in self._guild_ids() if session.serves(g)]
        await self.send(session, "READY", self._ready(session, guilds))
        for guild_id in guilds:
            await self.send(session, "GUILD_CREATE", self._guild_payload(guild_id))
        await self._changed()
        return session

    async def _resume(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self._by_id.get(data.get("session_id") or "")
        seq = data.get("seq") or 0
        if session is None or session.ended or not session.can_replay_after(seq):
            await socket.send_json({"op": 9, "d": False, "s": None, "t": None}, dumps=_text)
            return None
        if session.socket is not None and not session.socket.closed:
            await session.socket.close(code=4000)
        session.socket = None
        sent = seq
        while missed := [p for p in session.backlog if p["s"] > sent]:
            for payload in missed:  # events dispatched meanwhile join the list: loop again
                await socket.send_json(payload, dumps=_text)
                sent = payload["s"]
        session.socket = socket
        session.resumes += 1
        await self.send(session, "RESUMED", {})
        await self._changed()
        return session

    async def send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.backlog.append(payload)
        session.events[event, guild_of(event, data)] += 1
        socket = session.socket
        if socket is not None and not socket.closed:
            try:
                await socket.send_json(payload, dumps=_text)
            except ConnectionResetError:  # closing under us: kept for the resume
                session.socket = None

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to every live session that serves its guild."""
        guild_id = guild_of(event, data)
        for session in self.live():
            if session.serves(guild_id):
                await self.send(session, event, data)

    async def reconnect(self, shard_id: int | None = None) -> list[Session]:
        """Ask the connected sessions (of one shard, if given) to reconnect (op 7), as
        Discord does before moving a session; what is dispatched until each resumes waits
        in its backlog. Returns the sessions asked."""
        asked = [s for s in self.live(shard_id) if s.socket is not None]
        for session in asked:
            socket, session.socket = session.socket, None
            assert socket is not None
            await socket.send_json({"op": 7, "d": None, "s": None, "t": None}, dumps=_text)
        return asked

    async def close(self) -> None:
        await asyncio.gather(*(socket.close() for socket in list(self._open)))
