"""A tournament's table: opened for the players its round drew, who alone sit there; a
computer stands in for one who does not come; the organiser (not seated) starts it, and
the players sit in the order the pairing gave (Milo's partners across, R-MI-1)."""

from __future__ import annotations

import pytest

from bot.commands import Join, Play, StandIn, Start
from bot.refusals import NotSeated, TournamentSeatsOnly
from bot.service import NewTable, TableService, TournamentSeats
from bot.table import Status, Table
from data.repository import Repository
from tests.tables.helpers import Clock

GUILD, CHANNEL, ORGANISER = 1, 2, 99


async def opened(service: TableService, game: str, players: tuple[int, ...]) -> str:
    table = await service.open_table(
        NewTable(GUILD, CHANNEL, ORGANISER, "Org", game),
        drawn=TournamentSeats("t0000001", players),
    )
    assert table.seats == () and table.invited == players and table.tournament == "t0000001"
    return table.id


async def test_only_the_drawn_sit_and_a_computer_stands_in_for_an_absentee(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, clock=clock)
    table_id = await opened(service, "cross", (11, 12, 13))
    with pytest.raises(TournamentSeatsOnly):
        await service.act(table_id, Join(14, "Dan"))
    await service.act(table_id, Join(12, "Bob"))
    await service.act(table_id, Join(11, "Ann"))
    with pytest.raises(NotSeated):  # Bob came: nobody stands in for him
        await service.act(table_id, StandIn(12, "normal"))
    await service.act(table_id, StandIn(13, "normal"))
    with pytest.raises(TournamentSeatsOnly):  # too late: a computer has 13's seat now
        await service.act(table_id, Join(13, "Cy"))
    await service.act(table_id, Start(ORGANISER))
    table = service.snapshot(table_id)
    assert table.status is Status.PLAYING
    assert [seat.name for seat in table.seats] == ["Ann", "Bob", "Computer 1 (normal)"]
    await service.close()


async def test_milo_partners_sit_across_as_drawn_and_a_stand_in_takes_the_absentees_chair(
    store: Repository, clock: Clock
) -> None:
    """Seats 0 and 2 are partners (R-MI-1): the pairing put 21 with 23, 22 with 24."""
    service = TableService(store, clock=clock)
    table_id = await opened(service, "milo", (21, 22, 23, 24))
    for user in (24, 23, 21):
        await service.act(table_id, Join(user, f"P{user}"))
    await service.act(table_id, StandIn(22, "hard"))
    await service.act(table_id, Start(ORGANISER))
    seats = service.snapshot(table_id).seats
    assert [seat.user_id for seat in seats] == [21, None, 23, 24]
    assert seats[1].level == "hard"
    await service.close()


async def test_a_tournament_table_is_stored_and_read_back_as_it_was(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, clock=clock)
    table_id = await opened(service, "cross", (31, 32))
    await service.act(table_id, Join(31, "Ann"))
    live = service.get(table_id)
    assert Table.from_dict(live.to_dict()) == live
    await service.close()
    again = TableService(store, clock=clock)
    await again.resume()
    table = again.snapshot(table_id)
    assert table.tournament == "t0000001" and table.invited == (32,)
    await again.close()


async def test_an_unrated_tournaments_game_is_kept_but_rates_nobody(
    store: Repository, clock: Clock
) -> None:
    service = TableService(store, clock=clock)
    table = await service.open_table(
        NewTable(GUILD, CHANNEL, ORGANISER, "Org", "cross", target=10),
        drawn=TournamentSeats("t0000002", (41, 42), rated=False),
    )
    for user in (41, 42):
        await service.act(table.id, Join(user, f"P{user}"))
    await service.act(table.id, Start(ORGANISER))
    while (now := service.find(table.id)) is not None:
        user = now.seats[now.turn or 0].user_id or 0
        await service.act(table.id, Play(user, now.legal_for(user)[0]))
    game = await store.game_of_table(table.id)
    assert game is not None and not game.rated
    assert await store.get_stats(41, guild_id=GUILD) == []
    await service.close()
