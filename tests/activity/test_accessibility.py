"""The accessibility audit of the Activity's screens, as a member sees them inside
Discord (``tests/browser/test_accessibility.py`` audits the plain browser table): axe-core's
WCAG 2.1 A and AA rules run on the page in Discord's frame, each violation reported by
the screen, its rule and the element it was found on.

The walk: signing in (the page waits for Discord), the channel's table in its lobby (to
its host, and to a member about to join), seated and waiting for the start, the
member's turn (their hand and its moves), a refusal's notice, another member's move
(made with the channel's buttons), a round's end and the game's end; apart, the pages
that stand in the table's place: a member refused (not in the instance), Discord not
reachable by the bot, the page not reaching the bot to sign in, and a bot with no
Activity set up. Each in English at a desktop's width and in Spanish at the width
Discord's mobile client gives an Activity.

No rule is switched off: every one applies to some screen here.

What axe cannot judge is checked apart: after each of the member's actions, and each
time the table is drawn anew, the focus stays in the page (not on its ``<body>``); each
move is said once in the live region; the picture of the layout is named by the layout
in words; each screen reflows to a phone's width; no landmark is empty; and the page's
name leads back to the table.
"""

from __future__ import annotations

import re
import secrets
import types
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest

from bot.refusals import NotConfirmed
from tests.activity.conftest import Activities, World
from tests.activity.test_activity import launch, lobby_with_activity, next_turn, shown_table
from tests.browser.axe import LIVE_LOG, TILE, assert_each_said_once, audit, tiles_told
from tests.browser.harness import Person, act, play_turn
from tests.e2e.driver import ENGLISH, Driver, open_lobby, service_of, table_messages
from words import i18n, refusals
from words.page import page_words

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Route

CASES = [("en-US", 1280), ("es-ES", 360)]
"""Each screen in English at a desktop's width, and in Spanish at a phone's (Discord's
mobile client shows an Activity the phone's whole width)."""
FOCUS_IN_PAGE = """() => {
  const focused = document.activeElement;
  const main = document.getElementById("main");
  return focused !== null && focused !== document.body && main.contains(focused);
}"""
"""Whether the focus is in the page's main part, not fallen back to its ``<body>``."""
LAYOUT_NAME = "document.querySelector('#table svg.layout')?.getAttribute('aria-label') ?? null"
EMPTY_LANDMARKS = """() => [...document.querySelectorAll("nav, aside, main, header, footer")]
  .filter((landmark) => !landmark.hidden && !landmark.textContent.trim())
  .map((landmark) => landmark.outerHTML)"""
"""The landmarks a screen reader lists that hold nothing (and are not hidden)."""
SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def inspect(person: Person, screen: str) -> list[str]:
    """axe-core's violations on the screen ``person``'s page shows now (``audit``), and
    one that axe leaves to people: the page reflows to the frame's width (WCAG 1.4.10),
    even as narrow as Discord's mobile client makes it, with nothing to scroll sideways."""
    found = audit(person, screen)
    sideways: int = person.page.evaluate(SIDEWAYS)
    if sideways > 0:
        found.append(f"{screen}: reflow: the page scrolls {sideways} px sideways")
    return found


def words_in(locale: str) -> dict[str, str]:
    """The page's labels in ``locale``'s language."""
    with i18n.speaking(i18n.for_locale(locale)):
        return page_words()


@dataclass
class SignIn:
    """Holds the page's token exchange (``POST /api/token``) until released, so the page
    is seen while it waits to be signed in; the page's live region is logged too
    (``LIVE_LOG``). A request that comes once released goes straight on."""

    held: list[Route] = field(default_factory=list)
    released: bool = False

    def prepare(self, context: BrowserContext) -> None:
        context.add_init_script(LIVE_LOG)
        context.route("**/api/token", self._hold)

    def _hold(self, route: Route) -> None:
        if self.released:
            route.continue_()
        else:
            self.held.append(route)

    def release(self) -> None:
        self.released = True
        for route in self.held:
            route.continue_()


def assert_focus_kept(person: Person, after: str) -> None:
    """The focus is in the page after ``after``: a keyboard's user goes on from there."""
    assert person.page.evaluate(FOCUS_IN_PAGE), f"the focus left the page after {after}"


@pytest.mark.parametrize(("locale", "width"), CASES)
def test_every_screen_of_the_activity_passes_axe(
    world: World, activities: Activities, locale: str, width: int
) -> None:
    violations: list[str] = []
    words = words_in(locale)
    ann, bob = world.member("Ann"), world.member("Bob")
    channel = world.server.channels[0]
    # Milo to 3: a round is worth at most 2 points, so a round ends before the game does.
    lobby = world.run(open_lobby(world.fake, ann, channel, game="milo", target=3))
    instance = world.run(launch(world, ann, lobby.id))
    assert world.run(launch(world, bob, lobby.id)) == instance
    sign_in = SignIn()
    person = activities.open(
        ann, instance, locale=locale, width=width, prepare=sign_in.prepare
    ).person
    page = person.page

    page.locator("#main").get_by_text(words["loading"], exact=True).wait_for()
    violations += inspect(person, "signing in")
    sign_in.release()
    shown_table(person)
    person.wait_frame(lambda frame: frame.get("type") == "hello" and bool(frame["you"]))
    page.locator("#who").filter(has_text="Ann").wait_for()
    violations += inspect(person, "the channel's table in its lobby, to its host")
    for _ in range(2):
        act(person, "button[data-level=easy]")
        assert_focus_kept(person, "adding a computer")

    # Bob opens the Activity too, and takes the last seat there; he plays in the channel.
    bob_in = activities.open(bob, instance, locale=locale, width=width).person
    shown_table(bob_in)
    violations += inspect(bob_in, "the channel's table in its lobby, to a member to join")
    act(bob_in, "button[data-action=join]")
    assert_focus_kept(bob_in, "joining")
    violations += inspect(bob_in, "seated, waiting for the start")

    person.shown(bob_in.shown()["version"])
    act(person, "button[data-action=start]")
    assert_focus_kept(person, "starting")
    world.run(world.fake.wait_for(lambda: table_messages(world.fake, channel)))
    driver = world.call(lambda: Driver(world.fake, service_of(world.bot), channel, {bob.id: bob}))
    screens: set[str] = set()
    bob_moved = False
    while (turn := world.run(next_turn(driver, ann.id))) is not None:
        frame = person.shown(turn.version)
        assert_focus_kept(person, "the table drawn anew (a move by Bob or a computer)")
        if bob_moved and "another member's move" not in screens:
            screens.add("another member's move")
            violations += inspect(person, "another member's move")
        if page.locator("#ended").count() and "a round's end" not in screens:
            screens.add("a round's end")
            violations += inspect(person, "a round's end")
            page.click("#ended button.secondary")
            assert_focus_kept(person, "closing the round's end")
        if turn.member == bob.id:
            world.run(driver.play_one())
            bob_moved = True
            continue
        if "the member's turn" not in screens and person.hand(frame):
            screens.add("the member's turn")
            violations += inspect(person, "the member's turn")
            stale = {"type": "act", "table": frame["id"], "version": frame["version"] - 1}
            person.send({**stale, "action": "pass"})
            page.locator("#notice[role=alert]").wait_for()
            violations += inspect(person, "a refusal's notice")
            page.click("#notice button")
            assert_focus_kept(person, "closing a notice")
        how = play_turn(person, frame)
        assert_focus_kept(person, f"a move ({how})")
    assert screens == {"another member's move", "a round's end", "the member's turn"}, screens

    end = person.wait_frame(lambda f: f.get("type") == "table" and f["status"] == "finished")
    person.shown(end["version"])
    page.locator("#table[data-status=finished] #ended").wait_for()
    violations += inspect(person, "the game's end")

    assert not violations, f"{len(violations)} accessibility violations:\n" + "\n".join(violations)


def refused_page(person: Person, text: str) -> None:
    """Wait until ``person``'s page says ``text`` in the table's place."""
    person.page.locator("#main .page p").filter(has_text=text).wait_for()


def said(person: Person) -> list[str]:
    """What the page's live region said (``LIVE_LOG``), in order."""
    told: list[str] = person.page.evaluate("window.__said")
    return told


def test_signing_in_is_said_politely_once_and_so_is_the_table_ready(
    world: World, activities: Activities
) -> None:
    """A blind member opening the Activity is told, in the page's polite live region,
    that the page waits for Discord to sign them in, then that the table is ready: each
    once, though the page is drawn anew meanwhile (they choose Portuguese while it waits)."""
    ann, bob = world.member("Ann"), world.member("Bob")
    _, instance = lobby_with_activity(world, bob, ann)
    sign_in = SignIn()
    person = activities.open(ann, instance, prepare=sign_in.prepare).person
    page, english, portuguese = person.page, words_in("en-US"), words_in("pt-BR")
    page.locator("#main").get_by_text(english["loading"], exact=True).wait_for()
    page.locator("#live").get_by_text(english["loading"], exact=True).wait_for()
    page.select_option("#lang", "pt-BR")
    page.locator("#main").get_by_text(portuguese["loading"], exact=True).wait_for()
    sign_in.release()
    first = shown_table(person)
    ready = portuguese["table_ready"].replace("{game}", first["title"])
    page.locator("#live").get_by_text(ready).wait_for()
    told = said(person)
    assert told.count(english["loading"]) == 1, told
    assert portuguese["loading"] not in told, f"the wait was said twice: {told}"
    assert told.count(ready) == 1, told


def test_a_sign_in_that_fails_is_said_politely_once(world: World, activities: Activities) -> None:
    """A sign-in that fails is said in the page's polite live region, once, and not a
    second time by an alert in the table's place."""
    ann, bob = world.member("Ann"), world.member("Bob")
    _, instance = lobby_with_activity(world, bob, ann)

    def prepare(context: BrowserContext) -> None:
        context.add_init_script(LIVE_LOG)
        cut_off(context)

    person = activities.open(ann, instance, prepare=prepare).person
    failure = words_in("en-US")["sign_in_failed"]
    refused_page(person, failure)
    person.page.locator("#live").get_by_text(failure).wait_for()
    assert said(person).count(failure) == 1, said(person)
    assert person.page.locator("#main [role=alert]").count() == 0, "said twice: by an alert too"


@pytest.mark.parametrize(("locale", "width"), CASES)
def test_a_refused_member_and_discord_out_of_reach_pass_axe(
    world: World, activities: Activities, locale: str, width: int
) -> None:
    """A member who is not in the instance is refused in the table's place; so is one
    whose token the bot cannot have from Discord (its OAuth2 endpoint failing)."""
    violations: list[str] = []
    ann, bob, cat, dan = (world.member(name) for name in ("Ann", "Bob", "Cat", "Dan"))
    lobby_id, instance = lobby_with_activity(world, bob, ann)

    # Cat was never in the Activity: a frame standing for her there gets a good token.
    cat_in = activities.open(cat, instance, locale=locale, width=width).person
    refused = cat_in.wait_frame(lambda frame: frame.get("type") == "refused")
    refused_page(cat_in, refused["text"])
    violations += inspect(cat_in, "a member not in the instance")

    world.run(launch(world, dan, lobby_id))
    world.call(lambda: world.fake.fail_next("POST", "/oauth2/token", 503))
    dan_in = activities.open(dan, instance, locale=locale, width=width).person
    with i18n.speaking(i18n.for_locale(locale)):
        not_confirmed = refusals.refusal(NotConfirmed())
    refused_page(dan_in, not_confirmed)
    violations += inspect(dan_in, "Discord not reachable by the bot")

    assert not violations, f"{len(violations)} accessibility violations:\n" + "\n".join(violations)


def cut_off(context: BrowserContext) -> None:
    """The page cannot reach the bot's token exchange (the connection fails)."""
    context.route("**/api/token", lambda route: route.abort("connectionfailed"))


@pytest.mark.parametrize(("locale", "width"), CASES)
def test_a_sign_in_that_fails_is_said_in_the_members_words(
    world: World, activities: Activities, locale: str, width: int
) -> None:
    """When the page cannot sign the member in for a reason the bot did not word (the
    exchange not reached, Discord's client refusing), it says so in the member's
    language, not in the browser's words for the error (English, whatever the page's)."""
    ann, bob = world.member("Ann"), world.member("Bob")
    _, instance = lobby_with_activity(world, bob, ann)
    person = activities.open(ann, instance, locale=locale, width=width, prepare=cut_off).person
    refused_page(person, words_in(locale)["sign_in_failed"])
    violations = inspect(person, "a sign-in that failed")
    assert not violations, f"{len(violations)} accessibility violations:\n" + "\n".join(violations)


@pytest.mark.parametrize("world", [False], indirect=True)
@pytest.mark.parametrize(("locale", "width"), CASES)
def test_a_bot_with_no_activity_set_up_passes_axe(
    world: World, activities: Activities, locale: str, width: int
) -> None:
    """The page of a bot whose owner never set its Activity up says so in the table's
    place, and keeps saying it (not "Loading…" once the page is drawn again)."""
    ann = world.member("Ann")
    fake, channel = world.fake, world.server.channels[0]
    instance = world.call(
        lambda: fake.activities.launch(fake.application_id, channel, world.server.guild_id, ann.id)
    )
    person = activities.open(ann, instance, locale=locale, width=width).person
    refused_page(person, words_in(locale)["no_activity"])
    violations = inspect(person, "no Activity set up")
    assert not violations, f"{len(violations)} accessibility violations:\n" + "\n".join(violations)


DEALT = 1
"""The table's seed for the test below: a deal in which Bob lays a tile within its ten
moves. In Cross a member who cannot play draws one tile and passes when it does not fit
(R-CR-5), and while the spinner's arms wait for their numbers Bob may pass turn after
turn: about one deal in eighty (37 of deals 0-2,999, deal 41 the first), on which the
test failed with a random deal."""


def test_each_move_is_said_once_and_the_layout_is_named_in_words(
    world: World, activities: Activities, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A screen reader's user in the Activity hears each move once, theirs and the other
    member's (played in the channel), and is told when it is their turn; the picture of
    the layout is named by the layout in words, as the server wrote them."""
    monkeypatch.setattr(  # the table service's randomness only (message nonces use it too)
        "bot.service.core.secrets",
        types.SimpleNamespace(randbits=lambda bits: DEALT, token_hex=secrets.token_hex),
    )
    your_turn = words_in("en-US")["your_turn"]
    ann, bob = world.member("Ann"), world.member("Bob")
    lobby_id, instance = lobby_with_activity(world, bob, ann)
    channel = world.server.channels[0]
    person = activities.open(ann, instance, prepare=SignIn(released=True).prepare).person
    shown_table(person)
    act(person, "button[data-action=join]")
    world.run(world.fake.wait_for(lambda: "Ann" in world.fake.messages[lobby_id].text()))
    world.run(bob.click(world.fake.messages[lobby_id], ENGLISH.label("start")))
    driver = world.call(lambda: Driver(world.fake, service_of(world.bot), channel, {bob.id: bob}))

    def bob_laid() -> bool:
        return any(line.startswith("Bob ") and TILE.search(line)
                   for f in person.tables() for line in f["lines"])  # fmt: skip

    # Six moves, and more until Bob has laid a tile (he may draw at first); ten at most,
    # too few for anyone to play out seven tiles: the round goes on.
    moves = 0
    while (
        (moves < 6 or not bob_laid())
        and moves < 10
        and (turn := world.run(next_turn(driver, ann.id))) is not None
    ):
        frame = person.shown(turn.version)
        named = person.page.evaluate(LAYOUT_NAME)
        if frame["layout"] and frame["layout"]["tiles"]:
            assert named and named == plain(frame["alt"]), (named, frame["alt"])
        if turn.member == bob.id:
            world.run(driver.play_one())
        else:
            play_turn(person, frame)
        moves += 1
    last = person.shown()
    assert last["status"] == "playing", last["lines"]  # within the first round: no tile twice

    told = tiles_told(person)
    assert any(line.startswith("Bob ") for line in told), f"Bob never played: {told}"
    assert_each_said_once(person, told, your_turn)


def plain(text: str) -> str:
    """Marked text as the page names a picture with it: the marks dropped (``**``,
    backticks), escaped characters kept."""
    return re.sub(r"\\(.)|\*\*|`", lambda m: m[1] or "", text)


def test_the_pages_name_leads_back_to_the_table_and_no_landmark_is_empty(
    world: World, activities: Activities
) -> None:
    """Inside Discord the page is the channel's table: its name in the top bar, the
    link a keyboard's user meets first after the skip link, leads back to that table from
    a game's rules (there is no browser's Back button in Discord), not to the local
    lobby, which is not the Activity's; and the top bar lists no navigation that holds
    nothing (the local pages' links are not offered inside Discord)."""
    ann, bob = world.member("Ann"), world.member("Bob")
    _, instance = lobby_with_activity(world, bob, ann)
    person = activities.open(ann, instance).person
    page = person.page
    shown = shown_table(person)
    assert page.evaluate(EMPTY_LANDMARKS) == []

    page.click(f"#table a[href='/rules/{shown['game']}']")
    page.locator("article.rules").wait_for()
    page.click("#brand")
    page.locator("#table").wait_for()
    assert page.evaluate(FOCUS_IN_PAGE), "the focus left the page after following its name"
    assert page.evaluate(EMPTY_LANDMARKS) == []


def test_a_sign_in_cut_off_is_tried_again(world: World, activities: Activities) -> None:
    """A sign-in whose exchange the page could not reach is not kept as failed: the next
    greeting (here, the member choosing another language) signs them in."""
    ann, bob = world.member("Ann"), world.member("Bob")
    _, instance = lobby_with_activity(world, bob, ann)
    cut = [True]

    def prepare(context: BrowserContext) -> None:
        context.route(
            "**/api/token",
            lambda route: route.abort("connectionfailed") if cut[0] else route.continue_(),
        )

    person = activities.open(ann, instance, prepare=prepare).person
    refused_page(person, words_in("en-US")["sign_in_failed"])
    cut[0] = False
    person.page.select_option("#lang", index=1)
    shown_table(person)
