"""The fake Discord's fixtures (``fake_discord``, ``error_log``) for every test folder, and
a check that the test run leaves no thread behind.

A non-daemon thread still running when the tests are done (the database threads of a
store nobody closed, say) keeps the interpreter from exiting: the run would hang at
shutdown after every test passed. The check turns that into a failed run that
names the threads, and then ends the process instead of waiting on them."""

from __future__ import annotations

import os
import sys
import threading
import time

import pytest

from tests.data.databases import HOW_TO_RUN

pytest_plugins = ["tests.fakediscord.fixtures"]

GRACE_SECONDS = 5.0
"""How long threads get to finish after the last test: a connection closed at the very end
stops its worker thread a moment later."""

_leaked: list[str] = []
_exit_status: list[int] = []


def _still_running() -> list[threading.Thread]:
    """The threads that would keep the interpreter waiting at exit, after a grace period."""
    give_up = time.monotonic() + GRACE_SECONDS
    waiting = []
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.daemon:
            continue
        thread.join(timeout=max(0.0, give_up - time.monotonic()))
        if thread.is_alive():
            waiting.append(thread)
    return waiting


def _describe(thread: threading.Thread) -> str:
    frame = sys._current_frames().get(thread.ident or -1)
    where = f" in {frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else ""
    return f"{thread.name!r}{where}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Storage tests skipped for want of a PostgreSQL server: one line that says how to
    run them (each test's own skip line is shown only with ``-rs``)."""
    skipped = terminalreporter.stats.get("skipped", [])
    unreachable = [report for report in skipped if HOW_TO_RUN in str(report.longrepr)]
    if unreachable:
        terminalreporter.write_line(f"{len(unreachable)} storage tests skipped: {HOW_TO_RUN}")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when a test left a non-daemon thread running."""
    _leaked[:] = [_describe(thread) for thread in _still_running()]
    if not _leaked:
        return
    message = (
        f"{len(_leaked)} non-daemon thread(s) still running after the tests, which would keep "
        "the process from exiting (a store not closed?): " + ", ".join(_leaked)
    )
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_sep("=", "threads left running", red=True)
        reporter.write_line(message, red=True)
    else:
        sys.stderr.write(message + "\n")
    if session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    _exit_status[:] = [session.exitstatus]


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """With threads left running, exit now with the failed status: the interpreter's normal
    exit would wait for them, for ever."""
    if _leaked:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status[0])
