"""Where the Discord face still finds the table service while it moves to
``bot.service`` (this module goes once every import names ``bot.service``)."""

from bot.service import Listener, NewTable, Resumed, TableService
from bot.service.clock import REMIND_AT
from bot.service.rematches import KEEP_SEATS_SECONDS
from data.models import FinishedGame as FinishedGame
from data.models import Forgotten as Forgotten
from data.models import GuildSettings as GuildSettings
from data.models import LeaderboardEntry as LeaderboardEntry
from data.models import Participant as Participant
from data.models import Stats as Stats
from data.models import Stored as Stored

__all__ = [
    "KEEP_SEATS_SECONDS",
    "REMIND_AT",
    "Listener",
    "NewTable",
    "Resumed",
    "TableService",
]
