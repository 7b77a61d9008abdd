"""The fake reads a message with files exactly as discord.py writes it: the JSON payload,
and every file's bytes under its own name."""

from __future__ import annotations

import io
import json

import aiohttp
import discord

from tests.fakediscord.forms import read_body

PICTURE = b"\x89PNG\r\n\x1a\n--not-a-boundary\r\n\r\n\x00\xff"
"""Bytes that look like part syntax must come through untouched."""


async def written(files: list[discord.File]) -> tuple[str, bytes]:
    """(Content-Type, body) as discord.py's HTTP client sends a message with ``files``."""
    params = discord.http.handle_message_parameters(content="Zoë played 6-5", files=files)
    assert params.multipart is not None
    form = aiohttp.FormData(quote_fields=False)
    for field in params.multipart:
        form.add_field(**field)
    writer = form()
    return writer.content_type, await writer.as_bytes()


async def test_a_message_with_files_reads_as_its_payload_and_each_file() -> None:
    content_type, raw = await written(
        [
            discord.File(io.BytesIO(PICTURE), filename="table.png", description="the layout"),
            discord.File(io.BytesIO(b"GIF89a"), filename="réplay.gif"),
        ]
    )

    body, files = read_body(content_type, raw)

    assert body["content"] == "Zoë played 6-5"
    assert [a["filename"] for a in body["attachments"]] == ["table.png", "réplay.gif"]
    assert body["attachments"][0]["description"] == "the layout"
    assert files == {"table.png": PICTURE, "réplay.gif": b"GIF89a"}


def test_a_json_body_reads_as_json_with_no_files() -> None:
    payload = {"type": 4, "data": {"content": "6-5 N"}}

    assert read_body("application/json", json.dumps(payload).encode()) == (payload, {})
