"""A private hand's buttons: one per legal move, so a tile that fits several ends is
played in one click; a tile asks which end only when the moves outnumber the buttons
Discord shows on a message."""

from __future__ import annotations

from typing import Any

from bot.commands import Join
from bot.engine import DRAW, TILES, Match, Move, Options, find_variant
from bot.snapshot import TableSnapshot
from bot.table import Table
from discord_face.buttons import BUTTONS_AT_MOST, hand_view


def snapshot(hints: bool = False) -> TableSnapshot:
    variant = find_variant("cross")
    table = Table("0123abcd", 1, 2, 10, "cross", Options.for_game(variant, 4), 7, hints=hints)
    for member in (10, 11):
        table.apply(Join(member, f"m{member}"))
    return TableSnapshot.of(table)


def buttons(moves: tuple[Move, ...], hints: bool = False) -> list[dict[str, Any]]:
    rows = hand_view(snapshot(hints), moves).to_components()
    return [button for row in rows for button in row["components"]]


def turn_with_a_tile_for_several_ends() -> tuple[Move, ...]:
    """The legal moves of a Cross turn (R-CR-4) where one tile fits two ends or more."""
    for seed in range(50):
        match = Match("cross", 2, seed=seed)
        for _ in range(12):
            legal = match.seat_view(match.turn or 0).legal
            tiles = [move.tile for move in legal if move.tile is not None]
            if any(tiles.count(tile) > 1 for tile in tiles):
                return legal
            match.play(legal[-1])
    raise AssertionError("no Cross turn in 50 deals had a tile for two ends")


async def test_each_legal_move_is_a_button_of_its_own_a_tiles_ends_side_by_side() -> None:
    """R-SP-3: a move names its tile and its arm; the button says both."""
    legal = turn_with_a_tile_for_several_ends()
    labels = [button["label"] for button in buttons(legal)]
    assert sorted(labels) == sorted(move.text for move in legal)
    tiles = [label.split()[0] for label in labels]
    for tile in set(tiles):
        at = [index for index, each in enumerate(tiles) if each == tile]
        assert at == list(range(at[0], at[0] + len(at))), f"{tile}'s ends apart: {labels}"


async def test_a_hint_button_follows_the_moves() -> None:
    legal = turn_with_a_tile_for_several_ends()
    labels = [button["label"] for button in buttons(legal, hints=True)]
    assert labels[:-1] == [button["label"] for button in buttons(legal)]
    assert labels[-1] == "Hint"


async def test_moves_that_would_not_fit_on_the_message_ask_which_end_per_tile() -> None:
    """Before any arm is started every tile with the spinner's number fits all four
    (R-CR-3): six such tiles are 24 moves, and two tiles for one arm each make 26, more
    than a message holds. The tiles for several arms then ask which; the others do not."""
    sixes = [tile for tile in TILES if 6 in tile and not tile.is_double]
    others = [tile for tile in TILES if 6 not in tile and not tile.is_double][:2]
    legal = (
        *(Move.play(tile, end) for tile in sixes for end in "NESW"),
        *(Move.play(tile, "N") for tile in others),
    )
    assert len(legal) > BUTTONS_AT_MOST
    labels = [button["label"] for button in buttons(legal)]
    assert labels == [*(f"{tile} …" for tile in sixes), *(f"{tile} N" for tile in others)]


async def test_a_draw_alone_is_one_button() -> None:
    assert [button["label"] for button in buttons((DRAW,))] == ["Draw"]
