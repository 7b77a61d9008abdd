"""A server's language is stored with its settings (migration 0006) and read back after
the store is opened again, on either database; a server that never chose has none."""

from __future__ import annotations

from data import open_store
from data.models import GuildSettings
from data.repository import Repository
from tests.data.databases import Database


async def test_a_servers_language_outlives_a_restart(database: Database) -> None:
    store: Repository = await open_store(database.url)
    try:
        assert (await store.get_guild_settings(7)).language is None
        await store.set_guild_settings(GuildSettings(7, 90, {"cross": 150}, True, "es-ES"))
        await store.set_guild_settings(GuildSettings(8, language="pt-BR"))
    finally:
        await store.close()
    store = await open_store(database.url)
    try:
        assert await store.get_guild_settings(7) == GuildSettings(
            7, 90, {"cross": 150}, True, "es-ES"
        )
        assert (await store.get_guild_settings(8)).language == "pt-BR"
        await store.set_guild_settings(GuildSettings(8, language=None))
        assert (await store.get_guild_settings(8)).language is None
    finally:
        await store.close()
