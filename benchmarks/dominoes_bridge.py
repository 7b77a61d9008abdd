"""Driving the PyPI ``dominoes`` package's players inside our Milo engine: each time its
seat is to move, build a ``dominoes.Game`` from what that seat may see (its hand, the
board, the history with passes; the other hands a random guess consistent with the tile
counts, which its sampling players replace with their own guesses), let the player order
the valid moves, and map its first choice back to our move."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import dominoes  # type: ignore[import-untyped]

from bot.engine import Milo, Move, Tile

PackagePlayer = Callable[[dominoes.Game], None]


def _domino(tile: Tile) -> dominoes.Domino:
    return dominoes.Domino(tile.high, tile.low)


def package_game(round_: Milo, rng: random.Random) -> dominoes.Game:
    seat = round_.turn
    board = dominoes.Board()
    moves: list[tuple[dominoes.Domino, bool] | None] = []
    for _, move in round_.history:
        if move.tile is None:
            moves.append(None)
            continue
        left = move.end_name != "R"
        board.add(_domino(move.tile), left)
        moves.append((_domino(move.tile), left))
    unseen = [t for s in range(4) if s != seat for t in round_.hand(s)]
    rng.shuffle(unseen)
    hands = []
    for s in range(4):
        if s == seat:
            hands.append(dominoes.Hand([_domino(t) for t in round_.hand(s)]))
        else:
            size = len(round_.hand(s))
            hands.append(dominoes.Hand([_domino(t) for t in unseen[:size]]))
            unseen = unseen[size:]
    valid = tuple((_domino(m.tile), m.end_name == "L") for m in round_.legal_moves() if m.tile)
    return dominoes.Game(board, hands, moves, seat, valid, round_.leader, None)


def package_move(player: PackagePlayer, round_: Milo, rng: random.Random) -> Move:
    legal = round_.legal_moves()
    if len(legal) == 1:
        return legal[0]
    game = package_game(round_, rng)
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
