"""The open tables in memory, with what finds them fast: by channel, by (server, member),
and by deadline. Every action of every table looks one up, and the clock asks "what is
due?" after every action, so none of these may walk all the tables: with ten thousand
open, an action must cost what it costs with ten.

Tables are replaced whole (the service swaps in a stored copy), never changed in place,
so the indexes are brought up to date in :meth:`OpenTables.put` alone.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator, Mapping

from bot.table import Table


class OpenTables(Mapping[str, Table]):
    """Open tables by id (a read-only mapping), and the indexes the service asks."""

    def __init__(self) -> None:
        self._tables: dict[str, Table] = {}
        self._by_channel: dict[int, str] = {}
        self._by_member: dict[tuple[int, int], str] = {}
        self._heap: list[tuple[float, int, str, int, bool]] = []
        """(when, tie-breaker, table id, version, reminder): a turn that runs out at
        ``when`` (or, ``reminder``, whose member is to be reminded then), good only while
        the table is still at that version (older entries are skipped)."""
        self._order = itertools.count()

    # -- the mapping -----------------------------------------------------------------------

    def __getitem__(self, table_id: str) -> Table:
        return self._tables[table_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    # -- changes -------------------------------------------------------------------------------

    def put(self, table: Table) -> None:
        """Add ``table``, or replace the table with its id; closed tables are dropped."""
        old = self._tables.get(table.id)
        if old is not None:
            self._unindex(old)
        if not table.is_open:
            self._tables.pop(table.id, None)
            return
        self._tables[table.id] = table
        self._by_channel[table.channel_id] = table.id
        for seat in table.seats:
            if seat.user_id is not None:
                self._by_member[table.guild_id, seat.user_id] = table.id
        moved_on = old is None or (old.version, old.deadline) != (table.version, table.deadline)
        if table.deadline is not None and moved_on:
            self.schedule(table, table.deadline)

    def drop(self, table_id: str) -> None:
        table = self._tables.pop(table_id, None)
        if table is not None:
            self._unindex(table)

    def _unindex(self, table: Table) -> None:
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        for seat in table.seats:
            key = (table.guild_id, seat.user_id or 0)
            if self._by_member.get(key) == table.id:
                del self._by_member[key]

    # -- lookups -------------------------------------------------------------------------------

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self._by_channel.get(channel_id)
        return self._tables.get(table_id) if table_id else None

    def of_user(self, user_id: int) -> Table | None:
        """An open table of any server where the member sits (one, if several). Walks
        the member index: it serves the rare ``/domino forget-me``, not every action."""
        for (_, member), table_id in self._by_member.items():
            if member == user_id:
                return self._tables.get(table_id)
        return None

    def of_member(self, guild_id: int, user_id: int) -> Table | None:
        table_id = self._by_member.get((guild_id, user_id))
        return self._tables.get(table_id) if table_id else None

    # -- the clock's heap ----------------------------------------------------------------------

    def schedule(self, table: Table, when: float, *, reminder: bool = False) -> None:
        """Wake the clock for ``table`` at ``when`` (its deadline, a retry, or a
        ``reminder`` to the member to move), for as long as it stays at its present
        version."""
        entry = (when, next(self._order), table.id, table.version, reminder)
        heapq.heappush(self._heap, entry)
        if len(self._heap) > 64 and len(self._heap) > 4 * len(self._tables):
            self._compact()

    def due(self, now: float) -> list[tuple[str, int, bool]]:
        """Take every (table id, version, reminder) whose time has come; each is given
        out once."""
        taken = []
        while self._heap and self._heap[0][0] <= now:
            _, _, table_id, version, reminder = heapq.heappop(self._heap)
            if self._current(table_id, version):
                taken.append((table_id, version, reminder))
        return taken

    def next_wake(self) -> float | None:
        """When the clock must next look (None: nothing is scheduled)."""
        while self._heap and not self._current(self._heap[0][2], self._heap[0][3]):
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def scheduled(self, table_id: str, *, reminder: bool = False) -> float | None:
        """When ``table`` is next due (or, ``reminder``, next reminded), if it is (for
        tests and diagnostics)."""
        mine = [
            e[0]
            for e in self._heap
            if e[2] == table_id and e[4] is reminder and self._current(e[2], e[3])
        ]
        return min(mine, default=None)

    def _current(self, table_id: str, version: int) -> bool:
        table = self._tables.get(table_id)
        return table is not None and table.version == version

    def _compact(self) -> None:
        self._heap = [entry for entry in self._heap if self._current(entry[2], entry[3])]
        heapq.heapify(self._heap)
