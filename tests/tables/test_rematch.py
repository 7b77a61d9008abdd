"""Playing a finished game again: the seats kept for its members stay kept until they
confirm, decline or their time runs out; two members asking at once are one opening and
one confirming; a rematch opens only where the game was played; a member who asks to be
forgotten leaves no trace in a rematch's lobby or in a closed table's state."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.commands import AddComputer, Cancel, ComputerMove, Join, Leave, Start
from bot.refusals import NotSeated, RematchElsewhere, TableFull
from bot.service import NewTable, TableService, TournamentSeats
from bot.service.rematches import KEEP_SEATS_SECONDS
from bot.table import Status
from data.backend import Row, Session
from data.repository import Repository, StoreError
from tests.tables.helpers import ANN, BOB, CHANNEL, GUILD, PACE, Clock, play_one
from web.face import WebFace

CAT = 3
ORGANISER = 4


async def finished(service: TableService, *, hints: bool = False) -> str:
    """Ann, Bob and two computers play a Cross game to 10 in CHANNEL; its id."""
    table = await service.open_table(
        NewTable(GUILD, CHANNEL, ANN, "Ann", "cross", target=10, hints=hints)
    )
    await service.act(table.id, Join(BOB, "Bob"))
    for _ in range(2):
        await service.act(table.id, AddComputer(ANN, "easy"))
    await service.act(table.id, Start(ANN))
    return await played_out(service, table.id)


async def played_out(service: TableService, table_id: str) -> str:
    """Play the started table to its end; its game's id."""
    while table_id in service.tables:
        if service.tables[table_id].computer_to_move:
            await service.act(table_id, _computer_move(service, table_id))
        else:
            await play_one(service, table_id)
    game = await service.store.game_of_table(table_id)
    assert game is not None
    return game.id


def _computer_move(service: TableService, table_id: str) -> ComputerMove:
    live = service.tables[table_id]
    assert live.match is not None
    return ComputerMove(live.match.legal_moves()[0])


@pytest.fixture
def service(store: Repository, clock: Clock) -> TableService:
    return TableService(store, computer_pace=PACE, clock=clock)


async def test_a_kept_seat_cannot_be_taken_and_its_member_takes_it(
    service: TableService,
) -> None:
    game_id = await finished(service)
    lobby, opened = await service.rematch(game_id, GUILD, CHANNEL, BOB, "Bob")
    assert opened and lobby.status is Status.LOBBY and len(lobby.seats) == 3
    with pytest.raises(TableFull):  # Ann's seat is kept for her
        await service.act(lobby.id, AddComputer(BOB, "easy"))
    with pytest.raises(TableFull):
        await service.act(lobby.id, Join(CAT, "Cat"))
    again, opened = await service.rematch(game_id, GUILD, CHANNEL, ANN, "Ann")
    assert not opened and ANN in [seat.user_id for seat in again.seats]
    await service.close()


async def test_a_kept_seat_is_freed_when_its_member_declines(service: TableService) -> None:
    game_id = await finished(service)
    lobby, _ = await service.rematch(game_id, GUILD, CHANNEL, BOB, "Bob")
    await service.act(lobby.id, Leave(ANN))  # Ann declines
    assert service.tables[lobby.id].invited == ()
    await service.act(lobby.id, AddComputer(BOB, "hard"))  # her seat is free now
    await service.close()


async def test_the_time_to_confirm_runs_out(service: TableService, clock: Clock) -> None:
    game_id = await finished(service)
    lobby, _ = await service.rematch(game_id, GUILD, CHANNEL, BOB, "Bob")
    assert service.tables[lobby.id].invited == (ANN,)
    clock.now += KEEP_SEATS_SECONDS - 1
    assert service.run_due() == []
    clock.now += 1
    await asyncio.gather(*service.run_due())
    assert service.tables[lobby.id].invited == ()
    await service.act(lobby.id, Join(CAT, "Cat"))  # the seat is anyone's now
    await service.close()


async def test_kept_seats_whose_freeing_the_store_refused_are_freed_at_the_next_try(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store that fails once as the time to confirm runs out: the seats are freed when
    it is tried again, as a computer's move is, not kept until someone acts."""
    game_id = await finished(service)
    lobby, _ = await service.rematch(game_id, GUILD, CHANNEL, BOB, "Bob")
    save = service.store.save_action
    failing = [True]

    async def fails_once(*args: Any, **kwargs: Any) -> None:
        if failing.pop() if failing else False:
            raise StoreError("busy", "database is locked")
        await save(*args, **kwargs)

    monkeypatch.setattr(service.store, "save_action", fails_once)
    clock.now += KEEP_SEATS_SECONDS
    await asyncio.gather(*service.run_due())
    assert service.tables[lobby.id].invited == (ANN,), "not freed: the store refused it"
    again = service.tables.scheduled(lobby.id)
    assert again is not None, "tried again later"
    clock.now = again
    await asyncio.gather(*service.run_due())
    assert service.tables[lobby.id].invited == ()
    await service.close()


async def test_two_members_asking_at_once_are_one_opening_and_one_confirming(
    service: TableService,
) -> None:
    game_id = await finished(service)
    (first, opened_first), (second, opened_second) = await asyncio.gather(
        service.rematch(game_id, GUILD, CHANNEL, ANN, "Ann"),
        service.rematch(game_id, GUILD, CHANNEL, BOB, "Bob"),
    )
    assert first.id == second.id and {opened_first, opened_second} == {True, False}
    seated = {seat.user_id for seat in service.tables[first.id].seats}
    assert {ANN, BOB} <= seated
    await service.close()


async def test_a_rematch_plays_with_hints_as_the_game_did(service: TableService) -> None:
    """A game with hints plays again with hints (and unrated); a game of an unrated
    tournament, which had none, plays again without them, as a table of its own, rated."""
    game_id = await finished(service, hints=True)
    lobby, _ = await service.rematch(game_id, GUILD, CHANNEL, BOB, "Bob")
    assert lobby.hints
    await service.act(lobby.id, Cancel(BOB))

    drawn = TournamentSeats("t1", (ANN, BOB), rated=False)
    table = await service.open_table(
        NewTable(GUILD, CHANNEL, ORGANISER, "Org", "cross", target=10), drawn=drawn
    )
    for member, name in ((ANN, "Ann"), (BOB, "Bob")):
        await service.act(table.id, Join(member, name))
    await service.act(table.id, Start(ORGANISER))
    game_id = await played_out(service, table.id)
    game = await service.store.get_game(game_id)
    assert game is not None and not game.rated and not game.hints
    lobby, _ = await service.rematch(game_id, GUILD, CHANNEL, BOB, "Bob")
    assert not lobby.hints and lobby.tournament is None
    await service.close()


async def test_a_rematch_opens_only_where_the_game_was_played(service: TableService) -> None:
    game_id = await finished(service)
    with pytest.raises(RematchElsewhere) as refused:
        await service.rematch(game_id, GUILD, CHANNEL + 1, BOB, "Bob")
    assert refused.value.channel_id == CHANNEL
    assert service.tables.in_channel(CHANNEL + 1) is None
    await service.close()


async def test_leaving_a_started_table_one_does_not_sit_at_says_so(
    service: TableService,
) -> None:
    table = await service.open_table(NewTable(GUILD, CHANNEL, ANN, "Ann", "cross"))
    await service.act(table.id, Join(BOB, "Bob"))
    await service.act(table.id, Start(ANN))
    with pytest.raises(NotSeated):
        await service.act(table.id, Leave(CAT))
    await service.close()


@pytest.mark.parametrize("started", [False, True], ids=["lobby", "started-without-her"])
async def test_forgetting_a_member_leaves_no_trace_in_a_rematch_lobby_or_closed_table(
    service: TableService, store: Repository, started: bool
) -> None:
    """Whether the rematch still waits for Ann or started without her (her seat kept
    until the start, her place in its series kept after), forgetting her lets both go."""
    game_id = await finished(service)
    lobby, _ = await service.rematch(game_id, GUILD, CHANNEL, BOB, "Bob")
    if started:
        await service.act(lobby.id, Start(BOB))
        assert service.tables[lobby.id].status is Status.PLAYING
    await service.forget(ANN)
    live = service.tables[lobby.id]
    assert ANN not in live.invited and f"u{ANN}" not in live.lineup
    assert len(live.series) == len(live.lineup)

    async def states(tx: Session) -> list[Row]:
        return await tx.fetch("SELECT state FROM active_tables")

    left = [json.loads(row["state"]) for row in await store.backend.read(states)]
    assert left, "the lobby is stored"
    for state in left:  # the finished game's closed table is gone; the lobby names her not
        assert ANN not in state["invited"] and f"u{ANN}" not in state["lineup"]
        assert ANN not in [seat["user_id"] for seat in state["seats"]]
    await service.close()


async def test_forgetting_a_member_lets_the_browser_face_go_of_their_finished_table(
    service: TableService,
) -> None:
    """The browser face keeps the last finished tables of every server in memory, for
    a page or an Activity opened later in their channel: forget-me deleted Ann's from
    the store, and the running face lets it go too, naming her no more."""
    face = WebFace(service)
    service.add_listener(face)
    game_id = await finished(service)
    table_id = game_id.rsplit("-", 1)[0]
    assert face.finished(table_id) is not None, "kept once it finished"
    await service.forget(ANN)
    assert face.finished(table_id) is None and face.table_in(CHANNEL) is None
    await service.close()
