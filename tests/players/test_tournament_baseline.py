"""A tournament run compared with a baseline run (``benchmarks/players.py --baseline``):
a setting tried against the setting, deal by deal, over the deals both runs played."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.players import compared, run

PAIRING = ("milo", "expert", "hard")


def row(deal: int, shares: list[float], margins: list[float]) -> dict[str, Any]:
    game, a, b = PAIRING
    return {"game": game, "a": a, "b": b, "deal": deal, "shares": shares, "margins": margins}


RUN = [row(0, [1, 1], [2, 2]), row(1, [1, 0], [1, -1]), row(2, [0.5, 1], [0, 3])]
BASELINE = [row(1, [0, 0], [-1, -1]), row(2, [0.5, 0], [0, -2]), row(9, [1, 1], [5, 5])]


def test_the_difference_is_taken_deal_by_deal_over_the_deals_both_runs_hold() -> None:
    """Deals 1 and 2 only: A's share of each rises by a half (½ → 0 and ¾ → ¼), its
    points a round by 1 and 2.5."""
    said = compared(RUN, BASELINE)

    assert "deals in both 2:" in said
    assert "A wins +50.0% ±  0.0%" in said
    assert "points/round  +1.75 ±" in said
    assert "correlate at 1.00" in said


def test_too_few_deals_in_both_are_not_compared() -> None:
    said = compared(RUN, [row(0, [0, 0], [0, 0]), row(7, [1, 1], [1, 1])])

    assert "deals in both 1: too few to compare" in said


def test_a_run_given_a_baseline_prints_the_comparison(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results, baseline = tmp_path / "run.jsonl", tmp_path / "baseline.jsonl"
    for path, rows in ((results, RUN), (baseline, BASELINE)):
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))

    run(PAIRING, range(0, 3), results, workers=1, play=False, baseline=baseline)

    assert "against the baseline, deals in both 2: A wins +50.0%" in capsys.readouterr().out
