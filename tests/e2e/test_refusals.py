"""Every kind of bad input, through the fake Discord: the user gets a private message that
says what happened and what to do, and nothing changes (no new version, no public
message)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any, NoReturn

import pytest

from bot.client import DominoBot
from bot.engine import TILES, Tile
from bot.table import Table
from data.repository import StoreError
from discord_face import acting
from tests.e2e.conftest import Running
from tests.e2e.driver import TILE, Driver, open_lobby, seated_game, service_of, table_messages
from tests.fakediscord.fixtures import Server, make_server
from tests.fakediscord.server import Message
from tests.fakediscord.users import Member, Sent

MOVES_BOUND = 400
"""A game to 100 has far fewer moves; the bound only stops a broken test from spinning."""


@dataclasses.dataclass
class Game:
    """A two-member Cross table to 100, started, with a driver to move it on."""

    server: Server
    bot: DominoBot
    driver: Driver
    ann: Member
    bob: Member

    @property
    def channel(self) -> int:
        return self.server.channels[0]

    def table(self) -> Table:
        table = self.driver.table()
        assert table is not None
        return table

    def mover(self) -> Member:
        return self.driver.mover(self.table())

    def waiter(self) -> Member:
        return self.bob if self.mover() is self.ann else self.ann

    def snapshot(self) -> tuple[int, int]:
        """What a refusal must leave alone: the table's version and the public messages."""
        return self.table().version, len(self.server.fake.public(self.channel))

    async def until(self, condition: Callable[[Table], bool]) -> None:
        """Play on (as the members would) until ``condition`` holds for the table."""
        for _ in range(MOVES_BOUND):
            await self.server.fake.wait_for(self.driver.settled)
            if condition(self.table()):
                return
            await self.driver.play_one()
        raise AssertionError("the condition never came")

    async def slash_play(self, member: Member, **options: Any) -> Message:
        return await (await member.slash("domino play", self.channel, **options)).reply()


@pytest.fixture
async def game(running: Running, server: Server) -> Game:
    bot = await running.start()
    driver = await seated_game(server, service_of(bot), "cross", 2, {"target": 100})
    return Game(server, bot, driver, server.members["Ann"], server.members["Bob"])


def held(table: Table, member: Member) -> list[Tile]:
    seat = table.seat_of(member.id)
    assert seat is not None and table.match is not None
    return list(table.match.round.hand(seat))


def refused(reply: Message, member: Member, *words: str) -> None:
    """A private answer to ``member`` that contains each of ``words``."""
    assert reply.visible_to == member.id, "a refusal must be ephemeral"
    for word in words:
        assert word in reply.content, f"{word!r} not in {reply.content!r}"


async def test_playing_out_of_turn_is_refused(game: Game) -> None:
    before = game.snapshot()
    waiter, mover = game.waiter(), game.mover()
    tile = held(game.table(), waiter)[0]
    reply = await game.slash_play(waiter, tile=str(tile))
    refused(reply, waiter, f"{mover.name}'s turn, not yours")
    assert game.snapshot() == before


async def test_a_tile_not_in_hand_a_tile_that_does_not_fit_and_nonsense_are_refused(
    game: Game,
) -> None:
    def mover_holds_a_misfit(table: Table) -> bool:
        assert table.match is not None
        if not table.match.round.led:
            return False
        legal = {m.tile for m in table.legal_for(game.mover().id)}
        return any(t not in legal for t in held(table, game.mover()))

    await game.until(mover_holds_a_misfit)
    mover, table = game.mover(), game.table()
    before = game.snapshot()
    mine = held(table, mover)
    not_mine = next(t for t in TILES if t not in mine)
    refused(
        await game.slash_play(mover, tile=str(not_mine)), mover, f"{not_mine} is not in your hand"
    )
    legal = {m.tile for m in table.legal_for(mover.id)}
    misfit = next(t for t in mine if t not in legal)
    refused(await game.slash_play(mover, tile=str(misfit)), mover, f"{misfit} does not fit")
    refused(await game.slash_play(mover, tile="banana"), mover, "is not a tile", "like 6-5")
    refused(await game.slash_play(mover, tile=str(mine[0]), end="Q"), mover, "is not an end")
    assert game.snapshot() == before


def one_placement(game: Game) -> Callable[[Table], bool]:
    """Whether the member to move holds a tile that fits in one place only."""

    def holds(table: Table) -> bool:
        moves = table.legal_for(game.mover().id)
        return any(sum(m.tile is t.tile for m in moves) == 1 for t in moves if t.tile)

    return holds


@pytest.mark.parametrize(("wait", "answer"), [(10.0, 7), (0.0, 6)])
async def test_a_played_tile_is_answered_once_and_the_table_follows(
    game: Game, monkeypatch: pytest.MonkeyPatch, wait: float, answer: int
) -> None:
    """The move is stored, then the click answered in one request: the hand becomes
    "You played …" (Discord's update of the message clicked, type 7), and the new table
    is the click's follow-up. A store slower than ``ANSWER_WITHIN`` has the click
    acknowledged first (type 6) and the hand updated after, inside Discord's 3 s."""
    monkeypatch.setattr(acting, "ANSWER_WITHIN", wait)
    await game.until(one_placement(game))
    mover = game.mover()
    version = game.table().version
    latest = table_messages(game.server.fake, game.channel)[-1]
    hand = await (await mover.click(latest, "My hand")).reply()
    tile = next(
        b["label"] for b in hand.buttons() if TILE.match(b["label"]) and "…" not in b["label"]
    )
    sent = await mover.click(hand, tile)
    posted = await sent.follow_up()
    assert sent.interaction.response_type == answer
    assert game.server.fake.messages[hand.id].content == f"You played {tile}."
    assert posted.visible_to is None and posted.files.get("table.png"), "the table, for all"
    assert posted.id == table_messages(game.server.fake, game.channel)[-1].id
    assert game.table().version == version + 1


async def test_a_double_click_plays_once_and_the_second_click_is_told_the_table_moved_on(
    game: Game,
) -> None:
    await game.until(one_placement(game))
    mover = game.mover()
    version = game.table().version
    latest = table_messages(game.server.fake, game.channel)[-1]
    hand = await (await mover.click(latest, "My hand")).reply()
    tile = next(b["label"] for b in hand.buttons() if not b["label"].endswith("…"))
    first = await mover.click(hand, tile)
    second = await mover.click(hand, tile)
    fake = game.server.fake

    def private_answer(sent: Sent) -> Message | None:
        """A new message only the member sees, answering the click (the played click's
        answer updates the hand, and its follow-up is the table, posted for everyone)."""
        interaction = sent.interaction
        answers = [*interaction.followups]
        if interaction.response_type == 4 and interaction.original_id:
            answers.insert(0, interaction.original_id)
        return next((fake.messages[a] for a in answers if fake.messages[a].visible_to), None)

    def answered_privately() -> list[Message] | None:
        private = [answer for answer in map(private_answer, (first, second)) if answer]
        return private or None

    late = await fake.wait_for(answered_privately)
    assert len(late) == 1
    refused(late[0], mover, "moved on", "Here is your hand now")
    await game.server.fake.wait_for(game.driver.settled)
    assert game.table().version == version + 1, "exactly one of the two clicks was played"
    assert game.server.fake.messages[hand.id].content == f"You played {tile}."


async def test_buttons_drawn_for_an_earlier_turn_are_refused_with_the_hand_now(
    game: Game,
) -> None:
    mover = game.mover()
    latest = table_messages(game.server.fake, game.channel)[-1]
    old_table = copy.deepcopy(latest)
    old_hand = copy.deepcopy(await (await mover.click(latest, "My hand")).reply())
    await game.driver.play_one()
    await game.server.fake.wait_for(game.driver.settled)
    before = game.snapshot()
    tile = old_hand.buttons()[0]["label"]
    reply = await (await mover.click(old_hand, tile)).reply()
    refused(reply, mover, "moved on")
    assert game.snapshot() == before
    assert not game.server.fake.messages[latest.id].buttons(), "an old table message keeps none"
    reply = await (await game.waiter().click(old_table, "My hand")).reply()
    assert reply.visible_to == game.waiter().id and reply.files.get("hand.png")


async def test_another_members_lobby_buttons_are_refused(running: Running, server: Server) -> None:
    await running.start()
    ann, bob = server.member("Ann"), server.member("Bob")
    channel = server.channels[0]
    lobby = await open_lobby(server.fake, ann, channel, game="milo")
    await bob.click(lobby, "Join")
    await server.fake.wait_for(lambda: "Bob" in server.fake.messages[lobby.id].text())
    for label, words in [("Start", "Only the host can start"), ("Cancel", "Only the host")]:
        before = copy.deepcopy(server.fake.messages[lobby.id])
        refused(await (await bob.click(lobby, label)).reply(), bob, words)
        assert server.fake.messages[lobby.id] == before
    refused(await (await ann.click(lobby, "Start")).reply(), ann, "needs 4 players")


async def test_a_table_of_another_server_is_refused(game: Game) -> None:
    other = make_server(game.server.fake, "Other Server")
    zed = other.member("Zed")
    latest = table_messages(game.server.fake, game.channel)[-1]
    before = game.snapshot()
    forged = dataclasses.replace(copy.deepcopy(latest), channel_id=other.channels[0])
    refused(await (await zed.click(forged, "My hand")).reply(), zed, "another server")
    refused(await game.slash_play(zed, tile="6-6"), zed, "not seated at a table in this server")
    assert game.snapshot() == before


async def test_options_out_of_range_and_settings_without_permission_are_refused(
    running: Running, server: Server
) -> None:
    bot = await running.start()
    ann = server.member("Ann")
    channel = server.channels[0]
    reply = await (await ann.slash("domino new", channel, game="milo", target=100)).reply()
    refused(reply, ann, "target")
    assert service_of(bot).in_channel(channel) is None, "no table was opened"
    reply = await (await ann.slash("domino settings", channel, turn_timer=60)).reply()
    refused(reply, ann, "Manage Server")
    assert (await bot.store.get_guild_settings(server.guild_id)).turn_timer_seconds == 120


async def test_scores_the_store_cannot_read_are_refused_privately_saying_why(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read the store fails is refused like any other refusal (the commands raise it
    and the tree answers it): privately, in the store's words, and nothing is posted."""

    async def busy(*args: object, **kwargs: object) -> NoReturn:
        raise StoreError("busy", "database is locked")

    monkeypatch.setattr(game.bot.store, "get_stats", busy)
    monkeypatch.setattr(game.bot.store, "games_of", busy)
    monkeypatch.setattr(game.bot.store, "leaderboard", busy)
    before = game.snapshot()
    for command, options in (
        ("domino stats", {}),
        ("domino history", {}),
        ("domino leaderboard", {"game": "cross"}),
    ):
        reply = await (await game.ann.slash(command, game.channel, **options)).reply()
        refused(reply, game.ann, "could not read the scores", "busy for too long")
    assert game.snapshot() == before
