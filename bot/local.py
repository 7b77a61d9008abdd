"""The bot with no Discord token: the browser table alone (``web``), on this machine's
store, until SIGTERM or SIGINT (Ctrl-C). What ``python -m bot`` runs on a fresh clone.

Only the local tables are resumed: a Discord server's tables wait for the bot to run in
Discord again (timing a turn out where nobody can see the table would not be fair)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from bot.coaching import Coach
from bot.config import Settings
from bot.memory import settle_memory
from bot.service import TableService
from data import open_store
from data.owner import held
from web.identity import LOCAL_SERVER, Signer, load_secret
from web.server import make_app, serve
from words import i18n

log = logging.getLogger(__name__)


def address(settings: Settings) -> str:
    host = settings.web_host if ":" not in settings.web_host else f"[{settings.web_host}]"
    return f"http://{host}:{settings.web_port}"


EVERY_ADDRESS = ("0.0.0.0", "::")
"""``WEB_HOST`` values that listen on every address of the machine (LAN play)."""


def open_at(settings: Settings) -> str:
    """Where a person opens the page. Listening on every address, the page has no
    address of its own to show: http://0.0.0.0 reaches nothing on some systems (and from
    another machine never), so this machine's own name, and how others reach it."""
    if settings.web_host in EVERY_ADDRESS:
        port = settings.web_port
        return (
            f"http://localhost:{port} (others on your network: this machine's address, port {port})"
        )
    return address(settings)


def _local(guild_id: int) -> bool:
    """The browser's own tables, which this bot plays (a Discord server's wait for the
    bot in Discord)."""
    return guild_id == LOCAL_SERVER


async def serve_local(settings: Settings, started: asyncio.Event | None = None) -> None:
    """Serve the local table until stopped (``started`` is set once it listens)."""
    assert settings.web_port is not None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    with held(settings.database_url):
        await _serve(settings, stop, started)
    log.info("stopped")


async def _serve(settings: Settings, stop: asyncio.Event, started: asyncio.Event | None) -> None:
    """The store, the service and the page, until ``stop`` is set."""
    assert settings.web_port is not None
    store = await open_store(settings.database_url)
    async with store:
        service = TableService(
            store,
            computer_pace=settings.computer_pace_seconds,
            keep_closed=settings.keep_closed_hours * 3600.0,
            languages=[language.code for language in i18n.SHIPPED],
        )
        # the service closes a started coach, with its other listeners
        coach = Coach() if settings.coach_after_games else None
        signer = Signer(load_secret(settings.web_secret, settings.local_folder))
        app = make_app(service, signer, coach=coach, public_hosts=settings.web_public_hosts)
        runner = await serve(app, settings.web_host, settings.web_port)
        try:
            await service.resume(owns=_local)
            if coach is not None:
                await coach.start(service, owns=_local)
            settle_memory()
            print(
                f"Serving the local table at {open_at(settings)} (no DISCORD_TOKEN: to play in"
                " Discord too, put your bot's token in .env, as the README says).",
                flush=True,
            )
            if started is not None:
                started.set()
            await stop.wait()
        finally:
            await runner.cleanup()
            await service.close()


def run_local(settings: Settings) -> None:
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO),
        format="%(asctime)s %(levelname)-8s %(name)s %(message)s",
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve_local(settings))
