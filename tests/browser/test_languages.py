"""The page speaks the browser's language (its Accept-Language) from the first visit,
each reader their own at the same table, and switches when asked."""

from __future__ import annotations

from bot.engine import Cross
from bot.refusals import NameRefused
from bot.table import NAME_MOST
from tests.browser.harness import (
    People,
    act,
    against_the_computer,
    join_as,
    open_table,
    play_game,
    sit_down,
    until_a_round_ends,
)
from words import i18n
from words.common import game_title
from words.page import page_words
from words.refusals import refusal


def words_in(code: str) -> tuple[dict[str, str], str]:
    """The page's labels and Cross's title in the language of ``code``."""
    with i18n.speaking(i18n.for_locale(code)):
        return page_words(), game_title(Cross)


def test_each_reader_has_their_browsers_language_and_can_switch(people: People) -> None:
    spanish, cross_es = words_in("es-ES")
    english, cross_en = words_in("en-US")
    portuguese, cross_pt = words_in("pt-BR")

    carla = people.arrive("Carla", locale="es-ES")
    hello = carla.wait_frame(lambda frame: frame.get("type") == "hello")
    assert hello["lang"] == "es-ES"
    carla.page.get_by_role("heading", name=spanish["guest_heading"]).wait_for()
    assert carla.page.locator("html").get_attribute("lang") == "es-ES"

    join_as(carla, "Carla")
    table_id = open_table(carla, "cross")
    ann = people.guest("Ann")  # an English browser at the same table
    sit_down(ann, table_id)
    assert (carla.shown()["title"], ann.shown()["title"]) == (cross_es, cross_en)
    carla.page.get_by_role("button", name=spanish["copy"]).wait_for()
    ann.page.get_by_role("button", name=english["copy"]).wait_for()

    switched = len(carla.frames)
    carla.page.select_option("select#lang", "pt-BR")
    carla.wait_frame(lambda f: f.get("type") == "hello" and f["lang"] == "pt-BR", since=switched)
    carla.page.get_by_role("button", name=portuguese["copy"]).wait_for()
    again = carla.wait_frame(lambda frame: frame.get("type") == "table", since=switched)
    assert (again["id"], again["title"]) == (table_id, cross_pt)

    carla.page.reload()  # the choice is remembered
    carla.page.get_by_role("button", name=portuguese["copy"]).wait_for()
    assert ann.shown()["title"] == cross_en


def test_a_refused_name_is_said_in_the_language_the_page_shows(people: People) -> None:
    """A reader who switched the page from their browser's language is refused a name
    in the page's language (the name's request named none, so the server answered in
    the browser's)."""
    portuguese, _ = words_in("pt-BR")
    carla = people.arrive("Carla", locale="es-ES")
    carla.wait_frame(lambda frame: frame.get("type") == "hello")
    switched = len(carla.frames)
    carla.page.select_option("select#lang", "pt-BR")
    carla.wait_frame(lambda f: f.get("type") == "hello" and f["lang"] == "pt-BR", since=switched)
    carla.page.get_by_role("heading", name=portuguese["guest_heading"]).wait_for()
    carla.page.fill("form#guest input[name=name]", "Carla\u200b")  # a format character
    carla.page.press("form#guest input[name=name]", "Enter")
    with i18n.speaking(i18n.for_locale("pt-BR")):
        said = refusal(NameRefused(NAME_MOST))
    carla.page.locator("#notice[role=alert]").filter(has_text=said).wait_for()


def test_the_language_picker_by_keyboard_draws_the_page_only_in_the_language_taken(
    people: People,
) -> None:
    """WCAG 3.2.2: a keyboard's user arrowing down the closed language picker passed
    through Spanish on the way to Portuguese, and the whole page was drawn anew in each.
    The page now takes the language when they press Enter, or when they leave the picker
    (here back to the top bar's links, where the focus stays)."""
    spanish, _ = words_in("es-ES")
    portuguese, _ = words_in("pt-BR")
    ann = people.arrive("Ann")
    page = ann.page
    page.locator("form#guest").wait_for()
    page.focus("#lang")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.get_by_role("heading", name=portuguese["guest_heading"]).wait_for()
    asked = [message["lang"] for message in ann.sent if message.get("type") == "lang"]
    assert asked == ["pt-BR"], f"the page asked for {asked}"
    assert page.evaluate("document.activeElement.id") == "lang"

    page.keyboard.press("ArrowUp")
    page.keyboard.press("Shift+Tab")
    page.get_by_role("heading", name=spanish["guest_heading"]).wait_for()
    assert page.evaluate("document.activeElement.getAttribute('href')") == "/boards"


def test_a_language_chosen_from_the_list_opened_by_keyboard_is_taken_at_once(
    people: People,
) -> None:
    """Alt+Down opens the picker's list; a language chosen there with the arrows and
    Enter is as deliberate as a click, and is taken at once (it waited for the focus to
    leave the picker, as arrowing the closed list does)."""
    portuguese, _ = words_in("pt-BR")
    ann = people.arrive("Ann")
    page = ann.page
    page.locator("form#guest").wait_for()
    page.focus("#lang")
    for key in ("Alt+ArrowDown", "ArrowDown", "ArrowDown", "Enter"):
        page.keyboard.press(key)
    page.get_by_role("heading", name=portuguese["guest_heading"]).wait_for()
    asked = [message["lang"] for message in ann.sent if message.get("type") == "lang"]
    assert asked == ["pt-BR"], f"the page asked for {asked}"
    assert page.evaluate("document.activeElement.id") == "lang"


def test_a_replay_stays_at_its_step_when_the_language_changes(people: People) -> None:
    """A reader stepping through a replay who changes the language is shown the same
    step, worded anew, not sent back to the first move."""
    ann = people.guest("Ann")
    against_the_computer(ann)
    last, _ = play_game([ann])
    page = ann.page
    with page.expect_response(f"**/api/games/{last['game_id']}*") as answered:
        page.click(f'#ended a[href="/replay/{last["game_id"]}"]')
    count = len(answered.value.json()["frames"])
    page.locator("#replay .stage").wait_for()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    english, _ = words_in("en-US")
    page.locator("#replay .step").filter(
        has_text=english["step"].format(step=6, count=count)
    ).wait_for()
    page.select_option("select#lang", "pt-BR")
    portuguese, _ = words_in("pt-BR")
    page.locator("#replay .step").filter(
        has_text=portuguese["step"].format(step=6, count=count)
    ).wait_for()


def test_a_rounds_end_on_screen_is_worded_anew_when_the_language_changes(
    people: People,
) -> None:
    """A Milo round ends before the game does (R-MI-5, R-MI-6: to 3): its panel, still
    on screen, is shown in the language chosen, its hands listed once; closed, it does
    not come back with the next change."""
    ann = people.guest("Ann")
    page = ann.page
    open_table(ann, "milo", 3)
    for control in ["button[data-level=normal]"] * 3 + ["button[data-action=start]"]:
        frame = act(ann, control)
    until_a_round_ends(ann, frame)
    panel = page.locator("#ended")
    english_title = panel.locator("h2").inner_text()
    switched = len(ann.frames)
    page.select_option("select#lang", "es-ES")
    again = ann.wait_frame(lambda f: f.get("type") == "table", since=switched)
    assert again["ended"]["again"] is True
    spanish, _ = words_in("es-ES")
    english, _ = words_in("en-US")
    page.locator("#ended h2").filter(has_not_text=english_title).wait_for()
    assert panel.locator("h3").inner_text() == spanish["hands"]
    terms = [name.strip() for name in panel.locator("dt").all_text_contents()]
    assert english["hands"] not in terms and spanish["hands"] not in terms, "hands listed once"
    panel.locator("button.secondary").click()
    page.select_option("select#lang", "en-US")
    page.get_by_role("button", name=english["copy"]).wait_for()
    assert page.locator("#ended").count() == 0, "closed, it stays closed"
