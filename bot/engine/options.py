"""Table options (RULES.md, "Table options every game should offer"), checked once,
before the table opens, with a message that says what is allowed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.engine.errors import (
    BadOptionType,
    FixedTarget,
    MatchGamesOutOfRange,
    OptionNotOffered,
    TargetOutOfRange,
    UnknownOption,
    WrongPlayerCount,
)

if TYPE_CHECKING:
    from bot.engine.round import Round


OPTION_RULES = {"keep_last_two": "R-MG-5", "match_games": "R-MI-7"}
"""The options some games offer, and the rule that makes each."""
MATCH_GAMES = (1, 9)
"""The games a team may be asked to win to take a match (R-MI-7), fewest and most."""


@dataclass(frozen=True, slots=True)
class Options:
    """The options of one table. Build them with :meth:`for_game`, which validates."""

    target: int
    keep_last_two: bool = False
    """Merry-Go-Round only: the last two boneyard tiles are never drawn (R-MG-5)."""
    match_games: int = 1
    """Milo only: games a team must win to take the match (R-MI-7)."""

    def __post_init__(self) -> None:
        """Types only; :meth:`for_game` checks what each game allows."""
        _check_int("target", self.target)
        if not isinstance(self.keep_last_two, bool):
            raise BadOptionType("keep_last_two", "true or false", self.keep_last_two)
        _check_int("match_games", self.match_games)

    @classmethod
    def for_game(
        cls,
        game: type[Round],
        players: int,
        *,
        target: int | None = None,
        keep_last_two: bool | None = None,
        match_games: int | None = None,
    ) -> Options:
        """Validate options for ``game`` with ``players`` seats; None means the default."""
        from bot.engine.round import Round  # the games import this module

        if not (isinstance(game, type) and issubclass(game, Round)):
            raise BadOptionType("game", "a game's round class", game)
        _check_int("players", players)
        if target is not None:
            _check_int("target", target)
        if keep_last_two is not None and not isinstance(keep_last_two, bool):
            raise BadOptionType("keep_last_two", "true or false", keep_last_two)
        if match_games is not None:
            _check_int("match_games", match_games)
        if players not in game.player_counts:
            raise WrongPlayerCount(game, game.player_counts, players)
        if target is None:
            target = game.default_target
        elif game.fixed_target and target != game.default_target:
            raise FixedTarget(game, game.default_target)
        low, high = game.target_range
        if not low <= target <= high:
            raise TargetOutOfRange(game, low, high, target)
        if keep_last_two and not game.offers_keep_last_two:
            raise _not_offered(game, "keep_last_two")
        if match_games is None:
            match_games = 1
        elif match_games != 1 and not game.offers_match:
            raise _not_offered(game, "match_games")
        low, high = MATCH_GAMES
        if not low <= match_games <= high:
            raise MatchGamesOutOfRange(low, high, match_games)
        return cls(target, bool(keep_last_two), match_games)

    @classmethod
    def from_dict(cls, game: type[Round], players: int, data: dict[str, Any]) -> Options:
        """Options as a record or a table stores them, validated as :meth:`for_game`."""
        if not isinstance(data, dict):
            raise BadOptionType("options", "an object", data)
        unknown = set(data) - set(OPTION_RULES) - {"target"}
        if unknown:
            raise UnknownOption(sorted(map(str, unknown))[0])
        return cls.for_game(game, players, **data)

    def to_dict(self) -> dict[str, Any]:
        """Spelled out rather than ``dataclasses.asdict``, which is slow, and every view
        of every move carries the options."""
        return {
            "target": self.target,
            "keep_last_two": self.keep_last_two,
            "match_games": self.match_games,
        }


def _check_int(field: str, value: object) -> None:
    """An integer, and not a bool (``True`` is an ``int`` to Python, not to a table)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadOptionType(field, "an integer", value)


def _not_offered(game: type[Round], option: str) -> OptionNotOffered:
    from bot.engine.variants import GAMES  # the games import this module

    trait = "offers_keep_last_two" if option == "keep_last_two" else "offers_match"
    owners = tuple(g for g in GAMES.values() if getattr(g, trait))
    return OptionNotOffered(game, option, owners, OPTION_RULES[option])
