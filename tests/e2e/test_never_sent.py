"""Requests Discord itself never sends, answered cleanly all the same (a forged or broken
client may send them): a user option Discord did not resolve, autocomplete on an option
that has no suggestions."""

from __future__ import annotations

from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, open_lobby, service_of
from tests.e2e.test_forged_and_races import private_to, run_raw
from tests.fakediscord.fixtures import Server

APOLOGY = "Something went wrong"


async def test_a_user_option_discord_did_not_resolve_is_looked_up_by_its_id(
    running: Running, server: Server
) -> None:
    await running.start()
    ann, bob = server.member("Ann"), server.member("Bob")
    channel = server.channels[0]
    for command in ("domino stats", "domino history"):
        reply = await (await run_raw(ann, channel, command, user=str(bob.id))).reply()
        private_to(reply, ann)
        assert APOLOGY not in reply.content, reply.content


async def test_autocomplete_on_an_option_without_suggestions_gets_none(
    running: Running, server: Server
) -> None:
    await running.start()
    ann = server.member("Ann")
    assert await ann.autocomplete("domino history", server.channels[0], "page", page=1) == []
    suggested = await ann.autocomplete("domino new", server.channels[0], "game", game="cr")
    assert suggested == [], "game is a list of choices, not suggestions"


async def test_a_name_longer_than_discord_allows_keeps_every_post_within_its_limits(
    running: Running, server: Server
) -> None:
    """Discord's display names have at most 32 characters; one of 300 still makes every
    title, field and line fit (the fake records any post past Discord's limits)."""
    bot = await running.start()
    long = server.member("Ω" * 300)
    bob = server.member("Ж" * 300)  # whoever wins, the winner's title names a long name
    channel = server.channels[0]
    lobby = await open_lobby(server.fake, long, channel, game="cross", target=10)
    await bob.click(lobby, "Join")
    service = service_of(bot)

    def both_seated() -> bool:
        table = service.in_channel(channel)
        assert table is not None, "the lobby is open"
        return len(table.seats) == 2

    await server.fake.wait_for(both_seated)
    await long.click(lobby, "Start")
    driver = Driver(server.fake, service, channel, {long.id: long, bob.id: bob})
    await server.fake.wait_for(driver.settled)
    while not driver.finished():
        await driver.play_one()
    final = await server.fake.wait_for(
        lambda: [m for m in server.fake.public(channel) if "Rematch" in str(m.buttons())]
    )
    assert final and not server.fake.violations, server.fake.violations


async def test_a_buttons_id_sent_as_a_select_is_answered_and_changes_nothing(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    ann, bob = server.member("Ann"), server.member("Bob")
    channel = server.channels[0]
    lobby = await open_lobby(server.fake, ann, channel, game="cross")
    join = next(b for b in lobby.buttons() if b["label"] == "Join")
    data = {"custom_id": join["custom_id"], "component_type": 3, "values": ["1"]}
    reply = await (await bob._dispatch(3, channel, data, lobby)).reply()
    private_to(reply, bob, "no longer valid")
    table = service_of(bot).in_channel(channel)
    assert table is not None and [s.user_id for s in table.seats] == [ann.id]
