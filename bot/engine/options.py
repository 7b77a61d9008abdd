"""Table options (RULES.md, "Table options every game should offer"), checked once,
before the table opens, with a message that says what is allowed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.engine.errors import InvalidOptions

if TYPE_CHECKING:
    from bot.engine.round import Round


@dataclass(frozen=True, slots=True)
class Options:
    """The options of one table. Build them with :meth:`for_game`, which validates."""

    target: int
    keep_last_two: bool = False
    """Merry-Go-Round only: the last two boneyard tiles are never drawn (R-MG-5)."""
    match_games: int = 1
    """Milo only: games a team must win to take the match (R-MI-7)."""

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
        if players not in game.player_counts:
            allowed = " or ".join(str(n) for n in game.player_counts)
            raise InvalidOptions(f"{game.title} is played by {allowed} players, not {players}")
        if target is None:
            target = game.default_target
        elif game.fixed_target and target != game.default_target:
            raise InvalidOptions(
                f"{game.title} is always played to exactly {game.default_target}"
                f" ({game.target_rule}); its target cannot be changed"
            )
        low, high = game.target_range
        if not low <= target <= high:
            raise InvalidOptions(
                f"the target for {game.title} must be between {low} and {high}, not {target}"
            )
        if keep_last_two and not game.offers_keep_last_two:
            raise InvalidOptions(f"'keep last two' is a Merry-Go-Round option, not {game.title}'s")
        if match_games is None:
            match_games = 1
        elif match_games != 1 and not game.offers_match:
            raise InvalidOptions(f"match length is a Milo option, not {game.title}'s")
        if not 1 <= match_games <= 9:
            raise InvalidOptions(f"a match is 1 to 9 games won, not {match_games}")
        return cls(target, bool(keep_last_two), match_games)

    @classmethod
    def from_dict(cls, game: type[Round], players: int, data: dict[str, Any]) -> Options:
        unknown = set(data) - {"target", "keep_last_two", "match_games"}
        if unknown:
            raise InvalidOptions(f"unknown option {sorted(unknown)[0]!r}")
        return cls.for_game(game, players, **data)

    def to_dict(self) -> dict[str, Any]:
        """Spelled out rather than ``dataclasses.asdict``, which is slow, and every view
        of every move carries the options."""
        return {
            "target": self.target,
            "keep_last_two": self.keep_last_two,
            "match_games": self.match_games,
        }
