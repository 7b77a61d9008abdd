"""Scores across games and servers, as the Discord face reads them: leaderboards and a
player's stats. A thin seam over the store, so the cogs never touch storage (and a store
fault is a refusal they can word, like any other)."""

from __future__ import annotations

import re

from bot.engine import Match, ReplayError
from bot.refusals import NoSuchGame, NotRead, NotReplayable, OutOfRange
from data.models import FinishedGame, Leaderboard, Stats
from data.repository import Repository, StoreError

PAGE_RANGE = (1, 1000)
PAGE_SIZE = 10
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What a game's id is made of (:func:`bot.table.game_id`: its table's id, a dash, its
version), with room for the ids of earlier releases."""
ORDERS = ("rating", "wins", "points")
RATED_AFTER = 3
"""Games a player must have finished to appear on a board by rating (a rating from
fewer says little)."""


class Standings:
    def __init__(self, store: Repository) -> None:
        self.store = store

    @staticmethod
    def check(page: int, order: str) -> None:
        """Refuse a page or an order outside the allowed ones, whatever the request
        carried (without touching the store, so it can be answered before anything)."""
        low, high = PAGE_RANGE
        if isinstance(page, bool) or not isinstance(page, int) or not low <= page <= high:
            raise OutOfRange("page", low, high, page)
        if order not in ORDERS:
            raise OutOfRange("order", 0, len(ORDERS) - 1, order)

    async def leaderboard(
        self,
        game: str,
        *,
        guild_id: int | None,
        order: str,
        page: int,
        user_id: int,
        shown_in: int | None = None,
    ) -> Leaderboard:
        """One page (counted from 1) of ``game``'s board in a server (None: everywhere),
        with the caller's own rank. The board of every server names its players as
        ``shown_in``, the server it is shown in, knows them (a nickname is one server's);
        one who never played there has no name, for the face to name as it can."""
        self.check(page, order)
        try:
            return await self.store.leaderboard(
                game,
                guild_id=guild_id,
                order=order,
                page=page - 1,
                page_size=PAGE_SIZE,
                min_games=RATED_AFTER,
                user_id=user_id,
                shown_in=shown_in,
            )
        except StoreError as error:
            raise NotRead(error.fault) from error

    async def stats(self, user_id: int, guild_id: int | None) -> list[Stats]:
        try:
            return await self.store.get_stats(user_id, guild_id=guild_id)
        except StoreError as error:
            raise NotRead(error.fault) from error

    async def history(
        self, user_id: int, guild_id: int, page: int
    ) -> tuple[list[FinishedGame], int]:
        """One page (from 1) of a member's finished games in this server, newest first,
        and how many pages there are."""
        low, high = PAGE_RANGE
        if isinstance(page, bool) or not isinstance(page, int) or not low <= page <= high:
            raise OutOfRange("page", low, high, page)
        try:
            games, total = await self.store.games_of(user_id, guild_id, page - 1, PAGE_SIZE)
        except StoreError as error:
            raise NotRead(error.fault) from error
        return games, -(-total // PAGE_SIZE)

    async def game(self, game_id: str, guild_id: int) -> FinishedGame:
        """A finished game of this server, whole; refused for an unknown id or another
        server's game."""
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 40:
            raise NoSuchGame(str(game_id)[:40])
        return await find_game(self.store, game_id.strip(), guild_id)

    async def replayable(self, game_id: str, guild_id: int) -> FinishedGame:
        """As :meth:`game`, and refused (:class:`NotReplayable`) when its record does
        not replay: asked before a face answers in public, so the refusal is private."""
        game = await self.game(game_id, guild_id)
        try:
            Match.from_record(game.record)
        except ReplayError:
            raise NotReplayable(game.id) from None
        return game


async def find_game(store: Repository, game_id: str, guild_id: int) -> FinishedGame:
    """The finished game ``game_id`` of this server (for a replay, or a rematch); refused
    for an unknown id or a store that cannot read. Another server's game is refused as
    unknown: which ids exist elsewhere is not this server's to learn. An id of other
    characters than ids are made of (a table's letters and digits, a dash, a version)
    is unknown without asking the store: PostgreSQL refuses some (a NUL) outright."""
    if not GAME_ID.fullmatch(game_id):
        raise NoSuchGame("".join(c if c.isprintable() else "?" for c in game_id)[:40])
    try:
        game = await store.get_game(game_id)
    except StoreError as error:
        raise NotRead(error.fault) from error
    if game is None or game.guild_id != guild_id:
        raise NoSuchGame(game_id)
    return game
