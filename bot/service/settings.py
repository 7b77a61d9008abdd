"""Each server's settings (turn timer, default targets, threads, language, the tournament
organisers' role): read once and kept, checked before they are stored."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace

from bot.engine import EngineError, Options, find_variant
from bot.refusals import NotSaved, OptionsRefused, OutOfRange, UnknownLanguage
from data.models import GuildSettings
from data.repository import Repository, StoreError

TURN_TIMER_RANGE = (20, 3600)
"""Seconds a member may take for a move (a server setting)."""

GuildLock = Callable[[int], AbstractAsyncContextManager[None]]


class ServerSettings:
    """The settings of every server the service has seen, kept after the first read."""

    def __init__(self, store: Repository, languages: Sequence[str], lock: GuildLock) -> None:
        self.store = store
        self.languages = tuple(languages)
        """The languages a server may choose for its tables (the faces' codes)."""
        self._lock = lock
        self._kept: dict[int, GuildSettings] = {}

    async def of(self, guild_id: int) -> GuildSettings:
        kept = self._kept.get(guild_id)
        if kept is None:
            try:
                kept = await self.store.get_guild_settings(guild_id)
            except StoreError as error:
                raise NotSaved(error.fault) from error
            self._kept[guild_id] = kept
        return kept

    async def change(
        self,
        guild_id: int,
        *,
        turn_timer: int | None = None,
        game: str | None = None,
        target: int | None = None,
        threads: bool | None = None,
        language: str | None = None,
        tournament_role: int | None = None,
        clear_tournament_role: bool = False,
        more_time: bool | None = None,
    ) -> GuildSettings:
        """Check and store new server settings; a refusal or a failed write keeps the
        old ones. A default target is checked by the game's own rules; a language must
        be one of :attr:`languages`. ``tournament_role`` chooses the role of the
        server's tournament organisers, ``clear_tournament_role`` leaves it with none
        (the face reads the role; the service only keeps its id). ``more_time``: whether
        the tables opened from now on offer more time (those open keep theirs)."""
        low, high = TURN_TIMER_RANGE
        if turn_timer is not None and not (
            isinstance(turn_timer, int) and not isinstance(turn_timer, bool)
            and low <= turn_timer <= high
        ):  # fmt: skip
            raise OutOfRange("turn_timer", low, high, turn_timer)
        if language is not None and language not in self.languages:
            raise UnknownLanguage(self.languages)
        async with self._lock(guild_id):
            current = await self.of(guild_id)
            targets = dict(current.default_targets)
            if game is not None and target is not None:
                try:
                    variant = find_variant(game)
                    Options.for_game(variant, max(variant.player_counts), target=target)
                except EngineError as error:
                    raise OptionsRefused(error) from None
                targets[variant.game] = target
            role = current.tournament_role if tournament_role is None else tournament_role
            if clear_tournament_role:
                role = None
            updated = replace(
                current,
                turn_timer_seconds=current.turn_timer_seconds if turn_timer is None else turn_timer,
                default_targets=targets,
                use_threads=current.use_threads if threads is None else threads,
                language=current.language if language is None else language,
                tournament_role=role,
                more_time=current.more_time if more_time is None else more_time,
            )
            try:
                await self.store.set_guild_settings(updated)
            except StoreError as error:
                raise NotSaved(error.fault) from error
            self._kept[guild_id] = updated
            return updated
