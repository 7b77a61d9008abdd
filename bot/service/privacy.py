"""What is stored about a member, and forgetting it."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from bot.commands import Forget
from bot.refusals import AlreadyClosed, NotRead, NotSaved, StillSeated, TableClosed
from data.models import Forgotten, Stored
from data.repository import StoreError

if TYPE_CHECKING:
    from bot.service.core import TableService


class Privacy:
    def __init__(self, service: TableService) -> None:
        self.service = service

    async def stored_about(self, user_id: int) -> Stored:
        try:
            return await self.service.store.stored_about(user_id)
        except StoreError as error:
            raise NotRead(error.fault) from error

    async def forget(self, user_id: int) -> Forgotten:
        """Delete what is stored about a member (see ``Repository.forget``); refused while
        they sit at an open table, whose state holds their seat (this process's, or, as
        stored, another's). A rematch that keeps them a seat, or their place in its
        series (started without them, too), lets both go first, and a table that keeps
        their name (a tournament's, its organiser hosting it unseated) lets it go."""
        service = self.service
        seated = service.tables.of_user(user_id)
        if seated is not None:
            raise StillSeated(seated.channel_id)
        try:  # at a table of another process (another shard's server)
            elsewhere = await service.store.seated_at(user_id, passing=set(service.tables))
        except StoreError as error:
            raise NotRead(error.fault) from error
        if elsewhere is not None:
            raise StillSeated(elsewhere)
        for table in list(service.tables.values()):
            if table.keeps(user_id):
                with contextlib.suppress(TableClosed, AlreadyClosed):
                    await service.act(table.id, Forget(user_id))
        try:
            forgotten = await service.store.forget(user_id)
        except StoreError as error:
            raise NotSaved(error.fault, "forget") from error
        service.tell_forgotten(user_id)
        return forgotten
