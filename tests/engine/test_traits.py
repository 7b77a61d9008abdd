"""Each game's traits (class attributes the layers above read instead of testing a
game's name) say what RULES.md says, and the engine's own behaviour follows them."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from bot.engine import (
    GAMES,
    Cross,
    Drawing,
    LayoutKind,
    MalteseCross,
    Match,
    MerryGoRound,
    Milo,
    Round,
)


@pytest.mark.parametrize(
    ("game", "traits"),
    [
        (
            Cross,
            {
                "teams": False,
                "fixed_target": False,
                "exact_target": False,
                "drawing": Drawing.ONE_THEN_PASS,
                "layout_kind": LayoutKind.SPINNER,
                "scores_plays": False,
                "has_caps": False,
                "rotates_lead": False,
                "player_counts": (2, 3, 4),
            },
        ),
        (
            MalteseCross,
            {
                "teams": False,
                "exact_target": False,
                "drawing": Drawing.ONE_THEN_PASS,
                "layout_kind": LayoutKind.SPINNER,
                "scores_plays": False,
                "has_caps": True,
            },
        ),
        (
            MerryGoRound,
            {
                "teams": False,
                "fixed_target": True,
                "exact_target": True,
                "drawing": Drawing.UNTIL_PLAYABLE,
                "layout_kind": LayoutKind.SPINNER,
                "scores_plays": True,
                "has_caps": False,
                "rotates_lead": False,
            },
        ),
        (
            Milo,
            {
                "teams": True,
                "fixed_target": False,
                "exact_target": False,
                "drawing": Drawing.NO_BONEYARD,
                "layout_kind": LayoutKind.LINE,
                "scores_plays": False,
                "has_caps": False,
                "rotates_lead": True,
                "player_counts": (4,),
            },
        ),
    ],
)
def test_each_games_traits_say_what_its_rules_say(
    game: type[Round], traits: dict[str, object]
) -> None:
    assert {name: getattr(game, name) for name in traits} == traits


@pytest.mark.parametrize(("game", "sizes"), [(Cross, {2: 7, 3: 5, 4: 5}), (Milo, {4: 7})])
def test_hand_sizes_r_cr_1_r_mi_1(game: type[Round], sizes: dict[int, int]) -> None:
    assert {players: game.hand_size(players) for players in game.player_counts} == sizes


def test_r_mi_1_sides_and_partners_are_the_one_team_rule() -> None:
    assert [Milo.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert [Milo.partners(seat) for seat in range(4)] == [(2,), (3,), (0,), (1,)]
    assert [Milo.seats_of(side, 4) for side in range(2)] == [(0, 2), (1, 3)]
    assert Milo.side_count(4) == 2
    assert [Cross.side_of(seat) for seat in range(3)] == [0, 1, 2]
    assert Cross.partners(1) == () and Cross.seats_of(2, 3) == (2,) and Cross.side_count(3) == 3


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_engine_plays_as_its_traits_say(game: str) -> None:
    """Seeded matches: draws only where the game has a boneyard, more than one draw a
    turn only when it draws until playable, play scores only where plays score, a score
    past the target only where it must be hit exactly, and the layout of its kind."""
    variant = GAMES[game]
    for seed in range(6):
        match = Match(game, variant.player_counts[seed % len(variant.player_counts)], seed=seed)
        picker = random.Random(seed)
        while match.outcome() is None:
            round_ = match.round
            match.play(picker.choice(match.legal_moves()))
            texts = [move.text for _, move in round_.history]
            if "draw" in texts:
                assert variant.drawing is not Drawing.NO_BONEYARD
            if any(a == b == "draw" for a, b in pairwise(texts)):
                assert variant.drawing is Drawing.UNTIL_PLAYABLE
            if any(e.kind == "play" for e in round_.score_events):
                assert variant.scores_plays
            layout = round_.view().layout
            if layout is not None:
                assert layout.kind is variant.layout_kind
        over = max(match.scores) > match.options.target
        assert not (over and variant.exact_target)
