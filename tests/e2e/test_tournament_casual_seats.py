"""A tournament's player asks for a casual table in its server, through the fake Discord:
from check-in on, ``/domino new`` and a casual lobby's Join are answered privately with
which tournament holds them and when it starts, nothing is posted or opened; when their
round's table opens, its Join seats them (nothing holds their one seat of the server),
and the table starts. A member not entered opens a table there as before."""

from __future__ import annotations

from bot.snapshot import TableSnapshot
from bot.table import Status
from tests.e2e.conftest import Running
from tests.e2e.driver import open_lobby, service_of
from tests.e2e.test_tournaments import entered, lobbies
from tests.fakediscord.fixtures import Server


async def test_a_player_is_refused_a_casual_table_and_sits_at_their_round_table(
    running: Running, server: Server
) -> None:
    there = await entered(running, server, ["Ann", "Bob"], format="swiss", rounds=1)
    bot, clock, tournaments, tournament_id = (
        there.bot, there.clock, there.tournaments, there.tournament_id
    )  # fmt: skip
    ann, bob = there.players
    fake, announced_in, elsewhere = server.fake, server.channels[0], server.channels[1]
    service = service_of(bot)
    reply = await (await ann.slash("domino new", elsewhere, game="cross")).reply()
    assert reply.visible_to == ann.id, "answered privately"
    assert "You are entered in the Cross tournament (Swiss)" in reply.content, reply.content
    assert f"<#{announced_in}>" in reply.content and "Withdraw" in reply.content
    assert service.in_channel(elsewhere) is None and fake.public(elsewhere) == []

    cat = server.member("Cat")  # not entered: opens a table as before
    lobby = await open_lobby(fake, cat, elsewhere, game="cross")
    join = await (await ann.click(lobby, "Join")).reply()
    assert join.visible_to == ann.id and "Cross tournament" in join.content, join.content
    casual = service.in_channel(elsewhere)
    assert casual is not None and [s.user_id for s in casual.seats] == [cat.id]

    clock.now = tournaments.get(tournament_id).settings.start_at
    await tournaments.run_due()
    [round_lobby] = await lobbies(fake, bot, tournament_id)
    for player in (ann, bob):
        await player.click(round_lobby, "Join")

    def started() -> TableSnapshot | None:
        table = service.in_channel(round_lobby.channel_id)
        return table if table is not None and table.status is Status.PLAYING else None

    table = await fake.wait_for(started)  # both sat: it started
    assert {s.user_id for s in table.seats} == {ann.id, bob.id}
