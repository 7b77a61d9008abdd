"""Computer players. They see only what their seat may see (its private view) and are
deterministic given a seed, so a game with computer seats replays exactly."""

from bot.players.base import LEVELS, ComputerPlayer
from bot.players.easy import EasyPlayer
from bot.players.hard import HardPlayer
from bot.players.normal import NormalPlayer


def computer_player(level: str, seed: int = 0) -> ComputerPlayer:
    """The player for ``level`` (easy, normal or hard)."""
    players: dict[str, type[EasyPlayer] | type[NormalPlayer] | type[HardPlayer]] = {
        "easy": EasyPlayer,
        "normal": NormalPlayer,
        "hard": HardPlayer,
    }
    try:
        return players[level](seed=seed)
    except KeyError:
        raise ValueError(f"the computer levels are {', '.join(LEVELS)}") from None


__all__ = [
    "LEVELS",
    "ComputerPlayer",
    "EasyPlayer",
    "HardPlayer",
    "NormalPlayer",
    "computer_player",
]
