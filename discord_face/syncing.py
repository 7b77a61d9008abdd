"""The slash commands, synced to Discord in one scope, and only when they changed.

The commands are synced to the server ``DEV_GUILD_ID`` names (instant, for trying the
bot out) or, without it, to every server (global). A server lists its own commands
beside the global ones, so a server's copy left from an earlier start would show each
command twice there: it is taken out (:meth:`DominoTree.withdraw`) once the bot syncs
elsewhere. The global commands are never taken out of their own accord: a bot other
servers use, given ``DEV_GUILD_ID`` to look into one server's trouble, keeps its
commands everywhere (that server lists them twice meanwhile).

What was synced where is kept beside the database, a marker file per application and
scope holding the fingerprint of the commands sent (with every language's names, so a
changed translation is synced too): a start syncs only when the commands differ from
the marker's, and another application's token (a second bot started on the same folder)
has no marker yet, so its commands are synced at its first start."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import discord

from discord_face.tree import DominoTree

log = logging.getLogger(__name__)

_MARKER = re.compile(r"commands-(?:(?P<application>\d+)-)?(?:global|guild-(?P<guild>\d+))\.sha256")
"""A marker's name: ``commands-<application>-global.sha256``, or
``commands-<application>-guild-<server>.sha256``. One with no application was written
before the markers named theirs, when a folder had one: it is taken as this one's."""


async def sync_commands(tree: DominoTree, folder: Path, dev_guild_id: int | None) -> None:
    """Sync the commands to ``dev_guild_id``'s server, or globally without it, when they
    differ from the last sync's there; then take them out of every other server this
    application synced to before (not out of the global scope). In that order, so a
    member never finds none."""
    application_id = tree.client.application_id
    assert application_id is not None, "known once logged in (setup_hook)"
    scope = "global" if dev_guild_id is None else f"guild-{dev_guild_id}"
    marker = folder / f"commands-{application_id}-{scope}.sha256"
    if not await _sync(tree, marker, dev_guild_id):
        return  # the commands stay where they are: a member never finds none
    for earlier, guild_id in _markers(folder, application_id):
        if earlier == marker:
            continue
        if guild_id == dev_guild_id:  # this scope's marker under its name from before
            earlier.unlink(missing_ok=True)
        elif guild_id is not None:  # the global commands stay (the module's docstring)
            await _withdraw(tree, earlier, guild_id)


async def _sync(tree: DominoTree, marker: Path, guild_id: int | None) -> bool:
    """Whether the commands are where they should be now: synced, or unchanged since."""
    guild = discord.Object(guild_id) if guild_id is not None else None
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
        return True
    try:
        await tree.sync(guild=guild)
    except (discord.Forbidden, discord.NotFound) as error:
        if guild is None:
            raise
        # A typo, or a trial server the bot was removed from: every other server's
        # tables are still played; the operator is told which setting to correct.
        log.error("DEV_GUILD_ID=%s names a server the bot is not in (%s): the slash commands"
                  " are not synced there; correct or empty it", guild_id, error.status)  # fmt: skip
        return False
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(fingerprint)
    log.info("slash commands synced %s", f"to guild {guild_id}" if guild else "globally")
    return True


def _markers(folder: Path, application_id: int) -> Iterator[tuple[Path, int | None]]:
    """This application's markers (and those from before markers named theirs), each
    with its scope: a server's id, None for global. Another application's are left:
    this token cannot reach its commands, and they stay right for it."""
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("commands-*.sha256")):
        name = _MARKER.fullmatch(path.name)
        if name is None or name["application"] not in (None, str(application_id)):
            continue
        yield path, int(name["guild"]) if name["guild"] else None


async def _withdraw(tree: DominoTree, marker: Path, guild_id: int) -> None:
    """Take the commands out of a server the bot no longer syncs to, then forget its
    marker; a failure keeps the marker, so the next start tries again."""
    try:
        await tree.withdraw(discord.Object(guild_id))
    except (discord.Forbidden, discord.NotFound):  # no longer in that server: none to take
        log.info("slash commands not taken out of guild %s: the bot is not there", guild_id)
    except discord.HTTPException as error:
        log.warning("slash commands left in guild %s for now (%s)", guild_id, error)
        return
    else:
        log.info("slash commands taken out of guild %s, where they were before", guild_id)
    marker.unlink(missing_ok=True)
