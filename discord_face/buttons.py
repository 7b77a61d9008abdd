"""Buttons: one persistent ``DynamicItem`` class per behaviour, as discord.py's
``examples/views/dynamic_counter.py`` shows. Each custom_id carries the table and the
version it was drawn for, ``domino:<table>:<version>:<action>[:<arg>]`` (≤ 100
characters), so buttons keep working after a restart; each class parses its own id
strictly and checks its own clicker. A custom_id that no class claims (forged, or from a
format long gone) is answered by :class:`NoLongerValid`, never left unacknowledged.

The ids are the same as before these classes existed, so buttons already posted keep
working.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable
from typing import Any, ClassVar

import discord

from bot.commands import AddComputer, Cancel, Join, Leave, MoreTime, Play, Start
from bot.engine import DRAW, PASS, Drawing, Move
from bot.levels import LEVELS
from bot.refusals import Refusal, StaleVersion
from bot.service import TableService
from bot.snapshot import TableSnapshot
from bot.table import Status, game_id
from discord_face import acting, members
from words import boards, common, lobby, play, refusals, rules

log = logging.getLogger(__name__)

PREFIX = "domino"
_HEAD = rf"{PREFIX}:(?P<table>[0-9a-f]{{8}}):(?P<version>\d{{1,9}})"
_MOVE = r"draw|pass|[0-6]-[0-6](?: [NESWLR])?"

Button = discord.ui.Button[Any]
Component = dict[str, Any]
"""A message component as Discord reads it (its JSON object)."""


def button(
    label: str, custom_id: str, style: discord.ButtonStyle, disabled: bool = False
) -> Component:
    """A button as Discord reads it, as ``discord.ui.Button.to_component_dict`` writes it."""
    return {
        "type": discord.ComponentType.button.value,
        "style": style.value,
        "disabled": disabled,
        "label": label,
        "custom_id": custom_id,
    }


class TableButton(discord.ui.DynamicItem[Button], template=r"(?!)"):
    """What every button of a table shares: its table and version, the lookup of the
    table, the server check, and answers to refusals and failures. Never registered
    itself (its template matches nothing); each subclass names its action."""

    action: ClassVar[str]
    arg_pattern: ClassVar[str | None] = None

    def __init_subclass__(cls, *, action: str, arg: str | None = None) -> None:
        tail = f":(?P<arg>{arg})" if arg else ""
        super().__init_subclass__(template=f"{_HEAD}:{action}{tail}")
        cls.action, cls.arg_pattern = action, arg

    def __init__(
        self, table_id: str, version: int, arg: str | None = None, *, label: str = ""
    ) -> None:
        self.table_id, self.version, self.arg = table_id, version, arg
        custom_id = self.id_for(table_id, version, arg)
        super().__init__(discord.ui.Button(label=label or self.action, custom_id=custom_id))

    @classmethod
    def id_for(cls, table_id: str, version: int, arg: str | None = None) -> str:
        """The custom_id this class's template reads back (the module's docstring)."""
        tail = f":{arg}" if arg else ""
        return f"{PREFIX}:{table_id}:{version}:{cls.action}{tail}"

    @classmethod
    def on(
        cls,
        table: TableSnapshot,
        label: str,
        arg: str | None = None,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> Component:
        """This button, drawn for ``table`` as it is now, as a message carries it (see
        :class:`_Buttons`)."""
        custom_id = cls.id_for(table.id, table.version, arg)
        return button(label, custom_id, style, disabled)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        label = getattr(item, "label", None) or ""
        return cls(match["table"], int(match["version"]), match.groupdict().get("arg"), label=label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        _handling(self, interaction)
        try:
            service = acting.service_of(interaction)
            table = acting.about(interaction, service.snapshot(self.table_id))
            acting.check_server(table, interaction)
            await self.clicked(interaction, service, table)
        except acting.Starting:
            await acting.apologize(interaction, refusals.starting())
        except Refusal as error:
            await acting.answer(interaction, error)
        except Exception:
            log.exception("the %s button of table %s failed", self.action, self.table_id)
            await acting.apologize(interaction)

    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        raise NotImplementedError

    @staticmethod
    def in_private(interaction: discord.Interaction[Any]) -> bool:
        """Whether the click came from an ephemeral message: only its member sees it, so
        the clicker is the member it was drawn for."""
        message = interaction.message
        return message is not None and message.flags.ephemeral


def _handling(item: discord.ui.Item[Any], interaction: discord.Interaction[Any]) -> None:
    """Start handling a click on ``item``: tracked as in flight and in the member's
    language (:func:`discord_face.acting.track`); and when its task ends, the view discord.py
    rebuilt from the clicked message to dispatch it lets go of its buttons, so that it
    is freed at once rather than by the cycle collector (see :class:`_Buttons`)."""
    acting.track(interaction)
    task, view = asyncio.current_task(), item.view
    if task is not None and view is not None:
        task.add_done_callback(lambda _: view.clear_items())


# -- the lobby ----------------------------------------------------------------------------


class JoinButton(TableButton, action="join"):
    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        await interaction.response.defer()
        user = interaction.user
        await acting.run(interaction, service, table, Join(user.id, members.seat_name(user)))


class LeaveButton(TableButton, action="leave"):
    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        await interaction.response.defer()
        await acting.run(interaction, service, table, Leave(interaction.user.id))


class ComputerButton(TableButton, action="computer"):
    """Opens the level choice, privately, for the member who clicked."""

    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        await acting.reply(interaction, play.which_level(), view=level_view(table))


class LevelButton(TableButton, action="level", arg="|".join(LEVELS)):
    """A computer level, from the private choice. Checked against the version it was
    drawn for, so a double click or an old choice adds no second computer."""

    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        if not self.in_private(interaction) or self.arg is None:
            await acting.reply(interaction, refusals.button_gone())
            return
        await interaction.response.defer()
        command = AddComputer(interaction.user.id, self.arg)
        await acting.run(interaction, service, table, command, seen_version=self.version)


class StartButton(TableButton, action="start"):
    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        await interaction.response.defer()
        await acting.run(interaction, service, table, Start(interaction.user.id))


class CancelButton(TableButton, action="cancel"):
    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        await interaction.response.defer()
        manager = bool(interaction.permissions.manage_guild)
        await acting.run(interaction, service, table, Cancel(interaction.user.id, manager))


class ActivityButton(TableButton, action="activity"):
    """Opens the table in the channel's Activity (the browser table inside Discord), on
    the lobby and the table messages when the bot has the Activity set up."""

    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        await interaction.response.launch_activity()


class _Offered:
    """Whether the messages offer the Activity: the bot says so once at start-up
    (:func:`offer_activity`), as the views are drawn from a table alone."""

    activity = False


def offer_activity(offered: bool) -> None:
    """The bot has the Activity (``DISCORD_CLIENT_SECRET`` and ``WEB_PORT``) or not."""
    _Offered.activity = offered


# -- the table message ----------------------------------------------------------------------


class HandButton(TableButton, action="hand"):
    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        await acting.send_hand(interaction, service, table)


class DrawButton(TableButton, action="draw"):
    move: ClassVar[Move] = DRAW

    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        await interaction.response.defer()
        command = Play(interaction.user.id, self.move)
        events = await acting.run(interaction, service, table, command, seen_version=self.version)
        await acting.after_draw(interaction, service, table, events)


class PassButton(DrawButton, action="pass"):
    move: ClassVar[Move] = PASS


class RulesButton(TableButton, action="rules"):
    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        await acting.reply(interaction, rules.rules_for(table.variant.game))


class RematchButton(TableButton, action="rematch"):
    """On a finished game's last message: play it again with the same seats. Its table
    is closed by then, so this button looks up the game, not the table."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        _handling(self, interaction)
        try:
            service = acting.service_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            table, opened = await service.rematch(
                game_id(self.table_id, self.version),
                interaction.guild_id or 0,
                interaction.channel_id or 0,
                interaction.user.id,
                members.seat_name(interaction.user),
            )
            await acting.reply(interaction, lobby.rematch_opened(table.title))
            if opened:
                await acting.post_lobby(interaction, service, table)
        except acting.Starting:
            await acting.apologize(interaction, refusals.starting())
        except Refusal as error:
            await acting.answer(interaction, error)
        except Exception:
            log.exception("the rematch button of table %s failed", self.table_id)
            await acting.apologize(interaction)


class ForgetButton(discord.ui.DynamicItem[Button], template=r"domino:forget:(?P<user>\d{1,20})"):
    """The confirmation of ``/domino forget-me``: only in the member's own private
    answer, and only for the member it was drawn for."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(discord.ui.Button(custom_id=self.id_for(user_id)))

    @staticmethod
    def id_for(user_id: int) -> str:
        """The custom_id the template reads back."""
        return f"domino:forget:{user_id}"

    @classmethod
    def on(cls, user_id: int) -> Component:
        """The button, as the member's private answer carries it."""
        return button(common.label("forget"), cls.id_for(user_id), discord.ButtonStyle.danger)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ForgetButton:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        _handling(self, interaction)
        if not TableButton.in_private(interaction) or interaction.user.id != self.user_id:
            await acting.apologize(interaction, refusals.button_gone())
            return
        try:
            await interaction.response.defer()
            tournaments = getattr(interaction.client, "tournaments", None)
            if tournaments is not None:  # a member entered in a running tournament stays
                await tournaments.check_forgettable(self.user_id)
            gone = await acting.service_of(interaction).forget(self.user_id)
            await interaction.edit_original_response(content=boards.forgotten(gone), view=None)
        except Refusal as error:
            await acting.answer(interaction, error)
        except Exception:
            log.exception("forgetting member %s failed", self.user_id)
            await acting.apologize(interaction)


# -- a private hand -------------------------------------------------------------------------


class PlayButton(TableButton, action="play", arg=_MOVE):
    """A tile (with its end), a draw or a pass, from the member's private hand. A tile
    without its end (a hand with more moves than buttons, :func:`hand_view`) asks which,
    in the same private message. The move is stored
    before the click is answered, so that one answer both acknowledges the click and
    says what was played (see :func:`discord_face.acting.run`)."""

    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        if not self.in_private(interaction) or self.arg is None:
            await acting.reply(interaction, refusals.button_gone())
            return
        user = interaction.user.id
        move = Move.parse(self.arg)
        view = table.view
        if move.tile is not None and move.end is None and view is not None and view.layout:
            if self.version != table.version:
                raise StaleVersion()
            places = [m for m in table.legal_for(user) if m.tile is move.tile]
            await interaction.response.edit_message(
                content=play.where_goes(move.tile), view=ends_view(table, places)
            )
            return
        click = acting.Click(interaction)
        try:
            events = await acting.run(
                interaction,
                service,
                table,
                Play(user, move),
                seen_version=self.version,
                click=click,
            )
            if not await acting.after_draw(interaction, service, table, events, in_place=True):
                await acting.rewrite(interaction, play.you_played(move), view=None, attachments=[])
        finally:
            click.answered.set()


class HintButton(TableButton, action="hint"):
    """At a table with hints on, under the member's private hand: what the normal
    computer player would play here, and why (``/domino hint`` can ask the hard one)."""

    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        if self.version != table.version:
            raise StaleVersion()
        await acting.send_hint(interaction, table)


class MoreTimeButton(TableButton, action="more"):
    """Under the member's private hand on their turn: a whole turn more on their clock
    (``bot.commands.MoreTime``). The hand is drawn again in its place, its buttons for
    the table as it now stands (the action moved the table on), and says until when."""

    async def clicked(
        self, interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
    ) -> None:
        if not self.in_private(interaction):
            await acting.reply(interaction, refusals.button_gone())
            return
        command, click = MoreTime(interaction.user.id), acting.Click(interaction)
        try:  # the click is acknowledged if storing it takes long (see PlayButton)
            await acting.run(
                interaction, service, table, command, seen_version=self.version, click=click
            )
            now = service.find(table.id) or table
            note = play.more_time_given(now.deadline) if now.deadline is not None else ""
            await acting.send_hand(interaction, service, now, note, in_place=True)
        finally:
            click.answered.set()


# -- anything else ---------------------------------------------------------------------------

CLAIMED = (
    JoinButton, LeaveButton, ComputerButton, LevelButton, StartButton, CancelButton,
    HandButton, DrawButton, PassButton, RulesButton, PlayButton, HintButton, MoreTimeButton,
    RematchButton, ForgetButton, ActivityButton,
)  # fmt: skip
"""Every behaviour, in the order discord.py tries their templates."""


def _unclaimed() -> re.Pattern[str]:
    """Any text that no behaviour's template matches in full (their named groups made
    plain, since one pattern cannot name a group twice)."""
    claimed = "|".join(
        re.sub(r"\(\?P<\w+>", "(?:", c.__discord_ui_compiled_template__.pattern) for c in CLAIMED
    )
    return re.compile(rf"(?s)(?!(?:{claimed})\Z).*")


class NoLongerValid(discord.ui.DynamicItem[Button], template=_unclaimed()):
    """Any custom_id no behaviour claims: a forged id, a mangled one, or an action that
    no longer exists. Acknowledged at once, privately, and nothing else happens."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id=custom_id[:100] or "?"))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> NoLongerValid:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        _handling(self, interaction)
        await acting.apologize(interaction, refusals.button_gone())


DYNAMIC_ITEMS = (*CLAIMED, NoLongerValid)
"""What the client registers at start-up (``add_dynamic_items``)."""


# -- which buttons each message carries ------------------------------------------------------


class _Buttons(discord.ui.View):
    """A message's buttons, written as Discord reads them (:func:`button`), five to a
    row in the order added: a view that is only ever sent.

    Every button here is a ``DynamicItem``: a click reaches its class through the
    custom_id alone (``DYNAMIC_ITEMS``), which makes an item of it then. So the
    buttons a message goes out with are written straight to their JSON, never made
    into discord.py items, which take several times as long to build, and a view of
    items with their buttons is a knot of cycles that only the collector frees (with
    the views discord.py rebuilds to dispatch clicks, :func:`_handling`, they were half
    of what it found at 500 tables, and each collection stops the event loop). The view
    is finished from the start, so discord.py keeps nothing of it once sent (an
    ephemeral message's view, a member's hand, would otherwise get a 15-minute timeout
    with a task and a timer of its own). The same
    view can be sent again (the announcer's fall-back from an expired click to the
    channel)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()
        self._buttons: list[Component] = []

    def add(self, button: Component) -> None:
        self._buttons.append(button)

    def to_components(self) -> list[Component]:
        buttons = self._buttons
        return [
            {"type": discord.ComponentType.action_row.value, "components": buttons[i : i + 5]}
            for i in range(0, len(buttons), 5)
        ]


def lobby_view(table: TableSnapshot) -> discord.ui.View:
    view = _Buttons()
    if table.status is not Status.LOBBY:
        return view
    full = len(table.seats) >= table.max_players
    view.add(
        JoinButton.on(table, common.label("join"), style=discord.ButtonStyle.primary, disabled=full)
    )
    view.add(LeaveButton.on(table, common.label("leave")))
    view.add(ComputerButton.on(table, common.label("computer"), disabled=full))
    view.add(StartButton.on(table, common.label("start"), style=discord.ButtonStyle.success))
    view.add(CancelButton.on(table, common.label("cancel"), style=discord.ButtonStyle.danger))
    if _Offered.activity:
        view.add(ActivityButton.on(table, common.label("activity")))
    return view


def level_view(table: TableSnapshot) -> discord.ui.View:
    """The level choice that "Add computer" opens (ephemeral, for the one who clicked)."""
    view = _Buttons()
    for level in LEVELS:
        view.add(LevelButton.on(table, common.label(level), level))
    return view


def table_view(table: TableSnapshot) -> discord.ui.View:
    """My hand, Draw, Pass (enabled only when that is the legal action of the seat to
    move), Rules."""
    view = _Buttons()
    moves = table.moves_to_make()
    view.add(HandButton.on(table, common.label("hand"), style=discord.ButtonStyle.primary))
    if table.variant.drawing is not Drawing.NO_BONEYARD:  # Milo deals every tile
        view.add(DrawButton.on(table, common.label("draw"), disabled=DRAW not in moves))
    view.add(PassButton.on(table, common.label("pass"), disabled=PASS not in moves))
    view.add(RulesButton.on(table, common.label("rules")))
    if _Offered.activity:
        view.add(ActivityButton.on(table, common.label("activity")))
    return view


BUTTONS_AT_MOST = 25
"""Buttons Discord shows on one message (five rows of five)."""


def hand_view(
    table: TableSnapshot, legal: tuple[Move, ...], *, more_time: bool = False
) -> discord.ui.View:
    """A button per legal move (``6-1 N``, a tile's ends side by side, each end with the
    language's letter, ``6-1 O`` for West in Spanish; Draw or Pass when that is all there
    is to do), Hint on the member's turn at a table with hints on, and More time while
    the member may take it (``more_time``). The custom_ids keep the engine's names
    (``6-1 W``), whatever the language.

    A tile that fits several ends is played in one click, like any other: at Cross and
    Merry-Go-Round two turns in five play such a tile, and asking which end in a second
    message cost each of them a click and a request more. Only when the moves would not
    all fit on the message (:data:`BUTTONS_AT_MOST`) does such a tile get one button
    (``6-1 …``) that asks which end on a second click."""
    view = _Buttons()
    tiles: dict[str, list[Move]] = {}
    for move in legal:
        if move.tile is None:
            view.add(PlayButton.on(table, common.label(move.text), move.text))
        else:
            tiles.setdefault(str(move.tile), []).append(move)
    hint = bool(table.hints and legal)
    each_move = len(legal) + hint + more_time <= BUTTONS_AT_MOST
    for tile, moves in tiles.items():
        if each_move or len(moves) == 1:
            for move in moves:
                view.add(_play_button(table, move))
        else:
            label = play.choose_end_label(tile)
            view.add(PlayButton.on(table, label, tile, style=discord.ButtonStyle.success))
    if hint:
        view.add(HintButton.on(table, common.label("hint")))
    if more_time:
        view.add(MoreTimeButton.on(table, common.label("more_time")))
    return view


def game_over_view(table: TableSnapshot) -> discord.ui.View:
    """A finished game's last message: Rematch."""
    view = _Buttons()
    view.add(RematchButton.on(table, common.label("rematch"), style=discord.ButtonStyle.primary))
    return view


def forget_view(user_id: int) -> discord.ui.View:
    view = _Buttons()
    view.add(ForgetButton.on(user_id))
    return view


def ends_view(table: TableSnapshot, moves: list[Move]) -> discord.ui.View:
    """Where a tile that fits several ends goes: one button per end."""
    view = _Buttons()
    for move in moves:
        view.add(_play_button(table, move))
    return view


def _play_button(table: TableSnapshot, move: Move) -> Component:
    """A tile's move: labelled as the member's language writes it (``6-1 O``), its
    custom_id in the engine's words (``6-1 W``)."""
    return PlayButton.on(
        table, common.move_text(move), move.text, style=discord.ButtonStyle.success
    )


_DRAWN_FOR = re.compile(_HEAD + ":")


def version_drawn(custom_ids: Iterable[str], table_id: str) -> int | None:
    """The newest version of table ``table_id`` that buttons with ``custom_ids`` were
    drawn for (None: none of them is that table's): what a message of ours shows."""
    versions = [
        int(found["version"])
        for found in map(_DRAWN_FOR.match, custom_ids)
        if found is not None and found["table"] == table_id
    ]
    return max(versions, default=None)


def reaches_an_item(interaction: discord.Interaction[Any]) -> bool:
    """Whether discord.py will dispatch this component interaction to an item: it looks
    for a component of the kind sent, with the custom_id sent, in the message clicked.
    Discord's own clients always send one; a forged request (a button's id sent as a
    select, say) finds none, and discord.py drops it without an answer."""
    data: dict[str, Any] = dict(interaction.data or {})
    kind, custom_id = data.get("component_type"), data.get("custom_id")
    message = interaction.message
    if message is None:
        return False
    return any(
        child.type.value == kind and getattr(child, "custom_id", None) == custom_id
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
    )


async def answer_unreachable(interaction: discord.Interaction[Any]) -> None:
    """Answer a component interaction no item will (see :func:`reaches_an_item`)."""
    if interaction.type is discord.InteractionType.component and not reaches_an_item(interaction):
        acting.track(interaction)
        await acting.apologize(interaction, refusals.button_gone())
