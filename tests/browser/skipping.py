"""Whether the tests that drive Chromium can run here, for every folder that has them
(``tests/browser``, ``tests/activity``): without Chromium or Playwright a folder is
skipped as one, in one line of the summary saying how to run it; with
``DOMINO_BROWSER_TESTS=required`` (CI sets it) each test fails instead, saying what is
missing. Playwright never downloads a browser here: it launches the one at ``CHROMIUM``,
else ``chromium`` on the PATH."""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

HOW_TO_RUN = "browser tests skipped: install Chromium (apt-get install chromium) to run them"
REQUIRED = "DOMINO_BROWSER_TESTS"
"""Set to ``required``, a missing browser fails the tests instead of skipping them."""


def chromium() -> str | None:
    """The Chromium to drive: ``CHROMIUM`` if set, else ``chromium`` on the PATH."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium")


def _missing() -> str | None:
    """Why Chromium cannot be driven here, or None."""
    if importlib.util.find_spec("playwright") is None:
        return "Playwright is not installed (pip install -r requirements/test.txt)"
    path = chromium()
    if path is None or not os.access(path, os.X_OK):
        return f"no Chromium at {path or 'chromium on the PATH'} (set CHROMIUM to its path)"
    return None


MISSING = _missing()


class _WithoutBrowser(pytest.Module):
    """A test module on a machine with no browser to run it in: skipped as a whole, so
    the summary folds every module into one line."""

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        pytest.skip(HOW_TO_RUN)


def module_or_skip(module_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    """A folder's ``pytest_pycollect_makemodule``: the module as usual, or skipped."""
    if MISSING is None or os.environ.get(REQUIRED) == "required":
        return None
    return _WithoutBrowser.from_parent(parent, path=module_path)


def fail_if_missing() -> None:
    """In a fixture that needs the browser: fail when it is required and missing."""
    if MISSING is not None:
        pytest.fail(f"{MISSING}; {REQUIRED}=required needs them")


@contextmanager
def launched() -> Iterator[Browser]:
    """Headless Chromium, driven by Playwright, for a folder's tests (failing when it is
    required and missing), closed at the end."""
    fail_if_missing()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium())
        yield browser
        browser.close()
