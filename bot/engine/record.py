"""Reading a game record (``docs/RECORD.md``) strictly: the one place that checks a
record's fields, before a match is built from it.

A record comes from a file, a database or a user, so nothing in it is trusted: every
field's type and range is checked (integers are ints, not bools, floats or strings;
booleans are ``true``/``false``; lists and objects where the format says so; no field the
format does not know), and anything else is refused with :class:`InvalidRecord` naming
the field in one line (``options.target must be an integer, not 55.5``). What a record's
values *mean* — a legal deal, a legal move — is the rules' business, checked when the
match is built and replayed (:meth:`bot.engine.Match.from_record`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.engine.errors import BadOptionType, EngineError, InvalidRecord, brief
from bot.engine.options import Options
from bot.engine.tiles import Tile

if TYPE_CHECKING:
    from bot.engine.round import Round

RECORD_FORMAT = "domino-record/1"
SEEDS = range(2**64)
"""The seeds a record (and a match) may name."""
_FIELDS = {"format", "game", "players", "options", "seed", "deals", "actions"}
_DEAL_FIELDS = {"hands", "boneyard", "leader"}


@dataclass(frozen=True, slots=True)
class Deal:
    """An explicit deal: hands by seat, the boneyard in draw order, and the leader (None:
    the one the game's rules name). The rules check it when it is dealt (R-ALL-3)."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...] = ()
    leader: int | None = None

    @classmethod
    def of(
        cls, hands: Iterable[Iterable[str]], boneyard: Iterable[str] = (), leader: int | None = None
    ) -> Deal:
        """A deal from tile texts: ``Deal.of([["6-6", "6-5"], ...], ["1-0"], 0)``."""
        return cls(
            tuple(tuple(Tile.parse(t) for t in hand) for hand in hands),
            tuple(Tile.parse(t) for t in boneyard),
            leader,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "boneyard": [str(t) for t in self.boneyard],
            "leader": self.leader,
        }

    @classmethod
    def from_dict(cls, data: object, players: int, field: str = "deal") -> Deal:
        """Read a deal as a record holds it: ``players`` hands of tile texts, a boneyard
        and a leader seat (both optional)."""
        deal = _object(field, data, _DEAL_FIELDS)
        hands = _list(f"{field}.hands", _required(field, deal, "hands"))
        if len(hands) != players:
            raise InvalidRecord(
                f"{field}.hands", f"must hold {players} hands, one a seat, not {len(hands)}"
            )
        leader = deal.get("leader")
        if leader is not None:
            _seat(f"{field}.leader", leader, players)
        return cls(
            tuple(_tile_list(f"{field}.hands[{seat}]", hand) for seat, hand in enumerate(hands)),
            _tile_list(f"{field}.boneyard", deal.get("boneyard", [])),
            leader,
        )


@dataclass(frozen=True, slots=True)
class Record:
    """A record's fields, read and type-checked (not yet replayed)."""

    variant: type[Round]
    players: int
    options: Options
    seed: int
    deals: tuple[Deal, ...]
    actions: tuple[tuple[int, str], ...]
    """``(seat, move text)`` in order; the text is read as a move when replayed."""


def read_record(data: object) -> Record:
    """Check ``data`` (a record as JSON gives it) field by field; raise
    :class:`InvalidRecord` (or the :class:`~bot.engine.errors.InvalidOptions` the game's
    options refuse) naming the first field that is wrong."""
    from bot.engine.variants import GAMES  # the games import the engine's lower modules

    record = _object("the record", data, _FIELDS)
    if _required("the record", record, "format") != RECORD_FORMAT:
        raise InvalidRecord("format", f"must be {RECORD_FORMAT!r}, not {_shown(record['format'])}")
    game = _required("the record", record, "game")
    if not isinstance(game, str) or game not in GAMES:
        raise InvalidRecord("game", f"must be one of {', '.join(GAMES)}, not {_shown(game)}")
    variant = GAMES[game]
    players = _integer("players", _required("the record", record, "players"))
    options = _options(variant, players, _required("the record", record, "options"))
    seed = _integer("seed", _required("the record", record, "seed"))
    if seed not in SEEDS:
        raise InvalidRecord("seed", f"must be from 0 to 2**64 - 1, not {_shown(seed)}")
    deals = tuple(
        Deal.from_dict(deal, players, f"deals[{i}]")
        for i, deal in enumerate(_list("deals", record.get("deals", [])))
    )
    actions = tuple(
        _action(f"actions[{i}]", action, players)
        for i, action in enumerate(_list("actions", _required("the record", record, "actions")))
    )
    return Record(variant, players, options, seed, deals, actions)


def _options(variant: type[Round], players: int, data: object) -> Options:
    _object("options", data, {"target", "keep_last_two", "match_games"})
    try:
        return Options.from_dict(variant, players, data)  # type: ignore[arg-type]
    except BadOptionType as error:
        raise InvalidRecord(
            f"options.{error.field}", f"must be {error.expected}, not {_shown(error.got)}"
        ) from None


def _action(field: str, data: object, players: int) -> tuple[int, str]:
    if not isinstance(data, list | tuple) or len(data) != 2:
        raise InvalidRecord(field, f"must be a [seat, move] pair, not {_shown(data)}")
    seat, text = data
    _seat(f"{field}[0]", seat, players)
    if not isinstance(text, str):
        raise InvalidRecord(f"{field}[1]", f"must be a move's text, not {_shown(text)}")
    return seat, text


# -- one field each -------------------------------------------------------------------------


def _object(field: str, data: object, known: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidRecord(field, f"must be an object, not {_shown(data)}")
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        raise InvalidRecord(field, f"has a field the format does not know: {brief(unknown[0])}")
    return data


def _required(field: str, data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise InvalidRecord(field, f"has no {key!r}")
    return data[key]


def _list(field: str, data: object) -> list[Any] | tuple[Any, ...]:
    if not isinstance(data, list | tuple):
        raise InvalidRecord(field, f"must be a list, not {_shown(data)}")
    return data


def _integer(field: str, data: object) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise InvalidRecord(field, f"must be an integer, not {_shown(data)}")
    return data


def _seat(field: str, data: object, players: int) -> int:
    seat = _integer(field, data)
    if not 0 <= seat < players:
        raise InvalidRecord(field, f"must be a seat from 0 to {players - 1}, not {_shown(seat)}")
    return seat


def _tile_list(field: str, data: object) -> tuple[Tile, ...]:
    tiles = []
    for i, text in enumerate(_list(field, data)):
        try:
            tiles.append(Tile.parse(text))
        except EngineError:
            raise InvalidRecord(
                f"{field}[{i}]", f"must be a tile like 6-5, not {_shown(text)}"
            ) from None
    return tuple(tiles)


def _shown(value: object) -> str:
    """A value as JSON names it (``null``, ``true``), else as :func:`brief` quotes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return f"an object of {len(value)}"
    return brief(value)
