"""Cross (R-CR): a spinner that must be crossed before any arm grows; draw one tile."""

from __future__ import annotations

from typing import ClassVar

from bot.engine.outcome import Reason, RoundScore, ScoreKind
from bot.engine.spinner import SpinnerRound
from bot.engine.traits import Drawing


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
    drawing: ClassVar[Drawing] = Drawing.ONE_THEN_PASS
    draw_reserve: ClassVar[int] = 2
    """R-CR-5: with 2 or fewer tiles in the boneyard, nobody draws."""

    @classmethod
    def hand_size(cls, players: int) -> int:
        """R-CR-1: 7 tiles each for two players, 5 for three or four."""
        return 7 if players == 2 else 5

    def _score_round(
        self, reason: Reason, winner_seat: int | None, counts: list[int]
    ) -> RoundScore:
        """R-CR-6: the winner scores the other hands' counts, less their own (none left
        after a domino)."""
        assert winner_seat is not None
        own = counts[winner_seat]
        others = sum(counts) - own
        self._award(winner_seat, others - own, ScoreKind.ROUND, self.score_rule)
        return RoundScore(
            winner_seat, self.score_rule, seat=winner_seat, own=own, others=others, raw=others - own
        )
