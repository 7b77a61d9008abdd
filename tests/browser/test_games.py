"""Whole games of each of the four games, played in the page by two to four people at
once (computers in the other seats), by click, drag and keyboard, with a spectator
watching; the monitor checks every frame each of them received."""

from __future__ import annotations

import pytest

from tests.browser.harness import People, play_game, seat_everyone

GAMES = [
    # game, the players' names with how each plays, computers seated
    ("cross", {"Ann": "drag", "Bob": "keys"}, 0),
    ("maltese-cross", {"Ann": "click", "Bob": "keys", "Cid": "drag"}, 0),
    ("merry-go-round", {"Ann": "keys", "Bob": "click"}, 1),
    ("milo", {"Ann": "click", "Bob": "drag", "Cid": "keys", "Dee": "click"}, 0),
]


@pytest.mark.parametrize(("game", "styles", "computers"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_in_the_page(
    people: People, game: str, styles: dict[str, str], computers: int
) -> None:
    players = seat_everyone(people, game, list(styles), computers)
    eve = people.arrive("Eve (watching)")
    table_id = players[0].shown()["id"]
    eve.page.goto(f"/t/{table_id}")

    last, ways = play_game(players, styles)

    assert last["status"] == "finished"
    assert last["ended"] is not None
    for person in [*players, eve]:
        shown = person.shown(last["version"])
        assert shown["status"] == "finished"
        person.page.locator("#ended").wait_for()
    assert eve.tables(table_id), "the spectator was sent the table"
    assert all(frame["you"] is None and frame["hand"] is None for frame in eve.tables())
    # The deal is random (the service picks the table's seed): a player may only draw or
    # pass all game (seen: Ann drew five times in a Maltese Cross game; and Bob and Cid
    # drew five times each while Ann dominoed). So each game asserts that whoever laid a
    # tile laid it their way, and that someone laid one; each way is some player's in
    # three or four of the four games, so every way is tried unless every one of its
    # players in every game only drew.
    for name, style in styles.items():
        laid = sum(count for how, count in ways[name].items() if how not in ("draw", "pass"))
        assert not laid or ways[name][style] > 0, f"{name} never played by {style}: {ways}"
    laid_ways = {how for counts in ways.values() for how, count in counts.items() if count}
    assert laid_ways & set(styles.values()), f"nobody laid a tile in the page: {ways}"
