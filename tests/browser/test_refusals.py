"""What the page cannot do, and what a forged message cannot do either: each is refused
in the service's words, and the table does not move (the next move made is the very next
version). Forged messages go over the page's own socket (its answer shown in the page's
notice) or over a new socket the page opens (its cookie, its origin)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from bot.engine.errors import NotInHand
from bot.engine.tiles import Tile
from bot.refusals import GuestOnly, Malformed, MoveRefused, NotYourTurn, Refusal, StaleVersion
from tests.browser.harness import (
    BotProcess,
    Frame,
    People,
    Person,
    play_turn,
    seat_everyone,
)
from tests.browser.skipping import chromium
from web.identity import COOKIE, Guest, Signer
from web.marks import WebMarks
from words import i18n, marks
from words.refusals import refusal

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def worded(error: Refusal, frame: Frame) -> str:
    """What the server says for ``error`` at the table of ``frame``, in English, with the
    browser's marks (whichever face's marks this process has installed)."""
    names = [seat["name"] for seat in frame["seats"]]
    with i18n.speaking(i18n.ENGLISH), marks.using(WebMarks({}, lambda channel: None)):
        return refusal(error, names)


def notice(person: Person, error: Refusal, frame: Frame) -> None:
    """The page shows the refusal in its notice, as an alert, its marks rendered (a
    mark is an element there, not characters: plain marks read the same)."""
    names = [seat["name"] for seat in frame["seats"]]
    with i18n.speaking(i18n.ENGLISH), marks.using(marks.PLAIN):
        text = refusal(error, names)
    person.page.locator("#notice[role=alert]").filter(has_text=text).wait_for()


def cross_for_two(people: People) -> tuple[Person, Person]:
    """Ann and Bob at a Cross table, started."""
    ann, bob = seat_everyone(people, "cross", ["Ann", "Bob"])
    return ann, bob


def to_play(players: tuple[Person, Person], version: int = 0) -> tuple[Person, Person, Frame]:
    """The one whose turn it is, the other, and the frame the mover's page shows."""
    frame = players[0].shown(version)
    first_plays = frame["seats"][frame["turn"]]["id"] == players[0].guest_id
    mover, waiter = players if first_plays else players[::-1]
    return mover, waiter, mover.shown(frame["version"])


@contextmanager
def nothing_moves(mover: Person, *others: Person) -> Iterator[None]:
    """The block changes the table in nobody's page, and the mover's next move, made
    afterwards, takes the very next version (no version was used up by a refusal)."""
    version = mover.shown()["version"]
    counts = {person.label: len(person.tables()) for person in (mover, *others)}
    yield
    for person in (mover, *others):
        later = person.tables()[counts[person.label] :]
        assert all(f["version"] == version for f in later), later
    play_turn(mover, mover.shown(version))
    after = [f["version"] for f in mover.tables() if f["version"] > version]
    assert after[0] == version + 1, after


def test_not_your_turn(people: People) -> None:
    mover, waiter, frame = to_play(cross_for_two(people))
    held = waiter.shown(frame["version"])
    tile = next(iter(waiter.hand(held)))
    sent = len(waiter.sent)
    with nothing_moves(mover, waiter):
        # The page offers no move off one's turn: a click on a tile sends nothing.
        waiter.page.click(f'#table button[data-tile="{tile}"]')
        move = next(m for moves in mover.hand(frame).values() for m in moves)
        waiter.send(
            {"type": "act", "table": frame["id"], "version": frame["version"], "action": "play",
             "move": move}
        )  # fmt: skip
        notice(waiter, NotYourTurn(frame["turn"]), frame)
    acts = [message for message in waiter.sent[sent:] if message.get("type") == "act"]
    assert [a["action"] for a in acts] == ["play"], f"the page sent {acts}"


def test_another_players_tile_an_old_version_and_malformed_messages(people: People) -> None:
    players = cross_for_two(people)
    mover, _, frame = to_play(players)
    play_turn(mover, frame)  # the lead: the table has ends now
    mover, waiter, frame = to_play(players, frame["version"] + 1)
    while not any(mover.hand(frame).values()):  # the deal is random: no tile may fit yet
        play_turn(mover, frame)  # a draw or a pass (R-CR-5)
        mover, waiter, frame = to_play(players, frame["version"] + 1)
    theirs = next(iter(waiter.hand(waiter.shown(frame["version"]))))
    end = frame["layout"]["ends"][0]["end"]
    legal = next(m for moves in mover.hand(frame).values() for m in moves)
    act_on = {"type": "act", "table": frame["id"], "action": "play"}
    with nothing_moves(mover, waiter):
        answer = mover.forge({**act_on, "version": frame["version"], "move": f"{theirs} {end}"})
        assert answer == {
            "type": "refused",
            "text": worded(MoveRefused(NotInHand(Tile.parse(theirs))), frame),
        }
        mover.send({**act_on, "version": frame["version"] - 1, "move": legal})
        notice(mover, StaleVersion(), frame)
        mover.send({**act_on, "version": frame["version"], "move": legal, "seat": 0})
        notice(mover, Malformed("seat"), frame)
        mover.send("{" + " " * 5000 + "}")
        notice(mover, Malformed(), frame)


def test_a_forged_cookie_names_nobody(people: People, bot: BotProcess) -> None:
    players = cross_for_two(people)
    mover, waiter, frame = to_play(players)
    mallory = people.arrive("Mallory")
    forged = Signer(b"not the bot's secret").sign(Guest(int(mover.guest_id or 0), mover.label))
    mallory.context.add_cookies([{"name": COOKIE, "value": forged, "url": bot.url}])
    mallory.page.goto(f"/t/{frame['id']}")
    watched = mallory.wait_frame(lambda f: f.get("type") == "table")
    assert watched["you"] is None and watched["hand"] is None
    hello = [f for f in mallory.frames if f.get("type") == "hello"]
    assert hello and all(f["you"] is None for f in hello)
    legal = next(m for moves in mover.hand(frame).values() for m in moves)
    with nothing_moves(mover, waiter):
        answer = mallory.forge(
            {"type": "act", "table": frame["id"], "version": frame["version"], "action": "play",
             "move": legal}
        )  # fmt: skip
        assert answer == {"type": "refused", "text": worded(GuestOnly(), frame)}


OPEN_SOCKET = """url => new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.onmessage = (event) => resolve(JSON.parse(event.data).type);
    socket.onerror = () => resolve("refused");
    setTimeout(() => resolve("no answer"), 10000);
})"""
"""Open a socket to ``url`` from the page: the type of its first frame, or ``refused``."""


def test_another_site_cannot_open_the_socket(people: People, bot: BotProcess) -> None:
    """A page of another site (its Origin its own) that opens the bot's socket, with the
    guest's cookie or not, is refused before anything is sent to it."""
    eve = people.guest("Eve")
    eve.context.route(
        "http://elsewhere.example/",
        lambda route: route.fulfill(body="<!doctype html><title>elsewhere</title>"),
    )
    socket_url = bot.url.replace("http", "ws") + "/ws"
    assert eve.page.evaluate(OPEN_SOCKET, socket_url) == "hello"  # from the bot's own page
    eve.page.goto("http://elsewhere.example/")
    assert eve.page.evaluate(OPEN_SOCKET, socket_url) == "refused"


def test_a_site_whose_name_is_rebound_to_the_bot_gets_nothing(
    browser: Browser, bot: BotProcess
) -> None:
    """DNS rebinding, as the browser does it: a site's name now resolves to the bot's
    machine (Chromium is told so), so the site's page asks the bot with that name as
    its origin and its host alike. The bot refuses the page, and the page's socket."""
    rebound = browser.browser_type.launch(
        executable_path=chromium(), args=["--host-resolver-rules=MAP rebound.example 127.0.0.1"]
    )
    try:
        page = rebound.new_page()
        answer = page.goto(f"http://rebound.example:{bot.port}/")
        assert answer is not None and answer.status == 421
        socket_url = f"ws://rebound.example:{bot.port}/ws"
        assert page.evaluate(OPEN_SOCKET, socket_url) == "refused"
    finally:
        rebound.close()
