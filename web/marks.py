"""The browser's marks (``words.marks``): the page renders ``**bold**``, `` `code` `` and
a moment ``<t:1700000000>`` into elements with plain text (never HTML), and a backslash
keeps the next character as it is, so a name written ``**me**`` shows as typed. Members
are named, not pinged."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

_SPECIAL = re.compile(r"([\\*`<])")


class WebMarks:
    """Marks for one table's words: ``names`` gives a member's name by id (a guest's
    seat), ``table_in`` a local channel's table id (a refusal naming where one sits)."""

    slash_commands = False

    def __init__(self, names: Mapping[int, str], table_in: Callable[[int], str | None]) -> None:
        self._names = names
        self._table_in = table_in

    def member(self, user_id: int) -> str:
        return self.name(self._names.get(user_id, "?"))

    def channel(self, channel_id: int) -> str:
        return self.code(self._table_in(channel_id) or "?")

    def role(self, role_id: int) -> str:
        """The browser knows no server's roles (nothing it shows names one)."""
        return "?"

    def relative_time(self, when: float) -> str:
        """The moment, which the page shows on the reader's own clock (it counts the
        turn down beside it)."""
        return f"<t:{int(when)}>"

    def date(self, when: float) -> str:
        return datetime.fromtimestamp(int(when), UTC).strftime("%Y-%m-%d")

    def name(self, text: str) -> str:
        return _SPECIAL.sub(r"\\\1", text)

    def bold(self, text: str) -> str:
        return f"**{text}**"

    def code(self, text: str) -> str:
        return "`" + self.name(text) + "`"
