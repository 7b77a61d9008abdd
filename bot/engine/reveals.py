"""What a pass or a draw shows about the hand it came from: the tiles that fitted at
that moment, by the engine's own fit rules (R-ALL-4: a player who holds a tile that fits
must play it).

A computer player learns from this without a copy of the rules: a seat that drew held
none of the tiles that fitted then; a seat that passed held none of those that fit then,
except that a pass right after the seat's own draw shows only that the drawn tile does
not fit, for after a draw no other tile may be played that turn (R-CR-5, R-MC-5).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.moves import DRAW, PASS, Move
from bot.engine.tiles import Tile, tiles_of
from bot.engine.views import PublicView


@dataclass(frozen=True, slots=True)
class Reveal:
    """A pass or a draw in a round's history, and what fitted when it was made."""

    index: int
    """Its place in :attr:`PublicView.history`."""
    seat: int
    move: Move
    """:data:`DRAW` or :data:`PASS`."""
    fits: int
    """Mask of the tiles that could have been played then (``Tile.bit``)."""
    drawn_only: bool
    """A pass right after the seat's own draw: only the drawn tile was playable, so the
    pass shows that tile is not in ``fits``, and nothing about the rest of the hand."""

    @property
    def tiles(self) -> frozenset[Tile]:
        """``fits`` as tiles."""
        return frozenset(tiles_of(self.fits))


def reveals(view: PublicView) -> tuple[Reveal, ...]:
    """Every pass and draw of the round ``view`` shows, with what fitted at the time:
    the public history replayed on a round that holds the layout and the boneyard's size
    but no tile anyone holds."""
    variant = view.variant
    draws = sum(1 for _, move in view.history if move is DRAW)
    shadow = variant.__new__(variant)
    shadow._restore(
        view.options,
        [0] * view.players,
        [0] * (view.boneyard_count + draws),
        0,
        view.leader,
        view.lead_passed,
        view.leader,
        False,
        view.start_scores,
        view.start_scores,
        [],
        [],
        None,
        None,
    )
    found = []
    previous: tuple[int, Move] | None = None
    for index, (seat, move) in enumerate(view.history):
        if move is DRAW or move is PASS:
            drawn_only = move is PASS and previous == (seat, DRAW)
            found.append(Reveal(index, seat, move, shadow._playable, drawn_only))
            if move is DRAW:
                shadow.boneyard.pop()
                shadow._after_draw()
        else:
            assert move.tile is not None
            shadow._lay(move.tile, move.end)
            shadow._refresh_fits()
        previous = (seat, move)
    return tuple(found)
