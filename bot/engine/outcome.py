"""How rounds and matches end (modelled on python-chess's ``Outcome``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from bot.engine.tiles import Tile


class Reason(enum.Enum):
    DOMINO = "domino"
    """A player played their last tile (R-ALL-5)."""
    BLOCKED = "blocked"
    """Nobody can play and nobody may draw (R-ALL-5)."""
    TARGET = "target"
    """Merry-Go-Round: a play reached exactly 61 mid-round (R-MG-7)."""


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """Points won (or refused for going bust) by one side, with the rule that gave them."""

    side: int
    points: int
    reason: str
    bust: bool = False
    kind: str = "round"
    """``round`` for the end-of-round award, ``play`` for a scoring play (R-MG-4)."""

    def describe(self, names: list[str]) -> str:
        """The reason with each seat's name filled in."""
        return self.reason.format(*names)

    def to_dict(self) -> dict[str, object]:
        return {
            "side": self.side,
            "points": self.points,
            "reason": self.reason,
            "bust": self.bust,
            "kind": self.kind,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScoreEvent:
        return cls(
            int(data["side"]),
            int(data["points"]),
            str(data["reason"]),
            bool(data["bust"]),
            str(data["kind"]),
        )


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """The end of a round. ``winner`` and the score lists are per side: a seat, or in Milo
    a team (0 = seats 0 and 2, 1 = seats 1 and 3). ``winner`` is None on a tie (R-ALL-8)."""

    reason: Reason
    winner: int | None
    points: tuple[int, ...]
    """Points each side gained in this round, play scores included."""
    counts: tuple[int, ...]
    """Each seat's pip count when the round ended (R-ALL-7)."""
    hands: tuple[tuple[Tile, ...], ...]
    """The hands as they were at the end, revealed."""
    explanation: str
    """The scoring in words, with the rule: "Ann dominoed: 30 in the other hands (R-CR-6)"."""

    def describe(self, names: list[str]) -> str:
        """The explanation with each seat's name filled in."""
        return self.explanation.format(*names)

    def to_dict(self) -> dict[str, object]:
        return {
            "reason": self.reason.value,
            "winner": self.winner,
            "points": list(self.points),
            "counts": list(self.counts),
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "explanation": self.explanation,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> RoundOutcome:
        return cls(
            Reason(data["reason"]),
            data["winner"],  # type: ignore[arg-type]
            tuple(data["points"]),  # type: ignore[arg-type]
            tuple(data["counts"]),  # type: ignore[arg-type]
            tuple(tuple(Tile.parse(t) for t in hand) for hand in data["hands"]),  # type: ignore[attr-defined]
            str(data["explanation"]),
        )


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """The end of a match: the winning side and the final scores (games won, in a Milo
    match of several games)."""

    winner: int
    scores: tuple[int, ...]
    games_won: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "games_won": list(self.games_won),
        }
