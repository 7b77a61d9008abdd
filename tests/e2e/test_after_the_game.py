"""After a game, through the fake Discord: its id on the last message, a member's history,
a replay of it (and refusals for bad ids and other servers' games), a rematch with the
same seats and the series so far, and a member's privacy: what is stored, and deleting it
(refused while they sit at an open table)."""

from __future__ import annotations

import asyncio
import functools
import json
import re
import sys
from dataclasses import dataclass
from typing import NoReturn

import pytest

from bot.client import DominoBot
from data.backend import Session
from data.repository import StoreError
from rendering import render_replay
from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, seated_game, service_of, table_messages
from tests.fakediscord.fixtures import Server, make_server
from tests.fakediscord.fixtures import _Collect as Collected
from tests.fakediscord.server import Message
from tests.fakediscord.users import Member

GAME_ID = re.compile(r"Game (\S+) ·")


@dataclass
class Played:
    bot: DominoBot
    server: Server
    driver: Driver
    final: Message
    game_id: str

    @property
    def channel(self) -> int:
        return self.server.channels[0]

    def member(self, name: str) -> Member:
        return self.server.members[name]


def is_game_over(message: Message) -> bool:
    """The game's last card (the coach's word on the game may come after it)."""
    return any(embed.get("title", "").startswith("Winner: ") for embed in message.embeds)


async def finished(bot: DominoBot, server: Server) -> Played:
    """Ann and Bob play a Cross game to 10 in the first channel, through the fake
    Discord: the game, its last card and its id."""
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 10})
    while not driver.finished():
        await driver.play_one()
    final = next(m for m in server.fake.public(server.channels[0]) if is_game_over(m))
    found = GAME_ID.search(final.embeds[0]["footer"]["text"])
    assert found, final.embeds[0]["footer"]
    return Played(bot, server, driver, final, found[1])


@pytest.fixture
async def played(running: Running, server: Server) -> Played:
    """A finished game, once the coach's word on it is posted: a test here that counts
    the channel's later posts counts its own."""
    game = await finished(await running.start(), server)
    await game.bot.coach.settled()
    return game


def private_to(message: Message, member: Member, *words: str) -> None:
    assert message.visible_to == member.id, "the answer must be private"
    for word in words:
        assert word in message.content, (word, message.content)


async def test_history_lists_the_game_with_its_result(played: Played) -> None:
    ann = played.member("Ann")
    reply = await (await ann.slash("domino history", played.channel)).reply()
    private_to(reply, ann, played.game_id, "Cross", "(won)", "Ann", "Bob")
    bob = played.member("Bob")
    theirs = await (await bob.slash("domino history", played.channel, user=ann)).reply()
    private_to(theirs, bob, played.game_id)


async def test_a_replay_is_posted_for_everyone_and_bad_ids_are_refused(played: Played) -> None:
    ann = played.member("Ann")
    sent = await ann.slash("domino replay", played.channel, game=played.game_id)
    post = await sent.reply(30)
    assert post.visible_to is None, "a replay is for everyone"
    [gif] = [a for a in post.attachments if a["filename"].endswith(".gif")]
    assert "Cross" in gif["description"] and "Ann" in gif["description"]
    assert post.files[gif["filename"]][:6] == b"GIF89a"
    refused = await (await ann.slash("domino replay", played.channel, game="nope-1")).reply()
    private_to(refused, ann, "There is no game")
    elsewhere = make_server(played.server.fake, "Elsewhere")
    zed = elsewhere.member("Zed")
    refused = await (
        await zed.slash("domino replay", elsewhere.channels[0], game=played.game_id)
    ).reply()
    private_to(refused, zed, "There is no game")  # another server's ids are not told


async def test_a_game_whose_record_does_not_replay_is_refused_privately(played: Played) -> None:
    """A record written before a rule was corrected (here: a move out of turn) is kept
    and listed, and its replay is refused by name, privately, not with an apology."""
    store = played.bot.store
    game = await store.get_game(played.game_id)
    assert game is not None
    first, second, *rest = game.record["actions"]  # as long as the game was: its analysis fits
    record = json.dumps(dict(game.record, actions=[second, first, *rest]))

    async def rewrite(tx: Session) -> None:
        await tx.execute("UPDATE games SET record = ? WHERE id = ?", (record, played.game_id))

    await store.backend.write(rewrite)
    ann = played.member("Ann")
    refused = await (await ann.slash("domino replay", played.channel, game=played.game_id)).reply()
    private_to(refused, ann, played.game_id, "cannot be replayed")
    judged = await (await ann.slash("domino analysis", played.channel, game=played.game_id)).reply()
    private_to(judged, ann, played.game_id, "cannot be replayed")
    history = await (await ann.slash("domino history", played.channel)).reply()
    private_to(history, ann, played.game_id)


async def test_a_replay_whose_analysis_the_store_cannot_read_is_refused_privately(
    played: Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replay reads the game's analysis (to mark its graded moves) before its public
    answer: a store that fails that read is refused privately, not told to the channel
    in place of the public "thinking"."""

    async def busy(*args: object, **kwargs: object) -> NoReturn:
        raise StoreError("busy", "database is locked")

    monkeypatch.setattr(played.bot.store, "get_analysis", busy)
    ann = played.member("Ann")
    refused = await (await ann.slash("domino replay", played.channel, game=played.game_id)).reply()
    private_to(refused, ann, "could not read")


async def test_a_rematch_seats_the_same_players_and_shows_the_series(played: Played) -> None:
    ann, bob = played.member("Ann"), played.member("Bob")
    fake = played.server.fake
    before = fake.public(played.channel)
    answer = await (await bob.click(played.final, "Rematch")).reply()
    private_to(answer, bob, "rematch is open")
    lobby = await fake.wait_for(
        lambda: next((m for m in fake.public(played.channel)[len(before) :] if m.buttons()), None)
    )
    assert "Seats kept for" in lobby.text() and f"<@{ann.id}>" in lobby.text()
    outsider = played.server.member("Cat")
    refused = await (await outsider.click(played.final, "Rematch")).reply()
    private_to(refused, outsider, "Only the players of that game")
    await ann.click(played.final, "Rematch")  # Ann confirms: she takes her seat
    await fake.wait_for(lambda: "Ann" in fake.messages[lobby.id].text() and
                        "Seats kept" not in fake.messages[lobby.id].text())  # fmt: skip
    await bob.click(fake.messages[lobby.id], "Start")
    shown = await fake.wait_for(
        lambda: (
            [m for m in table_messages(fake, played.channel) if "Series so far" in m.text()] or None
        )
    )
    assert re.search(r"Series so far: (Ann|Bob) [01], (Ann|Bob) [01]", shown[0].text())


async def test_two_members_pressing_rematch_at_once_see_one_lobby_with_both(
    played: Played,
) -> None:
    """The second's seat is taken before the first's lobby is posted (and noted): the
    lobby still shows it, and loses its buttons when the game starts."""
    ann, bob = played.member("Ann"), played.member("Bob")
    fake = played.server.fake
    before = len(fake.public(played.channel))
    clicks = await asyncio.gather(
        bob.click(played.final, "Rematch"), ann.click(played.final, "Rematch")
    )
    for click in clicks:
        await click.reply()
    lobby = await fake.wait_for(
        lambda: next((m for m in fake.public(played.channel)[before:] if m.buttons()), None)
    )
    await fake.wait_for(lambda: "Ann" in fake.messages[lobby.id].text() and
                        "Seats kept" not in fake.messages[lobby.id].text())  # fmt: skip
    service = played.bot.service
    rematch = service.in_channel(played.channel) if service is not None else None
    assert rematch is not None
    host = bob if rematch.host_id == bob.id else ann  # whose click came first
    await host.click(fake.messages[lobby.id], "Start")
    await fake.wait_for(lambda: not fake.messages[lobby.id].buttons())


async def test_privacy_says_what_is_stored_and_forget_me_deletes_it(played: Played) -> None:
    ann, bob = played.member("Ann"), played.member("Bob")
    said = await (await ann.slash("domino privacy", played.channel)).reply()
    private_to(said, ann, "What this bot stores about you", "forget-me")
    await (await bob.slash("domino new", played.server.channels[1], game="cross")).reply()
    refused = await (await bob.slash("domino forget-me", played.server.channels[1])).reply()
    confirm_refused = await (await bob.click(refused, "Delete my data")).reply()
    private_to(confirm_refused, bob, "finish or leave it first")
    ask = await (await ann.slash("domino forget-me", played.channel)).reply()
    private_to(ask, ann, "cannot be undone")
    await ann.click(ask, "Delete my data")  # the private question itself becomes the answer
    fake = played.server.fake
    await fake.wait_for(lambda: "Done" in fake.messages[ask.id].content)
    assert not fake.messages[ask.id].buttons()
    assert await played.bot.store.get_stats(ann.id) == []
    game = await played.bot.store.get_game(played.game_id)
    assert game is not None and ann.id not in {p.user_id for p in game.participants}
    history = await (await bob.slash("domino history", played.channel)).reply()
    private_to(history, bob, "a former player")


async def test_replays_go_one_at_a_time_and_a_member_waits_before_the_next(
    played: Played,
) -> None:
    ann, bob = played.member("Ann"), played.member("Bob")
    first = await ann.slash("domino replay", played.channel, game=played.game_id)
    again = await ann.slash("domino replay", played.channel, game=played.game_id)
    private_to(await again.reply(), ann, "still being posted")
    meanwhile = await bob.slash("domino replay", played.channel, game=played.game_id)
    private_to(await meanwhile.reply(), bob, "being posted in this server")
    await first.reply(30)
    await asyncio.gather(*played.bot.in_flight)  # the first replay is posted whole
    later = await ann.slash("domino replay", played.channel, game=played.game_id)
    private_to(await later.reply(), ann, "another replay")


async def test_a_replay_drawn_but_refused_by_discord_still_counts_toward_the_wait(
    played: Played, error_log: Collected
) -> None:
    """The drawing is what a replay costs: one Discord refused to take (a file it would
    not accept, say) was drawn all the same, and the member waits before the next, as
    after one posted, rather than having it all drawn again at once."""
    ann = played.member("Ann")
    played.server.fake.fail_next("POST", "/webhooks/{webhook_id}/{webhook_token}", 400)
    await (await ann.slash("domino replay", played.channel, game=played.game_id)).reply(30)
    await asyncio.gather(*played.bot.in_flight)
    [failed] = error_log.records  # Discord's refusal is logged, and the member told
    assert failed.getMessage() == "/domino replay failed"
    error_log.records.clear()
    again = await ann.slash("domino replay", played.channel, game=played.game_id)
    private_to(await again.reply(), ann, "another replay")


async def test_a_long_replay_stops_after_a_few_files_and_says_so(
    played: Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = sys.modules["cogs.games"]  # as the bot loaded it (an extension's own module)
    monkeypatch.setattr(games, "REPLAY_PARTS_MOST", 2)
    monkeypatch.setattr(games, "render_replay", functools.partial(render_replay, limit=60_000))
    ann = played.member("Ann")
    before = len(played.server.fake.public(played.channel))
    await (await ann.slash("domino replay", played.channel, game=played.game_id)).reply(60)
    await asyncio.gather(*played.bot.in_flight)
    posted = played.server.fake.public(played.channel)[before:]
    assert len(posted) == 2, [m.content for m in posted]
    assert "replay stops here, at round" in posted[-1].content
