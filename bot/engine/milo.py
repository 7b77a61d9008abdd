"""Milo (R-MI): four players in two partnerships on a line, no boneyard, to 5 points."""

from __future__ import annotations

from typing import ClassVar

from bot.engine.errors import IllegalMove, LeadRule, NoBoneyard, WrongLead
from bot.engine.line import LineRound
from bot.engine.outcome import Reason
from bot.engine.tiles import DOUBLE, FULL_SET, Tile

_SIX_SIX = Tile(6, 6)


class Milo(LineRound):
    game: ClassVar[str] = "milo"
    title: ClassVar[str] = "Milo"
    lead_rule: ClassVar[str] = "R-MI-3"
    draw_rule: ClassVar[str] = "R-MI-4"
    deal_rule: ClassVar[str] = "R-MI-1"
    target_rule: ClassVar[str] = "R-MI-6"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    default_target: ClassVar[int] = 5
    target_range: ClassVar[tuple[int, int]] = (1, 25)
    offers_match: ClassVar[bool] = True
    match_rule: ClassVar[str | None] = "R-MI-7"
    teams: ClassVar[bool] = True
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

    def _why_no_draw(self) -> IllegalMove:
        return NoBoneyard(self.draw_rule)

    def _score_round(
        self, reason: Reason, winner_seat: int | None, counts: list[int]
    ) -> tuple[int | None, str]:
        """R-MI-5: 1 point for dominoing (+1 if both ends then match); blocked, the team
        with the lower count scores 1; a tie scores nothing."""
        if reason is Reason.DOMINO:
            assert winner_seat is not None
            team = winner_seat % 2
            left, right = self.line_ends
            bonus = left == right
            points = 2 if bonus else 1
            how = f"{{{winner_seat}}} dominoed: 1 point for {{{team}}} and {{{team + 2}}}"
            if bonus:
                how += f", and 1 more because both ends show {left}"
            how += " (R-MI-5)"
            self._award(team, points, how)
            return team, how
        team_counts = [counts[0] + counts[2], counts[1] + counts[3]]
        blocked = (
            f"Blocked: {{0}} and {{2}} hold {team_counts[0]}, {{1}} and {{3}} hold {team_counts[1]}"
        )
        if team_counts[0] == team_counts[1]:
            return None, f"{blocked}: a tie, nobody scores (R-MI-5)"
        team = 0 if team_counts[0] < team_counts[1] else 1
        how = f"{blocked}: {{{team}}} and {{{team + 2}}} score 1 (R-MI-5)"
        self._award(team, 1, how)
        return team, how
