"""Tournaments' pure core: pairings (Swiss, round robin), knockout brackets, results and
standings. No I/O, no clock, no Discord, no words: the tournament service above stores
what these values say, opens the tables and words everything.

- :mod:`~bot.tournaments.seating`: entrants, table shapes, a round's tables and byes.
- :mod:`~bot.tournaments.pairing`: Swiss rounds and round-robin schedules (over the
  seating search of :mod:`~bot.tournaments.search`).
- :mod:`~bot.tournaments.bracket`: knockout brackets and how far they have got.
- :mod:`~bot.tournaments.results`: how a table ended, placement points, adjustments.
- :mod:`~bot.tournaments.standings`: standings and their tie-breaks.
- :mod:`~bot.tournaments.errors`: the refusals, with their data.
"""

from bot.tournaments.bracket import Bracket, From, Match, Progress, knockout, placings, progress
from bot.tournaments.errors import (
    BadAdvance,
    BadResult,
    BadSeating,
    DuplicateEntrant,
    NoBracket,
    NoSuchTable,
    NotForKnockout,
    NotTheSameTable,
    SeatedTwice,
    TooFewEntrants,
    TournamentError,
    UnknownEntrant,
)
from bot.tournaments.pairing import least_rounds, round_robin, swiss
from bot.tournaments.results import Adjustment, Record, Result, adjusted, match_points
from bot.tournaments.seating import Bye, Entrant, Pairings, Seating, Table, by_seed, table_sizes
from bot.tournaments.standings import Standing, round_robin_standings, swiss_standings

__all__ = [
    "Adjustment",
    "BadAdvance",
    "BadResult",
    "BadSeating",
    "Bracket",
    "Bye",
    "DuplicateEntrant",
    "Entrant",
    "From",
    "Match",
    "NoBracket",
    "NoSuchTable",
    "NotForKnockout",
    "NotTheSameTable",
    "Pairings",
    "Progress",
    "Record",
    "Result",
    "SeatedTwice",
    "Seating",
    "Standing",
    "Table",
    "TooFewEntrants",
    "TournamentError",
    "UnknownEntrant",
    "adjusted",
    "by_seed",
    "knockout",
    "least_rounds",
    "match_points",
    "placings",
    "progress",
    "round_robin",
    "round_robin_standings",
    "swiss",
    "swiss_standings",
    "table_sizes",
]
