"""What each face has shown is its own: a second face following a table (a browser page
beside the Discord chat) neither hides an action from the first after a restart nor
makes it show one again, and is itself handed back every action it did not note. A
table's end (its game over, its cancel) is handed back as any action is, though the
table is closed."""

from __future__ import annotations

from bot.commands import Cancel, Join
from bot.events import Cancelled
from bot.service import NewTable, Resumed, Shown, TableService, TournamentSeats
from data.backend import Session
from data.repository import Repository
from tests.tables.helpers import ANN, BOB, CHANNEL, GUILD, PACE, Clock, Heard, play_one, started

ELSEWHERE = -1
"""A server the Discord face does not show: the browser's local tables'."""


async def test_a_second_face_that_notes_nothing_leaves_the_first_ones_restart_alone(
    store: Repository, clock: Clock
) -> None:
    first = TableService(store, computer_pace=PACE, clock=clock)
    first.add_listener(Heard("discord"))
    first.add_listener(Heard("browser"))
    table = await started(first)
    await play_one(first, table.id)
    await play_one(first, table.id)
    version = first.tables[table.id].version
    await first.remember_message("discord", table.id, 900, version)
    await first.close()
    await store.flush()  # as the store does when it closes

    second = TableService(store, computer_pace=PACE, clock=clock)
    discord, browser = Heard("discord"), Heard("browser")
    second.add_listener(discord)
    second.add_listener(browser)
    await second.resume()
    assert discord.told == [], "the channel shows it all: nothing is posted again"
    # Version 1 is the lobby as opened, which no action is logged for: shown as it stands.
    assert [via for _, _, via in browser.told] == [Resumed(v) for v in range(1, version + 1)]
    assert browser.events, "each action handed back with what it caused"
    assert second.shown("discord", table.id) == Shown(version, 900)
    assert second.shown("browser", table.id) == Shown()
    await second.close()


async def test_each_face_is_handed_back_only_what_it_has_not_shown(
    store: Repository, clock: Clock
) -> None:
    """One face's note moves neither another's version nor its message."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(first)
    await first.remember_message("discord", table.id, 900, table.version)
    await first.remember_message("browser", table.id, None, table.version - 1)
    await play_one(first, table.id)  # carries the notes into the store
    await first.remember_message("browser", table.id, None, table.version + 1)
    assert first.shown("discord", table.id) == Shown(table.version, 900)
    await first.close()
    await store.flush()

    second = TableService(store, computer_pace=PACE, clock=clock)
    discord, browser = Heard("discord"), Heard("browser")
    second.add_listener(discord)
    second.add_listener(browser)
    await second.resume()
    assert [via for _, _, via in discord.told] == [Resumed(table.version + 1)]
    assert browser.told == []
    assert second.shown("discord", table.id) == Shown(table.version, 900)
    await second.close()


async def test_a_message_noted_for_an_older_version_fills_in_a_newer_note_without_one(
    store: Repository, clock: Clock
) -> None:
    """A lobby's first action may be told (and noted, with no message) before the
    lobby's own post is noted: its message is kept, at the newer version, in memory and
    in the store."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(first)
    await first.remember_message("discord", table.id, None, table.version)
    await first.remember_message("discord", table.id, 900, table.version - 1)
    assert first.shown("discord", table.id) == Shown(table.version, 900)
    await first.remember_message("discord", table.id, 901, table.version - 1)
    assert first.shown("discord", table.id) == Shown(table.version, 900), "a newer one stays"
    await first.close()
    await store.flush()

    second = TableService(store, computer_pace=PACE, clock=clock)
    await second.resume()
    assert second.shown("discord", table.id) == Shown(table.version, 900)
    await second.close()


async def test_a_damaged_action_line_is_shown_as_the_table_stands_and_the_rest_resume(
    store: Repository, clock: Clock
) -> None:
    """A line of the action log edited by hand or half written: the table still resumes
    (one line must not keep the bot from starting), and the face is handed back every
    action it has not shown, that one with no events, as an older release's audit line."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(first)
    await first.remember_message("discord", table.id, 900, table.version)
    await play_one(first, table.id)
    await play_one(first, table.id)
    version = first.tables[table.id].version
    await first.close()
    await store.flush()

    async def damage(tx: Session) -> None:
        await tx.execute(
            "UPDATE table_actions SET action = '{\"events\": [' WHERE table_id = ? AND version = ?",
            (table.id, table.version + 1),
        )

    await store.backend.write(damage)
    second = TableService(store, computer_pace=PACE, clock=clock)
    discord = Heard("discord")
    second.add_listener(discord)
    assert await second.resume() == 1
    assert [via for _, _, via in discord.told] == [Resumed(table.version + 1), Resumed(version)]
    assert discord.told[0][1] == [] and discord.told[1][1], "only the damaged line has none"
    await second.close()


async def test_an_end_stored_but_not_shown_before_a_stop_is_handed_back_until_shown(
    store: Repository, clock: Clock
) -> None:
    """The bot stopped between storing a cancel and posting it: the channel still shows
    the table's live buttons. After the restart the face is handed the cancel, with the
    message it last showed (to take the buttons off); once it notes showing the end, a
    later restart hands back nothing."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    table = await started(first)
    await first.remember_message("discord", table.id, 900, table.version)
    await first.act(table.id, Cancel(ANN))
    await first.close()
    await store.flush()

    second = TableService(store, computer_pace=PACE, clock=clock)
    discord = Heard("discord")
    second.add_listener(discord)
    assert await second.resume() == 0, "no open table"
    assert [via for _, _, via in discord.told] == [Resumed(table.version + 1)]
    assert any(isinstance(event, Cancelled) for event in discord.events)
    assert second.shown("discord", table.id) == Shown(table.version, 900)
    await second.remember_message("discord", table.id, None, table.version + 1)
    await second.close()
    await store.flush()

    assert (await restarted(store, clock)).told == [], "the end is shown: not posted again"


async def test_an_end_shown_before_a_stop_is_not_handed_back(
    store: Repository, clock: Clock
) -> None:
    """The face notes showing a table's end after the table has closed (it posts once
    told): that note is kept, so a restart does not post the end a second time."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    first.add_listener(Heard("discord"))
    table = await started(first)
    await first.act(table.id, Cancel(ANN))
    assert first.shown("discord", table.id) == Shown(), "not shown yet"
    await first.remember_message("discord", table.id, 901, table.version + 1)
    await first.close()
    await store.flush()

    assert (await restarted(store, clock)).told == []


async def test_a_lobby_stored_but_not_posted_before_a_stop_is_handed_back_until_shown(
    store: Repository, clock: Clock
) -> None:
    """The bot stopped between opening a table (its opener told so) and posting its
    lobby: the channel was taken by a table it did not show, with no button to join it.
    After the restart the face is handed the lobby as it stands (a lobby is opened with
    its computers seated, at the version they make, with no action logged); once it
    notes showing it, a later restart hands back nothing."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    first.add_listener(Heard("discord"))
    table = await first.open_table(
        NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"), computers=["easy"]
    )
    await first.close()
    await store.flush()

    second, discord = await resumed(store, clock)
    assert discord.told == [(table.version, [], Resumed(table.version))]
    await second.remember_message("discord", table.id, 900, table.version)
    await second.close()
    await store.flush()

    assert (await restarted(store, clock)).told == []


async def test_a_face_is_handed_back_only_the_tables_it_shows(
    store: Repository, clock: Clock
) -> None:
    """The Discord face shows no browser's local table: after a restart it is handed
    back neither a local table's actions, though it noted none of them, nor a closed
    one's end, while it still is for a table of its own server."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    ours = await started(first)
    local = await first.open_table(NewTable(ELSEWHERE, CHANNEL + 1, BOB, "Bob", "cross"))
    await first.act(local.id, Join(ANN + 10, "Cy"))
    closed = await first.open_table(NewTable(ELSEWHERE, CHANNEL + 2, ANN, "Ann", "cross"))
    await first.act(closed.id, Cancel(ANN))
    await first.close()
    await store.flush()

    second = TableService(store, computer_pace=PACE, clock=clock)
    discord = Heard("discord", only=GUILD)
    second.add_listener(discord)
    assert await second.resume() == 2
    assert [via for _, _, via in discord.told] == [Resumed(v) for v in range(1, ours.version + 1)]
    assert not any(isinstance(event, Cancelled) for event in discord.events)
    await second.close()


async def test_a_tournament_lobby_stored_but_not_posted_before_a_stop_is_handed_back(
    store: Repository, clock: Clock
) -> None:
    """A tournament's table is opened at version 0 (its host, the organiser, takes no
    seat and no computer sits down): stopped before its lobby was posted, it is handed
    back as it stands all the same, or its players would find no Join in their thread
    and forfeit at the deadline."""
    first = TableService(store, computer_pace=PACE, clock=clock)
    first.add_listener(Heard("discord"))
    table = await first.open_table(
        NewTable(GUILD, CHANNEL, 99, "Org", "cross"),
        drawn=TournamentSeats("t0000001", (ANN, BOB)),
    )
    assert table.version == 0
    await first.close()
    await store.flush()

    second, discord = await resumed(store, clock)
    assert discord.told == [(0, [], Resumed(0))]
    await second.remember_message("discord", table.id, 900, 0)
    await second.close()
    await store.flush()

    assert (await restarted(store, clock)).told == [], "noted: not handed back again"


async def resumed(store: Repository, clock: Clock) -> tuple[TableService, Heard]:
    """A service started again on ``store``, and what it handed back to its Discord face."""
    service = TableService(store, computer_pace=PACE, clock=clock)
    heard = Heard("discord")
    service.add_listener(heard)
    await service.resume()
    return service, heard


async def restarted(store: Repository, clock: Clock) -> Heard:
    """What a service started again on ``store`` hands back to its Discord face."""
    service, heard = await resumed(store, clock)
    await service.close()
    return heard
