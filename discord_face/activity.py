"""Discord's side of the Activity (``web.activity.Activities``): the browser face asks
here who a page speaks for and in which channel, and Discord answers.

- ``exchange``: the code the page's SDK got from ``authorize`` is exchanged at
  ``POST /oauth2/token`` with the application's id and secret (the secret never leaves
  this process).
- ``participant``: the access token the page presents is asked about at ``GET
  /oauth2/@me`` (it must be granted to this application, with ``identify``: a token of
  another application, which could be any user's, proves nothing here); the Activity
  instance at ``GET /applications/{id}/activity-instances/{instance}`` with the bot's
  token (the user must be one of its participants, and it gives the server and channel);
  the member at ``GET /guilds/{guild}/members/{user}`` (``Guild.fetch_member``), for the
  name the chat shows them under in that server (``Member.display_name``: their
  nickname, else their global name, else their username), so that a member is seated
  under one name whichever face they join from.

The user's token calls go to Discord's API where discord.py sends the bot's own
(``discord.http.Route.BASE``); the instance and the member are asked through
discord.py's client, under its rate limits.

Any page can present any code or token, as often as it likes, and each forged one is a
request Discord refuses (401). Discord bars an address that makes too many refused
requests from its whole API for a while (its rate limits guide: 10,000 answered 401, 403
or 429 in ten minutes, whatever the token), which would silence the bot in every server;
so the refusals these checks earn are counted (:class:`RefusalsCounted`), and past a
share of that limit a page is refused without asking Discord until the count falls.

A member's good token is no such refusal, but it lets a page name any instance, a new
one each time: each is asked of Discord on the bot's own token, out of the requests
every server's posts share (``discord_face.budget``), and an unknown one is a 404, not
counted above. So the instances each member was not found in are counted too
(:class:`MissesCounted`), whichever page or token named them, and past a few a minute
that member's sign-ins are refused (``SignInLater``) without asking Discord.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord.http import Route

from bot.refusals import NotConfirmed, NotInActivity, SignInLater
from discord_face import acting, members
from discord_face.unanswered import UNANSWERED
from web.activity import Participant

log = logging.getLogger(__name__)

TIMEOUT = aiohttp.ClientTimeout(total=10)
REFUSING = frozenset({401, 403, 429})
"""The answers Discord counts against an address (its "invalid request limit")."""
REFUSED_MOST = 1000
REFUSED_SECONDS = 600.0
"""At most this many of Discord's refusals of the pages' checks in any ten minutes: a
tenth of Discord's limit, which the bot's own requests (a post refused for a missing
permission is a 403) count towards too."""


class RefusalsCounted:
    """Discord's refusals of the checks made for pages, in the last ``seconds`` (a
    sliding window): once there are ``most``, no check is asked of Discord until the
    oldest falls out of it."""

    def __init__(
        self,
        most: int = REFUSED_MOST,
        seconds: float = REFUSED_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.most = most
        self.seconds = seconds
        self._clock = clock
        self._at: deque[float] = deque()
        self.turning_away = False
        """Pages are being refused unasked (logged once when it starts)."""

    def full(self) -> bool:
        now = self._clock()
        while self._at and now - self._at[0] >= self.seconds:
            self._at.popleft()
        return len(self._at) >= self.most

    def count(self, status: int) -> None:
        """Discord answered a check with ``status``."""
        if status in REFUSING:
            self._at.append(self._clock())


NO_SUCH_INSTANCE = frozenset({400, 404})
"""Discord's answers that the instance a page named is none: unknown, or no id at all."""
MISSED_MOST = 5
MISSED_SECONDS = 60.0
"""At most this many instances a member was not found in, in any minute, are asked of
Discord. A member's own page names the instance Discord opened for them, so they miss
none, or one as it ends (a page that reconnects once it closed); a page naming made-up
instances misses every time."""


class MissesCounted:
    """For each member, the instances Discord did not find them in over the last
    ``seconds`` (a sliding window): once a member has ``most``, no instance is asked
    about for them until the oldest falls out of it. Only members who missed within the
    window are kept, so what is kept stays as small as the misses."""

    def __init__(
        self,
        most: int = MISSED_MOST,
        seconds: float = MISSED_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.most = most
        self.seconds = seconds
        self._clock = clock
        self._at: OrderedDict[int, deque[float]] = OrderedDict()
        """Each member's misses, the member who missed last at the end."""
        self._asking: Counter[int] = Counter()
        """Each member's asks not answered yet."""

    def ask(self, user_id: int) -> bool:
        """Whether an instance may be asked about for ``user_id``: fewer than ``most``
        misses, counting the asks not answered yet (each, until :meth:`answered`)."""
        if len(self._recent(user_id)) + self._asking[user_id] >= self.most:
            return False
        self._asking[user_id] += 1
        return True

    def answered(self, user_id: int, *, missed: bool) -> None:
        """Discord answered an ask of :meth:`ask`: ``missed`` if it did not find the
        member in the instance their page named."""
        self._asking[user_id] -= 1
        if self._asking[user_id] <= 0:
            del self._asking[user_id]
        if missed:
            misses = self._recent(user_id)
            misses.append(self._clock())
            self._at[user_id] = misses
            self._at.move_to_end(user_id)

    def _recent(self, user_id: int) -> deque[float]:
        """``user_id``'s misses within the window (the members whose last miss is older
        are forgotten first)."""
        now = self._clock()
        while self._at and now - next(iter(self._at.values()))[-1] >= self.seconds:
            self._at.popitem(last=False)
        misses = self._at.get(user_id, deque())
        while misses and now - misses[0] >= self.seconds:
            misses.popleft()
        return misses


class DiscordActivities:
    """:class:`web.activity.Activities` for the bot ``client``."""

    def __init__(
        self,
        client: discord.Client,
        client_id: str,
        client_secret: str,
        refused: RefusalsCounted | None = None,
        missed: MissesCounted | None = None,
    ) -> None:
        self.client = client
        self.client_id = client_id
        self._secret = client_secret
        self._session: aiohttp.ClientSession | None = None
        self.refused = refused or RefusalsCounted()
        self.missed = missed or MissesCounted()

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def exchange(self, code: str) -> str:
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        answer = await self._call("POST", "/oauth2/token", data=form)
        token = answer.get("access_token")
        if not isinstance(token, str):
            raise NotConfirmed()
        return token

    async def participant(self, token: str, instance_id: str) -> Participant:
        granted = await self._call("GET", "/oauth2/@me", token=token)
        application = granted.get("application") or {}
        user = granted.get("user") or {}
        if application.get("id") != self.client_id or "identify" not in granted.get("scopes", ()):
            raise NotConfirmed()
        try:
            user_id = int(user["id"])
        except (KeyError, TypeError, ValueError):
            raise NotConfirmed() from None
        instance = await self._instance(instance_id, user_id)
        location = instance.get("location") or {}
        try:
            guild_id, channel_id = int(location["guild_id"]), int(location["channel_id"])
        except (KeyError, TypeError, ValueError):
            raise NotInActivity() from None  # a DM or a call: no server's table there
        member = await self._member(guild_id, user_id)
        return Participant(user_id, members.seat_name(member), guild_id, channel_id)

    async def _instance(self, instance_id: str, user_id: int) -> dict[str, Any]:
        """The Activity instance ``instance_id``, asked of Discord on the bot's token, if
        ``user_id`` is among its participants. An instance they are not found in is a
        miss (:class:`MissesCounted`); an ask not answered yet counts as one meanwhile,
        so that pages asking all at once are bounded too. Past the misses allowed, the
        member is refused without asking."""
        if not self.missed.ask(user_id):
            log.info("activity instance %r: member %s missed too many lately", instance_id, user_id)
            raise SignInLater()
        route = Route(
            "GET",
            "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=self.client_id,
            instance_id=instance_id,
        )
        missed = True  # unless Discord answers otherwise (a page gone mid-ask counts)
        try:
            instance: dict[str, Any] = await self.client.http.request(route)
            missed = str(user_id) not in instance.get("users", ())
        except discord.HTTPException as error:
            log.info("activity instance %r: Discord answered %s", instance_id, error.status)
            self.refused.count(error.status)
            missed = error.status in NO_SUCH_INSTANCE
            raise NotInActivity() from None
        except UNANSWERED as error:
            log.info("activity instance %r: Discord not reached (%r)", instance_id, error)
            missed = False
            raise NotConfirmed() from None  # as when /oauth2/@me cannot be reached
        finally:
            self.missed.answered(user_id, missed=missed)
        if missed:
            raise NotInActivity()
        return instance

    def parent_of(self, channel_id: int) -> int | None:
        """From discord.py's cache, which holds the servers' active threads (the
        ``guilds`` intent): the bot's tables' threads are among them. A private thread
        is no thread of its channel here: its table is not for all who see the channel."""
        channel = self.client.get_channel(channel_id)
        public = discord.ChannelType.public_thread
        if isinstance(channel, discord.Thread) and channel.type is public:
            return channel.parent_id
        return None

    async def _member(self, guild_id: int, user_id: int) -> discord.Member:
        """The participant as a member of the instance's server, fetched each time: the
        bot asks for no member events (``Intents(guilds=True)``), so its cache holds no
        members, let alone their nicknames as they are now.

        A lookup that fails refuses the page rather than naming them otherwise: a seat
        keeps its name for the whole game and the game's record, and a second name for
        the same member is the mistake this lookup is here to prevent; closing the
        Activity and opening it again (what the refusal says) asks again.

        Right after a start the bot may not know its servers yet: a sign-in waits for
        them (:func:`acting.ready`) rather than being told it is in no Activity (every
        page that was open comes back at once), and if that takes too long, is told to
        try again."""
        if not await acting.ready(self.client):
            raise NotConfirmed()
        guild = self.client.get_guild(guild_id)
        if guild is None:
            raise NotInActivity()  # a server this process does not serve: no table of it
        try:
            return await guild.fetch_member(user_id)
        except discord.NotFound:
            raise NotInActivity() from None  # no longer a member of that server
        except discord.HTTPException as error:
            log.info("member %s of %s: Discord answered %s", user_id, guild_id, error.status)
            self.refused.count(error.status)
            raise NotConfirmed() from None
        except UNANSWERED as error:
            log.info("member %s of %s: Discord not reached (%r)", user_id, guild_id, error)
            raise NotConfirmed() from None

    async def _call(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        data: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """One request to Discord's OAuth2 API as the user (``token``) or as the
        application (``data``); anything but a JSON object with 200 is not confirmed,
        and so is every request while Discord's refusals are too many (:class:`RefusalsCounted`):
        each check of a page begins here."""
        if self.refused.full():
            if not self.refused.turning_away:
                log.warning(
                    "Discord refused %d Activity sign-ins in %d seconds (forged tokens?):"
                    " refusing the next ones without asking it",
                    self.refused.most,
                    int(self.refused.seconds),
                )
            self.refused.turning_away = True
            raise NotConfirmed()
        self.refused.turning_away = False
        headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
        try:
            async with self._http().request(
                method, Route.BASE + path, headers=headers, data=data
            ) as response:
                self.refused.count(response.status)
                if response.status != 200:
                    log.info("%s %s: Discord answered %s", method, path, response.status)
                    raise NotConfirmed()
                body = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError):
            raise NotConfirmed() from None
        if not isinstance(body, dict):
            raise NotConfirmed()
        return body
