"""Explicit deals for rule tests (R-ALL-3: a round can be built from chosen hands)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import TILES, Options, Round, Tile


def tiles(text: str) -> list[Tile]:
    """``"6-6 6-5 4-4"`` → tiles."""
    return [Tile.parse(t) for t in text.split()]


def build(
    game: type[Round],
    hands: Sequence[str],
    boneyard: str = "",
    leader: int | None = None,
    *,
    scores: Sequence[int] | None = None,
    **options: object,
) -> Round:
    """A round with the given hands. The tiles nobody was given go to the end of the
    boneyard (draw order: the ``boneyard`` given first), or, in Milo, which has no
    boneyard, fill the hands up to seven in set order."""
    dealt = [tiles(h) for h in hands]
    bone = tiles(boneyard)
    used = {t for hand in dealt for t in hand} | set(bone)
    rest = [t for t in TILES if t not in used]
    if game.game == "milo":
        for hand in dealt:
            while len(hand) < 7:
                hand.append(rest.pop(0))
    else:
        bone += rest
    opts = Options.for_game(game, len(hands), **options)  # type: ignore[arg-type]
    return game(dealt, bone, leader, options=opts, scores=scores)


def play(round_: Round, *moves: str) -> Round:
    """Play moves given as text, in turn order."""
    from bot.engine import Move

    for text in moves:
        round_.play(Move.parse(text))
    return round_


def legal(round_: Round) -> set[str]:
    return {m.text for m in round_.legal_moves()}


BLOCKING_MOVES = (
    # Seat 0 leads 3-3 and the cross is built; then every arm is led to a 0 until all
    # seven 0 tiles are on the table: every end shows 0 and nobody can play.
    "3-3", "3-0 N", "3-1 E", "3-2 S", "3-4 W",
    "0-0 N", "1-0 E", "2-0 S", "4-0 W", "0-5 W", "5-6 W", "6-0 W",
)  # fmt: skip
SEAT_0_PLAYS = "3-3 3-1 4-3 1-0 4-0 6-5"
SEAT_1_PLAYS = "3-0 3-2 0-0 2-0 5-0 6-0"


def blocked_round(
    game: type[Round], keeps: tuple[str, str], boneyard: str = "5-5 6-6", **options: object
) -> Round:
    """A two-seat spinner round that ends blocked after :data:`BLOCKING_MOVES`, with
    ``keeps`` left in the hands. Seat 0 must hold no double above 3-3 (it leads its
    highest double); the two boneyard tiles are never drawn (in Merry-Go-Round, pass
    ``keep_last_two=True``)."""
    round_ = build(
        game,
        [f"{SEAT_0_PLAYS} {keeps[0]}", f"{SEAT_1_PLAYS} {keeps[1]}"],
        boneyard,
        leader=0,
        **options,
    )
    play(round_, *BLOCKING_MOVES)
    return round_
