"""Request bodies as discord.py sends them: JSON, or ``multipart/form-data`` with the
JSON in a part named ``payload_json`` and each file in a part of its own.

Read here rather than with aiohttp's ``request.post()``: aiohttp parses the request's
Content-Type and every part's headers with the standard library's ``email`` package,
which took half of the fake's CPU at 1,000 tables. The benchmark runs the fake on the
bot's machine, so that was CPU taken from the bot it measures.
"""

from __future__ import annotations

import json
import re
from typing import Any

_PARAMETER = re.compile(r'([\w*-]+)=(?:"([^"]*)"|([^;\s]*))')


def parameters(header: str) -> tuple[str, dict[str, str]]:
    """A header's value before its first ``;`` (lower case), and its ``name=value``
    parameters, quoted or not."""
    value, _, rest = header.partition(";")
    found = {key.lower(): quoted or bare for key, quoted, bare in _PARAMETER.findall(rest)}
    return value.strip().lower(), found


def read_body(content_type: str, raw: bytes) -> tuple[Any, dict[str, bytes]]:
    """(the JSON body or None, the files by filename) of a request with ``raw`` bytes."""
    kind, options = parameters(content_type)
    if kind != "multipart/form-data":
        return json.loads(raw), {}
    body, files = None, {}
    for part in raw.split(b"--" + options["boundary"].encode())[1:]:
        if part.startswith(b"--"):
            break  # the closing delimiter
        head, _, content = part.partition(b"\r\n\r\n")
        content = content.removesuffix(b"\r\n")
        disposition = next(
            line.partition(":")[2]
            for line in head.decode().split("\r\n")
            if line.lower().startswith("content-disposition:")
        )
        _, names = parameters(disposition)
        if names.get("name") == "payload_json":
            body = json.loads(content)
        elif "filename" in names:
            files[names["filename"]] = content
    return body, files
