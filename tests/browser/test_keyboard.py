"""A whole game with the keyboard alone, as a screen reader's user plays it: after every
control that goes away once pressed (the name form's button, Start, Draw, Pass) the
focus stays in the page instead of falling back to its top, and the game's end is said
aloud with its winner, not only the last move."""

from __future__ import annotations

from tests.browser.harness import (
    Frame,
    People,
    act,
    against_the_computer,
    join_as,
    open_table,
    play_turn,
    sit_down,
    until_a_choice,
    until_a_round_ends,
)
from words import i18n
from words.page import page_words

FOCUS_IN_MAIN = "document.querySelector('main').contains(document.activeElement)"
ON_A_TILE = "document.activeElement?.matches('#table button[data-tile]') ?? false"
SKIP_ON_TOP = """() => {
  const link = document.getElementById("skip");
  const box = link.getBoundingClientRect();
  return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === link;
}"""
"""Whether the skip link is what shows (and takes a click) where it stands."""


def test_the_first_tab_offers_to_skip_the_top_bar_and_enter_goes_to_the_page(
    people: People,
) -> None:
    """A keyboard's user need not tab through the bar's links and language on every
    page: the first Tab shows the skip link, in their language, and Enter on it puts the
    focus on the page's main part, so the next Tab is in what the page shows."""
    ann = people.arrive("Ann", locale="pt-BR")
    page = ann.page
    page.locator("form#guest").wait_for()
    assert not page.evaluate(SKIP_ON_TOP), "the skip link shows before it has the focus"

    page.keyboard.press("Tab")
    with i18n.speaking(i18n.for_locale("pt-BR")):
        worded = page_words()["skip"]
    assert page.evaluate("document.activeElement.id") == "skip"
    assert page.inner_text("#skip") == worded
    assert page.evaluate(SKIP_ON_TOP), "the focused skip link is out of sight"

    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    assert page.url == f"{people.bot.url}/", "the page's address changed"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "guest-name"


def test_a_whole_game_by_keyboard_keeps_the_focus_and_says_the_winner(people: People) -> None:
    ann = people.arrive("Ann")
    page = ann.page
    join_as(ann, "Ann")  # typed, and Enter
    page.locator("form#open").wait_for()
    assert page.evaluate(FOCUS_IN_MAIN), "the focus fell to the page's top after the name"

    open_table(ann, "cross")
    for control in ("button[data-level=normal]", "button[data-action=start]"):
        version = ann.shown()["version"]
        page.focus(control)
        page.keyboard.press("Enter")
        frame: Frame = ann.shown(version + 1)
    assert frame["status"] == "playing"
    assert page.evaluate(ON_A_TILE), "after Start the focus is not on the hand"

    while frame["status"] == "playing":
        if frame["turn"] is None or frame["turn"] != frame["you"]:
            frame = ann.shown(frame["version"] + 1)
            continue
        if any(tile["moves"] for tile in frame["hand"]):
            play_turn(ann, frame, "keys")
            frame = ann.shown(frame["version"] + 1)
            continue
        action = "draw" if frame["can"]["draw"] else "pass"
        page.focus(f"button[data-action={action}]")
        page.keyboard.press("Enter")
        frame = ann.shown(frame["version"] + 1)
        assert page.evaluate(FOCUS_IN_MAIN), f"after {action} the focus fell to the page's top"

    assert frame["status"] == "finished"
    winner = page.inner_text("#card-heading")
    assert winner and winner in page.inner_text("#live"), "the game's end was not said aloud"
    focused = page.evaluate("document.activeElement.dataset.action")
    assert focused == "rematch", "at the game's end the focus is not on Play again"

    # Play again by keyboard: the rematch's lobby is said and the focus is on Start.
    page.keyboard.press("Enter")
    lobby = ann.wait_frame(lambda f: f.get("type") == "table" and f["id"] != frame["id"])
    page.locator("#live").filter(has_text=lobby["card"]["title"]).wait_for()
    focused = page.evaluate("document.activeElement.dataset.action")
    assert focused == "start", "in the rematch's lobby the focus is not on Start"


def test_a_rounds_end_put_away_by_keyboard_leaves_the_focus_in_the_page(
    people: People,
) -> None:
    """R-MI-5, R-MI-6: a Milo round is worth at most 2 points and this game is played to
    3, so a round ends before the game does. Its panel, read, is put away with Dismiss by
    keyboard, and the focus goes on to the hand, not to the page's top."""
    ann = people.arrive("Ann")
    page = ann.page
    join_as(ann, "Ann")
    page.locator("form#open").wait_for()
    open_table(ann, "milo", 3)
    for control in ["button[data-level=normal]"] * 3 + ["button[data-action=start]"]:
        version = ann.shown()["version"]
        page.focus(control)
        page.keyboard.press("Enter")
        frame: Frame = ann.shown(version + 1)
    until_a_round_ends(ann, frame, "keys")
    dismiss = page.locator("#ended button.secondary")
    dismiss.focus()
    page.keyboard.press("Enter")
    assert page.locator("#ended").count() == 0
    assert page.evaluate(FOCUS_IN_MAIN), "after Dismiss the focus fell to the page's top"


def test_a_tile_played_on_an_end_chosen_by_keyboard_leaves_the_focus_on_the_hand(
    people: People,
) -> None:
    """Enter on a tile that fits several ends puts the focus on the first end it can go
    to; Enter there plays it. That end stays drawn but is a button no more: the focus
    must go on to the hand, not fall to the page's top (``<body>``)."""
    ann = people.guest("Ann")
    page = ann.page
    frame, tile = until_a_choice(ann, against_the_computer(ann))

    page.focus(f'#table button[data-tile="{tile}"]')
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.playable") == "true"
    page.keyboard.press("Enter")
    ann.shown(frame["version"] + 1)
    focused = page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
    assert page.evaluate(ON_A_TILE), f"after playing on an end the focus is on {focused}"


def test_a_spectator_typing_a_name_keeps_it_while_the_table_moves(people: People) -> None:
    """Someone watching a table, not yet named, starts typing their name in the side
    panel's form: a move at the table redraws it, and neither what they typed nor the
    focus is lost."""
    ann = people.arrive("Ann")
    join_as(ann, "Ann")
    table_id = open_table(ann, "cross")
    act(ann, "button[data-level=easy]")
    frame = act(ann, "button[data-action=start]")
    eve = people.arrive("Eve")
    eve.page.goto(f"/t/{table_id}")
    eve.wait_frame(lambda seen: seen.get("type") == "table" and seen["id"] == table_id)
    while frame["turn"] != frame["you"]:
        frame = ann.shown(frame["version"] + 1)
    eve.page.locator("#guest-name").type("Ev")
    play_turn(ann, frame)
    eve.shown(frame["version"] + 1)
    assert eve.page.input_value("#guest-name") == "Ev"
    assert eve.page.evaluate("document.activeElement?.id") == "guest-name"


def test_a_status_notice_is_said_in_the_live_region(people: People) -> None:
    """A copied link (a status, not an alert) is said in the page's live region, which
    screen readers follow from the start, not only in a status region that appears
    already filled, which not all of them read."""
    ann = people.arrive("Ann")
    join_as(ann, "Ann")
    open_table(ann, "cross")
    words = page_words()
    ann.page.get_by_role("button", name=words["copy"]).click()
    notice = ann.page.locator("#notice")
    notice.wait_for()
    said = ann.page.locator("#live").inner_text()
    assert words["copied"] in said or words["copy_this"] in said, said
    assert notice.get_attribute("role") is None, "said once: the live region says it"


def test_the_lobbys_list_drawn_anew_keeps_the_focus_on_the_table_it_was_on(
    people: People,
) -> None:
    """A keyboard's user going down the lobby's open tables: another guest sits down at
    the one they are on, its row says so, and the focus stays on its link; was it
    closed meanwhile, the focus goes to the page's main part. It fell to the page's top."""
    with i18n.speaking(i18n.ENGLISH):
        words = page_words()
    ann, bob, cy = people.guest("Ann"), people.guest("Bob"), people.guest("Cy")
    table_id = open_table(ann, "cross")
    link = f'.open-tables a[href="/t/{table_id}"]'
    cy.page.focus(link)

    sit_down(bob, table_id)
    taken = words["seats_taken"].format(seated=2, max=4)
    cy.page.locator(".open-tables li").filter(has_text=taken).wait_for()
    focused = cy.page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
    assert cy.page.evaluate(f"document.activeElement.matches('{link}')"), focused

    act(ann, "button[data-action=cancel]")
    cy.page.locator(link).wait_for(state="detached")
    assert cy.page.evaluate(FOCUS_IN_MAIN), "the focus fell to the page's top"


def test_a_spectators_focus_stays_on_the_link_or_button_it_was_on_as_the_table_moves(
    people: People,
) -> None:
    """Someone watching by keyboard, on the game's rules link, or on Close under a
    round's end they have read: a move at the table draws it anew, and the focus stays
    where it was. It fell to the page's top (the link and the button had no hook the
    page finds again). Milo to 3: a round ends before the game does (R-MI-5, R-MI-6)."""
    ann = people.guest("Ann")
    table_id = open_table(ann, "milo", 3)
    for _ in range(3):
        act(ann, "button[data-level=easy]")
    frame = act(ann, "button[data-action=start]")
    eve = people.arrive("Eve")
    eve.page.goto(f"/t/{table_id}")
    eve.wait_frame(lambda seen: seen.get("type") == "table" and seen["id"] == table_id)

    def ann_moves(frame: Frame) -> Frame:
        """Play on until Ann's turn, and the page of Eve has caught up; Ann then moves."""
        while frame["turn"] != frame["you"]:
            assert frame["status"] == "playing", "the game ended before Ann's turn"
            frame = ann.shown(frame["version"] + 1)
        eve.shown(frame["version"])
        return frame

    frame = ann_moves(frame)
    rules = "#table a[href='/rules/milo']"
    eve.page.focus(rules)
    play_turn(ann, frame)
    frame = ann.shown(frame["version"] + 1)
    eve.shown(frame["version"])
    assert eve.page.evaluate(f"document.activeElement.matches({rules!r})"), "off the rules link"

    close = eve.page.locator("#ended button[data-action=dismiss]")
    while not close.count():
        assert frame["status"] == "playing", "the game ended in one round"
        if frame["turn"] == frame["you"]:
            play_turn(ann, frame)
        frame = ann.shown(frame["version"] + 1)
        eve.shown(frame["version"])
    frame = ann_moves(frame)
    close.focus()
    play_turn(ann, frame)
    eve.shown(frame["version"] + 1)
    assert eve.page.evaluate(
        "document.activeElement.matches('#ended button[data-action=dismiss]')"
    ), "off Close"


def test_a_name_of_spaces_is_refused_aloud_not_in_silence(people: People) -> None:
    """A name of spaces alone, typed and sent with Enter: the page did nothing and said
    nothing, so a screen reader's user could not tell why. It is now refused as an
    empty name is, by the browser's own message on the field, which keeps the focus."""
    ann = people.arrive("Ann")
    page = ann.page
    page.locator("form#guest").wait_for()
    page.locator("#guest-name").type("   ")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('guest-name').validationMessage !== ''")
    assert page.evaluate("document.activeElement.id") == "guest-name"
    assert page.input_value("#guest-name") == ""


def test_more_time_is_pressed_by_keyboard_said_aloud_and_keeps_the_focus(
    people: People,
) -> None:
    """A player who needs longer than the turn timer (WCAG 2.2.1, Timing Adjustable)
    takes more time with Enter: the clock gets a whole turn more, a screen reader hears
    so, and the focus stays on the button to press it again."""
    ann = people.guest("Ann")
    frame = against_the_computer(ann)
    while frame["turn"] != frame["you"]:
        frame = ann.shown(frame["version"] + 1)
    page = ann.page
    page.focus("button[data-action=more_time]")
    page.keyboard.press("Enter")
    longer = ann.shown(frame["version"] + 1)
    assert longer["deadline"] > frame["deadline"] and longer["turn"] == frame["you"]
    said = "Ann takes more time: a whole turn more (9 more allowed this game)."
    page.wait_for_function(f"document.getElementById('live').innerText.includes({said!r})")
    assert page.evaluate("document.activeElement.dataset.action") == "more_time"
