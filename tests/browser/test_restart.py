"""The bot stopped and started again mid-game (same database, same port): every page
reconnects by itself and shows the stored table (the same version, the same hand), and
the game plays on to its end."""

from __future__ import annotations

from tests.browser.harness import BotProcess, People, play_game, seat_everyone


def test_the_pages_come_back_to_the_stored_table_after_a_restart(
    people: People, bot: BotProcess
) -> None:
    players = seat_everyone(people, "cross", ["Ann", "Bob"])
    eve = people.arrive("Eve (watching)")
    before, _ = play_game(players, most=3)
    assert before["status"] == "playing"
    eve.page.goto(f"/t/{before['id']}")
    eve.shown(before["version"])
    hands = {p.label: p.hand(p.shown(before["version"])) for p in players}
    received = {p.label: len(p.frames) for p in (*players, eve)}

    bot.restart()

    for person in (*players, eve):
        since = received[person.label]
        person.wait_frame(lambda frame: frame.get("type") == "hello", since=since)
        back = person.wait_frame(
            lambda frame: frame.get("type") == "table" and frame["id"] == before["id"],
            since=since,
        )
        assert back["version"] == before["version"], f"{person.label} came back elsewhere"
        assert back["turn"] == before["turn"]
        if person in players:
            assert person.hand(back) == hands[person.label]
        else:
            assert back["hand"] is None and back["you"] is None
        person.shown(before["version"])

    last, _ = play_game(players)
    assert last["status"] == "finished"
    eve.shown(last["version"])
