"""Invariants that hold after every action of every game; used by the self-play and
property tests.

Legal moves, blocked rounds and Merry-Go-Round's play scores are checked against a second
reading of RULES.md written here from the public view alone (:func:`reference_plays`,
:func:`reference_open_sum`), not against the engine's own bit masks, so a bug in the
engine's move generator cannot vouch for itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from bot.engine import TILES, LineLayout, Move, PublicView, Reason, Round, Tile

ARMS = ("N", "E", "S", "W")
CROSS_FAMILY = ("cross", "maltese-cross")
EVERY_TILE = set(TILES)


def table_tiles(view: PublicView) -> list[Tile]:
    """The tiles on the table, read off the layout itself."""
    layout = view.layout
    if layout is None:
        return []
    if isinstance(layout, LineLayout):
        return [placed.tile for placed in layout.tiles]
    return [layout.spinner] + [placed.tile for arm in layout.arms for placed in arm.tiles]


def check_tiles_conserved(round_: Round, view: PublicView | None = None) -> None:
    """All 28 tiles accounted for, each exactly once: in the hands, the boneyard or on
    the table (R-ALL-1)."""
    everything = [t for s in range(round_.n) for t in round_.hand(s)]
    everything += [TILES[i] for i in round_.boneyard]
    everything += table_tiles(view or round_.view())
    assert len(everything) == len(TILES) and set(everything) == EVERY_TILE, everything


# -- the rules read a second time, from the public view ---------------------------------


def reserve(round_: Round) -> int:
    """Boneyard tiles nobody may draw: 2 in Cross and Maltese Cross (R-CR-5); 2 in
    Merry-Go-Round with "keep last two", else none (R-MG-5); Milo has none (R-MI-1)."""
    if round_.game in CROSS_FAMILY:
        return 2
    if round_.game == "merry-go-round" and round_.options.keep_last_two:
        return 2
    return 0


def reference_leads(round_: Round) -> set[str]:
    """The tiles the leader may lead: the highest double (R-CR-2, R-MC-1), any double
    (R-MG-2), 6-6 in a game's first Milo round, else any tile (R-MI-3, R-MI-7)."""
    hand = round_.hand(round_.leader)
    doubles = [t for t in hand if t.is_double]
    if round_.game in CROSS_FAMILY:
        return {str(max(doubles, key=lambda t: t.high))}
    if round_.game == "merry-go-round":
        return {str(t) for t in doubles}
    return {str(t) for t in hand} if round_.named_leader else {"6-6"}


def reference_ends(view: PublicView) -> tuple[dict[str, int], bool]:
    """Where a tile may go now, by end name with the number it needs, and whether only
    doubles may go there (Maltese Cross caps, R-MC-3). Checks on the way that every laid
    tile matches its neighbour (R-SP-2, R-MI-2)."""
    layout = view.layout
    assert layout is not None
    if isinstance(layout, LineLayout):
        line = layout.tiles
        for placed in line:
            tile = placed.tile
            assert placed.left in tile and tile.other(placed.left) == placed.right
        for left, right in pairwise(line):
            assert left.right == right.left
        return {"L": line[0].left, "R": line[-1].right}, False
    spinner = layout.spinner
    assert spinner.is_double  # R-SP-1
    arms = {name: layout.arm(name).tiles for name in ARMS}
    ends = {}
    for name in ARMS:
        need = spinner.high
        for on_arm in arms[name]:
            tile = on_arm.tile
            assert on_arm.near == need and need in tile
            assert on_arm.far == tile.other(need)
            need = on_arm.far
        ends[name] = need
    started = [name for name in ARMS if arms[name]]
    if view.variant.game == "maltese-cross":
        # An arm's second tile is its cap: nothing else can follow the first (R-MC-3).
        capped = [name for name in ARMS if len(arms[name]) >= 2]
        assert all(arms[name][1].tile.is_double for name in capped)
        dead = len(capped) < 4 and view.boneyard_count <= 2  # R-MC-5: the rest are dead
        assert {arm.name: arm.capped for arm in layout.arms} == {n: n in capped for n in ARMS}
        assert {arm.name: arm.dead for arm in layout.arms} == {
            name: dead and name not in capped for name in ARMS
        }
        if dead:
            return {name: ends[name] for name in capped}, False
        if len(started) == 4 and len(capped) < 4:  # R-MC-3: caps on uncapped arms only
            return {name: ends[name] for name in ARMS if name not in capped}, True
    if len(started) < 4:  # R-CR-3, R-MC-2, R-MG-3: start an empty arm
        return {name: spinner.high for name in ARMS if not arms[name]}, False
    return ends, False  # R-CR-4, R-MC-4


def reference_plays(round_: Round, seat: int, view: PublicView | None = None) -> set[str]:
    """Every tile placement ``seat`` could make now, as move texts."""
    view = view or round_.view()
    if view.layout is None:
        return reference_leads(round_) if seat == round_.leader else set()
    ends, doubles_only = reference_ends(view)
    return {
        f"{tile} {end}"
        for tile in round_.hand(seat)
        for end, need in ends.items()
        if need in tile and (tile.is_double or not doubles_only)
    }


def reference_blocked(round_: Round, view: PublicView | None = None) -> bool:
    """Nobody can play and nobody may draw (R-ALL-5)."""
    view = view or round_.view()
    return len(round_.boneyard) <= reserve(round_) and not any(
        reference_plays(round_, seat, view) for seat in range(round_.n)
    )


def reference_open_sum(view: PublicView) -> int:
    """R-MG-4: the far end of each started arm (a double there counts both halves), and
    the spinner's both halves while fewer than two arms are started."""
    layout = view.layout
    assert layout is not None and not isinstance(layout, LineLayout)
    total, started = 0, 0
    for arm in layout.arms:
        if arm.tiles:
            started += 1
            last = arm.tiles[-1]
            total += last.tile.high + last.tile.low if last.tile.is_double else last.far
    if started < 2:
        total += 2 * layout.spinner.high
    return total


# -- one checked step ---------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """What the checker carries from one action to the next within a round."""

    view: PublicView
    """The round's public view now."""
    drawn: Tile | None = None
    """The tile the seat to move drew last this turn, if it drew: the only tile it may
    play now (R-CR-5, R-MG-5; R-MC-5 even when the draw killed arms)."""


def check_move(round_: Round, move: Move, seen: Seen | None = None) -> None:
    """Before ``move``: the engine's legal moves are exactly the rules' (R-ALL-4: a
    player who can play must, with every placement offered; after a draw only the drawn
    tile may be played; otherwise draw as the game says, R-CR-5 and R-MG-5, or pass), and
    ``move`` is one of them."""
    legal = {m.text for m in round_.legal_moves()}
    assert move.text in legal
    plays = reference_plays(round_, round_.turn, seen.view if seen else None)
    drawn = seen.drawn if seen else None
    if drawn is not None:
        plays = {play for play in plays if play.split()[0] == str(drawn)}
    if plays:
        assert legal == plays, (legal, plays)
        return
    may_draw = len(round_.boneyard) > reserve(round_)
    if round_.game in CROSS_FAMILY and drawn is not None:  # R-CR-5: exactly one tile a turn
        may_draw = False
    assert legal == ({"draw"} if may_draw else {"pass"}), legal


def checked_step(
    round_: Round,
    move: Move,
    apply: Callable[[Move], object],
    seen: Seen | None = None,
) -> Seen | None:
    """Check ``move`` against the rules, make it with ``apply`` (``round_.play``, or a
    match's ``play``), then check what it did to ``round_``. ``seen``: what the last step
    returned (None at a round's first action). Returns what the next step needs while the
    round goes on, None once it is over."""
    check_move(round_, move, seen)
    seat = round_.turn
    scores = list(round_.scores)
    events = len(round_.score_events)
    boneyard = len(round_.boneyard)
    before = set(round_.hand(seat))
    apply(move)
    view = round_.view()
    check_tiles_conserved(round_, view)
    new_events = round_.score_events[events:]
    drawn = None
    if move.text == "draw":
        after = set(round_.hand(seat))
        assert len(round_.boneyard) == boneyard - 1 and len(after) == len(before) + 1
        (drawn,) = after - before
        assert round_.outcome() is not None or round_.turn == seat  # a draw ends no turn
    if round_.game == "merry-go-round" and move.tile is not None:
        check_play_score(round_, seat, scores, new_events, view)
    else:
        assert all(e.kind == "round" for e in new_events)  # only R-MG-4 scores plays
    outcome = round_.outcome()
    if outcome is None:
        assert all(round_.hand(s) for s in range(round_.n))  # R-ALL-5: domino ends it
        assert not reference_blocked(round_, view)  # R-ALL-5: a block ends it at once
        return Seen(view, drawn)
    check_finished(round_)
    return None


def check_play_score(
    round_: Round, seat: int, before: list[int], events: list[Any], view: PublicView
) -> None:
    """R-MG-4 and R-MG-7 after a tile is laid: sum / 5 when the open ends make a positive
    multiple of 5, refused past 61, and exactly 61 ends the round at once."""
    total = reference_open_sum(view)
    plays = [e for e in events if e.kind == "play"]
    if total == 0 or total % 5:
        assert not plays
        return
    assert len(plays) == 1 and plays[0].side == seat and plays[0].points == total // 5
    bust = before[seat] + total // 5 > round_.options.target
    assert plays[0].bust == bust
    if not bust and before[seat] + total // 5 == round_.options.target:
        outcome = round_.outcome()
        assert outcome is not None and outcome.reason is Reason.TARGET
        assert round_.scores[seat] == round_.options.target


def check_finished(round_: Round) -> None:
    """A finished round: blocked really is blocked, and the score is as the rules say."""
    outcome = round_.outcome()
    assert outcome is not None
    counts = list(outcome.counts)
    hands = [round_.hand(s) for s in range(round_.n)]
    assert counts == [sum(t.high + t.low for t in hand) for hand in hands]  # R-ALL-7
    if outcome.reason is Reason.BLOCKED:
        assert reference_blocked(round_)
    if outcome.reason is Reason.DOMINO:
        assert any(not hand for hand in hands)
    played = [e for e in round_.score_events if not e.bust]
    gained = [0] * round_.sides
    for event in played:
        gained[event.side] += event.points
    assert tuple(gained) == outcome.points
    assert [a - b for a, b in zip(round_.scores, round_.start_scores, strict=True)] == gained
    if round_.game == "merry-go-round":
        assert max(round_.scores) <= round_.options.target  # R-MG-7: never past 61
    check_round_score(round_)


def check_round_score(round_: Round) -> None:
    """The end-of-round award, recomputed from the counts straight from RULES.md."""
    outcome = round_.outcome()
    assert outcome is not None
    counts = outcome.counts
    round_events = [e for e in round_.score_events if e.kind == "round"]
    if outcome.reason is Reason.TARGET:
        assert outcome.winner is not None
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
            left, right = round_.open_ends().values()
            assert outcome.winner is not None
            assert outcome.points[outcome.winner] == (2 if left == right else 1)
        return
    low = min(counts)
    if outcome.reason is Reason.BLOCKED and counts.count(low) > 1:
        assert outcome.winner is None and not round_events  # R-ALL-8
        return
    winner = outcome.winner
    assert winner is not None
    if outcome.reason is Reason.BLOCKED:
        assert counts[winner] == low
    raw = sum(counts) - 2 * counts[winner]
    # R-MG-6: to the nearest 5, then / 5 (raw / 5 never ends in .5, so round() is exact).
    expected = raw if round_.game in CROSS_FAMILY else round(raw / 5)
    awarded = [e for e in round_events if e.side == winner]
    if expected:
        assert len(awarded) == 1 and awarded[0].points == expected
        if awarded[0].bust:  # R-MG-7: only Merry-Go-Round busts, and only past 61
            assert round_.game == "merry-go-round"
            assert round_.scores[winner] + expected > round_.options.target
    else:
        assert not awarded
