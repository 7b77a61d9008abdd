"""Driving the PyPI ``dominoes`` package's players inside our Milo engine: each time its
seat is to move, build a ``dominoes.Game`` from what that seat may see (its hand, the
board, the history with passes; the other hands a random guess consistent with the tile
counts, which its sampling players replace with their own guesses), let the player order
the valid moves, and map its first choice back to our move."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import dominoes

from bot.engine import TILES, Move, SeatView, Tile

PackagePlayer = Callable[[dominoes.Game], None]


def _domino(tile: Tile) -> dominoes.Domino:
    return dominoes.Domino(tile.high, tile.low)


def package_game(view: SeatView, rng: random.Random) -> dominoes.Game:
    public = view.public
    seat = view.seat
    board = dominoes.Board()
    moves: list[tuple[dominoes.Domino, bool] | None] = []
    for _, move in public.history:
        if move.tile is None:
            moves.append(None)
            continue
        left = move.end_name != "R"
        board.add(_domino(move.tile), left)
        moves.append((_domino(move.tile), left))
    seen = set(view.hand) | set(public.laid)
    unseen = [t for t in TILES if t not in seen]  # Milo has no boneyard (R-MI-1)
    rng.shuffle(unseen)
    hands = []
    for s, size in enumerate(public.hand_sizes):
        if s == seat:
            hands.append(dominoes.Hand([_domino(t) for t in view.hand]))
        else:
            hands.append(dominoes.Hand([_domino(t) for t in unseen[:size]]))
            unseen = unseen[size:]
    valid = tuple((_domino(m.tile), m.end_name == "L") for m in view.legal if m.tile)
    return dominoes.Game(board, hands, moves, seat, valid, public.leader, None)


def package_move(player: PackagePlayer, view: SeatView, rng: random.Random) -> Move:
    if len(view.legal) == 1:
        return view.legal[0]
    game = package_game(view, rng)
    player(game)
    domino, left = game.valid_moves[0]
    tile = Tile(domino.first, domino.second)
    return Move.play(tile, "L" if left else "R")


def bota_gorda(game: Any) -> None:
    dominoes.players.bota_gorda(game)


def probabilistic_alphabeta(start_move: int = 8, sample_size: int = 10) -> PackagePlayer:
    """Its sampling search from ``start_move`` on (0-based) over ``sample_size`` sampled
    deals (searching every possible deal from the first move would take hours a game),
    ordering by weight before that and within the search, as the package's composable
    players are meant to be used."""
    search = dominoes.players.probabilistic_alphabeta(
        start_move=start_move, sample_size=sample_size, player=dominoes.players.bota_gorda
    )

    def play(game: dominoes.Game) -> None:
        dominoes.players.bota_gorda(game)
        search(game)

    return play
