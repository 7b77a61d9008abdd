"""A's chance of winning a whole game, drawn from the rounds a tournament measured.

A tournament counts rounds won, but a game is won by the first side to reach its target
(R-CR-7, R-MC-6, R-MI-6), and a side that wins fewer rounds by more points may win more
games. In Cross, Maltese Cross and Milo only the round's winner scores (R-CR-6, R-MI-5),
and neither our players nor the peers play a round differently for the game's score, so
a game between two players is a run of rounds like the ones measured: this draws such
runs, each round at random from the measured ones, until a side reaches the target. Not
Merry-Go-Round: either side scores during play and a score past 61 is not added (R-MG-4,
R-MG-7), so its rounds depend on the score.

The interval is a percentile bootstrap over deals (a deal's two rounds share its tiles,
so they are drawn together). Everything is seeded: the same rows give the same figures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Round

DRAWN_GAMES = 20_000
"""Games drawn for the estimate: its own standard error is then under 0.4 of a point."""
RESAMPLES = 100
"""Bootstrap resamples of the deals, each with :data:`RESAMPLE_GAMES` games."""
RESAMPLE_GAMES = 1_000


def applies(variant: type[Round]) -> bool:
    """Whether a game's rounds may be drawn apart (see the module's docstring)."""
    return not variant.exact_target and not variant.scores_plays


def games_won(
    deals: Sequence[Sequence[float]], target: int, seed: int = 0
) -> tuple[float, float, float]:
    """A's share of games to ``target`` and its 95% interval, from each deal's rounds as
    A's points less B's (only one side scores a round; 0: nobody scored)."""
    rng = random.Random(seed)
    estimate = _share(deals, target, DRAWN_GAMES, rng)
    shares = sorted(
        _share([rng.choice(deals) for _ in deals], target, RESAMPLE_GAMES, rng)
        for _ in range(RESAMPLES)
    )
    tail = int(0.025 * RESAMPLES)  # as many resamples left out at either end
    return estimate, shares[tail], shares[-1 - tail]


def _share(deals: Sequence[Sequence[float]], target: int, games: int, rng: random.Random) -> float:
    """A's share of ``games`` games, each round drawn from ``deals``' scoring rounds (a
    round nobody scores changes nothing, so it is left out; if nobody ever scores,
    neither side is ahead: a half)."""
    rounds = [margin for deal in deals for margin in deal if margin]
    if not rounds:
        return 0.5
    won = 0
    for _ in range(games):
        a = b = 0.0
        while a < target and b < target:
            margin = rng.choice(rounds)
            if margin > 0:
                a += margin
            else:
                b -= margin
        won += a >= target
    return won / games
