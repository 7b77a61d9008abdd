"""Settings from the environment (and a ``.env`` file), read and checked once at start-up.

Every setting is listed, with a comment, in ``.env.example``.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from data.url import DEFAULT_DATABASE_URL, parse_url, sqlite_url


class ConfigError(Exception):
    """A setting is missing or malformed; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    discord_token: str
    database_url: str = DEFAULT_DATABASE_URL
    """``sqlite:///path`` or ``postgresql://…`` (see ``data.url``)."""
    dev_guild_id: int | None = None
    """Sync slash commands to this one server (instant) instead of globally."""
    log_level: str = "INFO"
    computer_pace_seconds: float = 1.5
    """Pause between computer moves at one table, so the channel stays readable."""
    shard_count: int | None = None
    """Discord gateway shards in all (None: as many as Discord recommends)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (None: all of them); the others run elsewhere."""
    keep_closed_hours: int = 24
    """Hours a finished or cancelled table's state and moves are kept (its game and
    scores are kept for good)."""
    requests_per_second: int = 40
    """The bot's share of Discord's global limit of 50 requests a second (channel posts
    and edits; answers through an interaction do not count)."""
    picture_processes: int = 1
    """Worker processes that draw the table and hand pictures (``rendering.painter``);
    0 draws them in threads of the bot's own process."""
    web_host: str = "127.0.0.1"
    """Where the browser table listens: this machine only, unless set (LAN play)."""
    web_port: int | None = None
    """The browser table's port: 8080 with no Discord token; with one, only if set."""
    web_public_hosts: tuple[str, ...] = ()
    """The names the browser table is reached by besides this machine's own (``localhost``)
    and IP addresses: a reverse proxy's public name, a LAN machine's name. The page
    answers no other name (``web.hosts``)."""
    web_secret: str | None = None
    """Signs the guests' cookies; unset, the bot makes one and keeps it beside the database."""
    discord_client_secret: str | None = None
    """The application's OAuth2 secret: with it (and ``WEB_PORT``), the page is also the
    Discord Activity, whose players' codes the bot exchanges."""
    discord_client_id: str | None = None
    """The application's id, if it is not the bot's own (it nearly always is)."""
    coach_after_games: bool = True
    """Whether the coach analyses every game with a member's seat as it ends and posts
    each member's accuracy (``bot.coaching``): a worker process kept busy for seconds a
    game. Off, a game is analysed only when a member asks (``/domino analysis``)."""

    @property
    def discord(self) -> bool:
        """Whether the bot runs in Discord (it has a token), or serves the local table only."""
        return bool(self.discord_token)

    @property
    def local_folder(self) -> Path:
        return local_folder(self.database_url)

    @classmethod
    def from_env(cls, env_file: str | os.PathLike[str] | None = ".env") -> Settings:
        """Read the settings; a ``.env`` file fills in what the environment lacks."""
        if env_file is not None:
            load_dotenv(env_file, override=False)
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        shard_count, shard_ids = _shards()
        database_url = _database_url()
        if (
            shard_count is not None
            and shard_ids is not None
            and set(shard_ids) != set(range(shard_count))
            and parse_url(database_url).path is not None
        ):
            raise ConfigError(
                f"SHARD_IDS={','.join(map(str, shard_ids))} leaves the other shards to other"
                " processes, and processes share tables only through PostgreSQL: set"
                " DATABASE_URL=postgresql://…, not a SQLite file"
            )
        return cls(
            discord_token=token,
            database_url=database_url,
            dev_guild_id=_optional_int("DEV_GUILD_ID", "a server id"),
            log_level=_log_level(),
            computer_pace_seconds=_float("COMPUTER_PACE_SECONDS", 1.5, most=60.0),
            requests_per_second=_int_in("DISCORD_REQUESTS_PER_SECOND", 40, 1, 50),
            picture_processes=_int_in("PICTURE_PROCESSES", 1, 0, 16),
            keep_closed_hours=_int_in("CLOSED_TABLES_KEPT_HOURS", 24, 1, 24 * 365),
            shard_count=shard_count,
            shard_ids=shard_ids,
            web_host=_web_host(),
            web_port=_web_port(token),
            web_public_hosts=_public_hosts(),
            web_secret=os.environ.get("WEB_SECRET", "").strip() or None,
            discord_client_secret=_client_secret(token),
            coach_after_games=_switch("COACH_AFTER_GAMES", True),
            discord_client_id=_optional_id("DISCORD_CLIENT_ID", "an application id"),
        )


def local_folder(database_url: str) -> Path:
    """Where the bot keeps its own small files (the slash commands' fingerprint, the
    health note): beside the SQLite file, or ``var`` when the database is a server."""
    path = parse_url(database_url).path
    return Path("var") if path is None else path.parent


def local_folder_from_env(env_file: str | os.PathLike[str] | None = ".env") -> Path:
    """The bot's :func:`local_folder` as its settings give it, for a process beside the
    bot (the health check) that needs no token."""
    if env_file is not None:
        load_dotenv(env_file, override=False)
    return local_folder(_database_url())


def shard_ids_from_env(env_file: str | os.PathLike[str] | None = ".env") -> tuple[int, ...] | None:
    """The shards the bot's settings say this process runs (None: all), for a process
    beside it (the health check reads that process's note)."""
    if env_file is not None:
        load_dotenv(env_file, override=False)
    return _shards()[1]


def _database_url() -> str:
    """``DATABASE_URL``; else ``DATABASE_PATH``, the older setting (a SQLite file), so an
    existing ``.env`` keeps working; else the default. A URL of no known kind is refused."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        path = os.environ.get("DATABASE_PATH", "").strip()
        url = sqlite_url(path) if path else DEFAULT_DATABASE_URL
    try:
        parse_url(url)
    except ValueError as error:
        raise ConfigError(f"DATABASE_URL: {error}") from None
    return url


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _log_level() -> str:
    """``LOG_LEVEL``, in any case; a level the logs do not have is refused, not read as
    INFO, whose writer would wait for lines that never come."""
    raw = os.environ.get("LOG_LEVEL", "").strip()
    if not raw:
        return "INFO"
    if raw.upper() not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {raw!r}")
    return raw.upper()


def _digits(raw: str) -> bool:
    """Digits 0 to 9 only (``str.isdigit`` takes ² and other digits ``int`` refuses)."""
    return raw.isascii() and raw.isdigit()


def _optional_int(name: str, what: str) -> int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if not _digits(raw):
        raise ConfigError(f"{name} must be {what} (digits only), not {raw!r}")
    return int(raw)


def _optional_id(name: str, what: str) -> str | None:
    value = _optional_int(name, what)
    return None if value is None else str(value)


def _float(name: str, default: float, most: float) -> float:
    """Seconds from 0 to ``most``: not NaN, which no deadline ever reaches (the clock
    would spin), nor infinity, which would stop the computer players for good."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not 0 <= value <= most:  # NaN is never within
        raise ConfigError(f"{name} must be a number of seconds from 0 to {most:g}, not {raw!r}")
    return value


def _switch(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw not in ("on", "off"):
        raise ConfigError(f"{name} must be on or off, not {raw!r}")
    return raw == "on"


def _int_in(name: str, default: int, low: int, high: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not _digits(raw) or not low <= int(raw) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, not {raw!r}")
    return int(raw)


def _shards() -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS: how many shards in all, and which run here."""
    raw_count = os.environ.get("SHARD_COUNT", "").strip()
    raw_ids = os.environ.get("SHARD_IDS", "").strip()
    count = _int_in("SHARD_COUNT", 1, 1, 100_000) if raw_count else None
    if not raw_ids:
        return count, None
    if count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT: how many shards there are in all")
    parts = [part.strip() for part in raw_ids.split(",")]
    if not all(_digits(part) and int(part) < count for part in parts):
        raise ConfigError(
            f"SHARD_IDS must list shard numbers from 0 to {count - 1}, like 0,1; not {raw_ids!r}"
        )
    return count, tuple(sorted({int(part) for part in parts}))


HOST_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")
"""A host name as a ``Host`` header carries it (underscores too: Docker's service names
may have them)."""


def _public_hosts() -> tuple[str, ...]:
    """``WEB_PUBLIC_HOSTS``: host names, comma-separated, lower-cased as browsers send
    them. A URL or a port is refused rather than half-used: the page would then answer no
    name the operator meant, and every request through their proxy would be refused."""
    raw = os.environ.get("WEB_PUBLIC_HOSTS", "")
    names = [part.strip().lower() for part in raw.split(",") if part.strip()]
    for name in names:
        if not HOST_NAME.fullmatch(name):
            raise ConfigError(
                "WEB_PUBLIC_HOSTS must list host names only, like"
                f" domino.example.com,table.lan (no scheme, port or path); not {name!r}"
            )
    return tuple(dict.fromkeys(names))


DEFAULT_WEB_PORT = 8080


def _web_host() -> str:
    """``WEB_HOST``: an address of this machine (``0.0.0.0`` for every one) or a host
    name, as the server binds to it; a URL or a port is refused at start, not left to
    fail the bind in words about something else."""
    raw = os.environ.get("WEB_HOST", "").strip()
    if not raw:
        return "127.0.0.1"
    try:
        ipaddress.ip_address(raw)
    except ValueError:
        if not HOST_NAME.fullmatch(raw.lower()):
            raise ConfigError(
                "WEB_HOST must be an address of this machine (127.0.0.1, 0.0.0.0 for every"
                f" one) or a host name, with no scheme or port; not {raw!r}"
            ) from None
    return raw


def _client_secret(token: str) -> str | None:
    """``DISCORD_CLIENT_SECRET``, the Activity's: with a token it needs ``WEB_PORT``, the
    browser table the Activity shows, or it would be ignored without a word."""
    secret = os.environ.get("DISCORD_CLIENT_SECRET", "").strip() or None
    if secret is not None and token and not os.environ.get("WEB_PORT", "").strip():
        raise ConfigError(
            "DISCORD_CLIENT_SECRET needs WEB_PORT: the Activity shows the browser table,"
            " which the bot serves at that port (docs/ACTIVITY.md)"
        )
    return secret


def _web_port(token: str) -> int | None:
    """``WEB_PORT``; with no token the local table is all the bot serves, so it has a
    port (8080) even when none is set."""
    if os.environ.get("WEB_PORT", "").strip():
        return _int_in("WEB_PORT", DEFAULT_WEB_PORT, 1, 65535)
    return None if token else DEFAULT_WEB_PORT
