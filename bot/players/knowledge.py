"""What a seat can know from its view: which tiles it has not seen, and which tiles each
other seat cannot be holding, because it passed or drew while they would have fitted
(R-ALL-4: a player who can play must play). What fitted at each pass and draw is the
engine's to say (:func:`bot.engine.reveals`): no rule is written a second time here.

A constraint only holds for the tiles a player held when it was learned: a tile drawn
later may be anything. So each seat's hidden hand is kept as *lots*: the dealt tiles,
then one lot per drawn tile, each with the mask of tiles it cannot be. Every pass or draw
bans what fitted then from every lot the seat holds, so an older lot's ban always
contains a newer one's."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine import DRAW, PASS, Move, SeatView, Tile, reveals
from bot.engine.tiles import FULL_SET, mask_of


@dataclass
class Lot:
    count: int
    """How many of the seat's hidden tiles belong to this lot."""
    banned: int
    """Mask of the tiles none of them can be."""


@dataclass
class Knowledge:
    unseen: int
    """Mask of the tiles this seat has not seen: in other hands or the boneyard."""
    lots: list[list[Lot]] = field(default_factory=list)
    """Per seat, its hidden tiles as lots, oldest first (none for the seat itself)."""

    def lacking(self, seat: int) -> int:
        """Mask of the tiles ``seat`` certainly does not hold now (every lot bans them)."""
        mask = FULL_SET
        for lot in self.lots[seat]:
            mask &= lot.banned
        return mask if self.lots[seat] else 0


def infer(view: SeatView) -> Knowledge:
    """Replay the public history: who played, drew and passed, and what fitted then."""
    public = view.public
    unseen = FULL_SET & ~mask_of(view.hand) & ~mask_of(public.laid)
    dealt = list(public.hand_sizes)
    for seat, move in public.history:
        if move is DRAW:
            dealt[seat] -= 1
        elif move is not PASS:
            dealt[seat] += 1
    lots = [[Lot(count, 0)] if count else [] for count in dealt]
    shown = {reveal.index: reveal for reveal in reveals(public)}
    previous: tuple[int, Move] | None = None
    drawn_fits = 0
    for index, (seat, move) in enumerate(public.history):
        reveal = shown.get(index)
        if reveal is not None:
            if reveal.drawn_only:
                # After a draw only the drawn tile may be played (R-CR-5, R-MC-5): the
                # pass shows just that it does not fit. Kept within the older lots' ban
                # so bans stay nested (a draw that kills Maltese arms changes the fits).
                lots[seat][-1].banned |= reveal.fits & drawn_fits
            else:
                for lot in lots[seat]:
                    lot.banned |= reveal.fits
            if move is DRAW:
                lots[seat].append(Lot(1, 0))
                drawn_fits = reveal.fits
        else:
            assert move.tile is not None
            _take(lots[seat], move.tile, previous == (seat, DRAW))
        previous = (seat, move)
    lots[view.seat] = []
    return Knowledge(unseen, lots)


def _take(lots: list[Lot], tile: Tile, just_drew: bool) -> None:
    """Remove a played tile from the lot it came from. Right after a draw it is the
    drawn tile (R-CR-5, R-MG-5, R-MC-5: only it may be played). Else it is counted
    against the oldest lot that may hold it: if it really came from a newer one, the one
    left over is treated as newer, with a looser ban, so no true deal is ruled out."""
    chosen = len(lots) - 1
    if not just_drew:
        chosen = next((i for i, lot in enumerate(lots) if not lot.banned & tile.bit), chosen)
    lots[chosen].count -= 1
    if not lots[chosen].count:
        del lots[chosen]
