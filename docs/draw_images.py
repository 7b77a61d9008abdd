"""Write the sample pictures shown in the README: ``python docs/draw_images.py docs/images``.

A script beside the pictures it draws, not part of the bot: it draws what the bot posts,
so it takes the words from the bot's own ``words`` as well as the pictures from
``rendering`` (which itself never reads the Discord face's words)."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too

from PIL import Image

from bot.engine import GAMES, Match, Options
from bot.engine.__main__ import play_random
from rendering import LeaderboardRow, render_hand, render_leaderboard, render_replay, render_table
from rendering.palette import encode_png
from words import pictures, replays

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
    for index, game in enumerate(GAMES):
        players = max(GAMES[game].player_counts)
        match = busy_position(game, players)
        names = NAMES[:players]
        view = match.view()
        table = render_table(view, pictures.table_text(view, names))
        (folder / f"{game}.png").write_bytes(table.png)
        if index == 0:  # one hand, from the first game's table
            mine = match.seat_view(view.turn)
            hand = render_hand(mine, pictures.hand_text(mine, names))
            (folder / "hand.png").write_bytes(hand.png)
    rows = [LeaderboardRow(i, name, f"{31.5 - 2.3 * i:.1f}", 40 - 3 * i)
            for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve"], 1)]  # fmt: skip
    board = render_leaderboard(rows, pictures.leaderboard_text("Cross — this server"))
    (folder / "leaderboard.png").write_bytes(board)
    (folder / "replay-frame.png").write_bytes(replay_frame())


def replay_frame() -> bytes:
    """A frame of a seeded game's replay as the GIF shows it: the 17th move, a play in
    the middle of the first round."""
    options = Options.for_game(GAMES["cross"], 3, target=50)
    record = play_random("cross", 3, seed=4, options=options).record()
    replay = render_replay(record, replays.replay_text(NAMES[:3]))
    gif = Image.open(io.BytesIO(replay.parts[0].gif))
    gif.seek(16)
    return encode_png(gif.convert("RGB"))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
