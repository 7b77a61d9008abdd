"""Command line: play a seeded game between random players, or replay a record.

python -m bot.engine play --game cross --players 3 --seed 7 > game.json
python -m bot.engine replay game.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from bot.engine.errors import EngineError, ReplayError, brief
from bot.engine.match import Match
from bot.engine.options import Options
from bot.engine.variants import GAMES, find_variant


def play_random(game: str, players: int, seed: int, options: Options | None = None) -> Match:
    """A whole match between random players; the players' choices come from ``seed`` too,
    so the same arguments always give the same record."""
    match = Match(game, players, options, seed=seed)
    chooser = random.Random(f"players:{seed}")
    while match.outcome() is None:
        match.play(chooser.choice(match.legal_moves()))
    return match


def final_state(match: Match) -> dict[str, Any]:
    """What ``replay`` prints: where the match stands and the scores."""
    outcome = match.outcome()
    return {
        "game": match.variant.game,
        "players": match.players,
        "actions": len(match.actions),
        "rounds_finished": len(match.rounds),
        "scores": list(match.scores),
        "games_won": list(match.games_won),
        "outcome": outcome.to_dict() if outcome else None,
        "rounds": [r.to_dict() for r in match.rounds],
        "round": match.round.to_dict() if outcome is None else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a seeded match between random players")
    play.add_argument("--game", required=True, choices=sorted(GAMES))
    play.add_argument("--players", type=int, required=True)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--target", type=int)
    play.add_argument("--keep-last-two", action="store_true")
    play.add_argument("--match-games", type=int)
    replay = commands.add_parser("replay", help="replay a record and print the state as JSON")
    replay.add_argument("file", help="a record file, or - for standard input")
    args = parser.parse_args(argv)

    if args.command == "play":
        try:
            options = Options.for_game(
                find_variant(args.game),
                args.players,
                target=args.target,
                keep_last_two=args.keep_last_two,
                match_games=args.match_games,
            )
            match = play_random(args.game, args.players, args.seed, options)
        except EngineError as error:
            parser.error(str(error))
        json.dump(match.record(), sys.stdout)
        print()
        return 0

    try:
        with sys.stdin if args.file == "-" else open(args.file, encoding="utf-8") as stream:
            record = json.load(stream)
    except (OSError, ValueError, RecursionError) as error:
        # ValueError covers bad JSON, bad UTF-8 and numbers too long to read;
        # RecursionError, brackets nested deeper than the parser goes.
        print(
            f"replay failed: cannot read a JSON record from {brief(args.file)}: {error}",
            file=sys.stderr,
        )
        return 1
    try:
        match = Match.from_record(record)
    except ReplayError as error:
        print(f"replay failed {error}", file=sys.stderr)
        return 1
    json.dump(final_state(match), sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
