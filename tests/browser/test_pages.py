"""The pages around a table: a finished game's replay, stepped by buttons and arrow keys
and said aloud in the live region; a game's rules; the leaderboards. Each is reached by
the page's own links (client-side navigation) and shows what its API answered."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.harness import People, against_the_computer, join_as, open_table, play_game
from words import i18n
from words.page import page_words


def test_a_finished_games_replay_its_rules_and_the_boards(people: People) -> None:
    with i18n.speaking(i18n.ENGLISH):
        words = page_words()
    ann = people.guest("Ann")
    against_the_computer(ann)
    last, _ = play_game([ann])
    assert last["status"] == "finished" and last["game_id"], last["ended"]
    page = ann.page

    with page.expect_response(f"**/api/games/{last['game_id']}*") as answered:
        page.click(f'#ended a[href="/replay/{last["game_id"]}"]')
    replay = answered.value.json()
    count = len(replay["frames"])
    assert count > 2, replay
    assert page.url.endswith(f"/replay/{last['game_id']}")

    def at(step: int) -> None:
        text = words["step"].format(step=step, count=count)
        page.locator("#replay .step").filter(has_text=text).wait_for()

    at(1)
    unmarked = re.sub(r"\\(.)|\*\*|`", lambda mark: mark[1] or "", replay["title"])
    expect(page).to_have_title(f"{unmarked} · {words['title']}")
    page.keyboard.press("ArrowRight")
    at(2)
    page.locator("#live").filter(has_text=replay["frames"][1]["line"]).wait_for()
    tile = re.search(r"\d-\d", replay["frames"][1]["line"])  # the first move's
    assert tile, replay["frames"][1]
    said = page.inner_text("#live")
    assert said.count(tile[0]) == 1, f"the move is said more than once: {said}"
    page.keyboard.press("End")
    at(count)
    page.click("button[data-step=previous]")
    at(count - 1)
    page.click("button[data-step=first]")
    at(1)
    # At the first move, back leads nowhere: the buttons say so, and a press says where
    # the reader stands rather than nothing.
    steps = page.get_by_role("group", name=unmarked)
    expect(steps.get_by_role("button", name=words["previous"])).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(steps.get_by_role("button", name=words["next"])).to_have_attribute(
        "aria-disabled", "false"
    )
    page.focus("button[data-step=previous]")
    page.keyboard.press("Enter")
    page.locator("#live").filter(has_text=words["step"].format(step=1, count=count)).wait_for()

    with page.expect_response("**/api/rules/cross*") as answered:
        page.goto("/t/" + last["id"])
        page.get_by_role("link", name=words["rules_of"].format(game=last["title"])).click()
    rules = answered.value.json()
    page.get_by_role("heading", name=rules["title"], level=1).wait_for()
    for section in rules["sections"]:
        page.get_by_role("heading", name=section["heading"]).first.wait_for()

    with page.expect_response("**/api/boards*") as answered:
        page.get_by_role("link", name=words["boards"]).click()
    boards = answered.value.json()
    page.get_by_role("heading", name=boards["title"], level=1).wait_for()
    assert page.url.endswith("/boards")
    # Each board is a heading of its own to go to (a game's three boards told apart by
    # their order); a board nobody is on yet has no table, which a screen reader would
    # read out as an empty grid of headers.
    assert any(board["rows"] for board in boards["boards"]), boards
    assert any(not board["rows"] for board in boards["boards"]), boards
    for board in boards["boards"]:
        page.get_by_role("heading", name=board["heading"], level=2, exact=True).wait_for()
        table = page.get_by_role("table", name=board["heading"], exact=True)
        assert table.count() == (1 if board["rows"] else 0), board


def test_each_open_tables_link_is_described_by_its_state_and_players(people: People) -> None:
    """Listed by links alone (as screen readers list a page's links), the lobby's tables
    were each the game's name, "Cross, Cross": each link is described by its row, the
    table's state, who sits there and the seats taken."""
    with i18n.speaking(i18n.ENGLISH):
        words = page_words()
    ann, bob, cy = people.guest("Ann"), people.guest("Bob"), people.guest("Cy")
    for person in (ann, bob):
        open_table(person, "cross")
    links = cy.page.locator(".open-tables a")
    expect(links).to_have_count(2)
    for index, name in enumerate(("Bob", "Ann")):  # the newest first
        expect(links.nth(index)).to_have_accessible_name("Cross")
        described = f"{words['state_lobby']} {name} " + words["seats_taken"].format(seated=1, max=4)
        expect(links.nth(index)).to_have_accessible_description(described)


def test_each_page_names_the_browsers_tab_for_what_it_shows(people: People) -> None:
    """A screen reader says the page's title on arriving, and a list of tabs or windows
    tells pages apart by it: a game's rules, the leaderboards and an address with
    nothing at it were each "Dominoes", and a table lost its name once the page was drawn
    anew (another language chosen)."""
    with i18n.speaking(i18n.for_locale("es-ES")):
        words = page_words()
    ann = people.arrive("Ann")
    page = ann.page
    join_as(ann, "Ann")
    open_table(ann, "cross")
    expect(page).to_have_title("Cross · Dominoes")

    before = len(ann.frames)
    page.select_option("#lang", "es-ES")
    again = ann.wait_frame(lambda frame: frame.get("type") == "table", since=before)
    expect(page).to_have_title(f"{again['title']} · {words['title']}")

    with page.expect_response("**/api/rules/cross*") as answered:
        page.get_by_role("link", name=words["rules_of"].format(game=again["title"])).click()
    rules = answered.value.json()
    expect(page).to_have_title(f"{rules['title']} · {words['title']}")

    with page.expect_response("**/api/boards*") as answered:
        page.get_by_role("link", name=words["boards"]).click()
    expect(page).to_have_title(f"{answered.value.json()['title']} · {words['title']}")

    page.goto("/nowhere/at/all")
    expect(page).to_have_title(f"{words['not_found']} · {words['title']}")
