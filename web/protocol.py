"""What a page may send over its socket, read strictly (``docs/WEB.md``, "The socket").

Each message is one JSON object of a known ``type`` with exactly its fields, each of its
type; anything else (not JSON, over :data:`MOST_BYTES`, an unknown type, a field missing,
unknown or mistyped, a number out of range) is refused as :class:`Malformed`, before it
reaches the table service. What a message asks for is then checked by the service
exactly as a Discord click is (seat, turn, version).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from bot.refusals import Malformed

MOST_BYTES = 4096
"""The longest message a page sends is an ``open`` of some 150 bytes."""

TABLE_ID = re.compile(r"[0-9a-f]{8}")
"""A table's id as the service makes them (``secrets.token_hex(4)``)."""

ACTIONS = frozenset(
    {"join", "leave", "start", "cancel", "computer", "play", "draw", "pass", "back",
     "more_time", "rematch", "hint"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class SetLanguage:
    lang: str


@dataclass(frozen=True, slots=True)
class FollowLobby:
    """Follow the list of open tables."""


@dataclass(frozen=True, slots=True)
class Watch:
    """Follow the table the page's address names (``/t/<table>``). The id is taken as
    the address has it, any short text: a link cut short or typed by hand names no
    table, which is a table not there (closed), not a message the page garbled."""

    table: str


@dataclass(frozen=True, slots=True)
class Open:
    game: str
    target: int | None
    keep_last_two: bool | None
    match_games: int | None
    hints: bool


@dataclass(frozen=True, slots=True)
class Act:
    table: str
    version: int
    action: str
    level: str | None = None
    move: str | None = None


@dataclass(frozen=True, slots=True)
class JoinActivity:
    """The page runs inside Discord as an Activity: the access token its SDK was given
    and the Activity instance it runs in (both checked with Discord, ``web.activity``)."""

    token: str
    instance: str


Message = SetLanguage | FollowLobby | Watch | Open | Act | JoinActivity

_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "lang": {"lang": (str,)},
    "lobby": {},
    "watch": {"table": (str,)},
    "open": {
        "game": (str,),
        "target": (int, type(None)),
        "keep_last_two": (bool, type(None)),
        "match_games": (int, type(None)),
        "hints": (bool,),
    },
    "act": {"table": (str,), "version": (int,), "action": (str,)},
    "activity": {"token": (str,), "instance": (str,)},
}
"""Per type, its required fields and their JSON types."""
_OPTIONAL: dict[str, dict[str, tuple[type, ...]]] = {
    "act": {"level": (str,), "move": (str,)},
}
_TEXT_MOST = 64
"""No field of text is longer (a move is ``6-5 N``, a language ``pt-BR``) but these."""
_LONGER_TEXT = {"token": 512, "instance": 256}
"""Discord's access tokens and Activity instance ids, with room to spare."""


def parse(raw: str | bytes) -> Message:
    """The message ``raw`` says, or :class:`Malformed`."""
    try:
        size = len(raw.encode() if isinstance(raw, str) else raw)
    except UnicodeEncodeError:  # a lone surrogate: no text
        raise Malformed() from None
    if size > MOST_BYTES:
        raise Malformed()
    try:
        data = json.loads(raw)
        # JSON may escape half a surrogate pair ("\ud800"), which is no text (a
        # refusal quoting it back could not be sent): as unreadable as broken JSON.
        json.dumps(data, ensure_ascii=False).encode()
    except (ValueError, UnicodeDecodeError, RecursionError):  # or nested too deep to read
        raise Malformed() from None
    if not isinstance(data, dict):
        raise Malformed()
    kind = data.pop("type", None)
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise Malformed("type")
    fields = _checked(kind, data)
    match kind:
        case "lang":
            return SetLanguage(fields["lang"])
        case "lobby":
            return FollowLobby()
        case "watch":
            return Watch(fields["table"])
        case "open":
            return Open(**fields)
        case "activity":
            return JoinActivity(**fields)
        case _:
            if fields["action"] not in ACTIONS:
                raise Malformed("action")
            if fields["version"] < 0:
                raise Malformed("version")
            return Act(**{**fields, "table": _table_id(fields["table"])})


def _checked(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    required, optional = _FIELDS[kind], _OPTIONAL.get(kind, {})
    for name in data:
        if name not in required and name not in optional:
            raise Malformed(name)
    for name, types in (*required.items(), *optional.items()):
        if name not in data:
            if name in required:
                raise Malformed(name)
            continue
        value = data[name]
        # JSON true is not a number here, though Python's bool is an int.
        if isinstance(value, bool) and bool not in types:
            raise Malformed(name)
        most = _LONGER_TEXT.get(name, _TEXT_MOST)
        if not isinstance(value, types) or (isinstance(value, str) and len(value) > most):
            raise Malformed(name)
    return data


def _table_id(text: str) -> str:
    if not TABLE_ID.fullmatch(text):
        raise Malformed("table")
    return text
