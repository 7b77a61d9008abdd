"""The slash commands, synced to Discord only when they changed.

What was synced is kept beside the database, a marker file per application and scope
(``DEV_GUILD_ID``'s server, or global) holding the fingerprint of the commands sent
(with every language's names, so a changed translation is synced too): a start syncs
only when the commands differ from the marker's, and another application's token (a
second bot started on the same folder) has no marker yet, so its commands are synced at
its first start."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

import discord

from discord_face.tree import DominoTree

log = logging.getLogger(__name__)


async def sync_commands(tree: DominoTree, folder: Path, dev_guild_id: int | None) -> None:
    """Sync the commands to ``dev_guild_id``'s server (instant), or globally without it,
    when they differ from this application's last sync there."""
    application_id = tree.client.application_id
    assert application_id is not None, "known once logged in (setup_hook)"
    scope = "global" if dev_guild_id is None else f"guild-{dev_guild_id}"
    marker = folder / f"commands-{application_id}-{scope}.sha256"
    guild = discord.Object(dev_guild_id) if dev_guild_id is not None else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    translator = tree.translator
    assert translator is not None, "set in setup_hook"
    payload = [
        await command.get_translated_payload(tree, translator)
        for command in tree.get_commands(guild=guild)
    ]
    fingerprint = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
    if marker.exists() and marker.read_text().strip() == fingerprint:
        log.info("slash commands unchanged since the last sync: not syncing")
        return
    await tree.sync(guild=guild)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(fingerprint)
    log.info("slash commands synced %s", f"to guild {dev_guild_id}" if guild else "globally")
