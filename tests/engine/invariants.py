"""Invariants that hold after every action of every game; used by the self-play and
property tests."""

from __future__ import annotations

from bot.engine import TILES, Move, Reason, Round
from bot.engine.merry_go_round import nearest_five


def table_tiles(round_: Round) -> list[str]:
    layout = round_.public_view()["layout"]
    if layout is None:
        return []
    if layout["kind"] == "line":
        return [t["tile"] for t in layout["tiles"]]
    return [layout["spinner"]] + [t["tile"] for arm in layout["arms"].values() for t in arm]


def check_tiles_conserved(round_: Round) -> None:
    """All 28 tiles accounted for, each exactly once."""
    held = [str(t) for s in range(round_.n) for t in round_.hand(s)]
    bone = [str(TILES[i]) for i in round_.boneyard]
    everything = held + bone + table_tiles(round_)
    assert sorted(everything) == sorted(str(t) for t in TILES), everything


def check_move(round_: Round, move: Move) -> None:
    """The move about to be applied is one of the legal ones, and legal moves obey R-ALL-4."""
    legal = round_.legal_moves()
    assert move in legal
    kinds = {m.kind.value for m in legal}
    assert kinds in ({"play"}, {"draw"}, {"pass"}), kinds
    if round_.led and kinds != {"play"}:
        assert not round_.can_play(round_.turn)


def check_finished(round_: Round) -> None:
    """A finished round: blocked really is blocked, and the score is as the rules say."""
    outcome = round_.outcome()
    assert outcome is not None
    counts = list(outcome.counts)
    if outcome.reason is Reason.BLOCKED:
        assert all(not round_.can_play(s) for s in range(round_.n))
        assert len(round_.boneyard) <= round_.draw_reserve
    if outcome.reason is Reason.DOMINO:
        assert any(c == 0 and not round_.hand(s) for s, c in enumerate(counts))
    played = [e for e in round_.score_events if not e.bust]
    gained = [0] * round_.sides
    for event in played:
        gained[event.side] += event.points
    assert tuple(gained) == outcome.points
    assert [a - b for a, b in zip(round_.scores, round_.start_scores, strict=True)] == gained
    check_round_score(round_)


def check_round_score(round_: Round) -> None:
    """The end-of-round award, recomputed from the counts straight from RULES.md."""
    outcome = round_.outcome()
    assert outcome is not None
    counts = outcome.counts
    round_events = [e for e in round_.score_events if e.kind == "round"]
    if outcome.reason is Reason.TARGET:
        assert round_.scores[outcome.winner] == round_.options.target
        return
    if round_.game == "milo":
        teams = [counts[0] + counts[2], counts[1] + counts[3]]
        if outcome.reason is Reason.BLOCKED:
            expected = None if teams[0] == teams[1] else teams.index(min(teams))
            assert outcome.winner == expected
            assert outcome.points == (
                (0, 0) if expected is None else tuple(int(s == expected) for s in range(2))
            )
        else:
            left, right = round_.line_ends  # type: ignore[attr-defined]
            assert outcome.points[outcome.winner] == (2 if left == right else 1)
        return
    low = min(counts)
    if outcome.reason is Reason.BLOCKED and counts.count(low) > 1:
        assert outcome.winner is None and not round_events
        return
    winner = outcome.winner
    assert winner is not None
    if outcome.reason is Reason.BLOCKED:
        assert counts[winner] == low
    raw = sum(counts) - 2 * counts[winner]
    expected = raw if round_.game in ("cross", "maltese-cross") else nearest_five(raw) // 5
    awarded = [e for e in round_events if e.side == winner]
    if expected:
        assert len(awarded) == 1 and awarded[0].points == expected
        if awarded[0].bust:  # R-MG-7: only Merry-Go-Round busts, and only past 61
            assert round_.game == "merry-go-round"
            assert round_.scores[winner] + expected > round_.options.target
    else:
        assert not awarded
