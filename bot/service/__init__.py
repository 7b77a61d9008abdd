"""The table service: what every face (the Discord chat, a browser page) calls to open,
join and play tables (:class:`TableService`), and hears from (:class:`Listener`).
``core`` holds the one way to change a table; the other modules are its parts."""

from bot.service.core import TableService
from bot.service.faces import Listener, Resumed, Shown
from bot.service.requests import NewTable, TournamentSeats

__all__ = ["Listener", "NewTable", "Resumed", "Shown", "TableService", "TournamentSeats"]
