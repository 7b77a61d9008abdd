"""Start the bot: ``python -m bot``."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from bot.config import ConfigError, Settings

if TYPE_CHECKING:
    from data.repository import StoreError
    from web.server import NotServed


def main() -> int:
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not settings.discord:
        return _local(settings)
    from discord import GatewayNotFound, LoginFailure

    from bot.client import run
    from data.repository import StoreError
    from web.server import NotServed

    try:
        run(settings)
    except NotServed as error:
        return _not_served(settings, error)
    except LoginFailure:
        print(
            "error: Discord refused the bot's token (DISCORD_TOKEN in .env): copy it again"
            " from the Discord developer portal (your application → Bot → Reset Token).",
            file=sys.stderr,
        )
        return 4
    except (OSError, GatewayNotFound, TimeoutError) as error:
        print(
            f"error: cannot reach Discord ({error}): check this machine's internet"
            " connection, DNS and firewall, then start the bot again.",
            file=sys.stderr,
        )
        return 5
    except StoreError as error:
        return _store_refused(settings, error)
    return 0


def _local(settings: Settings) -> int:
    """No token: the browser table alone (``bot.local``)."""
    from bot.local import run_local
    from data.repository import StoreError
    from web.server import NotServed

    try:
        run_local(settings)
    except StoreError as error:
        return _store_refused(settings, error)
    except NotServed as error:
        return _not_served(settings, error)
    except OSError as error:  # the bot's own files (var/web-secret, say)
        print(f"error: cannot start the bot: {error}", file=sys.stderr)
        return 7
    return 0


def _not_served(settings: Settings, error: NotServed) -> int:
    """The browser table cannot listen where the settings say: which setting to change."""
    from bot.local import address

    remedy = (
        "set WEB_PORT in .env to a free port"
        if error.port_taken
        else "set WEB_HOST in .env to an address of this machine (127.0.0.1, or 0.0.0.0)"
    )
    print(
        f"error: cannot serve the browser table at {address(settings)} ({error}): {remedy}.",
        file=sys.stderr,
    )
    return 6


def _store_refused(settings: Settings, error: StoreError) -> int:
    """The database cannot be used: said in one line."""
    from data import parse_url

    print(
        f"error: cannot use the database {parse_url(settings.database_url).shown}"
        f" ({error.fault}): {error.detail or 'see DATABASE_URL in .env'}",
        file=sys.stderr,
    )
    return 3


if __name__ == "__main__":
    sys.exit(main())
