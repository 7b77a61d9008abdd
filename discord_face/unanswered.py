"""What discord.py raises when Discord gave no answer at all: a connection reset or
dropped, a timeout. Unlike a refusal (``discord.HTTPException``), the request may or
may not have been done; each caller says what it does then (try again, fall back,
refuse the member for now)."""

from __future__ import annotations

import aiohttp

UNANSWERED = (aiohttp.ClientError, OSError, TimeoutError)
