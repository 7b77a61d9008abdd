"""The channel's table as a Discord Activity, end to end (issue 33): the real bot against
the fake Discord, members who press "Open the table" on the lobby message (the bot
answers ``LAUNCH_ACTIVITY``), one who plays in the Activity (Chromium, inside Discord's
frame) and one with the chat's buttons, a whole game; and the pages the bot must refuse."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.commands import Join, Play, Start
from bot.refusals import NoTableHere, NotConfirmed, NotInActivity, Refusal
from bot.service import TableService
from tests.activity.conftest import Activities, World
from tests.browser.harness import Frame, Person, act, play_turn
from tests.e2e.driver import ENGLISH, Driver, open_lobby, service_of, table_messages
from tests.fakediscord.server import Message
from tests.fakediscord.users import Member
from web.server import FACE_KEY
from words import i18n, refusals

GAME, TARGET = "cross", 10
"""A short game: the smallest target of the Cross."""
STYLES = ("click", "drag", "keys")
"""How the Activity's member plays their turns, in turn (``tests.browser.harness``)."""


def posted_version(message: Message) -> int | None:
    """The table version a channel message was posted for (its buttons may be gone since):
    the version in its buttons' ids as first sent."""
    buttons = [c for row in message.posted_with for c in row.get("components", [])]
    return int(buttons[0]["custom_id"].split(":")[2]) if buttons else None


def said(refusal: Refusal) -> str:
    """A refusal as an English page is told it."""
    with i18n.speaking(i18n.ENGLISH):
        return refusals.refusal(refusal)


async def launch(world: World, member: Member, lobby_id: int) -> str:
    """``member`` presses "Open the table" on the lobby: the instance the bot's answer
    opened for them in the channel."""
    lobby = world.fake.messages[lobby_id]
    sent = await member.click(lobby, ENGLISH.label("activity"))
    return await sent.launched()


def lobby_with_activity(world: World, host: Member, *others: Member) -> tuple[int, str]:
    """``host`` opens a table in the first channel; they and ``others`` launch the
    Activity from its lobby message (one instance, the channel's). The lobby message's
    id and the instance's."""
    channel = world.server.channels[0]
    lobby = world.run(open_lobby(world.fake, host, channel, game=GAME, target=TARGET))
    instance = world.run(launch(world, host, lobby.id))
    for member in others:
        assert world.run(launch(world, member, lobby.id)) == instance, "one instance a channel"
    users = world.call(lambda: list(world.fake.activities.instances[instance].users))
    assert users == [host.id, *(m.id for m in others)]
    return lobby.id, instance


def shown_table(person: Person) -> Frame:
    """The first table the Activity's page was sent, once it is shown."""
    first = person.wait_frame(lambda frame: frame.get("type") == "table")
    person.shown(first["version"])
    return first


@dataclass(frozen=True)
class Turn:
    """A member to move: who, at which version, and whether they have drawn already and
    must still play (a turn's middle, which the channel is shown with the turn's end)."""

    member: int | None
    version: int
    middle: bool


async def next_turn(driver: Driver, in_activity: int) -> Turn | None:
    """Once both faces can be played from: the channel shows the table as it is, or the
    Activity's member is in the middle of their turn (their page shows it; the channel
    waits for the turn's end). None when the game is over."""

    def ready() -> bool:
        table = driver.service.find(driver.table_id)
        return driver.settled() or (
            table is not None
            and table.turn_goes_on
            and table.seats[table.turn or 0].user_id == in_activity
        )

    await driver.fake.wait_for(ready, 15)
    table = driver.service.find(driver.table_id)
    if driver.finished() or table is None:
        return None
    assert table.turn is not None
    return Turn(table.seats[table.turn].user_id, table.version, table.turn_goes_on)


def state(world: World, lobby_id: int) -> dict[str, Any]:
    """What a refused page must not change: the channel's table and messages."""

    def read() -> dict[str, Any]:
        channel = world.fake.messages[lobby_id].channel_id
        table = service_of(world.bot).in_channel(channel)
        assert table is not None
        messages = world.fake.public(channel)
        return {
            "version": table.version,
            "seats": [seat.user_id for seat in table.seats],
            "messages": [(m.id, m.text(), m.buttons()) for m in messages],
        }

    return world.call(read)


def test_a_whole_game_in_the_activity_and_the_channel(world: World, activities: Activities) -> None:
    # Both have a nickname in the server: whichever face a member joins from, they sit
    # under it, and each move is told under the same name in both faces (below).
    ann, bob = world.member("Ann", nick="Annie"), world.member("Bob", nick="Bobby")
    lobby_id, instance = lobby_with_activity(world, bob, ann)
    channel = world.server.channels[0]
    ann_in = activities.open(ann, instance)
    page = ann_in.person
    lobby = shown_table(page)
    assert lobby["status"] == "lobby" and lobby["you"] is None, lobby
    assert ann_in.commands()[:2] == ["AUTHORIZE", "AUTHENTICATE"]
    hello = page.wait_frame(lambda frame: frame.get("type") == "hello" and bool(frame["you"]))
    assert hello["you"] == {"id": str(ann.id), "name": "Annie"}

    seated = act(page, "button[data-action=join]")
    assert seated["seats"][seated["you"]]["id"] == str(ann.id)
    assert [seat["name"] for seat in seated["seats"]] == ["Bobby", "Annie"]
    world.run(world.fake.wait_for(lambda: "Annie" in world.fake.messages[lobby_id].text()))
    world.run(bob.click(world.fake.messages[lobby_id], ENGLISH.label("start")))
    world.run(world.fake.wait_for(lambda: table_messages(world.fake, channel)))
    service = service_of(world.bot)
    driver = world.call(lambda: Driver(world.fake, service, channel, {bob.id: bob}))

    turns: list[Turn] = []
    while (turn := world.run(next_turn(driver, ann.id))) is not None:
        turns.append(turn)
        if turn.member == bob.id:
            world.run(driver.play_one())  # the whole turn, by buttons or a slash command
        else:
            assert turn.member == ann.id
            play_turn(page, page.shown(turn.version), STYLES[len(turns) % len(STYLES)])
    assert {t.member for t in turns} == {ann.id, bob.id}

    end = page.wait_frame(lambda f: f.get("type") == "table" and f["status"] == "finished")
    page.shown(end["version"])
    messages = table_messages(world.fake, channel)
    posted = [v for v in map(posted_version, messages) if v is not None]
    assert len(posted) == len(set(posted)), f"a version posted twice in the channel: {posted}"
    whole = {t.version for t in turns if not t.middle} | {end["version"]}
    assert whole <= set(posted), f"a turn never shown in the channel: {whole - set(posted)}"
    versions = [f["version"] for f in page.tables()]
    every = list(range(versions[0], versions[-1] + 1))
    assert versions == every, f"the page was not shown every version once, in order: {versions}"
    told = {f["version"]: f["lines"] for f in page.tables()}
    for message in messages:  # the same move, by the same member, told in both faces
        version = posted_version(message)
        if version is not None:
            assert told[version], f"the page was told nothing of version {version}"
            actor = told[version][0].split()[0]
            assert message.content.split()[0] == actor, (message.content, told[version])
    assert end["ended"] is not None and end["game_id"], end["status"]
    assert any(f["hand"] for f in page.tables()), "the page was never sent its hand"


def test_an_outsider_and_forged_tokens_are_refused(world: World, activities: Activities) -> None:
    ann, bob, cat = world.member("Ann"), world.member("Bob"), world.member("Cat")
    lobby_id, instance = lobby_with_activity(world, bob, ann)
    ann_in = activities.open(ann, instance)
    page = ann_in.person
    table = shown_table(page)
    token = ann_in.token()
    act(page, "button[data-action=join]")
    world.run(world.fake.wait_for(lambda: "Ann" in world.fake.messages[lobby_id].text()))
    before = state(world, lobby_id)

    # Cat was never in the Activity: Discord's client would not show it her, but a frame
    # standing for her in that instance gets her a good token all the same.
    cat_in = activities.open(cat, instance)
    refused = cat_in.person.wait_frame(lambda f: f.get("type") == "refused")
    assert refused["text"] == said(NotInActivity())
    cat_in.person.page.wait_for_function(
        "text => document.body.innerText.includes(text)", arg=refused["text"]
    )
    assert cat_in.commands()[:2] == ["AUTHORIZE", "AUTHENTICATE"], "her token was good"
    sent = len(cat_in.person.frames)
    join = {"type": "act", "table": table["id"], "version": before["version"], "action": "join"}
    cat_in.person.send(join)
    cat_in.person.wait_frame(lambda f: f.get("text") == said(NotInActivity()), since=sent)

    # Tokens Discord never gave this application for Ann: made up, or another app's.
    forged = page.forge({"type": "activity", "token": "made-up-token", "instance": instance})
    assert forged == {"type": "refused", "text": said(NotConfirmed())}
    other, secret = world.call(world.fake.activities.add_application)
    code = world.call(lambda: world.fake.activities.authorize(ann.id, other))
    form = {"grant_type": "authorization_code", "client_id": str(other), "code": code}
    status, granted = world.call(
        lambda: world.fake.activities.exchange({**form, "client_secret": secret}, None)
    )
    assert status == 200
    forged = page.forge(
        {"type": "activity", "token": granted["access_token"], "instance": instance}
    )
    assert forged == {"type": "refused", "text": said(NotConfirmed())}
    # Ann's own token, in an instance that is not running.
    made_up = instance.replace(instance.split("-")[1], "1", 1)
    forged = page.forge({"type": "activity", "token": token, "instance": made_up})
    assert forged == {"type": "refused", "text": said(NotInActivity())}
    # Ann's own token, once it has expired.
    world.call(lambda: world.fake.activities.expire(token))
    forged = page.forge({"type": "activity", "token": token, "instance": instance})
    assert forged == {"type": "refused", "text": said(NotConfirmed())}

    assert state(world, lobby_id) == before, "a refused page changed the table"
    assert not cat_in.person.tables(), "an outsider was shown the table"


def test_a_table_opened_in_the_channel_is_shown_in_the_activity_open_there(
    world: World, activities: Activities
) -> None:
    ann, bob = world.member("Ann"), world.member("Bob")
    channel = world.server.channels[0]
    fake = world.fake
    # Ann opens the Activity from the App Launcher before the channel has a table.
    instance = world.call(
        lambda: fake.activities.launch(fake.application_id, channel, world.server.guild_id, ann.id)
    )
    page = activities.open(ann, instance).person
    assert page.wait_frame(lambda f: f.get("type") == "refused")["text"] == said(NoTableHere())

    world.run(open_lobby(fake, bob, channel, game=GAME, target=TARGET))  # /domino new in chat
    lobby = page.wait_frame(lambda f: f.get("type") == "table")
    assert lobby["status"] == "lobby" and lobby["can"]["join"], lobby
    seated = act(page, "button[data-action=join]")
    assert seated["seats"][seated["you"]]["id"] == str(ann.id)


def test_with_threads_on_the_channels_activity_shows_the_table_in_its_thread(
    world: World, activities: Activities
) -> None:
    """With threads on, the lobby posted in the channel starts the thread the table
    plays in: an Activity open in the channel goes on showing it there, and one opened
    after the move finds it (it found no table in the channel)."""
    boss = world.call(lambda: world.server.member("Boss", manager=True))
    ann, bob = world.member("Ann"), world.member("Bob")
    channel = world.server.channels[0]
    fake = world.fake
    world.run(boss.slash("domino settings", channel, threads=True))
    guild, app = world.server.guild_id, fake.application_id
    instance = world.call(lambda: fake.activities.launch(app, channel, guild, ann.id))
    early = activities.open(ann, instance).person
    assert early.wait_frame(lambda f: f.get("type") == "refused")["text"] == said(NoTableHere())

    lobby = world.run(open_lobby(fake, boss, channel, game=GAME, target=TARGET))
    world.run(fake.wait_for(lambda: any(c.get("parent_id") for c in fake.channels.values())))
    seated = act(early, "button[data-action=join]")  # on the lobby as moved to its thread
    assert seated["seats"][seated["you"]]["id"] == str(ann.id)
    table = world.call(lambda: service_of(world.bot).find(seated["id"]))
    assert table is not None and table.channel_id == lobby.id, "the table plays in its thread"

    joined = world.call(lambda: fake.activities.launch(app, channel, guild, bob.id))
    assert joined == instance, "one instance a channel"
    late = activities.open(bob, instance).person
    shown = shown_table(late)
    assert shown["id"] == seated["id"] and shown["can"]["join"]


def test_inside_discord_the_table_offers_no_link_to_copy(
    world: World, activities: Activities
) -> None:
    """The Activity's address opens nothing outside Discord (the channel shares its
    table there), so the page offers no link to copy, as the browser's table does."""
    ann = world.member("Ann")
    _, instance = lobby_with_activity(world, ann)
    person = activities.open(ann, instance).person
    shown_table(person)
    person.page.locator("aside.side").wait_for()
    assert person.page.locator("button[data-action=copy]").count() == 0


async def play_out(service: TableService, table_id: str, guest: Member, host: Member) -> None:
    """``guest`` sits at ``host``'s lobby, which ``host`` starts, and the game is played
    to its end, by random legal moves, through the table service."""
    await service.act(table_id, Join(guest.id, guest.name))
    await service.act(table_id, Start(host.id))
    picker = random.Random(5)
    while (table := service.find(table_id)) is not None:
        user = table.seats[table.turn or 0].user_id or 0
        await service.act(table_id, Play(user, picker.choice(table.legal_for(user))))


def test_inside_discord_a_finished_game_names_the_chats_replay_command_not_a_link(
    world: World, activities: Activities
) -> None:
    """The replay page reads the browser's own games only (a server's game id is no
    secret, and the Activity's page is signed in on its socket alone): inside Discord,
    a finished table offers no Replay link that could only say there is no such game,
    and says how to watch it again in the chat."""
    ann, bob = world.member("Ann"), world.member("Bob")
    _, instance = lobby_with_activity(world, bob, ann)
    person = activities.open(ann, instance).person
    lobby = shown_table(person)
    service = world.call(lambda: service_of(world.bot))
    world.run(play_out(service, lobby["id"], ann, bob))
    end = person.wait_frame(lambda f: f.get("type") == "table" and f["status"] == "finished")
    person.shown(end["version"])
    ended = person.page.locator("#ended")
    assert ended.locator("a[href^='/replay/']").count() == 0
    assert f"/domino replay game:{end['game_id']}" in ended.inner_text()


def test_a_page_whose_sign_in_is_refused_after_a_reconnect_shows_why_not_the_old_table(
    world: World, activities: Activities
) -> None:
    """The connection drops and comes back, and Discord no longer confirms the member
    (their token expired meanwhile): the page follows the table no more, so it says why
    in the table's place instead of going on showing a table that no longer moves."""
    ann, bob = world.member("Ann"), world.member("Bob")
    _, instance = lobby_with_activity(world, bob, ann)
    ann_in = activities.open(ann, instance)
    page = ann_in.person
    shown_table(page)
    token = ann_in.token()
    world.call(lambda: world.fake.activities.expire(token))
    sent = len(page.frames)

    async def drop_sockets() -> None:
        assert world.bot.web is not None
        for reader in list(world.bot.web.app[FACE_KEY].readers):
            await reader.socket.close()

    world.run(drop_sockets())
    refused = page.wait_frame(lambda f: f.get("type") == "refused", since=sent)
    assert refused["text"] == said(NotConfirmed())
    page.page.wait_for_function(
        "text => document.querySelector('main').innerText.includes(text)", arg=refused["text"]
    )
    assert page.page.locator("main button[data-action]").count() == 0, "no old table's buttons"
