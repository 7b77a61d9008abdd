"""The Discord face's helpers, which the cogs share: the command tree, the buttons, the
announcer, answering a member, and what turns the words (``words``) into Discord's
messages. Its markup is the words' markup in this process."""

from discord_face.marks import DISCORD
from words import marks

marks.install(DISCORD)
