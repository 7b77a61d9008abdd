"""How ``benchmarks/habits.py`` fits a model of how Milo's seats choose: what it reads off a
move in the line, the decisions it reads from a recorded round, and weights it recovers
from choices made by known ones."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="needs numpy: pip install -r requirements/bench.txt")

from benchmarks.habits import (  # noqa: E402
    Choice,
    LineChoice,
    choices,
    deal,
    fit,
    line_choice,
    log_loss,
    on_the_line,
)
from bot.engine import LineRound, Milo, Tile  # noqa: E402
from bot.engine.tiles import mask_of  # noqa: E402
from bot.players import computer_player  # noqa: E402
from tests.engine.builders import build, play  # noqa: E402

HANDS = [
    "6-6 1-1 1-0 2-2 2-1 2-0 3-3",
    "6-0 6-5 5-4 4-3 4-2 4-1 4-0",
    "3-2 3-1 3-0 5-5 5-3 5-2 4-4",
    "6-4 6-3 6-2 6-1 5-1 5-0 0-0",
]


def third_to_play() -> LineRound:
    """6-6 led (R-MI-3), 6-0 and 3-0 laid on the right: the line's ends are 6 and 3, and
    seat 3 holds 6-4 6-3 6-2 6-1 5-1 5-0 0-0."""
    round_ = build(Milo, HANDS)
    assert isinstance(round_, LineRound)
    play(round_, "6-6", "6-0 R", "3-0 R")
    return round_


def choice(round_: LineRound, text: str) -> LineChoice:
    (move,) = (m for m in round_.legal_moves() if m.text == text)
    return line_choice(round_, move, on_the_line(round_))


def test_the_tiles_laid_are_those_on_the_line() -> None:
    assert on_the_line(third_to_play()) == mask_of([Tile(6, 6), Tile(6, 0), Tile(3, 0)])


def test_a_play_is_read_from_the_seats_hand_and_the_line() -> None:
    """6-3 on the 3 opens 6 beside the other 6; three of seat 3's six other tiles carry a
    6, and of the seven 6s two are laid, one is this tile and three are seat 3's, so one
    is elsewhere. Laid on the 6 instead, it opens 3, which seat 3 no longer holds and five
    others do. 6-4 on the 6 opens 4 beside the 3: only 6-3 of the rest fits then."""
    round_ = third_to_play()
    assert choice(round_, "6-3 R") == LineChoice(9, 0, follow=3, outside=1, closes=1)
    assert choice(round_, "6-3 L") == LineChoice(9, 0, follow=0, outside=5, closes=1)
    assert choice(round_, "6-4 L") == LineChoice(10, 0, follow=1, outside=6, closes=0)


def test_a_lead_opens_both_its_numbers() -> None:
    """Seat 1 leads 4-3 from 6-0 6-5 5-4 4-3 4-2 4-1 4-0: four of its other tiles carry a
    4 and none a 3, so two 4s and six 3s are elsewhere."""
    round_ = build(Milo, HANDS, leader=1)
    assert isinstance(round_, LineRound)
    lead = choice(round_, "4-3")  # seat 1 may lead any tile in a later round (R-MI-3)
    assert lead == LineChoice(7, 0, follow=4, outside=2 + 6, closes=0)


def test_the_fit_recovers_the_weights_that_made_the_choices() -> None:
    """Choices drawn from a conditional logit with known weights, among three to six
    options of five features each: the fit finds those weights, and predicts the choices
    better than choosing at random."""
    rng = np.random.default_rng(7)
    truth = np.array([0.5, 1.2, -0.3, 0.0, 0.8])
    sample = []
    for _ in range(3000):
        features = rng.normal(size=(int(rng.integers(3, 7)), 5))
        odds = np.exp(features @ truth)
        chosen = int(rng.choice(len(features), p=odds / odds.sum()))
        sample.append(Choice(features, chosen, "known", np.zeros(len(features))))
    weights = fit(sample)
    assert np.allclose(weights, truth, atol=0.12), weights
    chance = float(np.mean([np.log(len(c.features)) for c in sample]))
    assert log_loss(weights, sample) < chance - 0.2


def test_a_recorded_round_gives_each_choice_among_plays_once() -> None:
    """A round of hard players, recorded as the benchmark records its pairing: one
    decision for each move made with two or more legal plays, the chosen row the move's."""
    seed = 11
    round_ = deal(seed)
    players = [computer_player("hard", seat) for seat in range(4)]
    moves, expected = [], []
    while not round_.is_over:
        legal = round_.legal_moves()
        move = players[round_.turn].choose(round_.seat_view(round_.turn))
        if len(legal) > 1:
            expected.append((round_.turn, legal.index(move), len(legal)))
        moves.append(move.text)
        round_.play(move)
    line = {"seed": seed, "names": ["A", "B", "A", "B"], "moves": moves}
    got = [(c.player, c.chosen, len(c.features)) for c in choices(line)]
    assert got == [("AB"[turn % 2], chosen, size) for turn, chosen, size in expected]
    assert len(got) >= 5
