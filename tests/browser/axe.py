"""The accessibility audit the browser's and the Activity's tests share: axe-core
(bundled by ``axe-playwright-python``, nothing fetched) run with its WCAG 2.1 A and AA
rules on the page a person shows now, and a log of what the page's live region says
(what axe cannot judge: whether each move is said once).

Imported only by test modules that the folders' conftests collect once Playwright is
there (``tests.browser.skipping``), so it may import ``axe_playwright_python`` itself.
"""

from __future__ import annotations

import re
from typing import Any

from axe_playwright_python.sync_playwright import Axe

from tests.browser.harness import Person

WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
"""The rules of WCAG 2.0 and 2.1 at levels A and AA, as axe-core tags them."""

AXE = Axe()

LIVE_LOG = """
document.addEventListener("DOMContentLoaded", () => {
  const live = document.getElementById("live");
  if (!live) return; // a document that is not the page (Discord's frame around it)
  window.__said = [];
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) window.__said.push(node.textContent);
  }).observe(live, { childList: true, subtree: true });
});
"""
"""Run before the page's own code: everything put in the live region (what a screen
reader says) is kept, in order, in ``window.__said``."""


def audit(person: Person, screen: str) -> list[str]:
    """axe-core's WCAG 2.1 A and AA violations on the page ``person`` shows now, one line
    per element: the screen, the rule, where, and what is wrong. Motion is reduced
    first, so a tile still arriving is audited where it comes to rest."""
    person.page.emulate_media(reduced_motion="reduce")
    results = AXE.run(
        person.page,
        options={"runOnly": {"type": "tag", "values": WCAG_21_AA}, "resultTypes": ["violations"]},
    )
    found: list[dict[str, Any]] = results.response["violations"]
    return [
        f"{screen}: {violation['id']} at {' '.join(map(str, node['target']))}:"
        f" {node.get('failureSummary', violation['help'])}"
        for violation in found
        for node in violation["nodes"]
    ]


TILE = re.compile(r"(?<![\d-])(\d)-(\d)(?![\d-])")
"""A tile in a move's words (``6-4``), not part of a longer figure."""


def tiles_told(person: Person) -> dict[str, str]:
    """Each move's line the person's page was sent that names a tile, with that tile."""
    return {
        line: match[0]
        for frame in person.tables()
        for line in frame["lines"]
        if (match := TILE.search(line))
    }


def assert_each_said_once(person: Person, told: dict[str, str], your_turn: str) -> None:
    """What the page's live region said (``LIVE_LOG``) names each tile of ``told`` once,
    whichever way round, and said "your turn" at least once."""
    said: list[str] = person.page.evaluate("window.__said")
    for line, tile in told.items():
        a, b = tile.split("-")
        either = re.compile(rf"(?<![\d-])({a}-{b}|{b}-{a})(?![\d-])")
        times = sum(len(either.findall(text)) for text in said)
        assert times == 1, f"{line!r}: {tile} said {times} times:\n" + "\n".join(said)
    assert your_turn in said, said
