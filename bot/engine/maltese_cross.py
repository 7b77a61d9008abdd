"""Maltese Cross (R-MC): Cross with a second phase that caps every arm with a double."""

from __future__ import annotations

from typing import Any, ClassVar

from bot.engine.cross import Cross
from bot.engine.errors import ArmCapped, ArmDead, CapsOnly, WrongEnd
from bot.engine.moves import SPINNER_ARMS
from bot.engine.round import Fits
from bot.engine.tiles import DOUBLE, Tile
from bot.engine.views import Layout, SpinnerLayout


class MalteseCross(Cross):
    game: ClassVar[str] = "maltese-cross"
    title: ClassVar[str] = "Maltese Cross"
    lead_rule: ClassVar[str] = "R-MC-1"
    deal_rule: ClassVar[str] = "R-MC-1"
    target_rule: ClassVar[str] = "R-MC-6"
    cross_rule: ClassVar[str] = "R-MC-2"
    score_rule: ClassVar[str] = "R-MC-6"
    has_caps: ClassVar[bool] = True
    # Drawing and passing stay Cross's own rule, R-CR-5 (R-MC-3 says "as R-CR-5").

    capped: list[bool]

    def _init_layout(self) -> None:
        super()._init_layout()
        self.capped = [False] * 4

    def _copy_layout(self, state: dict[str, Any]) -> None:
        super()._copy_layout(state)
        state["capped"] = self.capped.copy()

    @property
    def complete(self) -> bool:
        """R-MC-4: all four arms capped, the Maltese cross is complete."""
        return all(self.capped)

    @property
    def phase(self) -> str:
        phase = super().phase
        return (
            "caps" if phase == "open" and not self.complete and not any(self.dead_arms()) else phase
        )

    def dead_arms(self) -> list[bool]:
        """R-MC-5: once the boneyard is down to 2 with the cross incomplete, every arm
        without a cap is dead. Derived, not stored: the boneyard never grows back and a
        dead arm can never be capped, so the condition, once true, stays true."""
        if self.spinner is None or len(self.boneyard) > self.draw_reserve or self.complete:
            return [False] * 4
        return [not capped for capped in self.capped]

    def _is_capped(self, arm: int) -> bool:
        return self.capped[arm]

    def _lay(self, tile: Tile, end: int | None) -> None:
        # With all four arms started, a tile on an uncapped arm is its cap (R-MC-3): in
        # open play every arm is capped, and a dead arm takes nothing (R-MC-5).
        cap = end if end is not None and self.started == 4 and not self.capped[end] else None
        super()._lay(tile, end)
        if cap is not None:
            self.capped[cap] = True

    def _load_layout(self, layout: Layout) -> None:
        super()._load_layout(layout)
        assert isinstance(layout, SpinnerLayout)
        self.capped = [arm.capped for arm in layout.arms]

    def _compute_fits(self) -> Fits:
        # dead_arms() spelled out on the hot path: no lists built when nothing is dead.
        capped = self.capped
        if all(capped):
            return self._open_fits()  # R-MC-4
        if len(self.boneyard) <= self.draw_reserve:  # R-MC-5: only capped arms live
            return self._open_fits([a for a in range(4) if capped[a]])
        if self.started < 4:
            return self._cross_fits()  # R-MC-2
        ends = self.arm_ends
        return [(a, DOUBLE[ends[a]]) for a in range(4) if not capped[a]]  # R-MC-3

    def _after_draw(self) -> None:
        if len(self.boneyard) <= self.draw_reserve:
            self._refresh_fits()

    def _why_not_fit(self, tile: Tile, end: int, fits_on: tuple[str, ...]) -> WrongEnd:
        name = SPINNER_ARMS[end]
        if self.dead_arms()[end]:
            return ArmDead(tile, name, fits_on, "R-MC-5")
        if self.phase == "caps":
            if self.capped[end]:
                return ArmCapped(tile, name, fits_on, "R-MC-3")
            return CapsOnly(tile, name, self.arm_ends[end], fits_on, "R-MC-3")
        return super()._why_not_fit(tile, end, fits_on)
