"""Tournaments between computer players on duplicate deals: every deal is played twice,
with the sides swapped, so luck of the deal cancels out. A "round" is one deal played once.

    python benchmarks/players.py [--deals 400] [--seed-base 1000000] [--only milo]
                                 [--pairing expert:hard] [--results var/tournament.jsonl]
                                 [--whole-games] [--baseline var/main.jsonl]

Deals are numbered from ``--seed-base``: settings are tuned on one range of deals and
figures reported on another they were never tuned on (the ranges are fixed in
``docs/PLAYERS.md``). Every finished deal is appended to the results file, and a run
skips the deals that file already holds, so a long tournament can be stopped and resumed
(a pairing is its game, its two players and their settings). Prints, per pairing, A's
share of rounds won (a tied round counts half) and A's mean points per round minus B's,
each with a 95% interval; in the games where only a round's winner scores, A's share of
whole games drawn from those rounds (``benchmarks/games_to_target.py``); with
``--whole-games``, each deal is two whole games instead (A on each side), the shares
are of games won and the points are final scores; with ``--baseline``, how each
pairing differs from another run's on the deals both played; the machine's load; and
the decision time of our levels that search: the CPU time of the deciding thread (what
the counted work costs, whatever else the machine is doing) beside the wall time.

Peers, each seeing only its own seat: OpenSpiel's ISMCTS (400 simulations) in every game,
through ``benchmarks/openspiel_games.py``; in Milo also the ``dominoes`` package's
``bota_gorda`` and ``probabilistic_alphabeta`` (from move 8, 10 sampled deals). Install
them with ``pip install -r requirements/bench.txt``. The figures, and the deals they were
measured on, are in ``docs/PLAYERS.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

from benchmarks import games_to_target
from bot.engine import GAMES, Match, Move, Options, Round
from bot.levels import LEVELS
from bot.players import computer_player

if TYPE_CHECKING:  # the bridge needs OpenSpiel, a benchmark-only peer
    from benchmarks.ismcts_bridge import Returns

Chooser = Callable[[Round, int], Move]
Unit = Literal["round", "game"]
"""What one play of a deal is: a round, or a whole game whose rounds are dealt from it."""
STRONGEST = LEVELS[-1]
LEVEL_PAIRINGS = [(LEVELS[i + 1], LEVELS[i]) for i in reversed(range(len(LEVELS) - 1))]
PEERS = ["ismcts", "ismcts_points", "alphabeta", "bota_gorda"]
MILO_ONLY = {"alphabeta", "bota_gorda"}
"""The ``dominoes`` package plays Milo's line only; OpenSpiel plays every game."""
ISMCTS_RETURNS: dict[str, Returns] = {"ismcts": "win", "ismcts_points": "points"}
"""What each of the ISMCTS peers plays for (:func:`benchmarks.ismcts_bridge.ismcts_move`)."""
ASKED_ONLY = {"ismcts_points"}
"""Played only when a pairing names it: the figures the goals are set in are against
ISMCTS playing for the round (``ismcts``); playing for points is the check, in whole
games, that what the expert plays for is not all it wins by."""
ALPHABETA_FROM_MOVE = 8
ALPHABETA_SAMPLES = 10
"""``probabilistic_alphabeta`` searches from this move on, over this many sampled deals."""
TIMED = {"hard", "expert"}
DEFAULT_RESULTS = Path("var/tournament.jsonl")


def seats(variant: type[Round]) -> int:
    """Players at a tournament's table: the fewest the game allows, so heads-up, except
    Milo's two teams of two (R-MI-1)."""
    return variant.player_counts[0]


def tournament_deal(variant: type[Round], seed: int) -> Round:
    """Deal number ``seed`` as a tournament's round is dealt: at :func:`seats`, with the
    game's usual options, from ``random.Random(seed)`` (the other benchmarks that replay
    the tournament's rounds deal them here too)."""
    players = seats(variant)
    return variant.deal(players, random.Random(seed), options=Options.for_game(variant, players))


def seated(a: str, b: str, a_side: int, players: int, seed: int) -> tuple[list[str], list[Chooser]]:
    """Who sits where in one play of deal ``seed`` with A on side ``a_side`` (A and B
    alternate round the table), and each seat's chooser, seeded by the deal and seat."""
    names = [a if (seat % 2 == a_side) else b for seat in range(players)]
    return names, [chooser(name, seed * 10 + seat) for seat, name in enumerate(names)]


def chooser(name: str, seed: int) -> Chooser:
    if name in LEVELS:
        player = computer_player(name, seed)
        return lambda round_, seat: player.choose(round_.seat_view(seat))
    if name in ISMCTS_RETURNS:
        from benchmarks import ismcts_bridge

        returns = ISMCTS_RETURNS[name]
        return lambda round_, seat: ismcts_bridge.ismcts_move(
            round_.seat_view(seat), seed, returns=returns
        )
    from benchmarks import dominoes_bridge as bridge

    package = (
        bridge.bota_gorda
        if name == "bota_gorda"
        else bridge.probabilistic_alphabeta(
            start_move=ALPHABETA_FROM_MOVE, sample_size=ALPHABETA_SAMPLES
        )
    )
    rng = random.Random(seed)
    return lambda round_, seat: bridge.package_move(package, round_.seat_view(seat), rng)


def peer_settings(peer: str) -> str:
    """How a peer plays, as printed beside its figures."""
    if peer in ISMCTS_RETURNS:
        from benchmarks import ismcts_bridge

        return ismcts_bridge.describe(ISMCTS_RETURNS[peer])
    if peer == "bota_gorda":
        return "dominoes bota_gorda (heaviest tile first)"
    return (
        f"dominoes probabilistic_alphabeta from move {ALPHABETA_FROM_MOVE}, "
        f"{ALPHABETA_SAMPLES} sampled deals"
    )


def play_deal(args: tuple[str, str, str, int, Unit]) -> dict[str, Any]:
    """One deal, twice, A on each side: a round of it (``unit`` "round"), or a whole game
    to the game's usual target whose rounds are dealt from it (``unit`` "game", see
    :func:`play_game`). Each time, A's share (1 won, 0 lost, ½ a tied round), A's points
    (or final score) less B's and the rounds played; and the decision times of the timed
    levels (wall and the deciding thread's CPU)."""
    game, a, b, seed, unit = args
    variant = GAMES[game]
    players = seats(variant)
    options = Options.for_game(variant, players)
    shares, margins, rounds = [], [], []
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    for a_side in (0, 1):
        random.seed(seed)  # the dominoes package samples with the global generator
        names, choosers = seated(a, b, a_side, players, seed)
        decide = Seating(names, choosers, times, cpu).decide
        if unit == "game":
            result = play_game(variant, players, options, seed, decide, a_side)
        else:
            result = play_round(tournament_deal(variant, seed), decide, a_side)
        shares.append(result.share)
        margins.append(float(result.scores[0] - result.scores[1]))
        rounds.append(result.rounds)
    row = {"game": game, "a": a, "b": b, "deal": seed, "shares": shares, "margins": margins,
           "times": dict(times), "cpu": dict(cpu)}  # fmt: skip
    if unit == "game":
        row |= {"unit": unit, "rounds": rounds}
    return row


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where in one play of a deal, and where the timed levels' decision times
    go."""

    names: list[str]
    choosers: list[Chooser]
    times: dict[str, list[float]]
    cpu: dict[str, list[float]]

    def decide(self, round_: Round) -> Move:
        """The move of the seat to move, timed if it is a timed level's choice."""
        seat, name = round_.turn, self.names[round_.turn]
        choice = len(round_.legal_moves()) > 1
        start, start_cpu = time.perf_counter(), time.thread_time()
        move = self.choosers[seat](round_, seat)
        if name in TIMED and choice:  # forced moves would flatter the figures
            self.cpu[name].append(time.thread_time() - start_cpu)
            self.times[name].append(time.perf_counter() - start)
        return move


@dataclass(frozen=True, slots=True)
class Result:
    """How one play of a deal ended for A, at side ``a_side`` of the table (in Milo,
    seats ``a_side`` and ``a_side + 2``)."""

    share: float
    """1 won, 0 lost, ½ a tied round."""
    scores: tuple[int, int]
    """A's and B's: the round's points, or a whole game's final scores."""
    rounds: int


def play_round(round_: Round, decide: Callable[[Round], Move], a_side: int) -> Result:
    """Play one round out."""
    while round_.outcome() is None:
        round_.play(decide(round_))
    outcome = round_.outcome()
    assert outcome is not None
    share = 0.5 if outcome.winner is None else float(outcome.winner == a_side)
    return Result(share, (outcome.points[a_side], outcome.points[1 - a_side]), rounds=1)


def play_game(
    variant: type[Round],
    players: int,
    options: Options,
    seed: int,
    decide: Callable[[Round], Move],
    a_side: int,
) -> Result:
    """Play a whole game to ``options``' target, its rounds dealt from ``seed`` (so round
    k of both of a deal's games is the same deal). This is what tells who plays
    Merry-Go-Round better, where points come during play and a score past 61 is not added
    (R-MG-4, R-MG-7), so that its rounds cannot be drawn apart
    (:mod:`benchmarks.games_to_target`)."""
    match = Match(variant, players, options, seed=seed)
    while match.outcome() is None:
        match.play(decide(match.round))
    ended = match.outcome()
    assert ended is not None
    scores = (ended.scores[a_side], ended.scores[1 - a_side])
    return Result(float(ended.winner == a_side), scores, len(match.rounds))


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def paired_interval(pairs: list[list[float]]) -> tuple[float, float]:
    """Mean and 95% half-width over rounds, the two rounds of a deal taken as one sample
    (they share the deal, so they are not independent)."""
    mean, half = interval([sum(pair) / 2 for pair in pairs])
    return mean, half


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    with path.open() as file:
        return [json.loads(line) for line in file if line.strip()]


def pairing_label(rows: list[dict[str, Any]]) -> str:
    """The game and the two players of a pairing's rows, in columns."""
    game, a, b = rows[0]["game"], rows[0]["a"], rows[0]["b"]
    return f"{game:<15} {a:>10} vs {b:<10}"


def unit_of(row: dict[str, Any]) -> Unit:
    """What a row's two results are: two rounds of one deal, or two whole games (rows
    written before whole games were played hold rounds)."""
    return "game" if row.get("unit") == "game" else "round"


def points_label(unit: Unit) -> str:
    """What a row's margins are: points a round, or a whole game's final score."""
    return "points/round" if unit == "round" else "final score"


def summary(rows: list[dict[str, Any]]) -> str:
    """A's share of rounds (or whole games) won (the winner by the rules; a tied round
    counts half), of those in which A scored more points than B (in Merry-Go-Round the
    fives scored during play are most of a round's points, and go to either side), and
    A's points a round (or final score) less B's, with the deals they were played on;
    for whole games, also how many rounds a game took."""
    unit = unit_of(rows[0])
    win, win_half = paired_interval([r["shares"] for r in rows])
    more, more_half = paired_interval(
        [[1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in r["margins"]] for r in rows]
    )
    mean, mean_half = paired_interval([r["margins"] for r in rows])
    verdict = "above 50%" if win - win_half > 0.5 else "NOT above 50%"
    deals = sorted(r["deal"] for r in rows)
    points = points_label(unit)
    line = (
        f"{pairing_label(rows)} deals {len(rows):>4} ({deals[0]}–{deals[-1]}) "
        f"{unit}s {2 * len(rows):>4}  "
        f"A wins {win:6.1%} ± {win_half:5.1%} ({verdict}; low end {win - win_half:6.1%})  "
        f"A outscores B {more:6.1%} ± {more_half:5.1%}  "
        f"A − B {points} {mean:+6.2f} ± {mean_half:5.2f}"
    )
    if unit == "game":
        line += f"  rounds a game {statistics.fmean(n for r in rows for n in r['rounds']):.1f}"
    return line


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


def run(
    pairing: tuple[str, str, str],
    deals: range,
    results: Path,
    workers: int,
    play: bool = True,
    unit: Unit = "round",
    baseline: Path | None = None,
) -> list[dict[str, Any]]:
    """Play the pairing's missing deals (none if not ``play``), a round or a whole game
    each (``unit``), and print its summary; and, given a ``baseline`` results file, how
    it differs from the same pairing there (:func:`compared`)."""
    game, a, b = pairing
    rows = pairing_rows(load(results), pairing, unit)
    done = {r["deal"] for r in rows}
    todo = [(game, a, b, seed, unit) for seed in deals if seed not in done and play]
    results.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    if todo:
        print(f"  {game} {a} vs {b}: {len(todo)} deals to play, {load_average()}",
              file=sys.stderr, flush=True)  # fmt: skip
    with results.open("a") as file:
        for count, row in enumerate(_map(play_deal, todo, workers), 1):
            file.write(json.dumps(row) + "\n")
            file.flush()
            rows.append(row)
            if count % 20 == 0 or count == len(todo):
                rate = (time.perf_counter() - started) / count
                left = rate * (len(todo) - count) / 60
                print(f"  … {summary(rows)}  ({rate:.1f} s/deal, {left:.0f} min left, "
                      f"{load_average()})", file=sys.stderr, flush=True)  # fmt: skip
    rows = [r for r in rows if r["deal"] in deals]
    if rows:
        print(summary(rows), flush=True)
        games = games_summary(rows)
        if games:
            print(games, flush=True)
        if baseline is not None:
            print(compared(rows, pairing_rows(load(baseline), pairing, unit)), flush=True)
    return rows


def pairing_rows(
    rows: list[dict[str, Any]], pairing: tuple[str, str, str], unit: Unit
) -> list[dict[str, Any]]:
    """The rows of one pairing's rounds, or of its whole games."""
    return [r for r in rows if (r["game"], r["a"], r["b"]) == pairing and unit_of(r) == unit]


def compared(rows: list[dict[str, Any]], baseline: list[dict[str, Any]]) -> str:
    """How A's results differ from the same pairing's in ``baseline`` (a run of another
    version of A: a setting tried against the setting), deal by deal over the deals both
    hold: the differences in share won and in points, each with its 95% interval, and
    how closely the two runs' deals agree. Pairing by deal narrows the interval only as
    far as they do; once the players differ, the rounds part ways and agree little
    (``docs/PLAYERS.md``: how many deals a change needs)."""
    theirs = {r["deal"]: r for r in baseline}
    both = [(r, theirs[r["deal"]]) for r in rows if r["deal"] in theirs]
    label = f"{pairing_label(rows)} against the baseline,"
    if len(both) < 2:
        return f"{label} deals in both {len(both)}: too few to compare"

    def differences(field: str) -> list[list[float]]:
        return [[x - y for x, y in zip(r[field], b[field], strict=True)] for r, b in both]

    won, won_half = paired_interval(differences("shares"))
    points, points_half = paired_interval(differences("margins"))
    ours = [statistics.fmean(r["shares"]) for r, _ in both]
    base = [statistics.fmean(b["shares"]) for _, b in both]
    try:
        agree = f"the runs' shares of a deal correlate at {statistics.correlation(ours, base):.2f}"
    except statistics.StatisticsError:  # one run's shares all alike
        agree = "one run's shares are all alike"
    return (
        f"{label} deals in both {len(both)}: A wins {won:+6.1%} ± {won_half:5.1%}, "
        f"A − B {points_label(unit_of(rows[0]))} "
        f"{points:+6.2f} ± {points_half:5.2f}; {agree}"
    )


def games_summary(rows: list[dict[str, Any]]) -> str | None:
    """A's share of whole games to the game's usual target, drawn from these rounds
    (:mod:`benchmarks.games_to_target`), where a game's rounds may be drawn apart (none
    for rows of whole games, which say it themselves)."""
    variant = GAMES[rows[0]["game"]]
    if unit_of(rows[0]) != "round" or not games_to_target.applies(variant):
        return None
    share, low, high = games_to_target.games_won(
        [r["margins"] for r in rows], variant.default_target
    )
    return (
        f"{pairing_label(rows)} A wins games to {variant.default_target}: {share:6.1%} "
        f"(95% interval {low:6.1%} to {high:6.1%}), drawn from these rounds"
    )


def _map(function: Callable[[Any], Any], items: list[Any], workers: int) -> Iterator[Any]:
    if workers == 1:
        yield from map(function, items)
        return
    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap_unordered(function, items, chunksize=1)


def percentiles(spent: list[float]) -> str:
    """p50, p95 and max in milliseconds."""
    spent = sorted(spent)
    p50, p95 = spent[len(spent) // 2], spent[min(len(spent) - 1, int(len(spent) * 0.95))]
    return f"p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {spent[-1] * 1000:.0f} ms"


def plan_pairings(
    games: list[str], skip_peers: bool, wanted: list[str] | None
) -> list[tuple[str, str, str]]:
    """Every pairing of the games asked for, or those ``wanted`` (``a:b``)."""
    plan: list[tuple[str, str, str]] = []
    for game in games:
        plan += [(game, a, b) for a, b in LEVEL_PAIRINGS]
        if not skip_peers:
            plan += [
                (game, STRONGEST, peer)
                for peer in PEERS
                if peer not in MILO_ONLY or GAMES[game].teams
            ]
    if wanted:
        pairs = [tuple(p.split(":")) for p in wanted]
        return [p for p in plan if p[1:] in pairs]
    return [p for p in plan if p[2] not in ASKED_ONLY]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400, help="deals per pairing (2 rounds each)")
    parser.add_argument(
        "--whole-games",
        action="store_true",
        help="play each deal as two whole games to the usual target, not two rounds",
    )
    parser.add_argument(
        "--seed-base", type=int, default=0, help="the first deal's number (see docs/PLAYERS.md)"
    )
    parser.add_argument("--only", choices=sorted(GAMES), action="append", help="only these games")
    parser.add_argument("--skip-peers", action="store_true", help="only our own levels")
    choices = [f"{a}:{b}" for a, b in LEVEL_PAIRINGS] + [f"{STRONGEST}:{p}" for p in PEERS]
    parser.add_argument("--pairing", choices=choices, action="append", help="only these")
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS)
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a results file of the same pairings by other settings: print how these differ",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes (the machine is shared)")
    parser.add_argument(
        "--summary", action="store_true", help="only print what the results file holds"
    )
    args = parser.parse_args()
    deals = range(args.seed_base, args.seed_base + args.deals)
    plan = plan_pairings(args.only or sorted(GAMES), args.skip_peers, args.pairing)
    for peer in PEERS:
        if any(p[2] == peer for p in plan):
            print(f"{peer}: {peer_settings(peer)}")
    print(f"deals {deals.start}–{deals.stop - 1}, {load_average()}", flush=True)
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    cpu: dict[tuple[str, str], list[float]] = defaultdict(list)
    unit: Unit = "game" if args.whole_games else "round"
    for pairing in plan:
        played = run(
            pairing, deals, args.results, args.workers, not args.summary, unit, args.baseline
        )
        for row in played:
            game = row["game"]
            for into, field in ((times, "times"), (cpu, "cpu")):
                for name, spent in row.get(field, {}).items():
                    into[name, game] += spent
                    into[name, "all games"] += spent
    for key, spent in sorted(cpu.items()):
        name, game = key
        if spent:
            print(
                f"{name} decision time, {game}: CPU {percentiles(spent)}; "
                f"wall {percentiles(times[key])}; {len(spent)} decisions"
            )
    print(f"done, {load_average()}", flush=True)


if __name__ == "__main__":
    main()
