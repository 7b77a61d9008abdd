"""Milo (R-MI): four players in two partnerships on a line, no boneyard, to 5 points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bot.engine.errors import IllegalMove, LeadRule, WrongLead
from bot.engine.line import LineRound
from bot.engine.outcome import Reason, RoundScore, ScoreKind
from bot.engine.tiles import DOUBLE, FULL_SET, Tile
from bot.engine.traits import Drawing

_SIX_SIX = Tile(6, 6)


class Milo(LineRound):
    game: ClassVar[str] = "milo"
    title: ClassVar[str] = "Milo"
    lead_rule: ClassVar[str] = "R-MI-3"
    draw_rule: ClassVar[str] = "R-MI-4"
    deal_rule: ClassVar[str] = "R-MI-1"
    target_rule: ClassVar[str] = "R-MI-6"
    score_rule: ClassVar[str] = "R-MI-5"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    default_target: ClassVar[int] = 5
    target_range: ClassVar[tuple[int, int]] = (1, 25)
    offers_match: ClassVar[bool] = True
    match_rule: ClassVar[str | None] = "R-MI-7"
    teams: ClassVar[bool] = True
    drawing: ClassVar[Drawing] = Drawing.NO_BONEYARD
    rotates_lead: ClassVar[bool] = True
    dealt_lead: ClassVar[LeadRule] = LeadRule.SIX_SIX

    @classmethod
    def hand_size(cls, players: int) -> int:
        """R-MI-1: seven tiles each, no boneyard."""
        return 7

    @classmethod
    def fewest_rounds(cls, target: int) -> int:
        """R-MI-5: a round scores a team 2 points at most, so a game to ``target`` lasts
        at least half as many rounds."""
        return -(-target // 2)

    def _default_leader(self) -> int:
        """R-MI-3: in a game's first round the holder of 6-6 leads it."""
        for seat, hand in enumerate(self.hands):
            if hand & _SIX_SIX.bit:
                return seat
        raise AssertionError("unreachable: with every tile dealt, somebody holds 6-6")

    def _check_leader(self) -> None:
        """R-MI-3, R-MI-7: a named leader is the seat the lead passed to; any seat can be."""

    def _lead_mask(self) -> int:
        """R-MI-3, R-MI-7: 6-6 in a game's first round; any tile when the lead passed on."""
        return FULL_SET if self.named_leader else DOUBLE[6]

    def _why_not_lead(self, tile: Tile) -> IllegalMove:
        return WrongLead(tile, (_SIX_SIX,), LeadRule.SIX_SIX, self.lead_rule)

    @classmethod
    def round_award(
        cls, domino_seat: int | None, ends: tuple[int, int], counts: Sequence[int]
    ) -> tuple[int | None, int]:
        """R-MI-5, the one place it is written: the team that scores a finished round and
        its points. A domino by ``domino_seat`` scores 1, and 1 more if both ``ends`` then
        match; blocked (``domino_seat`` None), the team with the lower count of
        ``counts`` (each seat's) scores 1, and a tie scores nothing: ``(None, 0)``. The
        round asks it, and so do the computer players' searches on bare hands
        (:mod:`bot.players.milo_search`), which never build a round."""
        if domino_seat is not None:
            left, right = ends
            return cls.side_of(domino_seat), 2 if left == right else 1
        team_counts = cls.team_counts(counts)
        if team_counts[0] == team_counts[1]:
            return None, 0
        return team_counts.index(min(team_counts)), 1

    @classmethod
    def team_counts(cls, counts: Sequence[int]) -> tuple[int, int]:
        """Each team's count: its two seats' counts added (R-MI-5)."""
        seats = len(counts)
        first, second = (sum(counts[s] for s in cls.seats_of(side, seats)) for side in range(2))
        return first, second

    def _score_round(
        self, reason: Reason, winner_seat: int | None, counts: list[int]
    ) -> RoundScore:
        """R-MI-5, as :meth:`round_award` says, recorded with what earned it."""
        rule = self.score_rule
        left, right = self.line_ends
        domino_seat = winner_seat if reason is Reason.DOMINO else None
        team, points = self.round_award(domino_seat, (left, right), counts)
        if team is not None:
            self._award(team, points, ScoreKind.ROUND, rule)
        if domino_seat is not None:
            return RoundScore(team, rule, seat=domino_seat, bonus=left if points == 2 else None)
        return RoundScore(team, rule, team_counts=self.team_counts(counts))
