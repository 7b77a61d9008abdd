"""What kind of game a round class is, for the layers above: the enums its trait class
attributes take (as ``chess.variant`` classes carry theirs).

The traits themselves are class attributes of :class:`~bot.engine.round.Round` and its
games — ``teams``, ``fixed_target``, ``exact_target``, ``drawing``, ``layout_kind``,
``scores_plays``, ``has_caps``, ``rotates_lead``, ``player_counts``, ``hand_size()``,
``side_of()``, ``partners()`` — so that a picture, a computer player or a message asks
the game what it is instead of testing its name.
"""

from __future__ import annotations

import enum


class Drawing(enum.Enum):
    """How a seat that cannot play gets a tile."""

    ONE_THEN_PASS = "one then pass"
    """Draw one tile; play it if it fits, else pass (R-CR-5, R-MC-3)."""
    UNTIL_PLAYABLE = "until playable"
    """Draw until a tile fits and play it, or pass when none are left (R-MG-5)."""
    NO_BONEYARD = "no boneyard"
    """Every tile is dealt: a seat that cannot play passes (R-MI-1, R-MI-4)."""


class LayoutKind(enum.Enum):
    """The shape the tiles are laid in."""

    SPINNER = "spinner"
    """A double in the middle with four arms, N E S W (R-SP)."""
    LINE = "line"
    """One line with two ends, L and R (R-MI-2)."""
