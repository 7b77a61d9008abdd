"""A server's tournament organisers' role is stored with its settings (migration 0013)
and read back after the store is opened again, on either database; a server that never
chose one has none, and clearing it leaves the other settings as they were."""

from __future__ import annotations

from data import open_store
from data.models import GuildSettings
from data.repository import Repository
from tests.data.databases import Database

ROLE = 1_234_567_890_123_456_789
"""A role id as large as Discord's snowflakes get (it needs a 64-bit column)."""


async def test_the_organisers_role_outlives_a_restart_and_can_be_cleared(
    database: Database,
) -> None:
    store: Repository = await open_store(database.url)
    try:
        assert (await store.get_guild_settings(7)).tournament_role is None
        await store.set_guild_settings(
            GuildSettings(7, 90, {"cross": 150}, True, "es-ES", tournament_role=ROLE)
        )
    finally:
        await store.close()
    store = await open_store(database.url)
    try:
        assert await store.get_guild_settings(7) == GuildSettings(
            7, 90, {"cross": 150}, True, "es-ES", tournament_role=ROLE
        )
        await store.set_guild_settings(
            GuildSettings(7, 90, {"cross": 150}, True, "es-ES", tournament_role=None)
        )
        assert await store.get_guild_settings(7) == GuildSettings(
            7, 90, {"cross": 150}, True, "es-ES"
        )
    finally:
        await store.close()
