"""``DATABASE_URL``: which database the store uses, read without opening anything.

``sqlite:///relative/path.db`` (from the folder the bot starts in),
``sqlite:////absolute/path.db``, or ``postgresql://user:password@host:port/database``
(``postgres://`` too; query parameters are PostgreSQL settings for every connection,
``?lock_timeout=2s`` say, as asyncpg reads them).
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

DEFAULT_DATABASE_URL = "sqlite:///var/domino.db"
_SQLITE = "sqlite:///"
_POSTGRES = ("postgresql://", "postgres://")


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    url: str
    kind: Literal["sqlite", "postgresql"]
    path: Path | None = None
    """The SQLite file (None for PostgreSQL)."""

    @property
    def shown(self) -> str:
        """The URL with any password masked, for logs and error messages."""
        parts = urllib.parse.urlsplit(self.url)
        if parts.password is None:
            return self.url
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def parse_url(url: str) -> DatabaseUrl:
    """Read ``url``; ValueError, in one line that says what is accepted, otherwise."""
    url = url.strip()
    if url.startswith(_SQLITE):
        path = url[len(_SQLITE) :]
        if not path or path == ":memory:":
            raise ValueError(
                f"{url!r} names no SQLite file: write sqlite:///relative/path.db or"
                " sqlite:////absolute/path.db"
            )
        return DatabaseUrl(url, "sqlite", Path(path))
    if url.startswith(_POSTGRES):
        return DatabaseUrl(url, "postgresql")
    scheme = url.split(":", 1)[0] if ":" in url else url
    raise ValueError(
        f"a database URL starting {scheme[:20]!r} is not one this bot knows: use"
        " sqlite:///var/domino.db (a file) or postgresql://user@host:5432/database"
    )


def sqlite_url(path: Path | str) -> str:
    """The URL of a SQLite file (``var/domino.db`` → ``sqlite:///var/domino.db``; an
    absolute path keeps its leading slash, giving four)."""
    return _SQLITE + str(path)
