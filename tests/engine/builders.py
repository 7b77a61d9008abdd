"""Explicit deals for rule tests (R-ALL-3: a round can be built from chosen hands, and is
held to the game's rules: full hands, each tile once, the leader the rules name)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypedDict, TypeVar, Unpack

from bot.engine import TILES, Deal, Move, Options, Round, Tile, find_variant

R = TypeVar("R", bound=Round)


class OptionKeywords(TypedDict, total=False):
    """The options :meth:`Options.for_game` takes by keyword, for tests that pass them on."""

    target: int
    keep_last_two: bool
    match_games: int


def tiles(text: str) -> list[Tile]:
    """``"6-6 6-5 4-4"`` → tiles."""
    return [Tile.parse(t) for t in text.split()]


def build(
    game: type[R],
    hands: Sequence[str],
    boneyard: str = "",
    leader: int | None = None,
    *,
    scores: Sequence[int] | None = None,
    **options: Unpack[OptionKeywords],
) -> R:
    """A round with the given hands (each as many tiles as the game deals). The boneyard
    is drawn in order: the ``boneyard`` given first, then the tiles nobody was given, in
    set order (so ``6-0`` and ``6-1`` are the last two when nobody holds them)."""
    dealt = [tiles(h) for h in hands]
    bone = tiles(boneyard)
    used = {t for hand in dealt for t in hand} | set(bone)
    bone += [t for t in TILES if t not in used]
    opts = Options.for_game(game, len(hands), **options)
    return game(dealt, bone, leader, options=opts, scores=scores)


def play(round_: R, *moves: str) -> R:
    """Play moves given as text, in turn order."""
    for text in moves:
        round_.play(Move.parse(text))
    return round_


def legal(round_: Round) -> set[str]:
    return {m.text for m in round_.legal_moves()}


def replay_first_round(record: dict[str, Any], scores: Sequence[int] | None = None) -> Round:
    """The first round of a frozen record, dealt from its first deal with the running
    ``scores`` given, and played to its end."""
    variant = find_variant(record["game"])
    deal = Deal.from_dict(record["deals"][0], record["players"])
    options = Options.from_dict(variant, record["players"], record["options"])
    round_ = variant(deal.hands, deal.boneyard, deal.leader, options=options, scores=scores)
    for _, text in record["actions"]:
        if round_.outcome() is not None:
            break
        round_.play(Move.parse(text))
    return round_


NO_SIX = " ".join(str(t) for t in TILES if 6 not in t)
"""The 21 tiles without a six, in set order."""


def no_six(start: int, count: int) -> str:
    """``count`` tiles without a six, from the ``start``-th in set order."""
    return " ".join(NO_SIX.split()[start : start + count])


def every_tile(value: object) -> Iterator[Tile]:
    """Every :class:`Tile` a view holds, however deep."""
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, Move):
        if value.tile is not None:
            yield value.tile
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from every_tile(getattr(value, field.name))
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from every_tile(item)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from every_tile(item)
