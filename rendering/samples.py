"""Write the sample pictures shown in the README: ``python -m rendering.samples docs/images``."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from bot.engine import GAMES, Match
from rendering import LeaderboardRow, render_hand, render_leaderboard, render_table

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def busy_position(game: str, players: int, tiles: int = 12) -> Match:
    """The first seeded round that gets ``tiles`` tiles onto the table, stopped there."""
    for seed in range(100):
        match = Match(game, players, seed=seed)
        picker = random.Random(seed)
        while not match.rounds:
            if (
                len(match.round.history) >= tiles
                and sum(1 for _, move in match.round.history if move.tile is not None) >= tiles
            ):
                return match
            match.play(picker.choice(match.legal_moves()))
    raise RuntimeError(f"no {game} round reached {tiles} tiles")


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        players = max(GAMES[game].player_counts)
        match = busy_position(game, players)
        (folder / f"{game}.png").write_bytes(render_table(match.public_view(), NAMES[:players]).png)
        if game == "cross":
            hand = render_hand(match.private_view(match.round.turn), NAMES[:players])
            (folder / "hand.png").write_bytes(hand.png)
    rows = [LeaderboardRow(i, name, f"{31.5 - 2.3 * i:.1f}", 40 - 3 * i)
            for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve"], 1)]  # fmt: skip
    (folder / "leaderboard.png").write_bytes(render_leaderboard("Cross — this server", rows))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
