"""Addresses typed by hand, as a newcomer types them: a table's link a character short,
a link with a slash added at its end, an address the page has no view for. Each is
answered by the page itself, in the reader's language and with its links to the tables,
saying what is there; never by the server's bare English ``404: Not Found``, and never
by "reload the page", which would only ask again."""

from __future__ import annotations

from bot.refusals import TableClosed
from tests.browser.harness import People, open_table
from web.marks import WebMarks
from words import i18n, marks, refusals
from words.page import page_words


def test_a_mistyped_address_is_answered_by_the_page_in_the_readers_language(
    people: People,
) -> None:
    spanish = i18n.find("es-ES")
    assert spanish is not None
    with i18n.speaking(spanish), marks.using(WebMarks({}, lambda channel: None)):
        words = page_words()
        closed = refusals.refusal(TableClosed())
    ana = people.guest("Ana", locale="es-ES")
    table_id = open_table(ana, "cross")
    page = ana.page

    answer = page.goto(f"/t/{table_id[:-1]}")
    assert answer is not None and answer.status == 200
    page.locator("main [role=alert]").filter(has_text=closed).wait_for()

    answer = page.goto(f"/t/{table_id}/")
    assert answer is not None and answer.status == 404, "the address is not the table's own"
    assert ana.shown()["id"] == table_id, "the table the address meant is shown all the same"

    for typed in ("/tables", "/t/", "/rules"):
        answer = page.goto(typed)
        assert answer is not None and answer.status == 404, typed
        page.locator("main [role=alert]").filter(has_text=words["not_found"]).wait_for()
        page.get_by_role("link", name=words["tables"]).wait_for()
