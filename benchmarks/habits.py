"""Fit Milo's model of how seats choose (``bot.players.habits``) to the choices the expert
meets in its tournament, and say how well each model predicts them on other deals.

Rounds of the tournament's pairing, the expert against OpenSpiel's ISMCTS-400 (each deal
twice, the expert on each side, as ``benchmarks/players.py`` plays them), are recorded
move by move on tuning deals. Every decision with a choice among tiles, by either
player, is a sample: the legal plays' features (:class:`bot.players.habits.LineChoice`,
read from the seat's own hand) and the one chosen. The weights are those of the
conditional logit that makes the first ``--fit`` deals' choices likeliest (Newton's
method); the other deals judge them by the log-loss per decision (nats: lower is
better), beside choosing at random, the spinner games' heavy-tile habit and the weights
the expert plays with today.

    python benchmarks/habits.py --deals 180 --fit 90 --records var/habits.jsonl

Recording takes about 5 s a deal on one core (ISMCTS and the expert decide every move);
the records are appended to ``--records`` and read back on the next run, so a second
process can record other deals into another file and ``--also`` joins them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from dataclasses import astuple, dataclass, fields
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too
from benchmarks.players import chooser
from bot.engine import GAMES, LineRound, Options
from bot.players.habits import LINE_WEIGHTS, LineChoice, heavy_appeal, line_choice, on_the_line

GAME = "milo"
PAIRING = ("expert", "ismcts")
NEWTON_STEPS = 25

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Choice:
    """One decision among two or more plays: each play's features (a row), which row
    was chosen, who chose and the heavy-tile habit's score of each play."""

    features: Matrix
    chosen: int
    player: str
    heavy: Matrix


def deal(seed: int) -> LineRound:
    variant = GAMES[GAME]
    round_ = variant.deal(4, random.Random(seed), options=Options.for_game(variant, 4))
    assert isinstance(round_, LineRound)
    return round_


def record(seed: int) -> Iterator[dict[str, object]]:
    """The deal's two rounds as the tournament plays them: seats, then every move."""
    for a_side in (0, 1):
        names = [PAIRING[0] if seat % 2 == a_side else PAIRING[1] for seat in range(4)]
        choosers = [chooser(name, seed * 10 + seat) for seat, name in enumerate(names)]
        round_ = deal(seed)
        moves = []
        while not round_.is_over:
            move = choosers[round_.turn](round_, round_.turn)
            moves.append(move.text)
            round_.play(move)
        yield {"seed": seed, "names": names, "moves": moves}


def choices(line: dict[str, object]) -> Iterator[Choice]:
    """The recorded round replayed: its decisions among two or more plays."""
    names = line["names"]
    moves = line["moves"]
    assert isinstance(names, list) and isinstance(moves, list) and isinstance(line["seed"], int)
    round_ = deal(line["seed"])
    for text in moves:
        legal = round_.legal_moves()
        move = next(m for m in legal if m.text == text)
        if len(legal) > 1 and move.tile is not None:
            laid = on_the_line(round_)
            rows = [astuple(line_choice(round_, m, laid)) for m in legal]
            heavy = [heavy_appeal(m) for m in legal]
            yield Choice(
                np.array(rows, float), legal.index(move), names[round_.turn], np.array(heavy)
            )
        round_.play(move)


def log_loss(weights: Matrix, sample: list[Choice]) -> float:
    """Nats a decision: minus the mean log chance the weights give the true choice."""
    total = 0.0
    for choice in sample:
        z = choice.features @ weights
        z -= z.max()
        total -= z[choice.chosen] - np.log(np.exp(z).sum())
    return total / len(sample)


def heavy_loss(sample: list[Choice]) -> float:
    total = 0.0
    for choice in sample:
        z = choice.heavy - choice.heavy.max()
        total -= z[choice.chosen] - np.log(np.exp(z).sum())
    return total / len(sample)


def fit(sample: list[Choice]) -> Matrix:
    """The weights of the likeliest conditional logit (the log-likelihood is concave, so
    Newton's steps from zero reach its maximum)."""
    size = sample[0].features.shape[1]
    weights = np.zeros(size)
    for _ in range(NEWTON_STEPS):
        gradient = np.zeros(size)
        hessian = np.zeros((size, size))
        for choice in sample:
            x = choice.features
            z = x @ weights
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            gradient += x[choice.chosen] - mean
            hessian -= (x * p[:, None]).T @ x - np.outer(mean, mean)
        weights -= np.linalg.solve(hessian, gradient)
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=180, help="deals recorded, in all")
    parser.add_argument("--seed-base", type=int, default=5000, help="the first deal's number")
    parser.add_argument("--fit", type=int, default=90, help="the first this many deals fit")
    parser.add_argument("--records", type=Path, default=Path("var/habits.jsonl"))
    parser.add_argument("--also", type=Path, nargs="*", default=[], help="more records")
    args = parser.parse_args()
    deals = range(args.seed_base, args.seed_base + args.deals)
    lines = [
        json.loads(text)
        for path in [args.records, *args.also]
        if path.exists()
        for text in path.read_text().splitlines()
    ]
    have = {line["seed"] for line in lines}
    args.records.parent.mkdir(parents=True, exist_ok=True)
    with args.records.open("a") as out:
        for seed in deals:
            if seed not in have:
                for line in record(seed):
                    out.write(json.dumps(line) + "\n")
                    lines.append(line)
    split = args.seed_base + args.fit
    mine = [line for line in lines if line["seed"] in deals]
    fitting = [c for line in mine if line["seed"] < split for c in choices(line)]
    checking = [c for line in mine if line["seed"] >= split for c in choices(line)]
    weights = fit(fitting)
    names = [field.name for field in fields(LineChoice)]
    print(f"{GAME}, {' vs '.join(PAIRING)}: fitted on deals {args.seed_base}–{split - 1}"
          f" ({len(fitting)} decisions)")  # fmt: skip
    print("  weights: " + ", ".join(f"{n} {w:+.3f}" for n, w in zip(names, weights, strict=True)))
    today = np.array(astuple(LINE_WEIGHTS))
    print(f"  log-loss a decision on deals {split}–{deals[-1]}, nats (lower predicts better):")
    for player in (None, *PAIRING):
        sample = [c for c in checking if player is None or c.player == player]
        if not sample:
            continue
        chance = sum(np.log(len(c.features)) for c in sample) / len(sample)
        print(
            f"    {player or 'both':>7} ({len(sample):5} decisions): at random {chance:.3f},"
            f" heavy tiles {heavy_loss(sample):.3f}, today's weights {log_loss(today, sample):.3f},"
            f" these weights {log_loss(weights, sample):.3f}"
        )


if __name__ == "__main__":
    main()
