"""Whether a server's tables offer more time is stored with its settings (migration
0018) and read back after the store is opened again, on either database; a server that
never chose, and one whose settings were stored before the setting existed, offer it."""

from __future__ import annotations

from data import open_store
from data.backend import Session
from data.models import GuildSettings
from tests.data.databases import Database
from tests.data.test_store import migrated_before, written_raw


async def test_more_time_turned_off_outlives_a_restart(database: Database) -> None:
    async with await open_store(database.url) as store:
        assert (await store.get_guild_settings(7)).more_time, "on until the server says"
        await store.set_guild_settings(GuildSettings(7, 90, {}, True, more_time=False))
    async with await open_store(database.url) as store:
        assert await store.get_guild_settings(7) == GuildSettings(7, 90, {}, True, more_time=False)
        await store.set_guild_settings(GuildSettings(7, 90, {}, True))
        assert (await store.get_guild_settings(7)).more_time


async def test_a_server_stored_before_the_setting_offers_more_time(database: Database) -> None:
    async def release_0017(tx: Session) -> None:
        await migrated_before("0018", tx)
        await tx.execute(
            "INSERT INTO guild_settings (guild_id, turn_timer_seconds, default_targets,"
            " use_threads) VALUES (7, 60, '{}', 1)"
        )

    await written_raw(database.url, release_0017)
    async with await open_store(database.url) as store:
        assert await store.get_guild_settings(7) == GuildSettings(7, 60, {}, True)
