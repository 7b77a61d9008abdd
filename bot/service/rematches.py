"""Playing a finished game again: same game, options and seats, in the same channel, with
the series between those seats so far."""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.commands import Join
from bot.refusals import NotInThatGame, NotRead, RematchElsewhere
from bot.service.requests import NewTable
from bot.snapshot import TableSnapshot
from bot.standings import find_game
from bot.table import lineup_keys
from data.models import FinishedGame
from data.repository import StoreError

if TYPE_CHECKING:
    from bot.service.core import TableService

KEEP_SEATS_SECONDS = 300.0
"""How long a rematch's lobby keeps the seats of the game's other members for them."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """A new table that plays a finished game again (see :meth:`Rematches.ask`)."""

    game_id: str
    invited: tuple[int, ...]
    series: tuple[int, ...]
    lineup: tuple[str, ...]
    names: tuple[tuple[int, str], ...] = ()
    """Each invited member's name in that game, by id: the lobby names them by these
    until they sit (a face that cannot mention a member: the browser)."""


class Rematches:
    """The rematches of one service's finished games."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        """A lock per finished game being played again, while someone holds it."""

    async def ask(
        self, game_id: str, guild_id: int, channel_id: int, user_id: int, name: str
    ) -> tuple[TableSnapshot, bool]:
        """Play a finished game again: same game, options and seats. The first of its
        members to ask opens the table in this channel, with the computers seated again
        and the other members' seats kept for them; each of them confirms by asking too
        (which seats them). The table shows the series between these seats so far.
        Returns the table, and whether this call opened it (its lobby is to be posted).

        Only in the game's own channel; and one call at a time per game, so two members
        asking at the same moment are one opening and one confirming."""
        service = self.service
        game = await find_game(service.store, game_id, guild_id)
        members = [p.user_id for p in game.participants if p.user_id is not None]
        if user_id not in members:
            raise NotInThatGame()
        if game.channel_id is not None and game.channel_id != channel_id:
            raise RematchElsewhere(game.channel_id)
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock:
            here = service.tables.in_channel(channel_id)
            if here is not None and here.rematch_of == game_id:
                await service.act(here.id, Join(user_id, name))
                return service.snapshot(here.id), False
            return await self._open(game, channel_id, user_id, name, members), True

    async def _open(
        self, game: FinishedGame, channel_id: int, user_id: int, name: str, members: list[int]
    ) -> TableSnapshot:
        """Open a lobby that plays ``game`` again (see :meth:`ask`)."""
        seats = sorted(game.participants, key=lambda p: p.seat)
        try:
            series = await self.service.store.series(
                game.guild_id, game.game, [(p.user_id, p.computer_level) for p in seats]
            )
        except StoreError as error:
            raise NotRead(error.fault) from error
        options = game.record.get("options", {})
        request = NewTable(
            game.guild_id,
            channel_id,
            user_id,
            name,
            game.game,
            target=options.get("target"),
            keep_last_two=options.get("keep_last_two") or None,
            match_games=options.get("match_games"),
            hints=game.hints,
        )
        invited = tuple(member for member in members if member != user_id)
        again = Rematch(
            game.id,
            invited=invited,
            series=tuple(series),
            lineup=tuple(lineup_keys(p.user_id for p in seats)),
            names=tuple(
                (p.user_id, p.name)
                for p in seats
                if p.user_id is not None and p.user_id in invited and p.name
            ),
        )
        levels = [p.computer_level or "normal" for p in seats if p.user_id is None]
        return await self.service.open_table(request, computers=levels, rematch=again)
