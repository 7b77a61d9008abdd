"""The Discord face's look of the words' cards (``words.cards``): each card as an embed,
coloured by its tone."""

from __future__ import annotations

import discord

from words.cards import Card, Tone

COLOURS = {
    Tone.TABLE: discord.Colour.from_rgb(46, 125, 50),
    Tone.WINNER: discord.Colour.gold(),
}


def embed(card: Card) -> discord.Embed:
    """``card`` as an embed (a picture, if any, is the caller's to set)."""
    shown = discord.Embed(title=card.title, description=card.description, colour=COLOURS[card.tone])
    for field in card.fields:
        shown.add_field(name=field.name, value=field.value, inline=field.inline)
    if card.footer is not None:
        shown.set_footer(text=card.footer)
    return shown
