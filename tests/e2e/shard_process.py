"""One bot process of the sharded end-to-end test: ``python -m tests.e2e.shard_process``,
configured by the environment as ``python -m bot`` is (``DISCORD_TOKEN``,
``DATABASE_URL``, ``SHARD_COUNT``, ``SHARD_IDS`` …), and pointed at the fake Discord by
``FAKE_DISCORD_API`` and ``FAKE_DISCORD_GATEWAY``, the way the in-process tests point it."""

from __future__ import annotations

import os
import sys

import discord
import yarl

from bot.__main__ import main

if __name__ == "__main__":
    discord.http.Route.BASE = os.environ["FAKE_DISCORD_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])
    sys.exit(main())
