"""The expert's parts: its exact search agrees with plain minimax, its weights never
rule out the real deal and follow the habit they model, and it never spends more work
than it is given."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import GAMES, TILES, Milo, Reason, Round, RoundOutcome, Tile
from bot.players import ismcts
from bot.players.beliefs import can_replay, deal_weight
from bot.players.expert import PLAY_POINTS, TREES, ExpertPlayer
from bot.players.search import Exact, OutOfWork, result_value
from tests.engine.builders import build, play


def minimax(round_: Round, side: int, round_bonus: float = 0.0) -> float:
    """Every line to the end, no pruning: what the alpha-beta search must agree with."""
    outcome = round_.outcome()
    if outcome is not None:
        return result_value(outcome, side, round_bonus)
    values = []
    for move in round_.legal_moves():
        child = round_.copy()
        child.play(move)
        values.append(minimax(child, side, round_bonus))
    return max(values) if round_.side_of(round_.turn) == side else min(values)


def endgames(game: str, tiles: int, count: int) -> list[Round]:
    """Positions with at most ``tiles`` tiles left in the hands, from random play."""
    variant = GAMES[game]
    found = []
    for seed in range(count * 3):
        round_ = variant.deal(variant.player_counts[0], random.Random(seed))
        picker = random.Random(seed)
        while (
            round_.outcome() is None and sum(len(round_.hand(s)) for s in range(round_.n)) > tiles
        ):
            round_.play(picker.choice(round_.legal_moves()))
        if round_.outcome() is None and len(round_.legal_moves()) > 1:
            found.append(round_)
    return found[:count]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_exact_search_finds_the_minimax_value(game: str) -> None:
    tiles = 10 if GAMES[game].teams else 6
    positions = endgames(game, tiles, 12)
    assert len(positions) >= 6
    for round_ in positions:
        side = round_.side_of(round_.turn)
        truth = minimax(round_.copy(), side)
        assert Exact(side, 10**6).value(round_.copy()) == truth


def test_the_exact_search_with_a_round_bonus_finds_the_minimax_value() -> None:
    """Merry-Go-Round's search counts winning the round on top of the points."""
    for round_ in endgames("merry-go-round", 6, 12):
        side = round_.side_of(round_.turn)
        truth = minimax(round_.copy(), side, PLAY_POINTS.round_bonus)
        assert Exact(side, 10**6, round_bonus=PLAY_POINTS.round_bonus).value(round_) == truth


def test_in_merry_go_round_winning_the_round_outweighs_the_fives_scored() -> None:
    """Seat 0 dominoed (R-ALL-5) and takes the round (R-MG-6), though seat 1 scored
    more fives during play (R-MG-4): for the expert the round is seat 0's gain."""
    outcome = RoundOutcome(
        reason=Reason.DOMINO,
        winner=0,
        points=(2, 4),
        counts=(0, 3),
        hands=((), (Tile(2, 1),)),
        sides=((0,), (1,)),
        rule="R-MG-6",
        seat=0,
    )
    bonus = PLAY_POINTS.round_bonus
    assert result_value(outcome, 0) < 0 < result_value(outcome, 0, bonus)
    assert result_value(outcome, 1, bonus) < 0


def test_the_exact_search_stops_at_its_limit() -> None:
    [round_] = endgames("milo", 24, 1)
    search = Exact(round_.side_of(round_.turn), 50)
    with pytest.raises(OutOfWork):
        search.value(round_)
    assert search.work <= 50 + 7  # one node's moves past the limit at most


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_real_deal_always_has_weight(game: str) -> None:
    """Whatever the seats did, the hands they really held explain it: never weight 0."""
    variant = GAMES[game]
    checked = 0
    for seed in range(15):
        round_ = variant.deal(variant.player_counts[0], random.Random(seed))
        picker = random.Random(seed)
        while round_.outcome() is None:
            round_.play(picker.choice(round_.legal_moves()))
            seat = round_.turn
            view = round_.seat_view(seat)
            if round_.outcome() is None and can_replay(view):
                hands = [round_.hand(s) for s in range(round_.n)]
                weight, _ = deal_weight(view, hands, _boneyard(round_))
                assert weight > 0
                checked += 1
    assert checked >= 30


def _boneyard(round_: Round) -> list[Tile]:
    return [TILES[i] for i in round_.boneyard]


def test_a_light_play_makes_a_heavy_tile_that_fitted_unlikely() -> None:
    """Seat 1 answered 6-6 with 6-0 (R-MI-2). A guess in which it also held 6-5 needs it
    to have passed over its heaviest tile; one in which seat 3 holds 6-5 (and seat 1 a
    5-1 instead, which did not fit) does not."""
    hands = [
        "6-6 1-1 1-0 2-2 2-1 2-0 3-3",
        "6-0 6-5 5-4 4-3 4-2 4-1 4-0",
        "3-2 3-1 3-0 5-5 5-3 5-2 4-4",
        "6-4 6-3 6-2 6-1 5-1 5-0 0-0",
    ]
    round_ = build(Milo, hands)
    play(round_, "6-6", "6-0 R")
    view = round_.seat_view(0)
    truth = [round_.hand(s) for s in range(4)]
    swapped = [list(h) for h in truth]
    six_five, five_one = Tile(6, 5), Tile(5, 1)
    swapped[1][swapped[1].index(six_five)] = five_one
    swapped[3][swapped[3].index(five_one)] = six_five
    held, not_held = deal_weight(view, truth, [])[0], deal_weight(view, swapped, [])[0]
    assert 0 < held < not_held


@pytest.mark.parametrize("game", ["cross", "maltese-cross", "merry-go-round", "milo"])
def test_the_expert_chooses_the_same_move_given_the_same_seed(game: str) -> None:
    """Replays must be exact: the choice depends on the seat's view and the seed only."""
    for round_ in endgames(game, 14, 3):
        view = round_.seat_view(round_.turn)
        assert ExpertPlayer(seed=5).choose(view) == ExpertPlayer(seed=5).choose(view)


def test_in_cross_the_tree_decides_once_few_tiles_are_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cross's endgame draws from a boneyard whose order a guess would fix: there one tree
    over the guesses decides, as in Maltese Cross; before it, each guess is searched apart
    (a tree there won fewer rounds and points, docs/PLAYERS.md)."""
    grown: list[int] = []
    search = ismcts.search

    def counted(*args: Any, **kwargs: Any) -> ismcts.Search:
        grown.append(1)
        return search(*args, **kwargs)

    monkeypatch.setattr(ismcts, "search", counted)
    from_tiles = TREES["cross"].from_tiles
    assert from_tiles is not None
    round_, picker = GAMES["cross"].deal(2, random.Random(3)), random.Random(3)
    decided = {True: 0, False: 0}
    while round_.outcome() is None:
        view = round_.seat_view(round_.turn)
        if len(view.legal) > 1:
            after = sum(view.public.hand_sizes) + view.public.boneyard_count - 1
            grown.clear()
            ExpertPlayer(seed=2).weigh(view, budget=0.1)
            assert bool(grown) == (after <= from_tiles)
            decided[bool(grown)] += 1
        round_.play(picker.choice(round_.legal_moves()))
    assert decided[True] and decided[False]
