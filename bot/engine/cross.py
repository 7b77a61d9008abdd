"""Cross (R-CR): a spinner that must be crossed before any arm grows; draw one tile."""

from __future__ import annotations

from typing import ClassVar

from bot.engine.errors import AlreadyDrew, IllegalMove
from bot.engine.outcome import Reason
from bot.engine.spinner import SpinnerRound


class Cross(SpinnerRound):
    game: ClassVar[str] = "cross"
    title: ClassVar[str] = "Cross"
    lead_rule: ClassVar[str] = "R-CR-2"
    draw_rule: ClassVar[str] = "R-CR-5"
    deal_rule: ClassVar[str] = "R-CR-1"
    target_rule: ClassVar[str] = "R-CR-7"
    cross_rule: ClassVar[str] = "R-CR-3"
    score_rule: ClassVar[str] = "R-CR-6"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    default_target: ClassVar[int] = 100
    target_range: ClassVar[tuple[int, int]] = (10, 1000)
    draw_reserve: ClassVar[int] = 2
    """R-CR-5: with 2 or fewer tiles in the boneyard, nobody draws."""

    @classmethod
    def hand_size(cls, players: int) -> int:
        """R-CR-1: 7 tiles each for two players, 5 for three or four."""
        return 7 if players == 2 else 5

    def _may_draw(self) -> bool:
        """R-CR-5: exactly one tile a turn; a tile that does not fit means a pass."""
        return not self.drew and len(self.boneyard) > self.draw_reserve

    def _why_no_draw(self) -> IllegalMove:
        if self.drew:
            return AlreadyDrew(self.draw_rule)
        return super()._why_no_draw()

    def _score_round(
        self, reason: Reason, winner_seat: int | None, counts: list[int]
    ) -> tuple[int | None, str]:
        """R-CR-6: the winner scores the other hands' counts, less their own if blocked."""
        assert winner_seat is not None
        points, how = self._round_value(reason, winner_seat, counts)
        self._award(winner_seat, points, f"{{{winner_seat}}} wins the round: {how}")
        return winner_seat, f"{{{winner_seat}}} wins the round: {how}"

    def _round_value(self, reason: Reason, seat: int, counts: list[int]) -> tuple[int, str]:
        """The winner's raw value: the other counts, less their own in a blocked round."""
        own = counts[seat]
        others = sum(counts) - own
        if reason is Reason.DOMINO:
            return others, f"dominoed; the other hands hold {others} ({self.score_rule})"
        return others - own, (
            f"blocked with the lowest count, {own}; the others hold {others}:"
            f" {others} − {own} = {others - own} ({self.score_rule})"
        )
