"""How rounds and matches end, and the points on the way (modelled on python-chess's
``Outcome``): data, not sentences.

Every figure a message needs is a field — who, how many points, the counts, the rule's
number — so that a caller words it (in any language) from the data. ``describe(names)``
gives the English sentence the command line and today's messages use.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
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


class ScoreKind(enum.StrEnum):
    """What scored: a tile as it was laid (R-MG-4), or the round's end."""

    PLAY = "play"
    ROUND = "round"


def _names(names: list[str], seats: tuple[int, ...]) -> str:
    return " and ".join(names[seat] for seat in seats)


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """Points won by one side — or refused for going past the target ("bust") — with
    the rule that gave them."""

    side: int
    """The side that scores: a seat, or in a team game a team (see ``seats``)."""
    points: int
    kind: ScoreKind
    rule: str
    """The rule that gave the points (R-MG-4 for a play, the game's round rule)."""
    seats: tuple[int, ...]
    """The seats of ``side``: one, or a team's two."""
    bust: bool = False
    """The points were not added: they would have passed ``target`` (R-MG-7)."""
    open_sum: int | None = None
    """A play: the open ends' total that scored (R-MG-4)."""
    target: int | None = None
    """A bust: the target the points would have passed."""
    bust_rule: str | None = None
    """A bust: the rule that refuses the points."""

    def describe(self, names: list[str]) -> str:
        """In English, with each seat's name from ``names``."""
        who = _names(names, self.seats)
        if self.kind is ScoreKind.PLAY:
            text = f"{who} scores {self.points}: the open ends total {self.open_sum} ({self.rule})"
        elif self.bust:
            text = f"{who} would score {self.points} for the round ({self.rule})"
        else:
            verb = "score" if len(self.seats) > 1 else "scores"
            text = f"{who} {verb} {self.points} for the round ({self.rule})"
        if self.bust:
            text += f", but that passes {self.target}: bust ({self.bust_rule})"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "points": self.points,
            "kind": self.kind.value,
            "rule": self.rule,
            "seats": list(self.seats),
            "bust": self.bust,
            "open_sum": self.open_sum,
            "target": self.target,
            "bust_rule": self.bust_rule,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScoreEvent:
        return cls(
            data["side"],
            data["points"],
            ScoreKind(data["kind"]),
            data["rule"],
            tuple(data["seats"]),
            data["bust"],
            data["open_sum"],
            data["target"],
            data["bust_rule"],
        )


@dataclass(frozen=True, slots=True)
class RoundScore:
    """How a game's rules scored a round (what a game's ``_score_round`` returns): the
    winning side and the figures that explain it. See :class:`RoundOutcome`."""

    winner: int | None
    rule: str
    seat: int | None = None
    own: int | None = None
    others: int | None = None
    raw: int | None = None
    rounded: int | None = None
    bonus: int | None = None
    team_counts: tuple[int, ...] | None = None
    target: int | None = None


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """The end of a round. ``winner`` and the score lists are per side: a seat, or in a
    team game a team (``sides`` lists each side's seats). ``winner`` is None on a tie."""

    reason: Reason
    winner: int | None
    points: tuple[int, ...]
    """Points each side gained in this round, play scores included."""
    counts: tuple[int, ...]
    """Each seat's pip count when the round ended (R-ALL-7)."""
    hands: tuple[tuple[Tile, ...], ...]
    """The hands as they were at the end, revealed."""
    sides: tuple[tuple[int, ...], ...]
    """The seats of each side."""
    rule: str
    """The rule that scored the round (R-CR-6, R-MG-6, R-MI-5, R-ALL-8, R-MG-7 …)."""
    seat: int | None = None
    """The seat that dominoed, had the lowest count, or reached the target."""
    own: int | None = None
    """That seat's count (spinner games)."""
    others: int | None = None
    """The other seats' counts added up (spinner games)."""
    raw: int | None = None
    """The round's value before rounding: ``others`` less ``own`` when blocked (R-CR-6,
    R-MG-6)."""
    rounded: int | None = None
    """Merry-Go-Round: ``raw`` to the nearest multiple of 5 (R-MG-6)."""
    bonus: int | None = None
    """Milo: the number both ends showed after the last tile, worth 1 more (R-MI-5)."""
    team_counts: tuple[int, ...] | None = None
    """Milo, blocked: each team's count (R-MI-5)."""
    target: int | None = None
    """Merry-Go-Round: the target reached exactly mid-round (R-MG-7)."""

    @property
    def tie(self) -> bool:
        """Blocked with the lowest counts tied: nobody scores (R-ALL-8, R-MI-5)."""
        return self.winner is None

    def describe(self, names: list[str]) -> str:
        """The scoring in English, with each seat's name from ``names``: "Ann wins the
        round: dominoed; the other hands hold 30 (R-CR-6)"."""
        rule = f"({self.rule})"
        if self.team_counts is not None:
            held = ", ".join(
                f"{_names(names, seats)} hold {count}"
                for seats, count in zip(self.sides, self.team_counts, strict=True)
            )
            if self.winner is None:
                return f"Blocked: {held}: a tie, nobody scores {rule}"
            return f"Blocked: {held}: {_names(names, self.sides[self.winner])} score 1 {rule}"
        if self.winner is None:
            return f"Blocked, and the lowest counts tie: nobody scores {rule}"
        assert self.seat is not None
        who = names[self.seat]
        if self.reason is Reason.TARGET:
            return f"{who} reached exactly {self.target} {rule}"
        if len(self.sides[self.winner]) > 1:  # a team's domino (R-MI-5)
            text = f"{who} dominoed: 1 point for {_names(names, self.sides[self.winner])}"
            if self.bonus is not None:
                text += f", and 1 more because both ends show {self.bonus}"
            return f"{text} {rule}"
        if self.rounded is not None:
            won = "dominoed" if self.reason is Reason.DOMINO else "lowest count"
            return (
                f"{who} wins the round: {won}; {self.others} − {self.own} = {self.raw},"
                f" to the nearest 5 is {self.rounded}: {self.rounded // 5} points {rule}"
            )
        if self.reason is Reason.DOMINO:
            return f"{who} wins the round: dominoed; the other hands hold {self.others} {rule}"
        return (
            f"{who} wins the round: blocked with the lowest count, {self.own}; the others"
            f" hold {self.others}: {self.others} − {self.own} = {self.raw} {rule}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason.value,
            "winner": self.winner,
            "points": list(self.points),
            "counts": list(self.counts),
            "hands": [[t.text for t in hand] for hand in self.hands],
            "sides": [list(seats) for seats in self.sides],
            "rule": self.rule,
            "seat": self.seat,
            "own": self.own,
            "others": self.others,
            "raw": self.raw,
            "rounded": self.rounded,
            "bonus": self.bonus,
            "team_counts": list(self.team_counts) if self.team_counts is not None else None,
            "target": self.target,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundOutcome:
        team_counts = data["team_counts"]
        return cls(
            Reason(data["reason"]),
            data["winner"],
            tuple(data["points"]),
            tuple(data["counts"]),
            tuple(tuple(Tile.parse(t) for t in hand) for hand in data["hands"]),
            tuple(tuple(seats) for seats in data["sides"]),
            data["rule"],
            data["seat"],
            data["own"],
            data["others"],
            data["raw"],
            data["rounded"],
            data["bonus"],
            tuple(team_counts) if team_counts is not None else None,
            data["target"],
        )


def game_winner(scores: Sequence[int], target: int, exact: bool) -> int | None:
    """The side that has won the game with ``scores``: reached the target (R-CR-7,
    R-MI-6), or exactly the target in a game played to it exactly (R-MG-7). Only one
    side scores at a time, so at most one side can have just reached it."""
    for side, score in enumerate(scores):
        if score == target or (score > target and not exact):
            return side
    return None


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

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchOutcome:
        return cls(int(data["winner"]), tuple(data["scores"]), tuple(data["games_won"]))
