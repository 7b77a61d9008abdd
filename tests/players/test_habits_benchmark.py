"""How ``benchmarks/habits.py`` fits Milo's model of choice: the decisions it reads from a
recorded round, and weights it recovers from choices made by known ones."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="needs numpy: pip install -r requirements/bench.txt")

from benchmarks.habits import Choice, choices, deal, fit, log_loss  # noqa: E402
from bot.players import computer_player  # noqa: E402


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
