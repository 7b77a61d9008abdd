"""``/domino forget-me`` and ended tournaments, through the fake Discord: a member entered
in an open tournament is refused until it is over (or they withdraw); once it is
cancelled, forgetting them counts it, and its stored state names them no more."""

from __future__ import annotations

from bot.tournaments.model import Tournament
from data.codec import dumps
from tests.e2e.conftest import Running
from tests.e2e.test_tournaments import announce, started
from tests.fakediscord.fixtures import Server


async def test_forget_me_takes_a_member_out_of_a_cancelled_tournament(
    running: Running, server: Server
) -> None:
    bot, _ = await started(running)
    fake, channel = server.fake, server.channels[0]
    boss, ann = server.member("Boss", manager=True), server.member("Annabel")
    announcement, tournament_id = await announce(server, boss, game="cross", format="knockout")
    await (await ann.click(announcement, "Sign up")).reply()

    ask = await (await ann.slash("domino forget-me", channel)).reply()
    refused = await (await ann.click(ask, "Delete my data")).reply()
    assert "withdraw" in refused.content, refused.content

    await (await boss.slash("domino tournament cancel", channel)).reply()
    ask = await (await ann.slash("domino forget-me", channel)).reply()
    await ann.click(ask, "Delete my data")
    await fake.wait_for(lambda: "Done" in fake.messages[ask.id].content)
    assert "1 ended tournament no longer names you." in fake.messages[ask.id].content

    stored = await bot.store.get_tournament(tournament_id)
    assert stored is not None
    text = dumps(stored.state)
    assert str(ann.id) not in text and "Annabel" not in text
    [player] = Tournament.from_dict(stored.state).players
    assert player.user_id < 0 and player.name == ""
