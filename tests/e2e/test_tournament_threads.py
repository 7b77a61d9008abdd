"""A round's table whose thread Discord did not make, end to end through the fake
Discord: failed for now (a 503), the thread is made again later and only then is the
round posted, every player pinged, its show-up deadline counted from then; refused (the
bot lost Create Public Threads for a moment), the tournament is paused and its
organiser pinged, and their resume, once the permission is back, opens the table and
posts the round. A table whose thread was made but which the store failed to keep
opens in that thread once the store is back, however many times it was tried, or after
a restart."""

from __future__ import annotations

import pytest

from bot.tournaments.model import Phase
from data.models import TableRow
from data.repository import StoreError
from tests.e2e.conftest import Running
from tests.e2e.test_tournaments import current, entered, lobbies
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import CREATE_PUBLIC_THREADS, Message
from words.tournaments import table_thread_name

THREADS = "/channels/{channel_id}/messages/{message_id}/threads"


def round_posted(server: Server, channel: int) -> list[Message]:
    return [m for m in server.fake.public(channel) if "Round 1 begins" in m.content]


async def test_a_thread_discord_failed_to_make_is_made_later_and_then_the_round_is_posted(
    running: Running, server: Server
) -> None:
    there = await entered(running, server, [f"T{n}" for n in range(4)], format="swiss", rounds=1)
    bot, clock, tournaments = there.bot, there.clock, there.tournaments
    players, tournament_id = there.players, there.tournament_id
    fake, channel = server.fake, server.channels[0]
    fake.fail_next("POST", THREADS, 503)
    clock.now = tournaments.get(tournament_id).settings.start_at
    await tournaments.run_due()
    waiting = current(bot, tournament_id)
    assert waiting is not None and waiting.due is None
    assert [d.table_id is None for d in waiting.tables_of(1)] == [True, False]
    assert not round_posted(server, channel), "not posted while a table has no thread"
    names = {table_thread_name("cross", 1, table) for table in (1, 2)}
    headings = [m for m in fake.public(channel) if m.content in names]
    assert len(headings) == 1, "the heading left without its thread was deleted"

    retry = tournaments.next_due()
    assert retry is not None
    clock.now = retry
    await tournaments.run_due()
    [pairing] = await fake.wait_for(lambda: round_posted(server, channel))
    assert all(f"<@{p.id}>" in pairing.content for p in players), "everyone pinged"
    assert len(await lobbies(fake, bot, tournament_id)) == 2
    opened = current(bot, tournament_id)
    assert opened is not None and opened.due is not None
    assert opened.due >= clock.now + 60 * opened.settings.show_up_minutes - 1


async def test_a_thread_refused_pauses_the_tournament_and_a_resume_opens_it(
    running: Running, server: Server
) -> None:
    there = await entered(running, server, [f"U{n}" for n in range(4)], format="swiss", rounds=1)
    bot, clock, tournaments = there.bot, there.clock, there.tournaments
    boss, players, tournament_id = there.boss, there.players, there.tournament_id
    fake, channel = server.fake, server.channels[0]
    await fake.deny(channel, CREATE_PUBLIC_THREADS)
    clock.now = tournaments.get(tournament_id).settings.start_at
    await tournaments.run_due()
    paused = current(bot, tournament_id)
    assert paused is not None and paused.phase is Phase.PAUSED and paused.due is None
    [told] = await fake.wait_for(
        lambda: [m for m in fake.public(channel) if "Round 1 cannot begin" in m.content]
    )
    assert f"<@{boss.id}>" in told.content, told.content
    assert not round_posted(server, channel)

    await fake.deny(channel)  # the permission is back
    reply = await (await boss.slash("domino tournament resume", channel)).reply()
    assert reply.visible_to == boss.id
    [pairing] = await fake.wait_for(lambda: round_posted(server, channel))
    assert all(f"<@{p.id}>" in pairing.content for p in players)
    resumed = current(bot, tournament_id)
    assert resumed is not None and resumed.phase is Phase.RUNNING
    assert len(await lobbies(fake, bot, tournament_id)) == 2


async def test_a_table_the_store_failed_to_keep_gets_one_thread_however_many_tries(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    there = await entered(running, server, [f"V{n}" for n in range(4)], format="swiss", rounds=1)
    clock, tournaments, tournament_id = there.clock, there.tournaments, there.tournament_id
    fake, channel, store = server.fake, server.channels[0], running.store
    assert store is not None
    create_table, down = store.create_table, [True]

    async def unavailable(row: TableRow) -> None:
        if down[0]:
            raise StoreError("unavailable", "the server is restarting")
        await create_table(row)

    async def retried() -> None:
        retry = tournaments.next_due()
        assert retry is not None, "a table left unopened is tried again"
        clock.now = retry
        await tournaments.run_due()

    monkeypatch.setattr(store, "create_table", unavailable)
    clock.now = tournaments.get(tournament_id).settings.start_at
    await tournaments.run_due()  # the round is paired; its tables' threads made, none kept
    for _ in range(3):  # the store stays down for a few tries of the backoff
        await retried()
    down[0] = False
    await retried()
    await fake.wait_for(lambda: round_posted(server, channel))
    assert len(await lobbies(fake, there.bot, tournament_id)) == 2
    names = sorted(table_thread_name("cross", 1, table) for table in (1, 2))
    threads = [c["name"] for c in fake.channels.values() if c["parent_id"] == str(channel)]
    assert sorted(threads) == names, "one thread a table, no empty one left beside it"
    headings = [m.content for m in fake.public(channel) if m.content in names]
    assert sorted(headings) == names, "one heading a table"


async def test_a_table_the_store_failed_to_keep_opens_in_its_thread_after_a_restart(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store fails the round's tables, and the bot stops (or is killed between
    making a thread and keeping its table): the next start finds each table's thread
    and opens the table there, not in a second thread of the same name."""
    there = await entered(running, server, [f"W{n}" for n in range(4)], format="swiss", rounds=1)
    clock, tournaments, tournament_id = there.clock, there.tournaments, there.tournament_id
    fake, channel, store = server.fake, server.channels[0], running.store
    assert store is not None

    async def unavailable(row: TableRow) -> None:
        raise StoreError("unavailable", "the server is restarting")

    monkeypatch.setattr(store, "create_table", unavailable)
    clock.now = tournaments.get(tournament_id).settings.start_at
    await tournaments.run_due()  # the round is paired; its tables' threads made, none kept
    names = sorted(table_thread_name("cross", 1, table) for table in (1, 2))

    def threads() -> list[str]:
        return sorted(c["name"] for c in fake.channels.values() if c["parent_id"] == str(channel))

    assert threads() == names
    await running.stop()

    bot = await running.start()
    await fake.wait_for(lambda: round_posted(server, channel))
    assert len(await lobbies(fake, bot, tournament_id)) == 2
    assert threads() == names, "one thread a table, no empty one left beside it"
    headings = [m.content for m in fake.public(channel) if m.content in names]
    assert sorted(headings) == names, "one heading a table"
