"""What the browser tests stand on: the bot as its own process serving the browser face,
people in browser contexts, and a monitor of every WebSocket frame each of them receives.

The monitor is the privacy check of docs/WEB.md ("``hand`` is only ever in the frame sent
to its owner's socket"): it reads every frame as the browser got it, so a hand leaked to a
spectator or another seat fails the test whatever the page then shows. Every frame is
also kept, so a test reads the table the page was sent (whose turn, the legal moves)
instead of scraping it off the screen, and acts through the page's own controls.

Playwright's types are named for the type checker only: a machine without Playwright
imports this module, and the folder's conftest skips its tests with one line.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from data import sqlite_url

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, WebSocket

ROOT = Path(__file__).resolve().parents[2]
WAIT_MS = 30_000
"""How long a page gets to show what a test waits for: a step of a game takes
milliseconds; this is only a bound that turns a hang into a failure naming the step."""

Frame = dict[str, Any]

SOCKETS_KEPT = """
window.__sockets = [];
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    window.__sockets.push(this);
  }
};
"""
"""Run before the page's own code: every WebSocket the page opens is kept in
``window.__sockets``, so a test can send a forged message over the page's own socket
(the one whose answers the page shows)."""

FORGE = """
message => new Promise((resolve, reject) => {
  const socket = new WebSocket(`ws://${location.host}/ws`);
  socket.onopen = () => socket.send(message);
  socket.onmessage = (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type !== "hello") {
      socket.close();
      resolve(frame);
    }
  };
  socket.onclose = (event) => reject(new Error(`closed (${event.code}) before an answer`));
})
"""
"""Open a socket of the page's own (its cookie, its origin), send one message, and
answer the first frame after the greeting."""


def free_port() -> int:
    """A TCP port nobody listens on now (the bot takes it a moment later, and keeps it
    across a restart)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class BotProcess:
    """``python -m bot`` with no ``DISCORD_TOKEN``, from the repository's root: the browser
    face alone, on a SQLite file in ``folder``, at ``url``. It can be stopped and started
    again on the same database and port (a restart mid-game)."""

    folder: Path
    port: int = field(default_factory=free_port)
    settings: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        """The output of the latest start."""
        return self.folder / f"bot-{self.starts}.log"

    def start(self, timeout: float = 60) -> None:
        """Start the bot and return once it answers ``GET /``."""
        assert self.process is None, "the bot is running already"
        env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("DISCORD_", "DATABASE_", "WEB_"))
        }
        env.update(
            PYTHONPATH=str(ROOT),
            WEB_HOST="127.0.0.1",
            WEB_PORT=str(self.port),
            DATABASE_URL=sqlite_url(self.folder / "t.db"),
            # Set, so the bot keeps no secret file in the repository's var/; the same
            # across a restart, so the guests' cookies still name them.
            WEB_SECRET="browser-tests",
            COMPUTER_PACE_SECONDS="0",
            LOG_LEVEL="WARNING",
        )
        env.update(self.settings)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        with self.log.open("wb") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=output, stderr=output
            )
        self._wait_serving(self.process, time.monotonic() + timeout)

    def _wait_serving(self, process: subprocess.Popen[bytes], deadline: float) -> None:
        """Poll ``GET /`` until it answers 200, the process ends, or the deadline passes."""
        while True:
            if process.poll() is not None:
                self.process = None
                raise AssertionError(
                    f"the bot ended (exit status {process.returncode}) before serving"
                    f" {self.url}:\n{self.output()}"
                )
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot did not serve {self.url} in time:\n{self.output()}")
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(0.02)  # the poll's interval, cut short if the process ends

    def stop(self, timeout: float = 15) -> int:
        """Stop the bot as a service manager does (SIGTERM; killed if it does not stop in
        ``timeout`` seconds); its exit status."""
        process, self.process = self.process, None
        if process is None:
            return 0
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise AssertionError(
                    f"the bot did not stop within {timeout}s of SIGTERM:\n{self.output()}"
                ) from None
        return process.returncode

    def restart(self) -> None:
        """Stop, then start again on the same database and port."""
        status = self.stop()
        assert status == 0, f"the bot exited {status} on SIGTERM:\n{self.output()}"
        self.start()

    def output(self, most: int = 4000) -> str:
        """The end of the latest start's output, for a failure's message."""
        try:
            return self.log.read_text(errors="replace")[-most:]
        except FileNotFoundError:
            return "(no output)"


@dataclass
class Person:
    """One browser context with its one page: a guest once named (``guest_id``, as the
    server answered ``POST /api/guest``), or a spectator (no name, no guest id)."""

    label: str
    context: BrowserContext
    page: Page
    guest_id: str | None = None
    frames: list[Frame] = field(default_factory=list)
    sent: list[Frame] = field(default_factory=list)
    """What the page sent over its sockets (parsed), oldest first."""

    def tables(self, table_id: str | None = None) -> list[Frame]:
        """The ``table`` frames received, oldest first (of one table, if named)."""
        return [
            frame
            for frame in self.frames
            if frame.get("type") == "table" and table_id in (None, frame.get("id"))
        ]

    def shown(self, at_least: int = 0, timeout: float = WAIT_MS) -> Frame:
        """The table frame the page shows, once its version is ``at_least``: the page marks
        the version it has drawn on ``#table``; the frame itself was received (and handed
        to the monitor) before the page could draw it."""
        self.page.wait_for_function(
            "least => Number(document.querySelector('#table')?.dataset.version ?? -1) >= least",
            arg=at_least,
            timeout=timeout,
        )
        version = int(self.page.get_attribute("#table", "data-version") or -1)
        for frame in reversed(self.tables()):
            if frame["version"] == version:
                return frame
        raise AssertionError(f"{self.label}'s page shows version {version}, never received")

    def wait_frame(
        self, wanted: Callable[[Frame], bool], since: int = 0, timeout: float = WAIT_MS
    ) -> Frame:
        """The first frame received (already, or from now; the ``since``-th on) that
        ``wanted`` accepts. Frames reach the monitor only while Playwright runs, so this
        lets the page run in short slices until one arrives or the time is up."""
        deadline = time.monotonic() + timeout / 1000
        seen = since
        while True:
            for frame in self.frames[seen:]:
                if wanted(frame):
                    return frame
            seen = len(self.frames)
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{self.label} received no such frame in {timeout / 1000:g}s;"
                    f" the last: {self.frames[-3:]}"
                )
            self.page.wait_for_timeout(20)

    def refusals(self) -> list[str]:
        return [frame["text"] for frame in self.frames if frame.get("type") == "refused"]

    def send(self, message: Frame | str) -> None:
        """Send ``message`` (an object, or raw text) over the page's own open socket, as
        if the page had: its answer is the page's to show."""
        raw = message if isinstance(message, str) else json.dumps(message)
        self.page.evaluate(
            "raw => window.__sockets.filter(s => s.readyState === WebSocket.OPEN).at(-1).send(raw)",
            raw,
        )

    def forge(self, message: Frame | str) -> Frame:
        """Send ``message`` over a new socket the page opens (the page never sees the
        answer); the first frame after the greeting."""
        raw = message if isinstance(message, str) else json.dumps(message)
        answer: Frame = self.page.evaluate(FORGE, raw)
        return answer

    def hand(self, frame: Frame) -> dict[str, list[str]]:
        """Each tile of this person's hand in ``frame``, with the moves it has."""
        return {tile["tile"]: [m["move"] for m in tile["moves"]] for tile in frame["hand"] or []}


@dataclass
class Monitor:
    """Every frame every person's page receives, kept with whom it reached, and checked
    at the end (:meth:`check`), when each person's guest id is known (a page greeted as
    its guest may be a moment ahead of the test that named it).

    A ``table`` frame with a ``hand`` must be its owner's: received by a named person
    whose guest id is the id of the seat the frame calls theirs (``seats[you]``), with as
    many tiles as that seat holds. A hand in a spectator's frame, or in one whose ``you``
    is not the receiver, is a violation; so is a ``hello`` naming someone else, a frame
    that is not one JSON object, or an uncaught error in a page."""

    people: list[Person] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    def attach(self, person: Person) -> None:
        self.people.append(person)
        person.page.on("websocket", lambda socket: self._socket(person, socket))
        person.page.on(
            "pageerror", lambda error: self.violations.append(f"{person.label}'s page: {error}")
        )

    def _socket(self, person: Person, socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: self._frame(person, payload))
        socket.on("framesent", lambda payload: self._sent(person, payload))

    def _sent(self, person: Person, payload: str | bytes) -> None:
        try:
            person.sent.append(json.loads(payload))
        except ValueError:
            person.sent.append({"raw": payload})

    def _frame(self, person: Person, payload: str | bytes) -> None:
        try:
            frame = json.loads(payload)
        except ValueError:
            frame = None
        if not isinstance(frame, dict):
            self.violations.append(f"{person.label} got a frame not one JSON object: {payload!r}")
            return
        person.frames.append(frame)

    def check(self) -> None:
        """Fail with every violation seen, every hand sent to anyone but its owner, and
        any hidden tile named in what another person was sent (see :meth:`leaks`)."""
        found = self.violations + list(self.strangers()) + list(self.leaks())
        assert not found, "\n".join(found)

    def strangers(self) -> Iterator[str]:
        """A greeting or a hand that reached someone it does not belong to."""
        for person in self.people:
            for frame in person.frames:
                if frame.get("type") == "hello":
                    you = frame.get("you")
                    if you is not None and you.get("id") != person.guest_id:
                        yield f"{person.label} (guest {person.guest_id}) was greeted as {you}"
                if frame.get("type") == "table" and frame.get("hand") is not None:
                    yield from self._stranger_hand(person, frame)

    def _stranger_hand(self, person: Person, frame: Frame) -> Iterator[str]:
        where = f"table {frame.get('id')} v{frame.get('version')}"
        seat = frame.get("you")
        if person.guest_id is None:
            yield f"spectator {person.label} was sent a hand at {where}"
        elif seat is None:
            yield f"{person.label} was sent a hand at {where} with no seat"
        elif frame["seats"][seat]["id"] != person.guest_id:
            owner = frame["seats"][seat]
            yield (
                f"{person.label} (guest {person.guest_id}) was sent seat {seat}'s hand"
                f" ({owner.get('name')}, {owner.get('id')}) at {where}"
            )
        elif frame["seats"][seat].get("tiles") not in (None, len(frame["hand"])):
            yield (
                f"{person.label}'s hand at {where} has {len(frame['hand'])} tiles, the seat"
                f" {frame['seats'][seat]['tiles']}"
            )

    def leaks(self) -> Iterator[str]:
        """A tile in someone's hand at a version, named in the words (lines, card, alt) of
        the same version's frame sent to anyone else while the round is on."""
        hands: dict[tuple[str, int], dict[str, set[str]]] = {}
        for person in self.people:
            for frame in person.tables():
                if frame.get("hand"):
                    held = hands.setdefault((frame["id"], frame["version"]), {})
                    held[person.label] = {tile["tile"] for tile in frame["hand"]}
        for person in self.people:
            for frame in person.tables():
                if frame.get("ended") is not None:
                    continue
                words = json.dumps([frame.get("lines"), frame.get("card"), frame.get("alt")])
                held = hands.get((frame["id"], frame["version"]), {})
                for owner, tiles in held.items():
                    if owner == person.label:
                        continue
                    for tile in tiles:
                        a, b = tile.split("-")
                        if re.search(rf"(?<![\d-])({a}-{b}|{b}-{a})(?![\d-])", words):
                            yield (
                                f"{person.label} was told of {tile}, in {owner}'s hand, at"
                                f" table {frame['id']} v{frame['version']}: {words}"
                            )


@dataclass
class People:
    """Makes the people of a test, each in a browser context of their own."""

    browser: Browser
    bot: BotProcess
    monitor: Monitor
    made: list[Person] = field(default_factory=list)

    def arrive(self, label: str, *, locale: str = "en-US", width: int = 1280) -> Person:
        """Someone opens the page at ``/`` with their browser's ``locale``, unnamed."""
        context = self.browser.new_context(
            base_url=self.bot.url, locale=locale, viewport={"width": width, "height": 900}
        )
        context.set_default_timeout(WAIT_MS)
        context.add_init_script(SOCKETS_KEPT)
        person = Person(label, context, context.new_page())
        self.monitor.attach(person)
        self.made.append(person)
        person.page.goto("/")
        return person

    def guest(self, name: str, *, locale: str = "en-US", width: int = 1280) -> Person:
        """Someone opens the page and names themselves ``name``."""
        person = self.arrive(name, locale=locale, width=width)
        join_as(person, name)
        return person


def join_as(person: Person, name: str) -> None:
    """``person`` names themselves in the page's form; their guest id is what the server
    answered, and they are named once their socket is greeted as them."""
    page = person.page
    if page.url in ("", "about:blank"):
        page.goto("/")
    page.fill("form#guest input[name=name]", name)
    with page.expect_response(
        lambda answer: urlsplit(answer.url).path == "/api/guest" and answer.request.method == "POST"
    ) as answered:
        page.press("form#guest input[name=name]", "Enter")
    guest = answered.value.json()
    assert guest["name"] == name, guest
    person.guest_id = guest["id"]
    person.wait_frame(
        lambda frame: (
            frame.get("type") == "hello" and (frame.get("you") or {}).get("id") == guest["id"]
        )
    )


def smallest_target(person: Person, game: str) -> int:
    """The smallest target ``game`` allows, from the ``hello`` the page was sent."""
    hello = next(frame for frame in reversed(person.frames) if frame.get("type") == "hello")
    about = next(entry for entry in hello["games"] if entry["game"] == game)
    least: int = min(about["targets"] or [1])
    return least


def open_table(host: Person, game: str, target: int | None = None) -> str:
    """``host`` opens a table of ``game`` from the lobby's form (the smallest target the
    game allows unless given); its id, once the host's page shows it."""
    page = host.page
    page.select_option("form#open select[name=game]", game)
    page.fill("form#open input[name=target]", str(target or smallest_target(host, game)))
    before = len(host.frames)
    page.click("form#open button[type=submit]")
    opened = host.wait_frame(lambda frame: frame.get("type") == "opened", since=before)
    table_id: str = opened["table"]
    host.wait_frame(lambda frame: frame.get("type") == "table" and frame["id"] == table_id)
    host.shown()
    return table_id


def seat_everyone(people: People, game: str, names: list[str], computers: int = 0) -> list[Person]:
    """The first name opens a table of ``game``, the others join by its link, the host
    seats ``computers`` computers and starts; the players, host first."""
    players = [people.guest(name) for name in names]
    table_id = open_table(players[0], game)
    for player in players[1:]:
        joined = sit_down(player, table_id)
        players[0].shown(joined["version"])  # the host's page has seen them sit down
    for _ in range(computers):
        act(players[0], "button[data-level=easy]")
    frame = act(players[0], "button[data-action=start]")
    assert frame["status"] == "playing", frame["card"]
    return players


def act(person: Person, selector: str) -> Frame:
    """``person`` clicks ``selector`` on the table shown; the table once it has moved on."""
    version = person.shown()["version"]
    person.page.click(selector)
    return person.shown(version + 1)


def against_the_computer(host: Person, game: str = "cross") -> Frame:
    """``host`` opens a table of ``game`` (its smallest target), seats an easy computer
    and starts it: the table once started."""
    open_table(host, game)
    act(host, "button[data-level=easy]")
    return act(host, "button[data-action=start]")


def sit_down(person: Person, table_id: str) -> Frame:
    """``person`` opens the table's link and joins it."""
    person.page.goto(f"/t/{table_id}")
    person.wait_frame(lambda frame: frame.get("type") == "table" and frame["id"] == table_id)
    frame = act(person, "button[data-action=join]")
    assert frame["you"] is not None, f"{person.label} is not seated: {frame['seats']}"
    return frame


def play_turn(person: Person, frame: Frame, style: str = "click") -> str:
    """``person`` plays their turn in ``frame`` (the one their page shows) through the
    page: the first tile with a legal move, by ``style`` (``click``; ``drag`` onto its
    end; ``keys``: the keyboard alone), else draw, else pass; returns how (a tile played
    on the empty table, where there is no end to drag to, is clicked). Returns once the
    page shows the table moved on."""
    page = person.page
    moves = [(tile, moves) for tile, moves in person.hand(frame).items() if moves]
    if not moves:
        action = "draw" if frame["can"]["draw"] else "pass"
        assert frame["can"][action], f"{person.label} can neither move, draw nor pass: {frame}"
        act(person, f"button[data-action={action}]")
        return action
    tile, tile_moves = moves[0]
    end = _end_of(frame, tile, tile_moves[0])
    tile_button = f'#table button[data-tile="{tile}"]'
    end_button = f'[data-end="{end}"][data-playable=true]'
    how = style if style != "drag" or end is not None else "click"
    if how == "drag":
        _drag(page, tile_button, end_button)
    elif how == "keys":
        _press_to(page, "#table button[data-tile]", "Tab")  # the hand is one tab stop
        _press_to(page, tile_button, "ArrowRight")
        page.keyboard.press("Enter")
        if len(tile_moves) > 1:  # the focus is on the first end the tile can go to
            _press_to(page, end_button, "Tab")
            page.keyboard.press("Enter")
    else:
        page.click(tile_button)
        if len(tile_moves) > 1:
            page.click(end_button)
    person.shown(frame["version"] + 1)
    return how


def _press_to(page: Page, selector: str, key: str, most: int = 80) -> None:
    """Press ``key`` until the focus is on ``selector`` (at most ``most`` times)."""
    for _ in range(most):
        if page.evaluate("wanted => document.activeElement?.matches(wanted) ?? false", selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{most} presses of {key} never reached {selector}")


def _end_of(frame: Frame, tile: str, move: str) -> str | None:
    """The end ``move`` plays ``tile`` on, as the hand's moves name it."""
    for entry in frame["hand"]:
        if entry["tile"] == tile:
            for option in entry["moves"]:
                if option["move"] == move:
                    end: str | None = option.get("end")
                    return end
    return None


def _drag(page: Page, tile: str, end: str) -> None:
    """Press on the tile, move off it (the page starts a drag and lights the ends the
    tile can go to), move onto a lit end and let go: pointer events, as a hand does."""
    page.locator(tile).scroll_into_view_if_needed()
    start = page.locator(tile).bounding_box()
    assert start is not None, tile
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] - 20, steps=4)
    target = page.locator(end)
    target.wait_for(timeout=WAIT_MS)
    target.scroll_into_view_if_needed()  # the pointer stays captured by the tile meanwhile
    box = target.bounding_box()
    assert box is not None, end
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()


def play_game(
    people: list[Person], styles: dict[str, str] | None = None, most: int | None = None
) -> tuple[Frame, dict[str, Counter[str]]]:
    """Play the table the first of ``people`` shows until the game is over (or ``most``
    turns have been played in the pages): whoever's turn it is plays it in their page
    (in their ``styles`` entry, else by click); the computers play their own. The last
    frame, and how each person played."""
    styles = styles or {}
    by_id = {person.guest_id: person for person in people}
    ways: dict[str, Counter[str]] = {person.label: Counter() for person in people}
    frame = people[0].shown()
    while frame["status"] == "playing" and (
        most is None or sum(way.total() for way in ways.values()) < most
    ):
        turn = frame["turn"]
        mover = by_id.get(frame["seats"][turn]["id"]) if turn is not None else None
        if mover is None:  # a computer's turn, or the round's end: the table moves itself
            frame = people[0].shown(frame["version"] + 1)
            continue
        current = mover.shown(frame["version"])
        if current["version"] == frame["version"]:
            ways[mover.label][play_turn(mover, current, styles.get(mover.label, "click"))] += 1
            current = mover.shown(frame["version"] + 1)
        frame = current
    return frame, ways


def until_a_choice(person: Person, frame: Frame) -> tuple[Frame, str]:
    """Play on from ``frame`` (``person``'s turns by click, the computers their own) until
    it is ``person``'s turn with a tile that fits several ends; that frame and tile. A
    Cross lead is a spinner with four ends alike, so one comes early."""
    while frame["status"] == "playing":
        if frame["turn"] is not None and frame["turn"] == frame["you"]:
            several = [tile for tile, moves in person.hand(frame).items() if len(moves) > 1]
            if several:
                return frame, several[0]
            play_turn(person, frame)
        frame = person.shown(frame["version"] + 1)
    raise AssertionError(f"{person.label} never held a tile that fits several ends")


def until_a_round_ends(person: Person, frame: Frame, style: str = "click") -> Frame:
    """Play on from ``frame`` (``person``'s turns in ``style``, the computers their own)
    until a round's end is on the page (its panel, ``#ended``), the game still going:
    the frame then."""
    while not person.page.locator("#ended").count():
        assert frame["status"] == "playing", "the game ended in one round"
        if frame["turn"] is not None and frame["turn"] == frame["you"]:
            play_turn(person, frame, style)
        frame = person.shown(frame["version"] + 1)
    return frame
