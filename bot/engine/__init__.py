"""The rules engine: pure Python, no Discord, no pictures, no database.

Start from :class:`Match` (rounds to the target, with a replayable record) or a game's
round class (:class:`Cross`, :class:`MalteseCross`, :class:`MerryGoRound`, :class:`Milo`)
built from an explicit deal.
"""

from bot.engine.cross import Cross
from bot.engine.errors import (
    AmbiguousMove,
    BadOptionType,
    EngineError,
    IllegalMove,
    InvalidDeal,
    InvalidOptions,
    InvalidRecord,
    MatchOver,
    NoDouble,
    NotAMove,
    NotATile,
    OnlyDrawnTile,
    ReplayError,
    WrongSeat,
)
from bot.engine.line import LineRound
from bot.engine.maltese_cross import MalteseCross
from bot.engine.match import Match
from bot.engine.merry_go_round import MerryGoRound
from bot.engine.milo import Milo
from bot.engine.moves import DRAW, END_NAMES, LINE_ENDS, PASS, SPINNER_ARMS, Kind, Move
from bot.engine.options import Options
from bot.engine.outcome import MatchOutcome, Reason, RoundOutcome, ScoreEvent
from bot.engine.record import RECORD_FORMAT, Deal, Record, read_record
from bot.engine.round import Round
from bot.engine.spinner import SpinnerRound
from bot.engine.tiles import TILES, Tile
from bot.engine.variants import GAMES, find_variant

__all__ = [
    "DRAW",
    "END_NAMES",
    "GAMES",
    "LINE_ENDS",
    "PASS",
    "RECORD_FORMAT",
    "SPINNER_ARMS",
    "TILES",
    "AmbiguousMove",
    "BadOptionType",
    "Cross",
    "Deal",
    "EngineError",
    "IllegalMove",
    "InvalidDeal",
    "InvalidOptions",
    "InvalidRecord",
    "Kind",
    "LineRound",
    "MalteseCross",
    "Match",
    "MatchOutcome",
    "MatchOver",
    "MerryGoRound",
    "Milo",
    "Move",
    "NoDouble",
    "NotAMove",
    "NotATile",
    "OnlyDrawnTile",
    "Options",
    "Reason",
    "Record",
    "ReplayError",
    "Round",
    "RoundOutcome",
    "ScoreEvent",
    "SpinnerRound",
    "Tile",
    "WrongSeat",
    "find_variant",
    "read_record",
]
