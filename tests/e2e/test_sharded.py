"""Two bot processes, one shard each, over one PostgreSQL database (needs the server the
storage tests use: see tests/data/databases.py). Games in servers on both shards; one
process killed with SIGKILL mid-game and started again while the other keeps playing;
every table resumes, nothing is lost, and one global leaderboard holds both servers.

The members play only from what the fake Discord shows them (the bots are other
processes): the table message names whose turn it is, and they click."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from subprocess import Popen

from data import open_store
from tests.data.databases import postgres_schema
from tests.e2e.driver import table_messages
from tests.e2e.process import bot_process, connected, start_game, take_turn
from tests.e2e.test_restart_announcing import only_the_last_is_live, posted_twice
from tests.fakediscord.fixtures import make_server, serving
from tests.fakediscord.server import FakeDiscord

SHARDS = 2


@contextmanager
def shard_process(fake: FakeDiscord, url: str, shard: int, folder: Path) -> Iterator[Popen[bytes]]:
    """``python -m bot`` for one shard of two, in its own folder, against the fake."""
    with bot_process(
        fake, folder, DATABASE_URL=url, SHARD_COUNT=str(SHARDS), SHARD_IDS=str(shard)
    ) as process:
        yield process


async def test_two_shard_processes_share_one_database_and_survive_a_kill(tmp_path: Path) -> None:
    async with postgres_schema() as url:
        async with serving(FakeDiscord(shards=SHARDS)) as fake:
            servers = [make_server(fake, f"Shard {shard}", shard=shard) for shard in range(SHARDS)]
            with (
                shard_process(fake, url, 0, tmp_path / "a") as first,
                shard_process(fake, url, 1, tmp_path / "b"),
            ):
                for server in servers:
                    await connected(fake, server, 0)
                for server in servers:
                    await start_game(server)
                for _ in range(4):
                    for server in servers:
                        assert await take_turn(fake, server), "still playing at the kill"
                first.kill()  # SIGKILL: no goodbye, nothing flushed
                first.wait()
                for _ in range(3):  # the other process keeps playing meanwhile
                    await take_turn(fake, servers[1])
                before = len(table_messages(fake, servers[0].channels[0]))
                sessions = len(fake.gateway.sessions)
                with shard_process(fake, url, 0, tmp_path / "a"):
                    await connected(fake, servers[0], sessions)
                    playing = list(servers)
                    for _ in range(400):
                        playing = [s for s in playing if await take_turn(fake, s)]
                        if not playing:
                            break
                    assert not playing, "both games reached their end"
                    for server in servers:  # the kill came right after a post
                        shown = await only_the_last_is_live(fake, server.channels[0])
                        assert posted_twice(shown) == []
                    after = len(table_messages(fake, servers[0].channels[0]))
                    assert after > before + 1, "the killed process's table resumed and went on"
                    ann = servers[0].members["Ann"]
                    board = await (
                        await ann.slash(
                            "domino leaderboard",
                            servers[0].channels[0],
                            game="cross",
                            scope="global",
                            order="points",
                        )
                    ).reply(30)
        store = await open_store(url)
        try:
            rows = await store.leaderboard("cross", order="points", page_size=10, min_games=1)
        finally:
            await store.close()
    everyone = {m.id for s in servers for m in s.members.values()}
    assert {e.user_id for e in rows.entries} == everyone, "one board, both servers"
    assert sum(e.games for e in rows.entries) == 4, "two games of two members, each once"
    assert all(name in board.content for name in ("Ann", "Bob"))
