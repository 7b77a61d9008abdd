"""An automated accessibility audit of every screen a player meets: axe-core (bundled by
``axe-playwright-python``, nothing fetched) runs its WCAG 2.1 A and AA rules on the page
as the player sees it, and each violation is reported by the screen, its rule and the
element it was found on.

The walk: the first page with the name form, the lobby with the form that opens a
table, a table waiting for players with computers seated, the game under way on the
player's turn (their hand and its moves) and as a spectator yet to be named, a
refusal's notice, a round's end, the game's end, its replay, a game's rules, the
leaderboards and the page of a table that is not there; in English at a desktop's
width, and in Brazilian Portuguese at a phone's. Apart, a tile picked with its ends lit
as buttons on the felt.

No rule is switched off: every one applies to some screen here.

What axe cannot judge is checked apart: each move is said once in the live region (and
the focus kept in the page after an action, in test_keyboard.py).
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.axe import LIVE_LOG, assert_each_said_once, audit, tiles_told
from tests.browser.harness import (
    BotProcess,
    Frame,
    People,
    Person,
    act,
    against_the_computer,
    join_as,
    open_table,
    play_game,
    play_turn,
    sit_down,
    until_a_choice,
)
from words import i18n
from words.page import page_words


def play_until(person: Person, frame: Frame, done: str) -> Frame:
    """``person`` plays their turns (the computers play theirs) until their page shows
    ``done`` (a CSS selector); the frame then shown."""
    page = person.page
    while not page.locator(done).count():
        assert frame["status"] == "playing", f"the game ended before {done} showed"
        if frame["turn"] is not None and frame["turn"] == frame["you"]:
            play_turn(person, frame)
        frame = person.shown(frame["version"] + 1)
    return frame


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1280), ("pt-BR", 360)])
def test_every_screen_passes_axe(people: People, locale: str, width: int) -> None:
    violations: list[str] = []
    ann = people.arrive("Ann", locale=locale, width=width)
    page = ann.page
    page.locator("form#guest").wait_for()
    violations += audit(ann, "the name form")

    join_as(ann, "Ann")
    page.locator("form#open").wait_for()
    violations += audit(ann, "the lobby")

    # Milo to 3: a round is worth at most 2 points, so a round ends before the game does.
    table_id = open_table(ann, "milo", 3)
    for _ in range(3):
        act(ann, "button[data-level=easy]")
    violations += audit(ann, "a table waiting, computers seated")

    frame = act(ann, "button[data-action=start]")
    while frame["turn"] != frame["you"]:
        frame = ann.shown(frame["version"] + 1)
    violations += audit(ann, "the player's turn")
    watcher = people.arrive("Watcher", locale=locale, width=width)
    watcher.page.goto(f"/t/{table_id}")
    watcher.wait_frame(lambda seen: seen.get("type") == "table")
    watcher.shown()
    violations += audit(watcher, "a spectator, not yet named")

    ann.send({"type": "act", "table": table_id, "version": frame["version"] - 1, "action": "pass"})
    page.locator("#notice[role=alert]").wait_for()
    violations += audit(ann, "a refusal's notice")

    frame = play_until(ann, frame, "#ended")
    violations += audit(ann, "a round's end")
    page.locator("#ended button.secondary").click()

    frame = play_until(ann, frame, "#table[data-status=finished] #ended")
    violations += audit(ann, "the game's end")

    page.click("#ended a[href^='/replay/']")
    page.locator("#replay .step").wait_for()
    page.keyboard.press("End")
    violations += audit(ann, "the replay")

    page.goto(f"/t/{table_id}")
    ann.shown(frame["version"])
    page.click("a[href='/rules/milo']")
    page.locator("article.rules").wait_for()
    violations += audit(ann, "a game's rules")

    page.click("nav a[href='/boards']")
    page.locator(".boards .board").first.wait_for()
    violations += audit(ann, "the leaderboards")

    page.goto("/t/nothing-here")
    page.locator("[role=alert]").wait_for()
    violations += audit(ann, "a table that is not there")

    assert not violations, f"{len(violations)} accessibility violations:\n" + "\n".join(violations)


def test_a_tile_picked_with_its_ends_lit_passes_axe(people: People) -> None:
    """The felt's ends become buttons once a tile that fits several is picked."""
    ann = people.guest("Ann")
    _, tile = until_a_choice(ann, against_the_computer(ann))
    ann.page.click(f'#table button[data-tile="{tile}"]')
    ann.page.locator("[data-end][data-playable=true]").first.wait_for()
    violations = audit(ann, "a tile picked, its ends lit")
    assert not violations, f"{len(violations)} accessibility violations:\n" + "\n".join(violations)


DRAWN = """() => new Promise((done) => {
  const box = (shape) => {
    const r = shape.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const measure = () => {
    if (document.querySelector("#table .felt:not(.empty):not([data-grown])")) {
      requestAnimationFrame(measure);  // a felt just drawn: its ends grow before paint
      return;
    }
    done({
      ends: [...document.querySelectorAll("#table svg.ends [data-end]")].map(
        (end) => [end.dataset.end, box(end.querySelector("rect"))]),
      tiles: [...document.querySelectorAll("#table svg.layout [data-placed]")].map(box),
      wide: document.documentElement.scrollWidth,
    });
  };
  requestAnimationFrame(measure);
})"""
"""The ends' labels and the tiles on the felt, as the page has drawn them (once every
felt on the page has grown its ends: the computers' moves may bring a new one just
before), in CSS pixels, and how wide the page is."""


def overlap(one: list[float], other: list[float]) -> bool:
    """Whether two boxes (left, top, right, bottom) share more than their edges."""
    return (
        one[0] < other[2] - 0.5
        and other[0] < one[2] - 0.5
        and one[1] < other[3] - 0.5
        and other[1] < one[3] - 0.5
    )


@pytest.mark.parametrize(
    ("game", "computers"),
    [("cross", 1), ("maltese-cross", 2), ("merry-go-round", 1), ("milo", 3)],
)
def test_the_ends_to_choose_are_big_enough_to_tap_on_a_phone(
    people: People, game: str, computers: int
) -> None:
    """WCAG 2.2's 2.5.8: on a phone 360 px wide, the ends a player taps to choose where
    a tile goes are each at least 24 × 24 px, in every game and however far its arms
    reach in a round; they grow without covering a tile or one another, and the page
    stays as wide as the screen."""
    ann = people.guest("Ann", width=360)
    ann.page.emulate_media(reduced_motion="reduce")  # each tile where it comes to rest
    open_table(ann, game)
    for _ in range(computers):
        act(ann, "button[data-level=easy]")
    frame = act(ann, "button[data-action=start]")
    problems: list[str] = []
    measured = 0
    while frame["status"] == "playing" and not frame["ended"]:
        drawn = ann.page.evaluate(DRAWN)
        at = f"v{frame['version']}"
        for end, box in drawn["ends"]:
            measured += 1
            width, height = box[2] - box[0], box[3] - box[1]
            if width < 24 or height < 24:
                problems.append(f"{at}: end {end} is {width:.1f} × {height:.1f} px")
            if any(overlap(box, tile) for tile in drawn["tiles"]):
                problems.append(f"{at}: end {end} covers a tile")
            if any(overlap(box, other) for name, other in drawn["ends"] if name != end):
                problems.append(f"{at}: end {end} covers another end")
        if drawn["wide"] > 360:
            problems.append(f"{at}: the page is {drawn['wide']} px wide")
        if frame["turn"] is not None and frame["turn"] == frame["you"]:
            play_turn(ann, frame)  # by click: on a lit end, for a tile that fits several
        frame = ann.shown(frame["version"] + 1)
    assert measured, "no end was ever drawn"
    assert not problems, "\n".join(problems)


def test_each_move_is_said_once_in_the_live_region(people: People) -> None:
    """A screen reader's user hears each move once: another player's, the computer's and
    their own, said when it is made and not again (the layout's words, which name the
    last tile played and every arm, are the picture's name, not said with each move);
    and they are told when it is their turn."""
    with i18n.speaking(i18n.ENGLISH):
        your_turn = page_words()["your_turn"]
    ann, bob = people.guest("Ann"), people.guest("Bob")
    ann.page.add_init_script(LIVE_LOG)
    ann.page.reload()
    sit_down(bob, open_table(ann, "cross"))
    act(ann, "button[data-level=easy]")
    act(ann, "button[data-action=start]")
    last, _ = play_game([ann, bob], most=6)  # within the first round: no tile twice
    assert last["status"] == "playing", last["lines"]
    ann.shown(last["version"])

    moves = tiles_told(ann)
    assert any(not line.startswith("Ann ") for line in moves), f"nobody else played: {moves}"
    assert_each_said_once(ann, moves, your_turn)


def test_a_line_sent_with_the_table_as_it_was_is_said_once(people: People) -> None:
    """A member's time running low comes as the table unchanged with one line of its own
    (the server's reminder, ``tests/web/test_socket.py``): the page says that line, once,
    though nothing moved (a screen reader's user does not watch the clock count down)."""
    ann = people.guest("Ann")
    ann.page.add_init_script(LIVE_LOG)
    ann.page.reload()
    open_table(ann, "cross")
    frame = ann.shown()
    line = f"Ann, your turn runs out <t:{int(frame['now']) + 30}>."
    warned = json.dumps({**frame, "lines": [line]})
    ann.page.evaluate(SENT_BY_THE_SERVER, warned)
    heard = "() => window.__said.some(text => text.includes('your turn runs out'))"
    ann.page.wait_for_function(heard)
    said: list[str] = ann.page.evaluate("window.__said")
    assert sum("your turn runs out" in text for text in said) == 1, said


def test_a_tile_that_may_lead_the_round_is_named_so(people: People) -> None:
    """A round's lead has no end to name (in Milo's later rounds any tile may lead): each
    tile that may is read as leading it, not as its pips alone, which said nothing of
    whether it could be played. The lead comes as the server sends it, every tile's
    move with no end, on the reader's turn (the table waits for them)."""
    with i18n.speaking(i18n.ENGLISH):
        words = page_words()
    ann = people.guest("Ann")
    frame = against_the_computer(ann)
    while frame["turn"] != frame["you"]:
        frame = ann.shown(frame["version"] + 1)
    hand = [{**tile, "moves": [{"move": tile["tile"], "end": None}]} for tile in frame["hand"]]
    ann.page.evaluate(SENT_BY_THE_SERVER, json.dumps({**frame, "hand": hand, "layout": None}))
    for tile in hand:
        name = words["fits_lead"].format(tile=tile["tile"])
        expect(ann.page.get_by_role("button", name=name, exact=True)).to_have_count(1)


SENT_BY_THE_SERVER = """
raw => window.__sockets.filter(s => s.readyState === WebSocket.OPEN).at(-1)
  .dispatchEvent(new MessageEvent("message", { data: raw }))
"""
"""As if the page's socket received ``raw`` from the server."""


STATUS_LOG = """
document.addEventListener("DOMContentLoaded", () => {
  const line = document.getElementById("link");
  window.__status = [];
  new MutationObserver(() => window.__status.push(line.textContent)).observe(
    line, { childList: true, characterData: true, subtree: true });
});
"""
"""Run before the page's own code: each text the connection's status line comes to
hold, in order, in ``window.__status``."""


def test_a_lost_connection_and_its_return_are_each_said_once(
    people: People, bot: BotProcess
) -> None:
    """The bot goes away and comes back: a screen reader's user is told the connection
    is lost, once, however often the page tries again meanwhile, then that it is back,
    in a status region they follow from the start (it was hidden while empty, so what
    appeared in it was not said by every screen reader, and its return was never said).
    Once what the page shows moves on, the table or the list of tables, the line is
    empty again (on the list it stayed)."""
    with i18n.speaking(i18n.ENGLISH):
        words = page_words()
    ann = people.guest("Ann")
    page = ann.page
    page.add_init_script(STATUS_LOG)
    page.reload()
    open_table(ann, "cross")
    act(ann, "button[data-level=easy]")
    expect(page.get_by_role("status")).to_have_count(1)
    lobby = people.arrive("Bob (on the list of tables)").page
    lobby.locator(".open-tables a").first.wait_for()

    assert bot.stop() == 0
    page.locator("#link").filter(has_text=words["reconnecting"]).wait_for()
    tries = page.evaluate("window.__sockets.length")
    page.wait_for_function("tries => window.__sockets.length >= tries + 2", arg=tries)
    bot.start()
    page.locator("#link").filter(has_text=words["reconnected"]).wait_for()
    statuses: list[str] = page.evaluate("window.__status")
    assert statuses.count(words["reconnecting"]) == 1, statuses
    assert statuses.count(words["reconnected"]) == 1, statuses

    lobby.locator("#link").filter(has_text=words["reconnected"]).wait_for()
    act(ann, "button[data-action=start]")  # the table moves on: nothing more to say
    expect(page.locator("#link")).to_have_text("")
    expect(lobby.locator("#link")).to_have_text("")  # and so does the list of tables
