"""Buttons: persistent ``DynamicItem``s whose custom_id carries the table and the version
they were drawn for, ``domino:<table>:<version>:<action>[:<arg>]`` (≤ 100 characters).

discord.py routes any click whose custom_id matches the template to :class:`DominoButton`,
after a restart too, so old messages keep working; the table service then refuses a
click on an outdated version with a message that says so.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Move
from bot.table import LEVELS, Status, Table

if TYPE_CHECKING:
    from cogs.domino import DominoCog

log = logging.getLogger(__name__)
PREFIX = "domino"
TEMPLATE = re.compile(
    rf"{PREFIX}:(?P<table>[0-9a-f]+):(?P<version>\d+):(?P<action>[a-z]+)(?::(?P<arg>[^:]+))?"
)

# The actions a button can carry.
JOIN, LEAVE, COMPUTER, LEVEL, START, CANCEL = (
    "join",
    "leave",
    "computer",
    "level",
    "start",
    "cancel",
)
HAND, DRAW, PASS, RULES, PLAY = "hand", "draw", "pass", "rules", "play"
LOBBY_ACTIONS = frozenset({JOIN, LEAVE, COMPUTER, LEVEL, START, CANCEL})


@dataclass(frozen=True, slots=True)
class Click:
    """A parsed custom_id."""

    table_id: str
    version: int
    action: str
    arg: str | None = None

    @property
    def custom_id(self) -> str:
        tail = f":{self.arg}" if self.arg else ""
        return f"{PREFIX}:{self.table_id}:{self.version}:{self.action}{tail}"


class DominoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Every button the bot draws; the click is handed to the cog."""

    def __init__(
        self,
        click: Click,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        self.click = click
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=click.custom_id, disabled=disabled, emoji=emoji
        )
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> DominoButton:
        click = Click(match["table"], int(match["version"]), match["action"], match["arg"])
        label = getattr(item, "label", None) or click.action
        return cls(click, label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog: DominoCog | None = interaction.client.get_cog("Domino")
        if cog is None:  # pragma: no cover - the cog is loaded in setup_hook
            await interaction.response.send_message(
                "The bot is starting up: try again.", ephemeral=True
            )
            return
        try:
            await cog.on_click(interaction, self.click)
        except Exception:
            log.exception(
                "the %s button of table %s failed", self.click.action, self.click.table_id
            )
            await cog.apologize(interaction)


def _button(table: Table, action: str, label: str, **kwargs: Any) -> DominoButton:
    arg = kwargs.pop("arg", None)
    return DominoButton(Click(table.id, table.version, action, arg), label, **kwargs)


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if table.status is not Status.LOBBY:
        return view
    full = len(table.seats) >= table.max_players
    view.add_item(_button(table, JOIN, "Join", style=discord.ButtonStyle.primary, disabled=full))
    view.add_item(_button(table, LEAVE, "Leave"))
    view.add_item(_button(table, COMPUTER, "Add computer", disabled=full))
    view.add_item(_button(table, START, "Start", style=discord.ButtonStyle.success))
    view.add_item(_button(table, CANCEL, "Cancel", style=discord.ButtonStyle.danger))
    return view


def level_view(table: Table) -> discord.ui.View:
    """The level choice that "Add computer" opens (ephemeral, for the one who clicked)."""
    view = discord.ui.View(timeout=None)
    for level in LEVELS:
        view.add_item(_button(table, LEVEL, level.capitalize(), arg=level))
    return view


def table_view(table: Table) -> discord.ui.View:
    """My hand, Draw, Pass (enabled only when that is the legal action of the seat to
    move), Rules."""
    view = discord.ui.View(timeout=None)
    legal = table.match.legal_moves() if table.match and table.status is Status.PLAYING else ()
    texts = {move.text for move in legal}
    view.add_item(_button(table, HAND, "My hand", style=discord.ButtonStyle.primary))
    view.add_item(_button(table, DRAW, "Draw", disabled="draw" not in texts))
    view.add_item(_button(table, PASS, "Pass", disabled="pass" not in texts))
    view.add_item(_button(table, RULES, "Rules"))
    return view


def hand_view(table: Table, legal: tuple[Move, ...]) -> discord.ui.View:
    """One button per playable tile (a tile that fits several ends asks which, on a
    second click); Draw or Pass when that is all there is to do."""
    view = discord.ui.View(timeout=None)
    tiles: dict[str, list[str]] = {}
    for move in legal:
        if move.tile is None:
            view.add_item(_button(table, PLAY, move.text.capitalize(), arg=move.text))
        else:
            tiles.setdefault(str(move.tile), []).append(move.text)
    for tile, moves in tiles.items():
        arg = moves[0] if len(moves) == 1 else tile
        label = moves[0] if len(moves) == 1 else f"{tile} …"
        view.add_item(_button(table, PLAY, label, style=discord.ButtonStyle.success, arg=arg))
    return view


def ends_view(table: Table, moves: list[Move]) -> discord.ui.View:
    """Where a tile that fits several ends goes: one button per end."""
    view = discord.ui.View(timeout=None)
    for move in moves:
        view.add_item(
            _button(table, PLAY, move.text, style=discord.ButtonStyle.success, arg=move.text)
        )
    return view
