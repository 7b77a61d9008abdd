"""The first thing a newcomer does: open the page, pick a name, open a Cross table, seat a
computer, start, and see the table dealt."""

from __future__ import annotations

from tests.browser.harness import People, act, open_table


def test_a_guest_opens_a_table_seats_a_computer_and_starts(people: People) -> None:
    ann = people.guest("Ann")
    table_id = open_table(ann, "cross")
    assert ann.page.url.endswith(f"/t/{table_id}")

    frame = act(ann, "button[data-level=normal]")
    assert [seat["computer"] for seat in frame["seats"]] == [False, True]

    frame = act(ann, "button[data-action=start]")
    assert frame["status"] == "playing"
    assert frame["seats"][frame["you"]]["id"] == ann.guest_id
    assert len(frame["hand"]) == frame["seats"][frame["you"]]["tiles"] > 0
    for tile in frame["hand"]:
        ann.page.locator(f'button[data-tile="{tile["tile"]}"]').wait_for()
