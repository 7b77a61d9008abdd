"""What the table service needs from storage. The aiosqlite store implements it; a
PostgreSQL store can implement the same methods with the same portable SQL."""

from __future__ import annotations

from typing import Any, Protocol

from data.models import FinishedGame, GuildSettings, Leaderboard, Stats, TableRow


class VersionConflict(Exception):
    """Another writer stored a newer version of the table first; nothing was written."""


class ChannelInUse(Exception):
    """Another open table already holds this channel (one open table per channel);
    nothing was written."""


class StoreError(Exception):
    """The database could not carry out a write or a read; nothing was written.

    ``fault`` says why in one word the layers above can act on and tell a user:
    ``full`` (no space left), ``busy`` (another writer held the database too long),
    ``read-only`` (the file or its folder cannot be written) or ``unavailable``
    (anything else: an I/O error, a file gone)."""

    FAULTS = ("full", "busy", "read-only", "unavailable")

    def __init__(self, fault: str, detail: str = "") -> None:
        super().__init__(f"{fault}: {detail}" if detail else fault)
        self.fault = fault
        self.detail = detail


class Repository(Protocol):
    async def check_writable(self) -> None:
        """Raise StoreError if the database cannot be written (checked at start-up)."""

    async def create_table(self, row: TableRow) -> None:
        """Store a new table; ChannelInUse if another open table holds its channel."""

    async def save_action(
        self,
        row: TableRow,
        expected_version: int,
        action: dict[str, Any],
        finished: FinishedGame | None = None,
    ) -> None:
        """Store the table's new state and the action in one transaction, only if the
        stored version is still ``expected_version``; else raise VersionConflict and write
        nothing. ``finished``: the game this action ended, recorded in the same transaction
        (as by ``record_finished_game``), so a game over is never stored half."""

    async def set_announced(self, table_id: str, message_id: int | None, version: int) -> None:
        """The channel now shows ``version`` of the table, in message ``message_id``
        (None: the message is unchanged)."""

    async def actions_since(self, table_id: str, version: int) -> list[dict[str, Any]]:
        """The table's stored actions after ``version``, oldest first: what its channel
        has not been shown yet."""

    async def load_active_tables(self) -> list[TableRow]: ...

    async def close_unreadable(self, table_id: str, version: int, reason: str) -> None:
        """Mark an open table that cannot be read back as cancelled, logging ``reason``
        as its last action; its state and record are kept for a developer to look at."""

    async def get_table(self, table_id: str) -> TableRow | None: ...

    async def record_finished_game(self, game: FinishedGame) -> bool:
        """The game, its rounds, stats and ratings, in one transaction. False, with
        nothing changed, if a game with this id is already stored: a retry never counts a
        game or moves a rating twice."""

    async def get_stats(
        self, user_id: int, game: str | None = None, guild_id: int | None = None
    ) -> list[Stats]: ...

    async def leaderboard(
        self,
        game: str,
        guild_id: int | None = None,
        order: str = "rating",
        page: int = 0,
        page_size: int = 10,
        min_games: int = 3,
        user_id: int | None = None,
    ) -> Leaderboard: ...

    async def get_guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def set_guild_settings(self, settings: GuildSettings) -> None: ...
