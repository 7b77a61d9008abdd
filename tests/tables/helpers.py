"""What the table service tests share: a clock the test moves, a started table, and
ways to move it on."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.commands import Join, Play, Start
from bot.events import Event
from bot.service import NewTable, TableService
from bot.snapshot import TableSnapshot
from bot.table import Table

GUILD, CHANNEL, ANN, BOB = 10, 20, 1, 2
TURN_TIMER = 120.0
PACE = 1.5


class Clock:
    """Time that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def started(service: TableService, game: str = "cross") -> Table:
    """Ann's table in CHANNEL with Bob seated, started."""
    table = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", game))
    await service.act(table.id, Join(BOB, "Bob"))
    await service.act(table.id, Start(ANN))
    return service.tables[table.id]


async def play_one(service: TableService, table_id: str, via: object | None = None) -> None:
    """The member to move makes their first legal move."""
    table = service.tables[table_id]
    mover = table.seats[table.seat_to_move()].user_id
    assert mover is not None
    await service.act(table_id, Play(mover, table.legal_for(mover)[0]), via=via)


async def expire(service: TableService, clock: Clock, table: Table) -> None:
    """Let the table's deadline pass and wait for what the clock starts."""
    assert table.deadline is not None
    clock.now = table.deadline
    tasks = service.run_due()
    assert tasks, "the deadline was due"
    await asyncio.gather(*tasks)


class Heard:
    """A listener that keeps what the service tells it, in order."""

    def __init__(self, face: str = "discord", only: int | None = None) -> None:
        self.face = face
        self.catches_up = True
        self.only = only
        """The one server whose tables its face shows (None: every server's)."""
        self.told: list[tuple[int, list[Event], object | None]] = []
        self.closed = False

    def shows(self, guild_id: int) -> bool:
        return self.only is None or guild_id == self.only

    def forgotten(self, user_id: int) -> None:
        return None

    def stored(self, table: TableSnapshot, events: Sequence[Event], via: object | None) -> None:
        self.told.append((table.version, list(events), via))

    async def close(self) -> None:
        self.closed = True

    @property
    def events(self) -> list[Event]:
        return [event for _, events, _ in self.told for event in events]
