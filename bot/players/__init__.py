"""Computer players. They see only what their seat may see (its `SeatView`) and are
deterministic given a seed, so a game with computer seats replays exactly."""

from collections.abc import Callable

from bot.levels import LEVELS
from bot.players.base import ComputerPlayer, players_seed
from bot.players.easy import EasyPlayer
from bot.players.expert import ExpertPlayer
from bot.players.hard import HardPlayer
from bot.players.normal import NormalPlayer


def computer_player(level: str, seed: int = 0) -> ComputerPlayer:
    """The player for ``level`` (one of :data:`LEVELS`)."""
    players: dict[str, Callable[..., ComputerPlayer]] = {
        "easy": EasyPlayer,
        "normal": NormalPlayer,
        "hard": HardPlayer,
        "expert": ExpertPlayer,
    }
    try:
        player: ComputerPlayer = players[level](seed=seed)
        return player
    except KeyError:
        raise ValueError(f"the computer levels are {', '.join(LEVELS)}") from None


__all__ = [
    "ComputerPlayer",
    "EasyPlayer",
    "ExpertPlayer",
    "HardPlayer",
    "NormalPlayer",
    "computer_player",
    "players_seed",
]
