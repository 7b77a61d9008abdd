"""The browser tests' fixtures: Debian's Chromium driven by Playwright, the bot serving
the browser face as its own process, people in browser contexts, and the frame monitor.

Without Chromium or Playwright the whole folder is skipped as one, in one line of the
summary saying how to run it; with ``DOMINO_BROWSER_TESTS=required`` (CI sets it) each
test fails instead, saying what is missing. Playwright never downloads a browser here:
it launches the one at ``CHROMIUM``, else ``chromium`` on the PATH.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.harness import BotProcess, Monitor, People
from tests.browser.skipping import launched, module_or_skip

if TYPE_CHECKING:
    from playwright.sync_api import Browser

_screenshots: list[Path] = []


def pytest_pycollect_makemodule(
    module_path: Path, parent: pytest.Collector
) -> pytest.Module | None:
    return module_or_skip(module_path, parent)


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole folder, closed after its last test (before any
    other folder's asyncio tests run)."""
    with launched() as browser:
        yield browser


@pytest.fixture
def bot(tmp_path: Path) -> Iterator[BotProcess]:
    """The bot serving the browser face on a database of this test's own. At the end it
    must still run, stop on SIGTERM, and have logged no traceback."""
    process = BotProcess(tmp_path / "bot")
    process.start()
    yield process
    running = process.process is not None and process.process.poll() is None
    status = process.stop()
    assert running, f"the bot ended during the test:\n{process.output()}"
    assert status == 0, f"the bot exited {status} on SIGTERM:\n{process.output()}"
    for log in sorted(process.folder.glob("bot-*.log")):
        text = log.read_text(errors="replace")
        assert "Traceback" not in text, f"{log.name}:\n{text[-4000:]}"


@pytest.fixture
def monitor() -> Iterator[Monitor]:
    """Every frame of every person's page, checked; the test fails at the end on any
    hand sent to anyone but its owner."""
    watching = Monitor()
    yield watching
    watching.check()


@pytest.fixture
def people(browser: Browser, bot: BotProcess, monitor: Monitor) -> Iterator[People]:
    made = People(browser, bot, monitor)
    yield made
    for person in made.made:
        person.context.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots for review go (a temporary folder, never the repository);
    named at the end of the run."""
    folder = tmp_path_factory.mktemp("screenshots")
    _screenshots.append(folder)
    return folder


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Where the screenshots for review were written."""
    for folder in _screenshots:
        shots = sorted(folder.glob("*.png"))
        if shots:
            terminalreporter.write_line(f"{len(shots)} screenshots for review in {folder}")
