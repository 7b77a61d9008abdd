"""Screenshots of the page at a phone's width (360 px) and a desktop's (1280 px), for a
person to look at in review: the lobby, a table mid-game, a tile picked with its ends
lit, and the game's end. They go to a temporary folder (named at the end of the run),
never into the repository. At 360 px nothing may be wider than the screen."""

from __future__ import annotations

from pathlib import Path

from tests.browser.harness import People, Person, act, open_table, play_game, sit_down

WIDTHS = {"Ann": 360, "Bob": 1280}


def shoot(person: Person, folder: Path, step: str) -> None:
    width = WIDTHS[person.label]
    person.page.screenshot(
        path=folder / f"{width}px-{step}.png", full_page=True, animations="disabled"
    )
    if width == 360:
        wider = person.page.evaluate("document.documentElement.scrollWidth")
        assert wider <= width, f"at {width} px the {step} page is {wider} px wide"


def test_screenshots_at_phone_and_desktop_width(people: People, screenshots: Path) -> None:
    ann, bob = (people.guest(name, width=width) for name, width in WIDTHS.items())
    for person in (ann, bob):
        shoot(person, screenshots, "1-lobby")
    sit_down(bob, open_table(ann, "cross"))
    act(ann, "button[data-action=start]")

    frame, _ = play_game([ann, bob], most=6)
    for person in (ann, bob):
        person.shown(frame["version"])
        shoot(person, screenshots, "2-table")

    picked = False
    while frame["status"] == "playing" and not picked:
        mover = ann if frame["seats"][frame["turn"]]["id"] == ann.guest_id else bob
        mine = mover.shown(frame["version"])
        several = [tile for tile, moves in mover.hand(mine).items() if len(moves) > 1]
        if several:
            mover.page.click(f'#table button[data-tile="{several[0]}"]')
            mover.page.locator("[data-end][data-playable=true]").first.wait_for()
            shoot(mover, screenshots, "3-picked")
            mover.page.keyboard.press("Escape")
            picked = True
        else:
            frame, _ = play_game([ann, bob], most=1)

    last, _ = play_game([ann, bob])
    for person in (ann, bob):
        person.shown(last["version"])
        person.page.locator("#ended").wait_for()
        shoot(person, screenshots, "4-ended")


def fits(person: Person, step: str, width: int = 360) -> None:
    """Nothing on ``person``'s page is wider than a phone's screen."""
    wider = person.page.evaluate("document.documentElement.scrollWidth")
    assert wider <= width, f"at {width} px the {step} page is {wider} px wide"


def test_the_longest_name_fits_a_phones_width_on_every_screen(people: People) -> None:
    """A name may be 32 characters with no space to wrap at (a handle, a name joined
    with dots): wherever it shows (the top bar, the tables' list, the seats, the
    scores, the turn, the card, a round's end, the boards, a replay), it wraps inside
    its box; it never pushes the page sideways, off the bar's and the panels' edges."""
    name = "W" * 32  # the widest letter, as many as a name may have
    long = people.guest(name, width=360)
    watcher = people.guest("Ann", width=360)
    table_id = open_table(long, "cross")
    fits(long, "table waiting")
    watcher.page.locator("ul.tables .names", has_text=name).wait_for()
    fits(watcher, "lobby")
    act(long, "button[data-level=easy]")
    act(long, "button[data-action=start]")
    frame, _ = play_game([long], most=2)
    fits(long, "mid-game")
    watcher.page.goto(f"/t/{table_id}")
    watcher.shown(frame["version"])
    fits(watcher, "spectator")
    last, _ = play_game([long])
    long.shown(last["version"])
    long.page.locator("#ended").wait_for()
    fits(long, "game's end")
    long.page.click("nav a[href='/boards']")
    long.page.locator(".boards .board", has_text=name).first.wait_for()
    fits(long, "leaderboards")
    long.page.goto(f"/replay/{last['game_id']}")
    long.page.locator("#replay .step").wait_for()
    long.page.keyboard.press("End")
    fits(long, "replay")
