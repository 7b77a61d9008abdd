"""The discord.py bot: wiring only, as discord.py's ``examples/advanced_startup.py``
shows. :func:`run` opens the store (refusing, in one line, a database it cannot write)
and hands it to the bot; ``setup_hook`` makes the table service, sets the translator of
the commands' names and descriptions (``discord_face.commands_i18n``), loads the cogs as
extensions, registers the persistent buttons, resumes every open table and syncs the
slash commands when (and only when) they changed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Any

import discord
from aiohttp.web import AppRunner
from discord.ext import commands

from bot.coaching import Coach
from bot.config import Settings
from bot.health import Health
from bot.memory import settle_memory
from bot.service import TableService
from bot.tournaments.service import TournamentService
from data import open_store
from data.owner import held
from data.repository import Repository
from discord_face.activity import DiscordActivities
from discord_face.budget import RequestBudget
from discord_face.buttons import offer_activity
from discord_face.commands_i18n import CommandTranslator
from discord_face.syncing import sync_commands
from discord_face.tournaments import DYNAMIC_ITEMS, TournamentHerald
from discord_face.tree import DominoTree
from rendering.painter import Painter
from web.identity import LOCAL_SERVER, Signer, load_secret
from web.server import make_app, serve
from words import i18n

log = logging.getLogger(__name__)

IN_FLIGHT_SECONDS = 5.0
"""How long a stop waits for the clicks being handled; with the posts' own wait
(``discord_face.announcer.POSTS_FINISH_SECONDS``) a stop stays inside the 10 s that ``docker
stop`` and systemd allow before they kill."""

EXTENSIONS = (
    "cogs.tables", "cogs.boards", "cogs.games", "cogs.settings", "cogs.privacy",
    "cogs.tournaments", "cogs.coaching",
)  # fmt: skip
"""The cogs, one extension per concern: tables and play; leaderboards and stats; finished
games (history, replays); settings; privacy; tournaments; the coach's analyses."""


class DominoBot(commands.AutoShardedBot):
    """The bot, given its store; it makes the table service the cogs share.

    discord.py's sharding: the process runs the shards ``SHARD_IDS`` of ``SHARD_COUNT``
    (all of them, as many as Discord recommends, by default). Discord sends a server's
    events and interactions to one shard only, ``(guild_id >> 22) % shard_count``, so a
    process owns the tables of its shards' servers: it loads, times and plays those, and
    no other process touches them (leaderboards are shared through the database)."""

    def __init__(self, settings: Settings, store: Repository, **kwargs: Any) -> None:
        if settings.shard_count is not None:
            kwargs.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            kwargs.setdefault("shard_ids", list(settings.shard_ids))
        super().__init__(
            command_prefix=commands.when_mentioned,
            # Servers, channels and threads only: every action comes as an interaction,
            # so message, typing, reaction and other events would be parsed and thrown
            # away (Discord sends a server's message events to the bot that asks for
            # them, its own posts included) and the message cache would hold them.
            intents=discord.Intents(guilds=True),
            max_messages=None,
            tree_cls=DominoTree,
            # Nobody is pinged unless a message names them on purpose (the player whose
            # turn it is): a member called "@everyone" must not reach the whole server.
            allowed_mentions=discord.AllowedMentions.none(),
            **kwargs,
        )
        self.settings = settings
        self.store = store
        self.service: TableService | None = None
        self.in_flight: set[asyncio.Task[Any]] = set()
        """The commands and clicks being handled now (see ``discord_face.acting.track``)."""
        self.painter = Painter(settings.picture_processes)
        """Draws the table and hand pictures, off the event loop."""
        self.coach = Coach()
        """Analyses each finished game in its own worker process (``bot.coaching``),
        started with the tables."""
        self.stopping = False
        """Set when the bot begins to stop: a click that comes after is not taken."""
        self._stopping: asyncio.Task[None] | None = None
        self.health = Health(settings.local_folder, settings.shard_ids)
        """What ``python -m bot.health`` reads: whether this bot is up and connected."""
        self.web: AppRunner | None = None
        """The browser table's server, when ``WEB_PORT`` is set (``web.server``)."""
        self.activities: DiscordActivities | None = None
        """The Activity's Discord side, when ``DISCORD_CLIENT_SECRET`` is set too."""
        self.tournaments: TournamentService | None = None
        self.herald: TournamentHerald | None = None
        """The tournament service, above the tables, and what it tells the channels."""

    async def setup_hook(self) -> None:
        if self.shard_count is None:  # ask now, so the tables this process owns are known
            self.shard_count, _, _ = await self.http.get_bot_gateway()
        self.service = TableService(
            self.store,
            computer_pace=self.settings.computer_pace_seconds,
            keep_closed=self.settings.keep_closed_hours * 3600.0,
            languages=[language.code for language in i18n.SHIPPED],
        )
        # Tournaments: the service above the tables, telling the Discord face (which
        # posts within the announcer's budget once the tables' cog has made it).
        self.herald = TournamentHerald(
            self, self.service, self.painter, RequestBudget(self.settings.requests_per_second)
        )
        self.tournaments = TournamentService(self.service, self.herald)
        await self.tree.set_translator(CommandTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        announcer = getattr(self.get_cog("Tables"), "announcer", None)
        if announcer is not None:
            self.herald.share(announcer.budget)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.settings.web_port is not None:
            signer = Signer(load_secret(self.settings.web_secret, self.settings.local_folder))
            if self.settings.discord_client_secret is not None:
                client_id = self.settings.discord_client_id or str(self.application_id)
                self.activities = DiscordActivities(
                    self, client_id, self.settings.discord_client_secret
                )
            app = make_app(
                self.service,
                signer,
                self.activities,
                self.coach,
                public_hosts=self.settings.web_public_hosts,
            )
            self.web = await serve(app, self.settings.web_host, self.settings.web_port)
        offer_activity(self.activities is not None)  # said by every bot: it is module-wide
        await self.service.resume(owns=self.owns)
        await self.tournaments.resume(owns=self.owns)
        if self.settings.coach_after_games:
            await self.coach.start(self.service, owns=self.owns)
        assert isinstance(self.tree, DominoTree)
        await sync_commands(self.tree, self.settings.local_folder, self.settings.dev_guild_id)
        self.health.watch(self)
        settle_memory()

    @property
    def connected(self) -> bool:
        """Every shard this process runs is connected to Discord's gateway."""
        return bool(self.shards) and all(not shard.is_closed() for shard in self.shards.values())

    def owns(self, guild_id: int) -> bool:
        """Whether ``guild_id``'s server is on one of this process's shards. The browser
        table's own server only where it is served (``WEB_PORT``): else its tables wait,
        as Discord's wait while only the browser table runs, rather than have their turns
        timed out and played where nobody can see them."""
        if guild_id == LOCAL_SERVER and self.settings.web_port is None:
            return False
        assert self.shard_count is not None
        shard = (guild_id >> 22) % self.shard_count
        return self.shard_ids is None or shard in self.shard_ids

    def stop(self) -> asyncio.Task[None]:
        """Begin stopping, once (SIGTERM, SIGINT and ``close`` all come here); the task
        ends when the bot has stopped."""
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_task(self._stop(), name="stop")
        return self._stopping

    async def close(self) -> None:
        await asyncio.shield(self.stop())

    async def _stop(self) -> None:
        """Take no new clicks (they are told to try again in a moment), let those being
        handled finish, stop the clock and the computer seats, let the posts under way
        go out (what is left is posted at the next start: the store knows what each
        channel was shown), then close the picture worker and the connection to Discord.
        Each wait is bounded (:data:`IN_FLIGHT_SECONDS`). The store is not the bot's to
        close: whoever opened it closes it (see :func:`run`).

        The client closes even when an earlier step raises."""
        self.stopping = True
        async with contextlib.AsyncExitStack() as closing:
            closing.push_async_callback(super().close)
            closing.push_async_callback(self.painter.close)
            closing.push_async_callback(self.coach.close)
            closing.callback(self.health.stopped)
            if self.activities is not None:
                closing.push_async_callback(self.activities.close)
            if self.web is not None:
                closing.push_async_callback(self.web.cleanup)
            running = {t for t in self.in_flight if t is not asyncio.current_task()}
            if running:
                await asyncio.wait(running, timeout=IN_FLIGHT_SECONDS)
            if self.tournaments is not None:  # before the tables, which it acts on
                await self.tournaments.close()
            if self.herald is not None:
                await self.herald.close()
            if self.service is not None:
                await self.service.close()


def run(settings: Settings) -> None:
    """Open the store, start the bot and run until SIGTERM or SIGINT (Ctrl-C), which stop
    it cleanly (:meth:`DominoBot.stop`); the store closes last. A store that cannot be
    opened or written raises :class:`data.repository.StoreError` before the bot starts;
    a token Discord refuses raises ``discord.LoginFailure``, and a Discord that cannot
    be reached an ``OSError`` (``bot.__main__`` says each in one line)."""
    discord.utils.setup_logging(level=getattr(logging, settings.log_level, logging.INFO))
    # The bot never joins a voice channel: discord.py's warnings that voice's optional
    # libraries are missing would only alarm whoever reads the log.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False

    async def main() -> None:
        with held(settings.database_url):  # one process per SQLite file (data.owner)
            await bot_on(await open_store(settings.database_url))

    async def bot_on(store: Repository) -> None:
        async with store, DominoBot(settings, store) as bot:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(signum, bot.stop)
            await bot.start(settings.discord_token)
            log.info("stopped")

    with contextlib.suppress(KeyboardInterrupt):  # a Ctrl-C before the handlers are set
        asyncio.run(main())
