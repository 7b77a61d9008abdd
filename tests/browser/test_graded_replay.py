"""The replay page of an analysed game: the coach's note on a graded move is shown under
that move's line (as text, never markup) and said aloud with it; a move it did not mark
shows no note. (The analysis is made here at a small budget and stored in the bot's own
database, as ``/domino analysis`` stores it.)"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from bot.coaching import members_seats
from bot.players.coach import analyse
from data import open_store, sqlite_url
from tests.browser.harness import (
    BotProcess,
    People,
    against_the_computer,
    play_game,
)
from tests.players.test_coach import SMALL


async def store_analysis(bot: BotProcess, game_id: str) -> None:
    """The coach's analysis of ``game_id``, stored in the running bot's database."""
    store = await open_store(sqlite_url(bot.folder / "t.db"))
    try:
        game = await store.get_game(game_id)
        assert game is not None
        analysis = analyse(game.record, members_seats(game), SMALL)
        await store.save_analysis(game_id, analysis.to_dict())
    finally:
        await store.close()


def test_a_graded_moves_note_is_shown_under_its_line(people: People, bot: BotProcess) -> None:
    for name in ("Ann", "Bea", "Cat", "Dee"):  # a game whose first-click moves cost
        guest = people.guest(name)  # something: nearly every one, but a short game's may not
        against_the_computer(guest)
        last, _ = play_game([guest])
        assert last["status"] == "finished" and last["game_id"], last["ended"]
        with ThreadPoolExecutor(1) as thread:  # Playwright's own loop runs in this thread
            thread.submit(asyncio.run, store_analysis(bot, last["game_id"])).result()
        page = guest.page
        with page.expect_response(f"**/api/games/{last['game_id']}*") as answered:
            page.click(f'#ended a[href="/replay/{last["game_id"]}"]')
        frames = answered.value.json()["frames"]
        noted = [step for step, frame in enumerate(frames) if "note" in frame]
        if noted:
            break
    assert noted, "in four games, no first-click move cost anything"
    page.locator("#replay .stage").wait_for()
    assert page.locator("#replay .note").count() == 0  # a round's deal: nothing to mark

    for _ in range(noted[0]):
        page.keyboard.press("ArrowRight")
    frame = frames[noted[0]]
    note = page.locator("#replay .lines .note")
    note.filter(has_text=frame["note"]).wait_for()
    assert note.get_attribute("data-grade") == frame["grade"]
    lines = page.locator("#replay .lines p").all_text_contents()
    assert lines[:2] == [frame["line"], frame["note"]]  # under the move's own line
    page.locator("#live").filter(has_text=frame["note"]).wait_for()

    plain = next(step for step in range(noted[0] + 1, len(frames)) if step not in noted)
    for _ in range(plain - noted[0]):
        page.keyboard.press("ArrowRight")
    page.locator("#replay .lines p").first.filter(has_text=frames[plain]["line"]).wait_for()
    assert page.locator("#replay .note").count() == 0
