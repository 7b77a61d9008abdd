"""The games by name: the one place that lists them."""

from __future__ import annotations

from bot.engine.cross import Cross
from bot.engine.errors import InvalidOptions
from bot.engine.maltese_cross import MalteseCross
from bot.engine.merry_go_round import MerryGoRound
from bot.engine.milo import Milo
from bot.engine.round import Round

GAMES: dict[str, type[Round]] = {g.game: g for g in (Cross, MalteseCross, MerryGoRound, Milo)}


def find_variant(name: str) -> type[Round]:
    """The game called ``name`` (``cross``, ``maltese-cross``, ``merry-go-round``, ``milo``)."""
    try:
        return GAMES[name.strip().lower().replace(" ", "-").replace("_", "-")]
    except KeyError:
        raise InvalidOptions(
            f"there is no game {name!r}: choose one of {', '.join(GAMES)}"
        ) from None
