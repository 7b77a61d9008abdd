"""What holds a member to seats of its own in a server (a tournament, its entrants): the
table service asks it before seating a member anywhere else there, so that the rule of
one seat per member per server never keeps them from the seat they promised."""

from __future__ import annotations

from typing import Protocol

from bot.refusals import Refusal


class Commitment(Protocol):
    """Something above the tables that keeps members for tables of its own (the
    tournament service: a round's table keeps a seat for each player drawn to it)."""

    def holds(self, guild_id: int, user_id: int) -> Refusal | None:
        """Why member ``user_id`` may not sit at a table of server ``guild_id`` that is
        not one of its own (None: they may). Asked under the server's lock, so it must
        not wait."""
        ...
