"""The bot as the benchmarks run it: in a process of its own, against the fake Discord,
so that its memory and CPU are its own. ``benchmarks/e2e.py`` and
``benchmarks/tournament.py`` start it the same way; what each then measures is its own."""

from __future__ import annotations

import cProfile
import logging
import pstats
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import discord
import yarl

from bot.client import DominoBot
from bot.config import Settings
from data import open_store
from tests.fakediscord.fixtures import start_bot, stop_bot


def quiet_logging() -> None:
    """Warnings only, each marked as the bot process's (its lines mix with the
    benchmark's)."""
    logging.basicConfig(level=logging.WARNING, format="bot process: %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice here: no warning


@asynccontextmanager
async def bot_against_fake(api: str, gateway: str, database: str) -> AsyncIterator[DominoBot]:
    """The bot connected to the fake Discord at ``api`` and ``gateway``, its store at the
    URL ``database``, computers moving at once, the coach analysing only when asked;
    stopped and its store closed however the block ends (an open store would keep the
    process up)."""
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    settings = Settings(
        discord_token="fake-token", database_url=database, computer_pace_seconds=0.0
    )
    store = await open_store(settings.database_url)
    bot = DominoBot(settings, store, guild_ready_timeout=0.05)
    try:
        task = await start_bot(bot)
    except BaseException:
        await store.close()
        raise
    try:
        yield bot
    finally:
        try:
            await stop_bot(bot, task)
        finally:
            await store.close()


@contextmanager
def profiled(on: bool, ours: str) -> Iterator[None]:
    """With ``on`` (a benchmark's ``--profile``), the block under cProfile, then printed:
    the functions that took the most time of their own, and those of the folders
    ``ours`` (a pattern of paths) by their time with what they called."""
    if not on:
        yield
        return
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        yield
    finally:
        profiler.disable()
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(30)
        stats.sort_stats("cumtime").print_stats(ours, 40)
