"""The words serve any face: a whole game worded, with plain marks, by a process that
never loads discord.py (as a browser face will run them), every message still a
sentence with no Discord markup in it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

GAME = textwrap.dedent(
    """
    import random, sys

    from bot.commands import Play, Start
    from bot.engine import GAMES, find_variant
    from bot.engine.options import Options
    from bot.events import GameOver, RoundOver
    from bot.snapshot import TableSnapshot
    from bot.table import Seat, Table
    from words import lobby, marks, pictures, play, refusals, rounds, rules

    table = Table(
        id="0123abcd", guild_id=1, channel_id=2, host_id=10, game="cross",
        options=Options.for_game(find_variant("cross"), 2, target=50), seed=3,
        seats=[Seat(name="Ann", user_id=10), Seat(name="Bob", user_id=11)],
    )
    said = [lobby.lobby_card(TableSnapshot.of(table)).title]
    table.apply(Start(10))
    picker = random.Random(3)
    said += [rules.rules_for(game) for game in GAMES.values()]
    while table.match is not None and table.match.outcome() is None:
        seat = table.turn
        user = table.seats[seat].user_id
        moves = table.legal_for(user)
        events = table.apply(Play(user, picker.choice(moves)))
        snapshot = TableSnapshot.of(table)
        said += play.event_lines(snapshot, events)
        for event in events:
            if isinstance(event, RoundOver):
                said.append(rounds.round_card(snapshot, event.outcome, None).description)
            if isinstance(event, GameOver):
                said.append(rounds.game_over_card(snapshot, event.outcome).title)
        if snapshot.view is not None and table.match.outcome() is None:
            card = play.table_card(snapshot)
            said += [card.description or "", *(field.value for field in card.fields)]
            said.append(pictures.describe_table(snapshot.view, ["Ann", "Bob"]))
    assert table.match is not None and table.match.outcome() is not None
    assert marks.current() is marks.PLAIN
    assert "discord" not in sys.modules, "the words loaded discord.py"
    for text in said:
        assert "<@" not in text and "<t:" not in text, text
    print(len(said))
    """
)


def test_a_whole_game_is_worded_without_discord_loaded() -> None:
    done = subprocess.run(
        [sys.executable, "-c", GAME], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 20  # the game's lines, cards and alt texts were all written
