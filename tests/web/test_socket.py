"""The browser face over its socket, as pages use it (no browser: ``tests/browser`` drives
Chromium): who sees which hand, what a forged or malformed message gets, and what a
page finds after the server restarts."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest

from bot.refusals import Malformed
from bot.service import TableService
from tests.web.conftest import SECRET, Page, Site
from web.identity import COOKIE, Guest, Signer
from web.protocol import parse
from web.server import FACE_KEY


async def open_table(page: Page, game: str = "cross", **options: Any) -> dict[str, Any]:
    await page.send(
        type="open", game=game, target=options.get("target"), keep_last_two=None,
        match_games=None, hints=options.get("hints", False),
    )  # fmt: skip
    opened = await page.next("opened")
    table = await page.next("table")
    assert table["id"] == opened["table"]
    return table


async def seated_game(
    site: Site, names: list[str], hints: bool = False
) -> tuple[list[Page], dict[str, Any]]:
    """Pages of ``names`` at one Cross table to 10 points (with ``hints``), started; the
    host's frame."""
    pages = [await site.open_page(name) for name in names]
    table = await open_table(pages[0], target=10, hints=hints)
    for page in pages[1:]:
        await page.send(type="watch", table=table["id"])
        table = await page.next("table")
        await page.send(type="act", table=table["id"], version=table["version"], action="join")
        table = await page.table_at(table["version"] + 1)
    await pages[0].send(type="act", table=table["id"], version=table["version"], action="start")
    return pages, await pages[0].table_at(table["version"] + 1)


def moves_of(frame: dict[str, Any]) -> list[str]:
    """The moves a hand's owner may make now, as the page offers them."""
    moves = [move["move"] for tile in frame["hand"] for move in tile["moves"]]
    return moves + [m for m in (frame["draw_move"], frame["pass_move"]) if m]


async def play_on(pages: list[Page], frame: dict[str, Any], turns: int) -> dict[str, Any]:
    """Play ``turns`` moves (random legal ones) from the pages whose turn it is."""
    by_id = {page.guest_id: page for page in pages}
    picker = random.Random(7)
    for _ in range(turns):
        if frame["status"] != "playing":
            break
        page = by_id[frame["seats"][frame["turn"]]["id"]]
        mine = await page.table_at(frame["version"])
        await page.send(type="act", table=mine["id"], version=mine["version"], action="play",
                        move=picker.choice(moves_of(mine)))  # fmt: skip
        frame = await pages[0].table_at(frame["version"] + 1)
    return frame


async def test_a_hand_goes_to_its_owner_alone_and_spectators_see_none(site: Site) -> None:
    """R-ALL-6: a hand is seen by its owner only, on every one of their pages."""
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"])
    second = await site.open_page(guest=ann)  # Ann's other tab
    watcher = await site.open_page()
    for page in (second, watcher):
        await page.send(type="watch", table=frame["id"])
    frame = await play_on([ann, bob], frame, 30)
    last = frame["version"]
    for page in (ann, bob, second, watcher):
        await page.table_at(last)
        hands = 0
        for sent in page.frames:
            if sent["type"] != "table" or sent["hand"] is None:
                continue
            hands += 1
            assert sent["you"] is not None
            assert sent["seats"][sent["you"]]["id"] == page.guest_id, "another's hand"
        assert (hands > 0) == (page.guest_id is not None), page.guest_id
    assert ann.guest_id != bob.guest_id and second.guest_id == ann.guest_id


async def test_forged_and_malformed_messages_are_refused_and_change_nothing(site: Site) -> None:
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"])
    table_id, version = frame["id"], frame["version"]
    mover, other = (ann, bob) if frame["turn"] == 0 else (bob, ann)
    theirs = await mover.table_at(version)
    their_tile = theirs["hand"][0]["tile"]
    forged: list[str | dict[str, Any]] = [
        "not json",
        "[1, 2]",
        {"type": "fly"},
        {"type": "act", "table": table_id, "version": version},
        {"type": "act", "table": table_id, "version": True, "action": "draw"},
        {"type": "act", "table": table_id, "version": version, "action": "draw", "as": "Ann"},
        {"type": "act", "table": "../../etc", "version": version, "action": "draw"},
        {"type": "act", "table": table_id, "version": version, "action": "play",
         "move": "x" * 5000},
        # another's turn, another's tile, a tile with the right version from the wrong page
        {"type": "act", "table": table_id, "version": version, "action": "play",
         "move": their_tile},
        # an old version (the table has moved on since that page was drawn)
        {"type": "act", "table": table_id, "version": version - 1, "action": "draw"},
    ]  # fmt: skip
    for message in forged:
        raw = message if isinstance(message, str) else json.dumps(message)
        await other.socket.send_str(raw)
        refused = await other.next("refused")
        assert refused["type"] == "refused" and refused["text"], message
    assert site.service.snapshot(table_id).version == version
    # The version refusal is the service's own, worded.
    assert "moved on" in refused["text"]
    await mover.send(type="act", table=table_id, version=version - 1, action="play",
                     move=moves_of(theirs)[0])  # fmt: skip
    assert (await mover.next("refused"))["text"]
    assert site.service.snapshot(table_id).version == version


async def test_a_deeply_nested_message_is_refused_and_the_socket_stays_open(site: Site) -> None:
    """Nesting deeper than Python's JSON reader recurses is malformed like any other
    message: refused with a reason, and the page can go on."""
    page = await site.open_page("Ann")
    await page.socket.send_str("[" * 2000 + "]" * 2000)
    assert (await page.next("refused"))["text"]
    await page.send(type="lobby")
    assert (await page.next("tables"))["tables"] == []


async def test_a_lone_surrogate_is_refused_and_the_socket_stays_open(site: Site) -> None:
    """JSON may escape half of a surrogate pair (``"\\ud800"``), which is no text: a
    refusal that quotes it back (a move, a field's name) could not be sent at all."""
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"])
    mover = ann if frame["turn"] == 0 else bob
    version = frame["version"]
    for message in (
        {"type": "act", "table": frame["id"], "version": version, "action": "play",
         "move": "\ud800"},
        {"type": "lobby", "\ud800": 1},
    ):  # fmt: skip
        await mover.socket.send_str(json.dumps(message))
        assert (await mover.next("refused"))["text"], message
    assert site.service.snapshot(frame["id"]).version == version
    await mover.send(type="watch", table=frame["id"])
    assert (await mover.next("table"))["version"] == version


async def test_a_hint_asked_on_an_old_version_is_refused_as_a_click_is(site: Site) -> None:
    """A hint answers the table the page was drawn for, or is refused as Discord's Hint
    button is: advice for a position the page does not show would mislead."""
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"], hints=True)
    mover = (ann, bob)[frame["turn"]]
    version = frame["version"]
    for stale in (version - 1, version + 1):
        await mover.send(type="act", table=frame["id"], version=stale, action="hint")
        assert "moved on" in (await mover.next("refused"))["text"]
    await mover.send(type="act", table=frame["id"], version=version, action="hint")
    assert (await mover.next("hint"))["text"]


async def test_a_forged_cookie_is_a_spectator_and_another_site_gets_no_socket(
    site: Site,
) -> None:
    (ann, _), frame = await seated_game(site, ["Ann", "Bob"])
    ann_id = int(ann.guest_id or 0)
    forger = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    try:
        cookie = Signer(b"another secret").sign(Guest(ann_id, "Ann"))
        forger.cookie_jar.update_cookies({COOKIE: cookie}, site.client.make_url("/"))
        socket = await forger.ws_connect(site.client.make_url("/ws"),
                                         headers={"Origin": site.origin})  # fmt: skip
        page = Page(forger, socket, None)
        assert (await page.next("hello"))["you"] is None
        await page.send(type="watch", table=frame["id"])
        watched = await page.next("table")
        assert watched["hand"] is None and watched["you"] is None
        await page.send(type="act", table=frame["id"], version=frame["version"], action="draw")
        assert (await page.next("refused"))["text"]
        await socket.close()
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await forger.ws_connect(site.client.make_url("/ws"),
                                    headers={"Origin": "https://evil.example"})  # fmt: skip
        assert refused.value.status == 403
    finally:
        await forger.close()
    assert Signer(SECRET).read(cookie) is None


async def test_a_cookie_that_is_not_ascii_is_no_guest_at_all(site: Site) -> None:
    """A signed cookie is ASCII (base64 and hex): one that is not reads as no guest, so
    the page is a spectator and may take a name (a new cookie) as any other."""
    headers = {"Origin": site.origin, "Cookie": f"{COOKIE}=abc.\u00e9t\u00e9"}
    assert Signer(SECRET).read("abc.\u00e9t\u00e9") is None
    async with aiohttp.ClientSession() as session:
        boards = await session.get(site.client.make_url("/api/boards"), headers=headers)
        assert boards.status == 200 and "stats" not in await boards.json()
        named = await session.post(site.client.make_url("/api/guest"), json={"name": "Ann"},
                                   headers=headers)  # fmt: skip
        assert named.status == 200 and COOKIE in named.cookies
        socket = await session.ws_connect(site.client.make_url("/ws"), headers=headers)
        page = Page(session, socket, None)
        assert (await page.next("hello"))["you"] is None
        await socket.close()


async def test_after_a_restart_every_page_comes_back_to_the_stored_table(site: Site) -> None:
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"])
    frame = await play_on([ann, bob], frame, 6)
    before = {page.guest_id: await page.table_at(frame["version"]) for page in (ann, bob)}
    await site.restart()
    for old in (ann, bob):
        page = await site.open_page(guest=old)
        await page.send(type="watch", table=frame["id"])
        after = await page.next("table")
        assert after["version"] == frame["version"]
        assert after["hand"] == before[old.guest_id]["hand"]
        assert after["layout"] == before[old.guest_id]["layout"]


async def test_after_a_restart_a_table_that_ended_before_it_shows_its_end(site: Site) -> None:
    """A game that finished just before a stop: a page that comes back to it is shown
    how it ended, with its scores, every hand and Rematch, as before the stop, not told
    that the table is closed."""
    ann = await site.open_page("Ann")
    ended = await against_the_computer_to_the_end(ann, seed=3)
    await site.restart()
    page = await site.open_page(guest=ann)
    await page.send(type="watch", table=ended["id"])
    shown = await page.next("table")
    assert (shown["status"], shown["version"]) == ("finished", ended["version"])
    for part in ("game_id", "scores", "ended", "layout"):
        assert shown[part] == ended[part], part
    assert shown["can"]["rematch"]


async def test_a_mistyped_table_address_is_a_table_not_there(site: Site) -> None:
    """The page asks to watch whatever its address names (``/t/<table>``): a link a
    character short, or typed in capitals, names no table, and is answered as one that
    is closed (open another from the list), not as a request the page garbled (reload:
    which would only ask again)."""
    ann = await site.open_page("Ann")
    table = await open_table(ann)
    for typed in (table["id"][:-1], table["id"].upper(), "nothing-here", "../../etc"):
        page = await site.open_page()
        await page.send(type="watch", table=typed)
        refused = await page.next("refused")
        assert refused["text"].startswith("That table is closed"), (typed, refused)


async def test_a_page_that_comes_before_the_tables_are_back_waits_for_them(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server takes connections before the stored tables are resumed (so that a port
    in use is said at once): a page that comes in between is greeted once they are back,
    and finds its table, not "closed" (which it would have shown for good)."""
    (ann, _), frame = await seated_game(site, ["Ann", "Bob"])
    await site.close_pages()
    await site.stop()
    resuming, back = asyncio.Event(), asyncio.Event()
    resume = TableService.resume

    async def held(self: TableService, owns: Callable[[int], bool] = lambda _: True) -> int:
        resuming.set()
        await back.wait()
        return await resume(self, owns)

    monkeypatch.setattr(TableService, "resume", held)
    starting = asyncio.create_task(site.start())
    await resuming.wait()  # the server listens; the tables are not back yet
    session = aiohttp.ClientSession(cookie_jar=ann.session.cookie_jar)
    socket = await session.ws_connect(site.client.make_url("/ws"), headers={"Origin": site.origin})
    page = Page(session, socket, ann.guest_id)
    site.pages.append(page)
    await page.send(type="watch", table=frame["id"])
    back.set()
    await starting
    assert (await page.next())["type"] == "hello"
    shown = await page.next()
    assert shown["type"] == "table", shown
    assert (shown["id"], shown["version"]) == (frame["id"], frame["version"])
    assert shown["hand"] is not None


async def test_the_page_speaks_the_browsers_language_and_switches(site: Site) -> None:
    page = await site.open_page("Ana", language="es-ES,es;q=0.9,en;q=0.5")
    hello = page.frames[0]
    assert hello["lang"] == "es-ES"
    await page.send(type="open", game="nada", target=None, keep_last_two=None,
                    match_games=None, hints=False)  # fmt: skip
    spanish = (await page.next("refused"))["text"]
    await page.send(type="lang", lang="pt-BR")
    assert (await page.next("hello"))["lang"] == "pt-BR"
    await page.send(type="open", game="nada", target=None, keep_last_two=None,
                    match_games=None, hints=False)  # fmt: skip
    portuguese = (await page.next("refused"))["text"]
    assert spanish.startswith("Ese juego no existe") and portuguese.startswith("Esse jogo")


@pytest.mark.parametrize(
    "name",
    ["", "   ", "x" * 33, "Ann\u0000", "Bob\u202e", 7, "\u3164", "\u2800 \u2800", "\u0301\u0302"],
)
async def test_a_name_out_of_bounds_is_refused_with_a_reason(site: Site, name: object) -> None:
    """Too long, a control character (which could forge a line of the table), or nothing
    the other players would see (a Hangul filler, a blank Braille cell, marks alone)."""
    async with aiohttp.ClientSession() as session:
        answer = await session.post(site.client.make_url("/api/guest"), json={"name": name},
                                    headers={"Origin": site.origin})  # fmt: skip
        assert answer.status == 400
        assert "32" in (await answer.json())["refused"]
        assert COOKIE not in answer.cookies


@pytest.mark.parametrize("name", ["Computer 1 (easy)", "computer 2 (EXPERT)", "Máquina 1 (fácil)"])
async def test_a_guest_may_not_take_a_computer_seats_name(site: Site, name: str) -> None:
    """In any language the bot speaks, or the other players could not tell a member
    from a computer; a name merely like one is a name."""
    async with aiohttp.ClientSession() as session:
        url, origin = site.client.make_url("/api/guest"), {"Origin": site.origin}
        answer = await session.post(url, json={"name": name}, headers=origin)
        assert answer.status == 400 and COOKIE not in answer.cookies
        refused = (await answer.json())["refused"]
        assert refused == "That is how the computer players are named: choose another name."
        liked = await session.post(url, json={"name": "Computer Joe"}, headers=origin)
        assert liked.status == 200


async def test_a_new_name_keeps_the_guest(site: Site) -> None:
    ann = await site.open_page("Ann")
    renamed = await site.open_page("Anne", guest=ann)
    assert renamed.guest_id == ann.guest_id
    assert renamed.frames[0]["you"] == {"id": ann.guest_id, "name": "Anne"}


async def against_the_computer_to_the_end(
    page: Page, seed: int, hints: bool = False
) -> dict[str, Any]:
    """The page's guest opens a Cross table to 10 points (with ``hints``), seats an easy
    computer, starts, and plays it to the game's end (random legal moves, seeded): the
    last frame."""
    frame = await open_table(page, target=10, hints=hints)
    await page.send(type="act", table=frame["id"], version=frame["version"], action="computer",
                    level="easy")  # fmt: skip
    frame = await page.table_at(frame["version"] + 1)
    await page.send(type="act", table=frame["id"], version=frame["version"], action="start")
    picker = random.Random(seed)
    while frame["status"] != "finished":
        frame = await page.table_at(frame["version"] + 1)
        if frame["status"] == "playing" and frame["turn"] == frame["you"]:
            await page.send(type="act", table=frame["id"], version=frame["version"],
                            action="play", move=picker.choice(moves_of(frame)))  # fmt: skip
    return frame


async def test_a_game_with_hints_ends_saying_it_is_not_rated(site: Site) -> None:
    """A game with hints counts toward no stats or ratings (README, "hints"): its end
    says so, and sends nobody to leaderboards it is not on; a rated game's end still
    says its stats and ratings are saved."""
    ann = await site.open_page("Ann")
    hinted = await against_the_computer_to_the_end(ann, seed=3, hints=True)
    assert "not rated" in hinted["card"]["footer"], hinted["card"]
    assert "saved" not in hinted["card"]["footer"], hinted["card"]
    rated = await against_the_computer_to_the_end(ann, seed=3)
    assert "stats and ratings are saved" in rated["card"]["footer"], rated["card"]


async def test_a_whole_game_against_a_computer_ends_with_every_hand_shown(site: Site) -> None:
    """R-CR-7: the game ends at the target; R-ALL-7: every hand is shown at a round's
    end. And the page is never pointed to a slash command it does not have."""
    ann = await site.open_page("Ann")
    frame = await against_the_computer_to_the_end(ann, seed=3)
    assert frame["game_id"] and frame["can"]["rematch"]
    assert [hand["name"] for hand in frame["ended"]["hands"]] == ["Ann", "Computer 1 (easy)"]
    assert max(side["score"] for side in frame["scores"]) >= 10
    said = json.dumps([f for f in ann.frames if f["type"] == "table"], ensure_ascii=False)
    assert "/domino" not in said
    await ann.send(type="act", table=frame["id"], version=frame["version"], action="rematch")
    again = await ann.next("table")
    assert again["status"] == "lobby" and again["id"] != frame["id"]
    assert [seat["name"] for seat in again["seats"]] == ["Ann", "Computer 1 (easy)"]


async def test_the_lobby_lists_new_tables_and_a_page_that_moves_on_stops_following_it(
    site: Site,
) -> None:
    ann, bob = await site.open_page("Ann"), await site.open_page("Bob")
    await ann.send(type="lobby")
    assert (await ann.next("tables"))["tables"] == []
    opened = await open_table(bob, "milo")
    listed = await ann.next("tables")
    assert [(t["id"], t["seats"]) for t in listed["tables"]] == [(opened["id"], ["Bob"])]
    await ann.send(type="watch", table=opened["id"])
    await ann.next("table")
    face = site.client.app[FACE_KEY]
    assert [reader.lobby for reader in face.readers] == [False, False]


def test_a_message_is_measured_in_bytes_not_characters() -> None:
    """:data:`web.protocol.MOST_BYTES` is what the page may send, however it is
    written: 2,100 two-byte letters are over it, refused whole before any field is
    read (an unknown field would be named)."""
    letters = "é" * 2100
    with pytest.raises(Malformed) as refused:
        parse(json.dumps({"type": "lobby", "x": letters}, ensure_ascii=False))
    assert refused.value.field == ""
    with pytest.raises(Malformed) as named:
        parse(json.dumps({"type": "lobby", "x": letters[:2000]}, ensure_ascii=False))
    assert named.value.field == "x"


async def test_a_refusal_names_the_seats_of_the_table_the_message_is_about(site: Site) -> None:
    """A page acts at a table other than the one it shows (a second tab, an old link):
    the refusal names that table's players, not the shown table's (it said "It is Cy's
    turn" of a table Cy does not sit at)."""
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"])
    waiting, mover = (bob, "Ann") if frame["turn"] == 0 else (ann, "Bob")
    cy = await site.open_page("Cy")
    elsewhere = await open_table(cy)
    await waiting.send(type="watch", table=elsewhere["id"])
    await waiting.next("table")
    await waiting.send(type="act", table=frame["id"], version=frame["version"], action="draw")
    assert (await waiting.next("refused"))["text"] == f"It is {mover}'s turn, not yours."
    assert site.service.snapshot(frame["id"]).version == frame["version"]


async def test_a_rematch_asked_of_a_game_still_playing_is_refused_as_not_ended(
    site: Site,
) -> None:
    """The page offers "Play again" at a game's end only; asked before (forged), it is
    refused in those words, where it said there was no such game, and nothing opens."""
    (ann, _), frame = await seated_game(site, ["Ann", "Bob"])
    await ann.send(type="act", table=frame["id"], version=frame["version"], action="rematch")
    refused = await ann.next("refused")
    assert refused["text"] == "That game has not ended yet: it can be played again once it has."
    assert site.service.snapshot(frame["id"]).version == frame["version"]
    assert list(site.service.tables) == [frame["id"]], "no second table"


async def test_two_members_asking_a_rematch_at_once_both_sit_at_it(site: Site) -> None:
    """The second ask comes once the first has opened the rematch: it seats its member
    there too (the service's rule for a second ask), where the face, which had let go of
    the finished table as the rematch opened, told them that table was closed."""
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"])
    while frame["status"] == "playing":  # rounds to the game's end (10 points)
        frame = await play_on([ann, bob], frame, turns=500)
    assert frame["status"] == "finished" and frame["can"]["rematch"]
    ended = await bob.table_at(frame["version"])
    await ann.send(type="act", table=frame["id"], version=frame["version"], action="rematch")
    lobby = await ann.next("table")
    assert lobby["status"] == "lobby" and lobby["id"] != frame["id"]
    await bob.send(type="act", table=ended["id"], version=ended["version"], action="rematch")
    seated = await bob.next()
    while seated["type"] != "refused" and not (
        seated["type"] == "table" and seated["version"] > lobby["version"]
    ):
        seated = await bob.next()
    assert seated["type"] == "table", seated
    assert seated["id"] == lobby["id"], "the same rematch, not a second"
    assert [seat["name"] for seat in seated["seats"]] == ["Ann", "Bob"]
    await bob.send(type="act", table=seated["id"], version=seated["version"], action="leave")
    for page in (ann, bob):
        await page.table_at(seated["version"] + 1)  # sent after all that the ask sent
        shown = [f for f in page.frames if f.get("id") == seated["id"] == lobby["id"]
                 and f["version"] == seated["version"]]  # fmt: skip
        assert len(shown) == 1, "Bob taking his seat is shown once on each page"


async def test_a_member_whose_time_runs_low_is_warned_on_every_page(site: Site) -> None:
    """With a quarter of their time left the member to move is reminded, as the channel
    reminds them: every page gets the table as it was, with that one line, which the
    page says aloud (a screen reader's user does not watch the clock count down)."""
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"])
    mover = frame["seats"][frame["turn"]]["name"]
    await bob.table_at(frame["version"])
    site.service.clockwork.remind(frame["id"])  # as the turn's timer does, a quarter left
    for page in (ann, bob):
        warned = await page.next("table")
        assert warned["version"] == frame["version"], "a reminder changes nothing"
        assert warned["lines"] == [
            f"{mover}, your turn runs out <t:{int(frame['deadline'])}>."
            " More time gives a whole turn more."
        ]


async def test_the_member_to_move_takes_more_time_and_every_page_is_told(site: Site) -> None:
    """More time is offered to the member to move alone; pressed, their clock gets a
    whole turn more, and every page is told so; asked by the other member (forged), it
    is refused and changes nothing."""
    (ann, bob), frame = await seated_game(site, ["Ann", "Bob"])
    mover, waiting = (ann, bob) if frame["turn"] == 0 else (bob, ann)
    name = frame["seats"][frame["turn"]]["name"]
    mine, theirs = await mover.table_at(frame["version"]), await waiting.table_at(frame["version"])
    assert mine["can"]["more_time"] and not theirs["can"]["more_time"]
    await waiting.send(type="act", table=frame["id"], version=frame["version"], action="more_time")
    assert (await waiting.next("refused"))["text"] == f"It is {name}'s turn, not yours."
    await mover.send(type="act", table=frame["id"], version=frame["version"], action="more_time")
    for page in (ann, bob):
        longer = await page.table_at(frame["version"] + 1)
        assert longer["lines"] == [
            f"{name} takes more time: a whole turn more (9 more allowed this game)."
        ]
        assert longer["deadline"] > frame["deadline"] and longer["turn"] == frame["turn"]


async def test_a_hint_asked_at_a_closed_table_is_refused_as_closed(site: Site) -> None:
    """The page offers no Hint at a table that has ended; asked all the same (forged),
    for the version it ended at, it is refused for what is wrong, that the table is
    closed: not advice for a game no longer played, nor "it is X's turn"."""
    (ann, bob), table = await seated_game(site, ["Ann", "Bob"], hints=True)
    await ann.send(type="act", table=table["id"], version=table["version"], action="cancel")
    for page in (ann, bob):
        closed = await page.table_at(table["version"] + 1)
        assert closed["status"] == "cancelled"
        await page.send(type="act", table=closed["id"], version=closed["version"], action="hint")
        refused = await page.next("refused")
        assert refused["text"] == "That table is closed: open a new one from the list of tables."


async def test_a_rounds_end_is_sent_again_in_the_language_the_page_changes_to(
    site: Site,
) -> None:
    """The page keeps a round's end on screen while the next round plays: changed to
    Spanish, it is sent that end again, in Spanish, marked as sent again (the page does
    not show it anew once its reader closed it)."""
    ann = await site.open_page("Ann")
    frame = await open_table(ann, target=100)
    await ann.send(type="act", table=frame["id"], version=frame["version"], action="computer",
                   level="easy")  # fmt: skip
    frame = await ann.table_at(frame["version"] + 1)
    await ann.send(type="act", table=frame["id"], version=frame["version"], action="start")
    picker = random.Random(1)
    while frame["ended"] is None:
        frame = await ann.table_at(frame["version"] + 1)
        if frame["ended"] is None and frame["turn"] == frame["you"]:
            await ann.send(type="act", table=frame["id"], version=frame["version"],
                           action="play", move=picker.choice(moves_of(frame)))  # fmt: skip
    assert frame["status"] == "playing" and "again" not in frame["ended"]
    await ann.send(type="lang", lang="es-ES")
    await ann.next("hello")
    again = await ann.next("table")
    assert again["ended"]["again"] is True
    assert again["ended"]["title"] != frame["ended"]["title"], "worded anew, in Spanish"
    assert [h["tiles"] for h in again["ended"]["hands"]] == [
        h["tiles"] for h in frame["ended"]["hands"]
    ]
