"""The core serves any face: a whole game played through the table service and its store
and worded, with plain marks, by a process that never loads discord.py (as a browser
face will run them), every message still a sentence with no Discord markup in it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

GAME = textwrap.dedent(
    """
    import asyncio, pathlib, random, sys, tempfile

    from bot.commands import Join, Play, Start
    from bot.engine import GAMES
    from bot.events import GameOver, RoundOver
    from bot.service import NewTable, TableService
    from data import open_store, sqlite_url
    from words import lobby, marks, pictures, play, rounds, rules

    said = [rules.rules_for(game) for game in GAMES.values()]


    class Words:
        \"\"\"A face that only words what it hears, as the Discord face does.\"\"\"

        face = "words"
        catches_up = True

        def shows(self, guild_id):
            return True

        def forgotten(self, user_id):
            return None

        def stored(self, table, events, via):
            said.extend(play.event_lines(table, events))
            for event in events:
                if isinstance(event, RoundOver):
                    said.append(rounds.round_card(table, event.outcome, None).description)
                if isinstance(event, GameOver):
                    said.append(rounds.game_over_card(table, event.outcome).title)
            if table.view is not None and table.is_open:
                card = play.table_card(table)
                said.extend([card.description or "", *(f.value for f in card.fields)])
                said.append(pictures.describe_table(table.view, table.names()))

        async def close(self):
            pass


    async def main():
        with tempfile.TemporaryDirectory() as folder:
            async with await open_store(sqlite_url(pathlib.Path(folder) / "t.db")) as store:
                service = TableService(store, computer_pace=0.0)
                service.add_listener(Words())
                await service.resume()
                table = await service.open_table(NewTable(1, 2, 10, "Ann", "cross", target=50))
                said.append(lobby.lobby_card(table).title)
                await service.act(table.id, Join(11, "Bob"))
                await service.act(table.id, Start(10))
                picker = random.Random(3)
                while table.id in service.tables:
                    now = service.snapshot(table.id)
                    user = now.seats[now.turn].user_id
                    await service.act(table.id, Play(user, picker.choice(now.legal_for(user))))
                await service.close()


    asyncio.run(main())
    assert marks.current() is marks.PLAIN
    assert "discord" not in sys.modules, "the service or the words loaded discord.py"
    for text in said:
        assert "<@" not in text and "<t:" not in text, text
    print(len(said))
    """
)


def test_a_whole_game_is_played_and_worded_without_discord_loaded() -> None:
    done = subprocess.run(
        [sys.executable, "-c", GAME], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 20  # the game's lines, cards and alt texts were all written
