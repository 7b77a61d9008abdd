"""Requests Discord itself never sends, answered cleanly all the same (a forged or broken
client may send them): a user option Discord did not resolve, autocomplete on an option
that has no suggestions."""

from __future__ import annotations

from tests.e2e.test_forged_and_races import private_to, run_raw
from tests.fakediscord.fixtures import Server

APOLOGY = "Something went wrong"


async def test_a_user_option_discord_did_not_resolve_is_looked_up_by_its_id(
    running, server: Server
) -> None:
    await running.start()
    ann, bob = server.member("Ann"), server.member("Bob")
    channel = server.channels[0]
    for command in ("domino stats", "domino history"):
        reply = await (await run_raw(ann, channel, command, user=str(bob.id))).reply()
        private_to(reply, ann)
        assert APOLOGY not in reply.content, reply.content


async def test_autocomplete_on_an_option_without_suggestions_gets_none(
    running, server: Server
) -> None:
    await running.start()
    ann = server.member("Ann")
    assert await ann.autocomplete("domino history", server.channels[0], "page", page=1) == []
    suggested = await ann.autocomplete("domino new", server.channels[0], "game", game="cr")
    assert suggested == [], "game is a list of choices, not suggestions"
