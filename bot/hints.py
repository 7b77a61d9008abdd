"""Hints at a table that allows them: what a computer player would play for the member,
and why.

The table service's side of ``/domino hint`` and the Hint button. The Discord face never
calls a computer player itself (the import contracts say so): it asks here, with the
snapshot it holds, and words the :class:`Advice` it gets back. Asking changes nothing,
so nothing is stored; a game with hints on is unrated (``Table.hints``), which is what
makes asking fair.
"""

from __future__ import annotations

import asyncio

from bot.levels import HINT_LEVELS
from bot.players.advice import Advice, advise
from bot.refusals import HintsOff, NotSeated, NotStarted, NotYourTurn, TableClosed, UnknownLevel
from bot.snapshot import TableSnapshot


async def hint(table: TableSnapshot, user_id: int, level: str = "normal") -> Advice:
    """The move ``level``'s player would make in the member's seat now, with its reason.

    Refused (a :class:`~bot.refusals.Refusal`, nothing changed) when the table has
    ended (a page kept showing it may still ask), has hints off, the level is not one
    of :data:`HINT_LEVELS`, the member has no seat, the game has not started or it is
    not their turn.
    The seed is fixed by the table and its version, so asking twice gives the same hint.
    """
    if level not in HINT_LEVELS:  # Discord offers only these; a forged request may not
        raise UnknownLevel(HINT_LEVELS)
    if not table.is_open:
        raise TableClosed()
    if not table.hints:
        raise HintsOff()
    if table.seat_of(user_id) is None:
        raise NotSeated()
    view = table.seat_view(user_id)
    if view is None:
        raise NotStarted()
    if not view.legal:
        raise NotYourTurn(view.public.turn)
    seed = int(table.id, 16) + table.version
    return await asyncio.to_thread(advise, view, level, seed)
