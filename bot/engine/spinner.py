"""Spinner layouts (R-SP): a double in the middle with four arms, N, E, S and W.

Cross, Maltese Cross and Merry-Go-Round build on this class. It knows the arms, the
"cross" phase in which only empty arms may be started (R-CR-3, R-MG-3), the open phase,
the lead by the highest double and the labels a picture needs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.engine.errors import (
    ArmStartedAlready,
    DoesNotFit,
    IllegalMove,
    LeadRule,
    NoDouble,
    WrongEnd,
    WrongLead,
    WrongLeader,
)
from bot.engine.moves import SPINNER_ARMS
from bot.engine.round import Fits, Round
from bot.engine.tiles import DOUBLE, SUIT, Tile, highest_double
from bot.engine.traits import LayoutKind
from bot.engine.views import Arm, ArmTile, Layout, SpinnerLayout


class SpinnerRound(Round):
    """A round on a spinner layout. Arms are end indices 0..3 (N, E, S, W)."""

    layout_kind: ClassVar[LayoutKind] = LayoutKind.SPINNER
    ends: ClassVar[tuple[str, ...]] = SPINNER_ARMS
    place_rule: ClassVar[str] = "R-SP-3"
    dealt_lead: ClassVar[LeadRule] = LeadRule.HIGHEST_DOUBLE
    cross_rule: ClassVar[str]
    """The rule that all four arms are started before any arm grows (R-CR-3 and kin)."""

    spinner: Tile | None
    arms: list[list[tuple[Tile, int]]]
    """Per arm, each tile laid on it with its far (outer) value, from the spinner out."""
    arm_ends: list[int]
    """Per arm, the number its open end shows (the spinner's number until started)."""
    started: int

    def _init_layout(self) -> None:
        self.spinner = None
        self.arms = [[], [], [], []]
        self.arm_ends = [0, 0, 0, 0]
        self.started = 0

    def _copy_layout(self, state: dict[str, Any]) -> None:
        state["arms"] = [arm.copy() for arm in self.arms]
        state["arm_ends"] = self.arm_ends.copy()

    # -- the lead: the highest double (R-CR-2, R-MG-2) ---------------------------------

    def _default_leader(self) -> int:
        for pip in range(6, -1, -1):
            bit = DOUBLE[pip]
            for seat, hand in enumerate(self.hands):
                if hand & bit:
                    return seat
        raise NoDouble(self.lead_rule)

    def _check_leader(self) -> None:
        """Only the holder of the highest double may lead (R-CR-2, R-MG-2)."""
        holder = self._default_leader()
        if self.leader != holder:
            double = highest_double(self.hands[holder])
            raise WrongLeader(self.leader, holder, LeadRule.HIGHEST_DOUBLE, double, self.lead_rule)

    def _lead_mask(self) -> int:
        double = highest_double(self.hands[self.leader])
        return double.bit if double else 0

    def _why_not_lead(self, tile: Tile) -> IllegalMove:
        double = highest_double(self.hands[self.leader])
        assert double is not None  # the leader holds the highest double (R-ALL-3)
        return WrongLead(tile, (double,), LeadRule.HIGHEST_DOUBLE, self.lead_rule)

    # -- laying tiles --------------------------------------------------------------------

    def _lay(self, tile: Tile, end: int | None) -> None:
        if end is None:
            self.spinner = tile
            self.arm_ends = [tile.high] * 4
            return
        far = tile.other(self.arm_ends[end])
        arm = self.arms[end]
        arm.append((tile, far))
        self.arm_ends[end] = far
        if len(arm) == 1:
            self.started += 1

    @property
    def phase(self) -> str:
        """``lead``, ``cross`` (arms still to start) or ``open``; Maltese Cross adds ``caps``."""
        if self.spinner is None:
            return "lead"
        return "cross" if self.started < 4 else "open"

    def dead_arms(self) -> list[bool]:
        """Arms nothing may be played on for the rest of the round (only Maltese Cross)."""
        return [False] * 4

    def _cross_fits(self) -> Fits:
        """R-CR-3: until all four arms are started, tiles may only start an empty arm."""
        assert self.spinner is not None
        suit = SUIT[self.spinner.high]
        return [(arm, suit) for arm in range(4) if not self.arms[arm]]

    def _open_fits(self, arms: range | list[int] = range(4)) -> Fits:
        """R-CR-4: any tile matching an arm's open end."""
        ends = self.arm_ends
        return [(arm, SUIT[ends[arm]]) for arm in arms]

    def _compute_fits(self) -> Fits:
        return self._cross_fits() if self.started < 4 else self._open_fits()

    def _why_not_fit(self, tile: Tile, end: int, fits_on: tuple[str, ...]) -> WrongEnd:
        name = SPINNER_ARMS[end]
        if self.started < 4 and self.arms[end]:
            return ArmStartedAlready(tile, name, fits_on, self.cross_rule)
        return DoesNotFit(tile, name, self.arm_ends[end], fits_on, "R-SP-2")

    # -- what a picture and a player read ----------------------------------------------

    def open_ends(self) -> dict[str, int]:
        if self.spinner is None:
            return {}
        dead = self.dead_arms()
        return {SPINNER_ARMS[a]: self.arm_ends[a] for a in range(4) if not dead[a]}

    def _layout_dict(self) -> dict[str, Any]:
        assert self.spinner is not None
        dead = self.dead_arms()
        return {
            "kind": "spinner",
            "phase": self.phase,
            "spinner": str(self.spinner),
            "arms": {
                SPINNER_ARMS[a]: [
                    {"tile": tile.text, "near": tile.other(far), "far": far}
                    for tile, far in self.arms[a]
                ]
                for a in range(4)
            },
            "capped": {SPINNER_ARMS[a]: self._is_capped(a) for a in range(4)},
            "dead": {SPINNER_ARMS[a]: dead[a] for a in range(4)},
        }

    def _layout_view(self) -> SpinnerLayout:
        assert self.spinner is not None
        dead = self.dead_arms()
        return SpinnerLayout(
            self.spinner,
            tuple(
                Arm(
                    SPINNER_ARMS[a],
                    tuple(ArmTile(tile, tile.other(far), far) for tile, far in self.arms[a]),
                    self.arm_ends[a],
                    self._is_capped(a),
                    dead[a],
                )
                for a in range(4)
            ),
            self.phase,
        )

    def _is_capped(self, arm: int) -> bool:
        return False

    def _load_layout(self, layout: Layout) -> None:
        assert isinstance(layout, SpinnerLayout)
        self._lay(layout.spinner, None)
        for a, arm in enumerate(layout.arms):
            for placed in arm.tiles:
                self._lay(placed.tile, a)
