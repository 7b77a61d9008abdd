"""Server settings: one row a server, read as the defaults until it is first written."""

from __future__ import annotations

import logging
from typing import Any

from data.backend import Backend, Row, Session
from data.codec import document, dumps
from data.models import GuildSettings

log = logging.getLogger(__name__)


class Guilds:
    """The part of :class:`~data.repository.Repository` that keeps servers' settings."""

    backend: Backend

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        async def query(tx: Session) -> Row | None:
            return await tx.fetchrow(
                "SELECT turn_timer_seconds, default_targets, use_threads, language,"
                " tournament_role, more_time FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            )

        row = await self.backend.read(query)
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(
            guild_id,
            row["turn_timer_seconds"],
            _targets(guild_id, row["default_targets"]),
            bool(row["use_threads"]),
            row["language"],
            None if row["tournament_role"] is None else int(row["tournament_role"]),
            bool(row["more_time"]),
        )

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        async def store(tx: Session) -> None:
            await tx.execute(
                "INSERT INTO guild_settings"
                " (guild_id, turn_timer_seconds, default_targets, use_threads, language,"
                " tournament_role, more_time) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET"
                " turn_timer_seconds = excluded.turn_timer_seconds,"
                " default_targets = excluded.default_targets, use_threads = excluded.use_threads,"
                " language = excluded.language, tournament_role = excluded.tournament_role,"
                " more_time = excluded.more_time",
                (settings.guild_id, settings.turn_timer_seconds,
                 dumps(settings.default_targets), int(settings.use_threads), settings.language,
                 settings.tournament_role, int(settings.more_time)),
            )  # fmt: skip

        await self.backend.write(store)


def _targets(guild_id: int, stored: Any) -> dict[str, int]:
    """A server's default targets by game, as stored; none (each game's own) when the
    column does not read as such (edited by hand or half written), logged: one server's
    damaged row must not keep its tables, or the bot, from starting."""
    targets = document(stored)
    if isinstance(targets, dict) and all(
        isinstance(game, str) and type(target) is int for game, target in targets.items()
    ):
        return targets
    log.warning("server %s: its default targets do not read (%.80r): none used", guild_id, stored)
    return {}
