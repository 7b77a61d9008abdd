"""The browser face inside Discord, at its socket: a page is only who Discord confirms,
sees only its Activity's channel, and can do there what a click in that channel can.
Discord's answers come from a stand-in here (``tests/activity`` runs the real client's
side against the fake Discord)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, cast

import aiohttp
import discord as discord_py
import pytest
from discord import Client
from discord.http import Route

from bot.commands import Cancel, Join, Play, Start
from bot.refusals import NotConfirmed, NotInActivity, Refusal, SignInLater
from bot.service import NewTable
from data.repository import Repository
from discord_face.activity import MISSED_MOST, MISSED_SECONDS, DiscordActivities, MissesCounted
from tests.web.conftest import Site
from web.activity import Participant
from words import i18n, refusals

GUILD, CHANNEL, OTHER_CHANNEL = 10, 20, 21
THREAD, SECOND_THREAD, OTHER_THREAD = 30, 31, 32
"""Threads of the channel (two) and of the other channel, where tables play with threads on."""
NEW_THREAD = 33
"""A thread of the channel Discord has not told the bot of yet (its gateway event late)."""


@dataclass
class Discord:
    """What Discord would confirm: tokens' users and the instances' participants."""

    client_id: str = "555"
    users: dict[str, tuple[int, str]] = field(default_factory=dict)
    instances: dict[str, tuple[int, set[int]]] = field(default_factory=dict)
    """instance → (its channel, the users in it)."""
    asked: int = 0
    """How many times a participant was asked about."""
    threads: dict[int, int] = field(default_factory=dict)
    """thread → the channel it is a thread of."""

    async def exchange(self, code: str) -> str:
        raise NotConfirmed()

    async def participant(self, token: str, instance_id: str) -> Participant:
        self.asked += 1
        if token not in self.users:
            raise NotConfirmed()
        user_id, name = self.users[token]
        channel, users = self.instances.get(instance_id, (0, set()))
        if user_id not in users:
            raise NotInActivity()
        return Participant(user_id, name, GUILD, channel)

    def parent_of(self, channel_id: int) -> int | None:
        return self.threads.get(channel_id)


@pytest.fixture
def discord() -> Discord:
    return Discord(
        users={"ann-token": (101, "Ann"), "bob-token": (102, "Bob"), "cy-token": (103, "Cy")},
        instances={"i-1": (CHANNEL, {101, 102}), "i-2": (OTHER_CHANNEL, {103})},
        threads={THREAD: CHANNEL, SECOND_THREAD: CHANNEL, OTHER_THREAD: OTHER_CHANNEL},
    )


@pytest.fixture
async def site(store: Repository, discord: Discord) -> AsyncIterator[Site]:
    served = Site(store, discord)
    await served.start()
    yield served
    await served.close_pages()
    await served.stop()


async def test_a_member_in_the_activity_sees_the_channels_table_and_their_hand_only(
    site: Site,
) -> None:
    lobby = await site.service.open_table(NewTable(GUILD, CHANNEL, 101, "Ann", "cross", target=10))
    await site.service.act(lobby.id, Join(102, "Bob"))
    ann = await site.open_page()
    await ann.send(type="activity", token="ann-token", instance="i-1")
    hello = await ann.next("hello")
    assert hello["you"] == {"id": "101", "name": "Ann"} and hello["activity"] == "555"
    table = await ann.next("table")
    assert table["id"] == lobby.id and table["seats"][table["you"]]["name"] == "Ann"
    await ann.send(type="act", table=lobby.id, version=table["version"], action="start")
    started = await ann.table_at(table["version"] + 1)
    assert started["status"] == "playing" and started["hand"] is not None
    assert started["seats"][started["you"]]["id"] == "101"


async def test_a_seat_takes_the_members_name_as_discord_gives_it_when_they_join(
    site: Site, discord: Discord
) -> None:
    """As a click in the chat seats a member under their name at that moment, a join from
    the Activity asks Discord again: a nickname changed since the page opened is the
    seat's, and the page is told whom it now plays as."""
    lobby = await site.service.open_table(NewTable(GUILD, CHANNEL, 102, "Bob", "cross"))
    ann = await site.open_page()
    await ann.send(type="activity", token="ann-token", instance="i-1")
    assert (await ann.next("hello"))["you"]["name"] == "Ann"
    table = await ann.next("table")
    discord.users["ann-token"] = (101, "Annie")  # her nickname in the server, set now
    await ann.send(type="act", table=lobby.id, version=table["version"], action="join")
    seated = await ann.table_at(table["version"] + 1)
    assert [seat["name"] for seat in seated["seats"]] == ["Bob", "Annie"]
    assert [seat.name for seat in site.service.snapshot(lobby.id).seats] == ["Bob", "Annie"]
    greeted = [frame["you"] for frame in ann.frames if frame["type"] == "hello"]
    assert greeted[-1] == {"id": "101", "name": "Annie"}  # sent before the table frame


async def test_a_join_asked_over_and_over_asks_discord_once(site: Site, discord: Discord) -> None:
    """Each confirmation is three requests to Discord out of the bot's share, and a page
    may send as many joins as it likes: one confirmation holds for the next seats asked
    (a few seconds), the repeats refused as usual."""
    lobby = await site.service.open_table(NewTable(GUILD, CHANNEL, 102, "Bob", "cross"))
    ann = await site.open_page()
    await ann.send(type="activity", token="ann-token", instance="i-1")
    table = await ann.next("table")
    asked = discord.asked
    for _ in range(20):
        await ann.send(type="act", table=lobby.id, version=table["version"], action="join")
    seated = await ann.table_at(table["version"] + 1)
    assert [seat["name"] for seat in seated["seats"]] == ["Bob", "Ann"]
    for _ in range(19):  # each said to the page, none seating anyone again
        await ann.next("refused")
    assert len(site.service.snapshot(lobby.id).seats) == 2
    assert discord.asked == asked + 1


async def test_a_sign_in_sent_over_and_over_asks_discord_once(site: Site, discord: Discord) -> None:
    """The page sends its sign-in again as it moves (back from the rules, say), and a
    page may send it as often as it likes: the same sign-in, confirmed a few seconds
    ago, is shown the table again without asking Discord."""
    await site.service.open_table(NewTable(GUILD, CHANNEL, 102, "Bob", "cross"))
    ann = await site.open_page()
    for _ in range(20):
        await ann.send(type="activity", token="ann-token", instance="i-1")
    for _ in range(20):
        await ann.next("table")
    assert discord.asked == 1


@pytest.mark.parametrize(
    ("token", "instance", "refused"),
    [
        ("forged", "i-1", "did not confirm"),  # a token Discord does not know
        ("cy-token", "i-1", "not in this channel"),  # a real user, not in that instance
        ("ann-token", "i-9", "not in this channel"),  # a forged instance
    ],
)
async def test_who_discord_does_not_confirm_gets_a_clear_refusal_and_no_seat(
    site: Site, token: str, instance: str, refused: str
) -> None:
    lobby = await site.service.open_table(NewTable(GUILD, CHANNEL, 101, "Ann", "cross"))
    page = await site.open_page()
    await page.send(type="activity", token=token, instance=instance)
    assert refused in (await page.next("refused"))["text"]
    await page.send(type="act", table=lobby.id, version=1, action="join")
    assert (await page.next("refused"))["text"]
    assert [seat.name for seat in site.service.snapshot(lobby.id).seats] == ["Ann"]
    assert not [frame for frame in page.frames if frame["type"] == "table"]


async def test_an_activitys_page_reaches_no_other_channel_and_opens_nothing(site: Site) -> None:
    here = await site.service.open_table(NewTable(GUILD, CHANNEL, 101, "Ann", "cross"))
    there = await site.service.open_table(NewTable(GUILD, OTHER_CHANNEL, 103, "Cy", "cross"))
    bob = await site.open_page()
    await bob.send(type="activity", token="bob-token", instance="i-1")
    await bob.next("table")
    for message in (
        {"type": "watch", "table": there.id},
        {"type": "act", "table": there.id, "version": 1, "action": "join"},
        {"type": "open", "game": "milo", "target": None, "keep_last_two": None,
         "match_games": None, "hints": False},
    ):  # fmt: skip
        await bob.send(**message)
        assert (await bob.next("refused"))["text"]
    assert [seat.name for seat in site.service.snapshot(there.id).seats] == ["Cy"]
    assert site.service.in_channel(OTHER_CHANNEL) is not None
    guest = await site.open_page("Dan")  # a browser guest: the local server's tables only
    await guest.send(type="watch", table=here.id)
    assert (await guest.next("refused"))["text"]


async def test_an_activity_opened_after_the_game_shows_how_it_ended_and_plays_again(
    site: Site,
) -> None:
    table = await site.service.open_table(NewTable(GUILD, CHANNEL, 101, "Ann", "cross", target=10))
    await site.service.act(table.id, Join(102, "Bob"))
    await site.service.act(table.id, Start(101))
    picker = random.Random(5)
    while (now := site.service.find(table.id)) is not None:
        user = now.seats[now.turn or 0].user_id or 0
        await site.service.act(table.id, Play(user, picker.choice(now.legal_for(user))))
    ann = await site.open_page()
    await ann.send(type="activity", token="ann-token", instance="i-1")
    ended = await ann.next("table")
    assert ended["id"] == table.id and ended["status"] == "finished"
    assert ended["can"]["rematch"] and ended["ended"]["hands"]
    await ann.send(type="act", table=table.id, version=ended["version"], action="rematch")
    again = await ann.table_at(1)
    while again["id"] == table.id:
        again = await ann.next("table")
    assert again["status"] == "lobby"
    assert [seat["name"] for seat in again["seats"]] == ["Ann"]  # Bob's seat is kept for him


async def test_a_lobby_moved_to_its_thread_is_still_shown_and_played_in_the_activity(
    site: Site,
) -> None:
    """With threads on, a lobby is posted in the channel, then moved to a thread it
    starts: the channel's Activity, showing the lobby, goes on showing it there (it
    stopped at the lobby as first posted), and a member joins it from the page."""
    lobby = await site.service.open_table(NewTable(GUILD, CHANNEL, 102, "Bob", "cross"))
    ann = await site.open_page()
    await ann.send(type="activity", token="ann-token", instance="i-1")
    shown = await ann.next("table")
    await site.service.move_to_channel(lobby.id, THREAD)
    moved = await ann.table_at(shown["version"] + 1)
    await ann.send(type="act", table=lobby.id, version=moved["version"], action="join")
    seated = await ann.table_at(moved["version"] + 1)
    assert [seat["name"] for seat in seated["seats"]] == ["Bob", "Ann"]
    assert [seat.name for seat in site.service.snapshot(lobby.id).seats] == ["Bob", "Ann"]


async def test_a_lobby_moved_to_a_thread_discord_has_not_told_of_yet_is_still_played(
    site: Site, discord: Discord
) -> None:
    """The thread's gateway event may come after the lobby moved there: the page that
    showed the lobby in the channel follows it all the same, and joins it."""
    lobby = await site.service.open_table(NewTable(GUILD, CHANNEL, 102, "Bob", "cross"))
    ann = await site.open_page()
    await ann.send(type="activity", token="ann-token", instance="i-1")
    shown = await ann.next("table")
    await site.service.move_to_channel(lobby.id, NEW_THREAD)
    moved = await ann.table_at(shown["version"] + 1)
    await ann.send(type="act", table=lobby.id, version=moved["version"], action="join")
    seated = await ann.table_at(moved["version"] + 1)
    assert [seat["name"] for seat in seated["seats"]] == ["Bob", "Ann"]
    assert discord.parent_of(NEW_THREAD) is None, "still unknown when Ann joined"


async def test_once_its_table_is_cancelled_the_activity_shows_the_channels_next_lobby(
    site: Site,
) -> None:
    """A page whose thread's table closed follows the next lobby of the channel, in the
    channel or as moved to a thread of its own; a lobby of another channel's thread is
    none of its business."""
    first = await site.service.open_table(NewTable(GUILD, THREAD, 102, "Bob", "cross"))
    ann = await site.open_page()
    await ann.send(type="activity", token="ann-token", instance="i-1")
    assert (await ann.next("table"))["id"] == first.id
    await site.service.act(first.id, Cancel(102))
    assert (await ann.next("table"))["status"] == "cancelled"
    await site.service.open_table(NewTable(GUILD, OTHER_THREAD, 103, "Cy", "cross"))
    lobby = await site.service.open_table(NewTable(GUILD, CHANNEL, 102, "Bob", "milo"))
    await site.service.repost(lobby.id)  # as its lobby is posted in the channel
    await site.service.move_to_channel(lobby.id, SECOND_THREAD)
    shown = await ann.next("table")
    assert shown["id"] == lobby.id, "the other channel's lobby was not shown"
    moved = await ann.next("table")
    assert (moved["id"], moved["version"]) == (lobby.id, lobby.version + 1)
    await ann.send(type="act", table=lobby.id, version=moved["version"], action="join")
    seated = await ann.table_at(moved["version"] + 1)
    assert [seat["name"] for seat in seated["seats"]] == ["Bob", "Ann"]


async def test_an_activity_in_a_channel_whose_tables_play_in_threads_shows_one_of_them(
    site: Site,
) -> None:
    """Opened in a channel whose tables play in its threads, the Activity shows the
    table the member sits at there, else the newest: not one of another channel's
    threads (the newest of all), and no other table of the channel's is reached."""
    own = await site.service.open_table(NewTable(GUILD, THREAD, 101, "Ann", "cross"))
    newest = await site.service.open_table(NewTable(GUILD, SECOND_THREAD, 104, "Dee", "cross"))
    await site.service.open_table(NewTable(GUILD, OTHER_THREAD, 103, "Cy", "cross"))
    ann, bob = await site.open_page(), await site.open_page()
    for page, token in ((ann, "ann-token"), (bob, "bob-token")):
        await page.send(type="activity", token=token, instance="i-1")
    assert (await ann.next("table"))["id"] == own.id, "the table Ann sits at"
    shown = await bob.next("table")
    assert shown["id"] == newest.id, "the newest of the channel's"
    await bob.send(type="act", table=newest.id, version=shown["version"], action="join")
    seated = await bob.table_at(shown["version"] + 1)
    assert [seat["name"] for seat in seated["seats"]] == ["Dee", "Bob"]
    await bob.send(type="act", table=own.id, version=1, action="join")
    assert "not in this channel" in (await bob.next("refused"))["text"]
    assert [seat.name for seat in site.service.snapshot(own.id).seats] == ["Ann"]


class Unreachable:
    """The bot's client to Discord's API when the connection drops: what discord.py
    raises then is aiohttp's, not one of its own ``HTTPException``."""

    class http:
        @staticmethod
        async def request(route: Route) -> Any:
            raise aiohttp.ServerDisconnectedError()


async def confirmed_token(
    self: DiscordActivities, method: str, path: str, **given: Any
) -> dict[str, Any]:
    """Discord's OAuth2 answer for Ann's good token (``GET /oauth2/@me``)."""
    return {
        "application": {"id": self.client_id},
        "scopes": ["identify"],
        "user": {"id": "101", "username": "ann"},
    }


async def test_discord_unreachable_is_a_refusal_and_the_page_stays_connected(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(DiscordActivities, "_call", confirmed_token)
    activities = DiscordActivities(cast(Client, Unreachable()), "555", "secret")
    site = Site(store, activities)
    await site.start()
    try:
        await site.service.open_table(NewTable(GUILD, CHANNEL, 102, "Bob", "cross"))
        ann = await site.open_page()
        await ann.send(type="activity", token="ann-token", instance="i-1")
        assert "did not confirm" in (await ann.next("refused"))["text"]
        await ann.send(type="lang", lang="es-ES")  # the page is still connected
        assert (await ann.next("hello"))["lang"] == "es-ES"
    finally:
        await site.close_pages()
        await site.stop()


def said(refusal: Refusal) -> str:
    """A refusal as an English page is told it."""
    with i18n.speaking(i18n.ENGLISH):
        return refusals.refusal(refusal)


class NoSuchInstance:
    """The bot's client to Discord's API, to which no instance a page names is known
    (a 404): each instance it is asked about is noted, and it answers once ``answering``
    is set."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.answering = asyncio.Event()
        self.answering.set()
        self.http = self

    async def request(self, route: Route) -> Any:
        self.asked.append(route.path)
        await self.answering.wait()

        class NotFound:
            status, reason = 404, "Not Found"

        raise discord_py.NotFound(cast(Any, NotFound()), {"message": "Unknown", "code": 10000})


async def test_sign_ins_naming_made_up_instances_soon_stop_asking_discord(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With their own good token, a member's pages may name any instance, a new one each
    time, and each is asked of Discord on the bot's own token, out of the requests every
    server's posts share. Past a few a minute that Discord did not find them in, from
    any of their pages, they are told to wait without Discord being asked; a minute on,
    they are asked about again."""
    now = [0.0]
    monkeypatch.setattr(DiscordActivities, "_call", confirmed_token)
    client = NoSuchInstance()
    missed = MissesCounted(clock=lambda: now[0])
    site = Site(store, DiscordActivities(cast(Client, client), "555", "secret", missed=missed))
    await site.start()
    try:
        pages = [await site.open_page() for _ in range(3)]
        told = []
        for n in range(60):
            page = pages[n % len(pages)]
            await page.send(type="activity", token="ann-token", instance=f"made-up-{n}")
            told.append((await page.next("refused"))["text"])
        assert len(client.asked) == MISSED_MOST
        assert told[:MISSED_MOST] == [said(NotInActivity())] * MISSED_MOST
        assert set(told[MISSED_MOST:]) == {said(SignInLater())}
        now[0] += MISSED_SECONDS
        await pages[0].send(type="activity", token="ann-token", instance="made-up-again")
        assert (await pages[0].next("refused"))["text"] == said(NotInActivity())
        assert len(client.asked) == MISSED_MOST + 1
    finally:
        await site.close_pages()
        await site.stop()


async def test_sign_ins_sent_all_at_once_are_bounded_before_discord_answers(
    store: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages that name made-up instances all at once do not each get asked of Discord
    while the first asks wait for its answer: an ask not answered yet counts."""
    monkeypatch.setattr(DiscordActivities, "_call", confirmed_token)
    client = NoSuchInstance()
    client.answering.clear()
    site = Site(store, DiscordActivities(cast(Client, client), "555", "secret"))
    await site.start()
    try:
        pages = [await site.open_page() for _ in range(4 * MISSED_MOST)]
        for n, page in enumerate(pages):
            await page.send(type="activity", token="ann-token", instance=f"made-up-{n}")
        answers = [asyncio.ensure_future(page.next("refused")) for page in pages]
        waited = asyncio.as_completed(answers)
        unasked = [(await next(waited))["text"] for _ in range(len(pages) - MISSED_MOST)]
        assert unasked == [said(SignInLater())] * len(unasked)
        client.answering.set()
        asked = [(await next(waited))["text"] for _ in range(MISSED_MOST)]
        assert asked == [said(NotInActivity())] * MISSED_MOST
        assert len(client.asked) == MISSED_MOST
    finally:
        await site.close_pages()
        await site.stop()
