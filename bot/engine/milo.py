"""Milo (R-MI): four players in two partnerships on a line, no boneyard, to 5 points."""

from __future__ import annotations

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

    @classmethod
    def hand_size(cls, players: int) -> int:
        """R-MI-1: seven tiles each, no boneyard."""
        return 7

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

    def _score_round(
        self, reason: Reason, winner_seat: int | None, counts: list[int]
    ) -> RoundScore:
        """R-MI-5: 1 point for dominoing (+1 if both ends then match); blocked, the team
        with the lower count scores 1; a tie scores nothing."""
        rule = self.score_rule
        if reason is Reason.DOMINO:
            assert winner_seat is not None
            team = self.side_of(winner_seat)
            left, right = self.line_ends
            bonus = left if left == right else None
            self._award(team, 1 if bonus is None else 2, ScoreKind.ROUND, rule)
            return RoundScore(team, rule, seat=winner_seat, bonus=bonus)
        team_counts = tuple(
            sum(counts[seat] for seat in self.seats_of(side, self.n)) for side in range(2)
        )
        if team_counts[0] == team_counts[1]:
            return RoundScore(None, rule, team_counts=team_counts)
        team = team_counts.index(min(team_counts))
        self._award(team, 1, ScoreKind.ROUND, rule)
        return RoundScore(team, rule, team_counts=team_counts)
