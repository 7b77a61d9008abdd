"""The games by name: the one place that lists them."""

from __future__ import annotations

from bot.engine.cross import Cross
from bot.engine.errors import UnknownGame
from bot.engine.maltese_cross import MalteseCross
from bot.engine.merry_go_round import MerryGoRound
from bot.engine.milo import Milo
from bot.engine.round import Round

GAMES: dict[str, type[Round]] = {g.game: g for g in (Cross, MalteseCross, MerryGoRound, Milo)}


def find_variant(name: str) -> type[Round]:
    """The game called ``name`` (``cross``, ``maltese-cross``, ``merry-go-round``, ``milo``;
    case, spaces and underscores aside), or :class:`UnknownGame`."""
    if isinstance(name, str):
        found = GAMES.get(name.strip().lower().replace(" ", "-").replace("_", "-"))
        if found is not None:
            return found
    raise UnknownGame(name, tuple(GAMES))
