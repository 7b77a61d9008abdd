"""How well a model of how seats choose predicts the choices the expert meets in Milo:
the heavy-tile habit by which the expert weighs its guesses
(:func:`bot.players.beliefs.appeal`), beside a model fitted here to those choices.

Rounds of the tournament's pairing, the expert against OpenSpiel's ISMCTS-400 (each deal
twice, the expert on each side, as ``benchmarks/players.py`` plays them), are recorded
move by move on tuning deals. Every decision with a choice among tiles, by either
player, is a sample: the legal plays' features (:class:`LineChoice`, read from the
seat's own hand) and the one chosen. The fitted weights are those of the conditional
logit that makes the first ``--fit`` deals' choices likeliest (Newton's method); the
other deals judge each model by its log-loss per decision (nats: lower is better),
beside choosing at random.

The fitted model predicts the choices better than the habit, which does no better than
chance, and puts more hidden tiles in the right hand; weighing the expert's guesses by
it did not win more rounds (``docs/PLAYERS.md``, "the other seats' choices fitted"). It
is kept here, with its features, for whoever models the other seats next.

    python benchmarks/habits.py --deals 180 --fit 90 --records var/habits.jsonl

Recording takes about 5 s a deal on one core (ISMCTS and the expert decide every move);
the records are appended to ``--records`` and read back on the next run, so a second
process can record other deals into another file and ``--also`` joins them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import astuple, dataclass, fields
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too
from benchmarks.players import seated, tournament_deal
from bot.engine import END_NAMES, GAMES, LINE_ENDS, LineRound, Move
from bot.engine.tiles import FULL_SET, SUIT
from bot.players.beliefs import appeal

GAME = "milo"
PAIRING = ("expert", "ismcts")
NEWTON_STEPS = 25

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class LineChoice:
    """What a move in Milo's line does, as the fitted model reads it (each a number, so
    the fitting can weigh it)."""

    pips: float
    """The tile's value: heavy tiles shed first."""
    double: float
    """1 for a double, which fits only its own number."""
    follow: float
    """Tiles left in the hand that fit an end after the move: a seat keeps its options."""
    outside: float
    """Tiles of the number the move opens (both, for a lead) that the seat neither holds
    nor has seen laid: opening a number the others are short of blocks them."""
    closes: float
    """1 when the move leaves both ends the same number."""


def on_the_line(round_: LineRound) -> int:
    """The tiles laid, as a mask: every tile in no hand and not in the boneyard."""
    unlaid = 0
    for hand in round_.hands:
        unlaid |= hand
    for index in round_.boneyard:
        unlaid |= 1 << index
    return FULL_SET & ~unlaid


def line_choice(round_: LineRound, move: Move, laid: int) -> LineChoice:
    """The features of ``move`` (a play) by the seat to move in ``round_``, whose line
    holds the tiles of the mask ``laid`` (:func:`on_the_line`), counted on the engine's
    masks (a model the expert used would read every other seat's choices in each of its
    guesses)."""
    tile = move.tile
    assert tile is not None, "only a play is a choice among tiles"
    hand = round_.hands[round_.turn]
    if move.end is None:  # the lead opens both its numbers
        ends = (tile.high, tile.low)
        opened = {tile.high, tile.low}
        closes = 0.0
    else:
        side = LINE_ENDS.index(END_NAMES[move.end])
        opened_pip = tile.other(round_.line_ends[side])
        ends = (opened_pip, round_.line_ends[1 - side])
        opened = {opened_pip}
        closes = float(ends[0] == ends[1])
    follow = (hand & ~tile.bit & (SUIT[ends[0]] | SUIT[ends[1]])).bit_count()
    unseen = ~(laid | hand)
    outside = sum((SUIT[pip] & unseen).bit_count() for pip in opened)
    return LineChoice(float(tile.value), float(tile.is_double), follow, outside, closes)


@dataclass(frozen=True, slots=True)
class Choice:
    """One decision among two or more plays: each play's features (a row), which row
    was chosen, who chose and the heavy-tile habit's score of each play (the expert's
    :func:`~bot.players.beliefs.appeal`)."""

    features: Matrix
    chosen: int
    player: str
    heavy: Matrix


def deal(seed: int) -> LineRound:
    """Deal number ``seed`` as the tournament deals it, as the line round it is."""
    round_ = tournament_deal(GAMES[GAME], seed)
    assert isinstance(round_, LineRound)
    return round_


def record(seed: int) -> Iterator[dict[str, object]]:
    """The deal's two rounds as the tournament plays them: seats, then every move."""
    for a_side in (0, 1):
        round_ = deal(seed)
        names, choosers = seated(*PAIRING, a_side, round_.n, seed)
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
        move = Move.parse(text)
        if len(legal) > 1 and move.tile is not None:
            laid = on_the_line(round_)
            rows = [astuple(line_choice(round_, m, laid)) for m in legal]
            heavy = [appeal(m) for m in legal]
            yield Choice(
                np.array(rows, float), legal.index(move), names[round_.turn], np.array(heavy)
            )
        round_.play(move)


def mean_loss(scores: list[Matrix], sample: list[Choice]) -> float:
    """Nats a decision: minus the mean log chance that each decision's ``scores`` (the
    plays' log-odds) give the true choice."""
    total = 0.0
    for z, choice in zip(scores, sample, strict=True):
        z = z - z.max()
        total -= z[choice.chosen] - np.log(np.exp(z).sum())
    return total / len(sample)


def log_loss(weights: Matrix, sample: list[Choice]) -> float:
    """:func:`mean_loss` of the conditional logit with ``weights``."""
    return mean_loss([choice.features @ weights for choice in sample], sample)


def heavy_loss(sample: list[Choice]) -> float:
    """:func:`mean_loss` of the expert's heavy-tile habit."""
    return mean_loss([choice.heavy for choice in sample], sample)


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
    print(f"  log-loss a decision on deals {split}–{deals[-1]}, nats (lower predicts better):")
    for player in (None, *PAIRING):
        sample = [c for c in checking if player is None or c.player == player]
        if not sample:
            continue
        chance = sum(np.log(len(c.features)) for c in sample) / len(sample)
        print(
            f"    {player or 'both':>7} ({len(sample):5} decisions): at random {chance:.3f},"
            f" the expert's heavy-tile habit {heavy_loss(sample):.3f},"
            f" fitted {log_loss(weights, sample):.3f}"
        )


if __name__ == "__main__":
    main()
