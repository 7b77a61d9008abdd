"""A card: the words of a message that a face lays out as a panel (Discord: an embed)
with a title, a description, named fields and a footer. The words return cards; the face
alone chooses how they look, its colours by the card's tone, and any picture it adds."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Tone(enum.Enum):
    """What a card announces, for the face to colour it."""

    TABLE = "table"
    """A table, its rounds and its players' numbers."""
    WINNER = "winner"
    """A game's end: who won."""


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: str
    inline: bool = True
    """May stand beside its neighbours (a narrow column) rather than on a row alone."""


@dataclass(frozen=True, slots=True)
class Card:
    title: str
    description: str | None = None
    fields: tuple[Field, ...] = ()
    footer: str | None = None
    tone: Tone = Tone.TABLE
