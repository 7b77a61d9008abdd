"""Typed views (R-ALL-6), and what computer players get from the engine: a round rebuilt
from a seat's view and a guess, and what each pass and draw reveals."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.engine import (
    DRAW,
    GAMES,
    PASS,
    TILES,
    InvalidDeal,
    Match,
    Move,
    NotASeat,
    NotEachTileOnce,
    Round,
    Tile,
)
from bot.engine.reveals import reveals
from bot.engine.views import (
    Arm,
    ArmTile,
    LineLayout,
    LineTile,
    PublicView,
    SpinnerLayout,
    layout_from_dict,
)
from tests.engine.builders import every_tile
from tests.engine.invariants import reference_ends, reference_open_sum, table_tiles


def positions(game: str, matches: int = 6) -> Iterator[Match]:
    """Seeded matches of ``game``, yielded after every move (the same object, moving on)."""
    variant = GAMES[game]
    for seed in range(matches):
        players = variant.player_counts[seed % len(variant.player_counts)]
        match = Match(game, players, seed=seed)
        picker = random.Random(seed)
        yield match
        while match.outcome() is None:
            match.play(picker.choice(match.legal_moves()))
            yield match


@pytest.mark.parametrize("game", sorted(GAMES))
def test_r_all_6_a_view_never_carries_a_hidden_tile(game: str) -> None:
    """No tile of a hand or the boneyard while the round runs; once it is over the hands
    are revealed in the outcome, the boneyard never."""
    for match in positions(game, 4):
        round_ = match.round if match.outcome() is None else match.previous or match.round
        view = match.view()
        boneyard = {TILES[i] for i in round_.boneyard}
        hands = {t for seat in range(round_.n) for t in round_.hand(seat)}
        shown = set(every_tile(view))
        assert not shown & boneyard
        if view.outcome is None:
            assert not shown & hands
            seat = match.turn
            assert seat is not None
            others = {t for s in range(round_.n) if s != seat for t in round_.hand(s)}
            assert not set(every_tile(match.seat_view(seat))) & (others | boneyard)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_views_cross_to_another_process_unchanged(game: str) -> None:
    """Pictures are drawn from views in a worker process: a pickled view comes back
    equal, its tiles and moves the engine's own objects, its open ends still read-only."""
    for match in positions(game, 2):
        view = match.view()
        back: PublicView = pickle.loads(pickle.dumps(view))
        assert back == view
        assert all(a is b for (_, a), (_, b) in zip(back.history, view.history, strict=True))
        with pytest.raises(TypeError):
            back.open_ends["X"] = 1  # type: ignore[index]
        seat = match.turn
        if seat is not None:
            assert pickle.loads(pickle.dumps(match.seat_view(seat))) == match.seat_view(seat)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_views_agree_with_the_round_and_its_record_form(game: str) -> None:
    for match in positions(game, 3):
        round_, view, state = match.round, match.view(), match.round.to_dict()
        assert isinstance(view, PublicView) and view.variant is type(round_)
        assert view.players == round_.n
        assert view.hand_sizes == tuple(len(round_.hand(s)) for s in range(round_.n))
        assert view.boneyard_count == len(round_.boneyard)
        assert (view.turn, view.leader, view.drew) == (round_.turn, round_.leader, round_.drew)
        assert list(view.scores) == round_.scores and view.games_won == tuple(match.games_won)
        assert view.start_scores == round_.start_scores
        assert [[s, m.text] for s, m in view.history] == state["history"]
        assert [e.to_dict() for e in view.score_events] == state["score_events"]
        assert dict(view.open_ends) == round_.open_ends()
        if round_.scores_plays:  # R-MG-4, read a second time from the layout
            assert view.open_sum == (reference_open_sum(view) if view.led else 0)
        else:
            assert view.open_sum is None
        assert view.layout == (layout_from_dict(state["layout"]) if state["layout"] else None)
        assert sorted(view.laid) == sorted(table_tiles(view))
        if view.layout is not None:
            assert view.layout.kind is round_.layout_kind
            assert isinstance(view.layout, SpinnerLayout | LineLayout)
        assert view.outcome is round_.outcome()
        assert (view.round_number, view.game_number, view.target) == (
            match.round_in_game,
            match.game_number,
            match.options.target,
        )
        if match.outcome() is None:
            seat = round_.turn
            mine = match.seat_view(seat)
            assert mine.public == view and mine.hand == tuple(round_.hand(seat))
            assert mine.legal == round_.legal_moves()
            assert (mine.drawn is not None) == round_.drew
            other = match.seat_view((seat + 1) % round_.n)
            assert other.legal == () and other.drawn is None


def test_a_seat_view_names_a_seat() -> None:
    match = Match("cross", 2, seed=1)
    with pytest.raises(NotASeat, match="seat 2 is not a seat: seats run from 0 to 1"):
        match.seat_view(2)


def guess(round_: Round, seat: int, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """The tiles ``seat`` cannot see, shuffled among the other hands and the boneyard."""
    hidden = [t for s in range(round_.n) if s != seat for t in round_.hand(s)]
    hidden += [TILES[i] for i in round_.boneyard]
    rng.shuffle(hidden)
    hands = []
    for s in range(round_.n):
        if s == seat:
            hands.append(round_.hand(s))
        else:
            size = len(round_.hand(s))
            hands.append(hidden[:size])
            hidden = hidden[size:]
    return hands, hidden


@pytest.mark.parametrize("game", sorted(GAMES))
def test_from_seat_view_with_the_real_tiles_is_the_real_round(game: str) -> None:
    """Filled in with the tiles really held, the view gives back the round itself, which
    plays on exactly as the real one; filled in with a guess, the seat's own moves are
    the same."""
    rng = random.Random(3)
    for match in positions(game, 3):
        round_ = match.round
        if match.outcome() is not None or rng.random() < 0.7:
            continue
        seat = round_.turn
        view = match.seat_view(seat)
        hands = [round_.hand(s) for s in range(round_.n)]
        boneyard = [TILES[i] for i in round_.boneyard]
        rebuilt = Round.from_seat_view(view, hands, boneyard)
        assert rebuilt.to_dict() == round_.to_dict()
        twin, picker = round_.copy(), random.Random(seat)
        while twin.outcome() is None:
            move = picker.choice(twin.legal_moves())
            twin.play(move)
            rebuilt.play(move)
        assert rebuilt.to_dict() == twin.to_dict()
        guessed = Round.from_seat_view(view, *guess(round_, seat, rng))
        assert guessed.legal_moves() == round_.legal_moves()
        assert guessed.view() == round_.view()


def test_from_seat_view_refuses_a_guess_that_disagrees_with_the_view() -> None:
    match = Match("cross", 3, seed=2)
    match.play(match.legal_moves()[0])
    round_, seat = match.round, match.round.turn
    view = match.seat_view(seat)
    hands, boneyard = guess(round_, seat, random.Random(1))
    with pytest.raises(InvalidDeal, match="the guess must hold"):
        Round.from_seat_view(view, hands, boneyard[1:])
    other = (seat + 1) % 3
    swapped = [list(h) for h in hands]
    swapped[seat][0], swapped[other][0] = swapped[other][0], swapped[seat][0]
    with pytest.raises(InvalidDeal, match=f"must give seat {seat} the hand it sees"):
        Round.from_seat_view(view, swapped, boneyard)
    doubled = [list(h) for h in hands]
    doubled[other][0] = doubled[(other + 1) % 3][0]
    with pytest.raises(NotEachTileOnce):
        Round.from_seat_view(view, doubled, boneyard)


def fitting(view: PublicView) -> frozenset[Tile]:
    """The tiles that could be played now, read from the view by the invariant checker's
    own reading of the rules."""
    ends, doubles_only = reference_ends(view)
    return frozenset(
        t
        for t in TILES
        if any(need in t for need in ends.values()) and (t.is_double or not doubles_only)
    )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_reveals_say_what_fitted_at_each_pass_and_draw(game: str) -> None:
    """Against the real rounds: each pass and draw is listed with exactly the tiles that
    fitted then, and what it shows holds of the hand it came from (R-ALL-4): a drawer
    and a passer held none of them; after a draw, the drawn tile is not one of them."""
    seen = 0
    for match in positions(game, 8):
        round_ = match.round
        if match.outcome() is not None or not round_.led:
            continue
        seat = round_.turn
        before = match.view()
        hand = set(round_.hand(seat))
        drawn = match.seat_view(seat).drawn
        if round_.legal_moves() not in ((DRAW,), (PASS,)):
            continue
        (move,) = round_.legal_moves()
        fits = fitting(before)  # what fits now, before the draw or pass is made
        after = round_.copy()
        after.play(move)
        last = reveals(after.view())[-1]
        assert (last.index, last.seat, last.move) == (len(after.history) - 1, seat, move)
        assert last.tiles == fits
        assert last.drawn_only == (move is PASS and drawn is not None)
        if last.drawn_only:
            assert drawn not in fits
        else:
            assert not hand & fits
        seen += 1
    assert seen


def _renamed(move: Move, a: Move, b: Move) -> Move:
    """``move`` with the ends of ``a`` and ``b`` swapped (a draw, a pass or a lead as it is)."""
    if move.tile is None or move.end is None or a.end == b.end:
        return move
    if move.end == a.end:
        return Move(move.kind, move.tile, b.end)
    if move.end == b.end:
        return Move(move.kind, move.tile, a.end)
    return move


@pytest.mark.parametrize("game", sorted(GAMES))
def test_moves_that_are_one_choice_lead_to_the_same_round_but_for_the_ends_names(
    game: str,
) -> None:
    """Two moves :meth:`PublicView.same_choice` takes for one (the same tile on ends that
    look alike) are one to every rule: played out the same way, each later move
    renamed, the two rounds allow the same moves and end alike. And they are found:
    the lone spinner's four arms, a lone double's two line ends."""
    found = 0
    for match in positions(game, 4):
        if match.outcome() is not None:
            continue
        view, legal = match.view(), match.legal_moves()
        pairs = [(a, b) for a in legal for b in legal if a is not b and view.same_choice(a, b)]
        for a, b in pairs[:2]:
            found += 1
            first, second = match.round.copy(), match.round.copy()
            first.play(a)
            second.play(b)
            picker = random.Random(found)
            while first.outcome() is None:
                moves = first.legal_moves()
                assert {_renamed(m, a, b) for m in moves} == set(second.legal_moves())
                move = picker.choice(moves)
                first.play(move)
                second.play(_renamed(move, a, b))
            assert second.outcome() is not None
            assert first.scores == second.scores
            assert first.outcome().points == second.outcome().points  # type: ignore[union-attr]
    assert found


def test_the_same_tile_on_ends_that_differ_is_another_choice() -> None:
    """The same number open but a double at one end and not the other (Merry-Go-Round
    counts both its halves, R-MG-4), or a cap (R-MC-3), or another number: not one
    choice; another tile, or a draw against a pass, never is."""
    t = Tile.parse
    arms = (
        Arm("N", (ArmTile(t("6-5"), 6, 5),), 5, False, False),
        Arm("E", (ArmTile(t("6-4"), 6, 4), ArmTile(t("4-5"), 4, 5)), 5, False, False),
        Arm("S", (ArmTile(t("6-2"), 6, 2), ArmTile(t("5-5"), 5, 5)), 5, False, False),
        Arm("W", (ArmTile(t("6-1"), 6, 1), ArmTile(t("1-5"), 1, 5)), 5, True, False),
    )
    view = replace(Match("cross", 2, seed=1).view(), layout=SpinnerLayout(t("6-6"), arms, "open"))
    n, e, s, w = (Move.parse(f"5-3 {arm}") for arm in "NESW")
    assert view.same_choice(n, e) and view.same_choice(e, n) and view.same_choice(n, n)
    assert not view.same_choice(n, s) and not view.same_choice(n, w)
    assert not view.same_choice(n, Move.parse("5-0 E"))
    assert view.same_choice(DRAW, DRAW) and not view.same_choice(DRAW, PASS)
    left, right = Move.parse("4-0 L"), Move.parse("4-0 R")
    for tiles, alike in [
        ((LineTile(t("4-4"), 4, 4),), True),
        ((LineTile(t("4-2"), 4, 2), LineTile(t("2-4"), 2, 4)), True),
        ((LineTile(t("4-4"), 4, 4), LineTile(t("4-2"), 4, 2), LineTile(t("2-4"), 2, 4)), False),
        ((LineTile(t("4-2"), 4, 2),), False),
    ]:
        line = replace(view, layout=LineLayout(tiles, 0))
        assert line.same_choice(left, right) is alike
