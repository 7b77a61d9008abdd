"""Discord's markup for the words (``words.marks``): mentions, timestamps that each
reader's app shows in their own time zone, and escaped names."""

from __future__ import annotations

from functools import lru_cache

import discord

from rendering import fonts
from rendering.palette import LEFT_TO_RIGHT_MARK
from rendering.table import NAMES_KEPT


class DiscordMarks:
    slash_commands = True

    def member(self, user_id: int) -> str:
        return f"<@{user_id}>"

    def channel(self, channel_id: int) -> str:
        return f"<#{channel_id}>"

    def role(self, role_id: int) -> str:
        return f"<@&{role_id}>"

    def relative_time(self, when: float) -> str:
        return f"<t:{int(when)}:R>"

    def date(self, when: float) -> str:
        return f"<t:{int(when)}:d>"

    def name(self, text: str) -> str:
        return _escaped(text)

    def bold(self, text: str) -> str:
        return f"**{text}**"

    def code(self, text: str) -> str:
        """A backtick inside would end the code span: it is shown as a look-alike."""
        return f"`{text.replace('`', 'ˋ')}`"


@lru_cache(maxsize=NAMES_KEPT)
def _escaped(text: str) -> str:
    """A display name as plain text: no mention fires, no markdown applies; and one in
    letters read right to left ends with a left-to-right mark, as on the pictures
    (``rendering.palette.fit``): else the number after it on a line ("שרה: 7 tiles")
    is shown on its left. Kept, as many names as the pictures keep cut to their room:
    a table's messages name the same players again and again, and discord.py escapes
    with several passes of regular expressions."""
    escaped = discord.utils.escape_markdown(discord.utils.escape_mentions(text))
    return escaped + LEFT_TO_RIGHT_MARK if fonts.right_to_left(text) else escaped


DISCORD = DiscordMarks()
