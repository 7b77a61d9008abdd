"""Merry-Go-Round (R-MG): a spinner game scored in fives, to exactly 61."""

from __future__ import annotations

from typing import ClassVar

from bot.engine.errors import IllegalMove, LeadRule, WrongLead
from bot.engine.outcome import Reason, RoundScore, ScoreKind
from bot.engine.spinner import SpinnerRound
from bot.engine.tiles import ALL_DOUBLES, Tile, tiles_of
from bot.engine.traits import Drawing


def nearest_five(value: int) -> int:
    """R-MG-6: round to the nearest multiple of 5 (23 → 25, 22 → 20, 2 → 0)."""
    return (value + 2) // 5 * 5


class MerryGoRound(SpinnerRound):
    game: ClassVar[str] = "merry-go-round"
    title: ClassVar[str] = "Merry-Go-Round"
    lead_rule: ClassVar[str] = "R-MG-2"
    draw_rule: ClassVar[str] = "R-MG-5"
    deal_rule: ClassVar[str] = "R-MG-1"
    target_rule: ClassVar[str] = "R-MG-7"
    score_rule: ClassVar[str] = "R-MG-6"
    cross_rule: ClassVar[str] = "R-MG-3"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    default_target: ClassVar[int] = 61
    target_range: ClassVar[tuple[int, int]] = (61, 61)
    fixed_target: ClassVar[bool] = True
    exact_target: ClassVar[bool] = True
    drawing: ClassVar[Drawing] = Drawing.UNTIL_PLAYABLE
    scores_plays: ClassVar[bool] = True
    offers_keep_last_two: ClassVar[bool] = True

    @classmethod
    def hand_size(cls, players: int) -> int:
        """R-MG-1: seven tiles each."""
        return 7

    @property
    def draw_reserve(self) -> int:  # type: ignore[override]
        """R-MG-5: "keep last two" leaves the last two tiles undrawn."""
        return 2 if self.options.keep_last_two else 0

    def _lead_mask(self) -> int:
        """R-MG-2: the leader leads any double of theirs."""
        return self.hands[self.leader] & ALL_DOUBLES

    def _why_not_lead(self, tile: Tile) -> IllegalMove:
        doubles = tuple(tiles_of(self.hands[self.leader] & ALL_DOUBLES))
        return WrongLead(tile, doubles, LeadRule.ANY_DOUBLE, self.lead_rule)

    def open_sum(self) -> int:
        """R-MG-4: the open ends added up; a double at an arm's end counts both halves,
        and the spinner counts both halves while fewer than two arms are started."""
        assert self.spinner is not None
        total = 0
        for arm in self.arms:
            if arm:
                tile, far = arm[-1]
                total += tile.value if tile.is_double else far
        if self.started < 2:
            total += self.spinner.value
        return total

    def _open_sum(self) -> int | None:
        return self.open_sum() if self.spinner is not None else 0

    def _after_lay(self, seat: int, tile: Tile) -> None:
        """R-MG-4: a positive multiple of 5 on the open ends scores a fifth of it; R-MG-7:
        reaching the target exactly ends the round (and the game) at once."""
        total = self.open_sum()
        if total and total % 5 == 0:
            self._award(seat, total // 5, ScoreKind.PLAY, "R-MG-4", open_sum=total)
            if self.scores[seat] == self.options.target:
                self._finish(Reason.TARGET, seat)

    def _score_round(
        self, reason: Reason, winner_seat: int | None, counts: list[int]
    ) -> RoundScore:
        """R-MG-6: (other counts − own), to the nearest 5, divided by 5."""
        assert winner_seat is not None
        if reason is Reason.TARGET:
            return RoundScore(
                winner_seat, self.target_rule, seat=winner_seat, target=self.options.target
            )
        own = counts[winner_seat]
        others = sum(counts) - own
        rounded = nearest_five(others - own)
        self._award(winner_seat, rounded // 5, ScoreKind.ROUND, self.score_rule)
        return RoundScore(
            winner_seat,
            self.score_rule,
            seat=winner_seat,
            own=own,
            others=others,
            raw=others - own,
            rounded=rounded,
        )
