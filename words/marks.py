"""The markup of the face that shows the words: how it mentions a member or a channel,
shows a time, keeps a name from formatting, stresses or quotes. The words never write
markup themselves; they ask the marks of the moment, so each face shows the same
sentences its own way (Discord: ``<@id>``, ``<t:…:R>``, escaped markdown; a browser:
its own elements; tests: plain text).

Chosen like the language of the moment: a face installs its marks once for its process
(:func:`install`), and a block that speaks for another face says so with
:func:`using`; otherwise the words are plain text (:data:`PLAIN`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Protocol


class Marks(Protocol):
    """What a face must say its own way."""

    slash_commands: bool
    """Whether the face has the ``/domino`` commands, so a sentence may point to one (a
    browser has none: the same sentence says where to click instead)."""

    def member(self, user_id: int) -> str:
        """A member, so that the face shows (and may notify) them."""
        ...

    def channel(self, channel_id: int) -> str: ...

    def role(self, role_id: int) -> str:
        """A server's role, shown by its name where the face can (never pinging it)."""
        ...

    def relative_time(self, when: float) -> str:
        """A moment (Unix seconds) as "in 2 minutes", kept current by the face if it can."""
        ...

    def date(self, when: float) -> str:
        """The day of a moment (Unix seconds), in the reader's own calendar if it can."""
        ...

    def name(self, text: str) -> str:
        """A name or any text a user typed, made harmless: it neither pings nor formats."""
        ...

    def bold(self, text: str) -> str: ...

    def code(self, text: str) -> str:
        """Text shown as typed (a game's id, a quoted tile): copied exactly."""
        ...


class PlainMarks:
    """Plain text: for tests, logs and faces that mark the words up themselves."""

    slash_commands = True

    def member(self, user_id: int) -> str:
        return f"@{user_id}"

    def channel(self, channel_id: int) -> str:
        return f"#{channel_id}"

    def role(self, role_id: int) -> str:
        return f"@&{role_id}"

    def relative_time(self, when: float) -> str:
        return datetime.fromtimestamp(int(when), UTC).strftime("%Y-%m-%d %H:%M:%S UTC")

    def date(self, when: float) -> str:
        return datetime.fromtimestamp(int(when), UTC).strftime("%Y-%m-%d")

    def name(self, text: str) -> str:
        return text

    def bold(self, text: str) -> str:
        return text

    def code(self, text: str) -> str:
        return text


PLAIN: Marks = PlainMarks()

_installed: list[Marks] = [PLAIN]
"""The process's face's marks (one slot, so :func:`install` needs no global statement)."""
_chosen: ContextVar[Marks | None] = ContextVar("marks", default=None)


def current() -> Marks:
    """The marks the words use now."""
    return _chosen.get() or _installed[0]


def install(marks: Marks) -> None:
    """The marks of the face this process serves, wherever no block chose others: the
    Discord face installs Discord's when its package is imported."""
    _installed[0] = marks


@contextlib.contextmanager
def using(marks: Marks) -> Iterator[Marks]:
    """Mark the words inside the block (only) with ``marks``."""
    token = _chosen.set(marks)
    try:
        yield marks
    finally:
        _chosen.reset(token)
