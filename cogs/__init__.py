"""The Discord face: the cogs, and the helpers that turn the words (``words``) into
Discord's messages. Its markup is the words' markup in this process."""

from cogs.marks import DISCORD
from words import marks

marks.install(DISCORD)
