"""What the store raises that the layers above act on. A backend turns its driver's
errors into these (``data.backend``), so nothing above the store ever sees a driver."""

from __future__ import annotations


class VersionConflict(Exception):
    """Another writer stored a newer version of the table first; nothing was written."""


class ChannelInUse(Exception):
    """Another open table already holds this channel (one open table per channel);
    nothing was written."""


class StoreError(Exception):
    """The database could not carry out a write or a read; nothing was written.

    ``fault`` says why in one word the layers above can act on and tell a user:
    ``full`` (no space left), ``busy`` (another writer held the database too long),
    ``read-only`` (the file or its folder, or the server, refuses writes) or
    ``unavailable`` (anything else: an I/O error, a file gone, a server down)."""

    FAULTS = ("full", "busy", "read-only", "unavailable")

    def __init__(self, fault: str, detail: str = "") -> None:
        super().__init__(f"{fault}: {detail}" if detail else fault)
        self.fault = fault
        self.detail = detail
