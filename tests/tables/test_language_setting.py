"""A server's language (``/domino settings language``): one the bot speaks is stored and
read back after a restart; any other is refused and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.refusals import UnknownLanguage
from bot.tables import TableService
from data.sqlite import SqliteStore
from tests.tables.helpers import GUILD, Clock

SPOKEN = ("en-US", "es-ES", "pt-BR")


async def test_a_language_the_bot_speaks_is_stored_and_outlives_a_restart(
    tmp_path: Path, clock: Clock
) -> None:
    path = tmp_path / "domino.db"
    store = await SqliteStore.open(path)
    try:
        service = TableService(store, clock=clock, languages=SPOKEN)
        assert (await service.settings(GUILD)).language is None, "the server's own by default"
        updated = await service.change_settings(GUILD, language="pt-BR")
        assert updated.language == "pt-BR"
        kept = await service.change_settings(GUILD, threads=True)
        assert kept.language == "pt-BR", "another setting leaves the language as it was"
    finally:
        await store.close()
    store = await SqliteStore.open(path)
    try:
        again = await TableService(store, clock=clock, languages=SPOKEN).settings(GUILD)
        assert again.language == "pt-BR" and again.use_threads
    finally:
        await store.close()


@pytest.mark.parametrize("language", ["fr", "es", "", "es-ES "])
async def test_a_language_the_bot_does_not_speak_is_refused_and_not_stored(
    store: SqliteStore, clock: Clock, language: str
) -> None:
    service = TableService(store, clock=clock, languages=SPOKEN)
    await service.change_settings(GUILD, language="es-ES")
    with pytest.raises(UnknownLanguage) as refused:
        await service.change_settings(GUILD, language=language, threads=True)
    assert refused.value.languages == SPOKEN
    stored = await store.get_guild_settings(GUILD)
    assert stored.language == "es-ES" and not stored.use_threads
