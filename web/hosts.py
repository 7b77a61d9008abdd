"""The names the browser face answers for, so a DNS rebinding attack gets nothing.

Such an attack is a site whose own name its owner makes resolve to this machine once
its page is open: the page then asks that name, the browser sends the bot the site's
name as ``Host`` and its origin as ``Origin``, and the two agree, so the same-origin
check alone would take the page for the bot's own. The name in ``Host`` gives it
away, so the bot answers only names it knows:

- ``localhost`` and any IP address: an address names no one else's site, and no page
  can rebind it, so the browser table on this machine, on a LAN (``WEB_HOST=0.0.0.0``)
  and through Docker's or SSH's forwarded ports keeps working;
- the names the operator lists (``WEB_PUBLIC_HOSTS``): a reverse proxy's public name,
  and the one the Activity's URL mapping points to, which Discord's proxy (Cloudflare
  Workers, fetching the mapped address) asks the bot by;
- with the Activity, the application's ``<id>.discordsays.com``, for a proxy that
  passes on the name the page itself was asked by: Discord's own name, which no one
  else can point at this machine.

The port is not compared: the one the browser used is not the one the bot listens on
behind a forwarded port, and a rebound page's name is refused whatever its port.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass

LOOPBACK_NAME = "localhost"
HOST_HEADER = re.compile(
    r"(?:\[(?P<address>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9_.-]+))(?::\d{1,5})?"
)
"""A ``Host`` header: a name or an IPv4 address, or an IPv6 address in brackets; then an
optional port."""


@dataclass(frozen=True, slots=True)
class KnownHosts:
    """The names (lower case) the server answers for, besides ``localhost`` and IP
    addresses."""

    names: frozenset[str]

    @classmethod
    def of(cls, public: Iterable[str], activity_host: str | None = None) -> KnownHosts:
        """The operator's public names, and the Activity's host if it has one."""
        names = {name.lower() for name in public}
        if activity_host is not None:
            names.add(activity_host)
        return cls(frozenset(names))

    def knows(self, header: str | None) -> bool:
        """Whether a request with this ``Host`` header is for this server (a request
        without one, or with a malformed one, is not)."""
        found = HOST_HEADER.fullmatch(header or "")
        if found is None:
            return False
        if found["address"] is not None:
            return _is_address(found["address"])
        name = found["name"].lower()
        return name == LOOPBACK_NAME or name in self.names or _is_address(name)


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
