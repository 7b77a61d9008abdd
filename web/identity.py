"""Who is at the other end of a browser: a guest, named by themselves, kept in a signed
cookie. Nothing the page says about who it is counts unless the server signed it.

A guest's id is negative, so it can never be a Discord member's (their snowflakes are
positive): a guest and a member never share a seat, a rating or a row of stats. Every
local table belongs to :data:`LOCAL_SERVER`, each in a channel of its own (one table per
channel, as in Discord), with a negative id too.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import secrets
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from bot.refusals import NameRefused
from bot.table import NAME_MOST
from words.common import computer_names

log = logging.getLogger(__name__)

LOCAL_SERVER = -1
"""The server every local table belongs to: its leaderboards are the local table's.
Negative, as no Discord server's id is, and not 0, which the store's boards use for
"every server" (``data.models.GLOBAL``)."""

COOKIE = "domino_guest"
COOKIE_DAYS = 365
SECRET_FILE = "web-secret"
SECRET_BYTES = 32
"""A secret made here: 256 bits, as HMAC-SHA-256 takes."""


@dataclass(frozen=True, slots=True)
class Guest:
    """A person at the browser table: ``id`` is negative (see the module's docstring)."""

    id: int
    name: str


def new_guest_id() -> int:
    """A fresh guest id: negative, and within JavaScript's exact integers."""
    return -secrets.randbelow(2**52) - 1


def new_channel_id() -> int:
    """The channel of a new local table: its own, negative like a guest's id."""
    return -secrets.randbelow(2**52) - 1


BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters that are drawn as nothing: the Hangul fillers and the blank Braille cell."""


def checked_name(raw: object) -> str:
    """A name as typed, trimmed; refused unless it is text of 1 to :data:`NAME_MOST`
    characters with no control characters (which could forge a line of the table) and
    something the other players see: a name of blank letters, spaces and marks alone
    would seat a player with no name in every picture and list. Nor may it be how a
    computer seat is named, in any language (a guest posing as one)."""
    if not isinstance(raw, str):
        raise NameRefused(NAME_MOST)
    name = " ".join(raw.split())
    if not 1 <= len(name) <= NAME_MOST:
        raise NameRefused(NAME_MOST)
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise NameRefused(NAME_MOST)
    if all(char in BLANK or unicodedata.category(char)[0] in "ZM" for char in name):
        raise NameRefused(NAME_MOST)
    if name.casefold() in computer_names():
        raise NameRefused(NAME_MOST, computer=True)
    return name


class Signer:
    """Signs and reads the guest cookie (HMAC-SHA256 over its JSON). A cookie whose
    signature does not match, or that does not read as a guest, is no guest at all."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def sign(self, guest: Guest) -> str:
        body = base64.urlsafe_b64encode(
            json.dumps({"id": guest.id, "name": guest.name}, ensure_ascii=False).encode()
        ).decode()
        return f"{body}.{self._mac(body)}"

    def read(self, cookie: str | None) -> Guest | None:
        # A cookie this signer made is ASCII (base64, then hex); compare_digest raises
        # on other text, and a forged cookie is no guest, not an error.
        if not cookie or not cookie.isascii() or cookie.count(".") != 1:
            return None
        body, mac = cookie.split(".")
        if not hmac.compare_digest(mac, self._mac(body)):
            return None
        try:
            data = json.loads(base64.urlsafe_b64decode(body.encode()))
            guest_id, name = data["id"], checked_name(data["name"])
        except (ValueError, KeyError, TypeError, NameRefused):
            return None
        if not isinstance(guest_id, int) or isinstance(guest_id, bool) or guest_id >= 0:
            return None
        return Guest(guest_id, name)

    def _mac(self, body: str) -> str:
        return hmac.new(self._secret, body.encode(), hashlib.sha256).hexdigest()


def load_secret(configured: str | None, folder: Path) -> bytes:
    """``WEB_SECRET`` if set; else the secret kept in ``folder`` (made once, readable by
    the bot's user only), so guests stay who they are across restarts.

    The file appears whole or not at all: written beside it, then linked into place,
    which fails if another process (a second shard started at once) got there first,
    whose secret is then read. A file shorter than a secret (left by a crash while an
    older release wrote it in place) would sign every cookie with next to no key, so
    anyone could pass for any guest: it is replaced, and the guests it signed start
    anew."""
    if configured:
        return configured.encode()
    path = folder / SECRET_FILE
    folder.mkdir(parents=True, exist_ok=True)
    if path.exists():
        kept = path.read_bytes()
        if len(kept) >= SECRET_BYTES:
            return kept
        log.warning("%s is damaged (%d bytes): a new secret replaces it", path, len(kept))
        return _write_secret(path, replace=True)
    try:
        return _write_secret(path, replace=False)
    except FileExistsError:
        return path.read_bytes()


def _write_secret(path: Path, *, replace: bool) -> bytes:
    secret = secrets.token_bytes(SECRET_BYTES)
    written = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(written, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(secret)
            file.flush()
            os.fsync(file.fileno())
        if replace:
            os.replace(written, path)
        else:
            os.link(written, path)
    finally:
        written.unlink(missing_ok=True)
    return secret
