"""JSON columns: how the store writes a value as text and reads it back."""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any) -> str:
    """JSON text for a column. orjson, not the json module: a table's state is written
    with every action, on the thread that writes (which holds the interpreter meanwhile),
    and orjson writes it several times faster."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def loads(value: Any) -> Any:
    """A JSON column's value: text is parsed; a value the driver has already decoded is
    taken as it is."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def document(value: Any) -> Any:
    """A JSON column's value decoded, or its text as stored when it is not JSON (a
    hand-edited or half-written row): for the reader to judge, so that one bad row never
    keeps the others from being read."""
    try:
        return loads(value)
    except ValueError:
        return value
