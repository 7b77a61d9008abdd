"""A server's language (``/domino settings language``): one the bot speaks is stored,
and changing another setting keeps it; any other is refused and changes nothing."""

from __future__ import annotations

import pytest

from bot.refusals import UnknownLanguage
from bot.service import TableService
from data.repository import Repository
from tests.tables.helpers import GUILD, Clock

SPOKEN = ("en-US", "es-ES", "pt-BR")


async def test_a_language_the_bot_speaks_is_stored_and_kept_by_other_changes(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, clock=clock, languages=SPOKEN)
    assert (await service.settings(GUILD)).language is None, "the server's own by default"
    assert (await service.change_settings(GUILD, language="pt-BR")).language == "pt-BR"
    kept = await service.change_settings(GUILD, threads=True)
    assert kept.language == "pt-BR", "another setting leaves the language as it was"
    stored = await store.get_guild_settings(GUILD)
    assert stored.language == "pt-BR" and stored.use_threads


@pytest.mark.parametrize("language", ["fr", "es", "", "es-ES "])
async def test_a_language_the_bot_does_not_speak_is_refused_and_not_stored(
    store: Repository, clock: Clock, language: str
) -> None:
    service = TableService(store, clock=clock, languages=SPOKEN)
    await service.change_settings(GUILD, language="es-ES")
    with pytest.raises(UnknownLanguage) as refused:
        await service.change_settings(GUILD, language=language, threads=True)
    assert refused.value.languages == SPOKEN
    stored = await store.get_guild_settings(GUILD)
    assert stored.language == "es-ES" and not stored.use_threads
