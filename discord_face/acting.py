"""What slash commands and buttons share: finding the caller's table, asking the table
service to act, answering a refusal privately, and showing a member their hand.

A refusal is raised, never answered where it happens: the tree's ``on_error`` (for slash
commands) and a button's callback answer it (:func:`answer`), with the names of the
table the interaction is about (:func:`about`).

Every answer here is ephemeral (only the member who asked sees it), in the member's own
language; the public table messages are the announcer's, in the server's.
``discord_face.buttons`` and this module use each other (a click acts; a hand carries buttons),
so each imports the other as a module, used only inside functions.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import discord
from discord import app_commands

from bot import hints
from bot.commands import Command
from bot.engine import DRAW
from bot.events import Event, Moved, RoundOver
from bot.refusals import (
    NoTableHere,
    NotSeatedHere,
    OtherServer,
    Refusal,
    StaleVersion,
)
from bot.service import TableService
from bot.snapshot import TableSnapshot
from bot.table import Status
from discord_face import buttons
from discord_face.embeds import embed
from rendering import HandScene
from rendering.painter import Painter, hand_png
from words import advice, common, i18n, lobby, pictures, play, refusals

log = logging.getLogger(__name__)

T = TypeVar("T")

FACE = "discord"
"""The name under which the service keeps what the Discord chat has shown of a table."""


class Starting(Exception):
    """An interaction arrived before the bot had its table service, or after it began to
    stop: the member is asked to try again in a moment (the bot is restarting)."""


class DominoClient(Protocol):
    """The client, as the Discord face needs it: resources made once, in the client."""

    service: TableService | None
    stopping: bool
    """The bot is stopping: it takes no new action."""
    in_flight: set[asyncio.Task[Any]]
    """The commands and clicks being handled now (the client waits for them on close)."""
    painter: Painter


def service_of(interaction: discord.Interaction[Any]) -> TableService:
    client: DominoClient = interaction.client
    if client.service is None or client.stopping:
        raise Starting()
    return client.service


def track(interaction: discord.Interaction[Any]) -> None:
    """Count the task handling ``interaction`` as in flight until it ends, so a shutdown
    lets it finish before the connections close; and speak the member's language in it
    (Discord sends each interaction with its member's locale)."""
    i18n.use(interaction.locale.value)
    client: DominoClient = interaction.client
    task = asyncio.current_task()
    if task is not None:
        client.in_flight.add(task)
        task.add_done_callback(client.in_flight.discard)


def guild_locale(interaction: discord.Interaction[Any]) -> str | None:
    """The server's preferred locale, as Discord sends it with the interaction."""
    return interaction.guild_locale.value if interaction.guild_locale is not None else None


READY_SECONDS = 10.0
"""How long what needs the bot's servers waits for them right after a start (the bot
serves, and catches up its channels, before it has connected to Discord's gateway; a
large bot's servers keep arriving for a while after)."""


async def ready(client: discord.Client) -> bool:
    """Whether the bot knows its servers (discord.py's cache holds them): at once once it
    is ready, else after waiting for that (at most :data:`READY_SECONDS`)."""
    if client.is_ready():
        return True
    try:
        await asyncio.wait_for(client.wait_until_ready(), READY_SECONDS)
    except TimeoutError:
        return False
    return True


async def posting_language(
    client: discord.Client, service: TableService, guild_id: int, *, wait: bool = True
) -> i18n.Language:
    """The language of what the bot posts of its own accord in a server (no interaction
    to read the server's locale from): :func:`server_language`, with the server's
    preferred locale from discord.py's cache, once the bot knows its servers (a post
    caught up right after a restart would otherwise be in English). Not ``wait``: as
    the cache stands (what runs inside the bot's ``setup_hook`` must not wait for it:
    the bot connects only once that returns, so the wait would only delay the start)."""
    guild = client.get_guild(guild_id)
    if guild is None and wait and await ready(client):
        guild = client.get_guild(guild_id)
    preferred = guild.preferred_locale.value if guild is not None else None
    return await server_language(service, guild_id, preferred)


async def server_language(
    service: TableService, guild_id: int, preferred: str | None
) -> i18n.Language:
    """The language of a server's public messages: the one chosen with ``/domino
    settings language``, else the server's ``preferred`` locale when the bot speaks it,
    else English. A store that cannot say leaves the server's own preference."""
    try:
        chosen = (await service.settings(guild_id)).language
    except Refusal:
        chosen = None
    return i18n.server_language(chosen, preferred)


# -- answering privately ----------------------------------------------------------------

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""


def chunks(lines: Sequence[str]) -> list[str]:
    """``lines`` as messages within Discord's limit on a message's length, each line
    whole in one of them (a line longer than a message alone is cut): an answer too
    long for one message is sent as several rather than cut, which would drop what
    came after the cut and could leave a mark of the markup open."""
    found: list[str] = []
    current = ""
    for line in lines:
        line = line[:MESSAGE_LIMIT]
        if current and len(current) + 1 + len(line) > MESSAGE_LIMIT:
            found.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        found.append(current)
    return found


async def reply(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was acknowledged already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def rewrite(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """The clicked private message, rewritten as the answer: in the click's own response,
    or as an edit of it once the click was acknowledged."""
    if interaction.response.is_done():
        await interaction.edit_original_response(content=text, **kwargs)
    else:
        await interaction.response.edit_message(content=text, **kwargs)


ABOUT = "table"
"""The key, in ``interaction.extras``, of the table the interaction is about."""


def about(interaction: discord.Interaction[Any], table: TableSnapshot) -> TableSnapshot:
    """Note ``table`` as the one the interaction is about, for :func:`answer` to name its
    seats (and give a fresh hand for old controls); returns it."""
    interaction.extras[ABOUT] = table
    return table


async def answer(interaction: discord.Interaction[Any], error: Refusal) -> None:
    """Tell the member why their action was refused (it changed nothing), naming the
    seats of the table the interaction is about, as it is now; a click on controls drawn
    for an older state gets the member's hand as it is now (:func:`moved_on`)."""
    table: TableSnapshot | None = interaction.extras.get(ABOUT)
    client: DominoClient = interaction.client
    if table is not None and client.service is not None:
        service = client.service
        if isinstance(error, StaleVersion):
            await moved_on(interaction, service, table.id)
            return
        table = service.find(table.id) or table
    await refuse(interaction, error, table)


async def refuse(
    interaction: discord.Interaction[Any], error: Refusal, table: TableSnapshot | None = None
) -> None:
    """Tell the member why their action was refused, in the words of ``table``'s seats."""
    await reply(interaction, refusals.refusal(error, common.seat_names(table) if table else None))


async def apologize(interaction: discord.Interaction[Any], text: str | None = None) -> None:
    """The answer to a failure of ours: never Discord's bare "This interaction failed"."""
    with contextlib.suppress(discord.HTTPException):
        await reply(interaction, text or refusals.apology())


# -- finding the caller's table -----------------------------------------------------------


def table_here(service: TableService, interaction: discord.Interaction[Any]) -> TableSnapshot:
    """The table in this channel, which the interaction is then about."""
    table = service.in_channel(interaction.channel_id or 0)
    if table is None:
        raise NoTableHere()
    return about(interaction, table)


def my_table(service: TableService, interaction: discord.Interaction[Any]) -> TableSnapshot:
    """The table in this channel if the caller sits there, else their table here: the
    one the interaction is then about."""
    here = service.in_channel(interaction.channel_id or 0)
    if here is not None and here.seat_of(interaction.user.id) is not None:
        return about(interaction, here)
    mine = service.of_user(interaction.guild_id or 0, interaction.user.id)
    if mine is None:
        raise NotSeatedHere()
    return about(interaction, mine)


POSTING = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
"""What the bot needs in a channel to show a table there (discord.py's names): to post
its messages, their cards (embeds) and pictures (files), and after a restart to read
back what it posted (so nothing is posted twice)."""
IN_THREADS = ("create_public_threads", "send_messages_in_threads")
"""What it needs besides in a channel whose tables each get a thread (the setting)."""


def check_can_post(interaction: discord.Interaction[Any], *, threads: bool = False) -> None:
    """Refuse a command that would have the bot post a table where Discord would refuse
    the posts (by the bot's permissions in the interaction's channel, which Discord
    sends with it): the member is told which are missing (the tree answers discord.py's
    ``BotMissingPermissions``) before anything is opened or promised. In a thread the
    bot posts with Send Messages in Threads; ``threads``: a table opened here would move
    to a thread of its own."""
    granted = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    needed = [
        "send_messages_in_threads" if in_thread and name == "send_messages" else name
        for name in POSTING
    ]
    if threads and isinstance(interaction.channel, discord.TextChannel):
        needed += IN_THREADS
    missing = [name for name in needed if not getattr(granted, name)]
    if missing:
        raise app_commands.BotMissingPermissions(missing)


def check_server(table: TableSnapshot, interaction: discord.Interaction[Any]) -> None:
    if table.guild_id != interaction.guild_id:
        raise OtherServer()


async def post_lobby(
    interaction: discord.Interaction[Any], service: TableService, table: TableSnapshot
) -> discord.Message:
    """A new table's lobby, for everyone, as a follow-up of the interaction that opened
    it (after the opener's private answer): not a channel message, so it does not count
    against Discord's global rate limit. It is read by everyone, so it is in the server's
    language, not the opener's."""
    public = await server_language(service, table.guild_id, guild_locale(interaction))
    with i18n.speaking(public):
        posted = await interaction.followup.send(
            embed=embed(lobby.lobby_card(table)), view=buttons.lobby_view(table), wait=True
        )
    await service.remember_message(FACE, table.id, posted.id, table.version)
    now = service.find(table.id)
    if now is not None and now.status is Status.LOBBY:
        # Joined meanwhile: the lobby is edited to show it. Else the other faces are shown
        # the new table all the same (an Activity open in the channel), the channel not.
        joined = now.version > table.version
        with contextlib.suppress(Refusal):
            await service.repost(table.id, via=None if joined else LobbyPosted())
    return posted


@dataclass(frozen=True, slots=True)
class LobbyPosted:
    """``via`` of a new table shown to the faces as it stands once its lobby is posted:
    the channel shows it already, so the announcer leaves it."""


@dataclass(frozen=True, slots=True)
class PlaceGone:
    """``via`` of a table closed because its channel or thread was deleted (or the bot
    removed from its server): there is nowhere to post it, so the announcer posts
    nothing more of it."""


# -- acting ---------------------------------------------------------------------------------


async def run(
    interaction: discord.Interaction[Any],
    service: TableService,
    table: TableSnapshot,
    command: Command,
    *,
    seen_version: int | None = None,
    click: Click | None = None,
) -> list[Event]:
    """Have the service carry out ``command`` at ``table`` (the one the interaction is
    about): the events of the action, or the service's refusal raised, for the caller's
    one handler to answer (:func:`answer`). With ``click``, the click is left unanswered
    while the action is stored, for the caller to answer it with what was done (see
    :func:`in_a_moment`)."""
    about(interaction, table)
    check_server(table, interaction)
    acting = service.act(table.id, command, seen_version=seen_version, via=click or interaction)
    if click is None:
        return await acting
    return await in_a_moment(interaction, acting, thinking=False)


async def moved_on(
    interaction: discord.Interaction[Any], service: TableService, table_id: str
) -> None:
    """A click on controls drawn for an older state: say so, and give fresh ones."""
    table = service.find(table_id)
    if (
        table is not None
        and table.status is Status.PLAYING
        and table.seat_of(interaction.user.id) is not None
    ):
        await send_hand(interaction, service, table, note=play.moved_on_hand())
    else:
        await refuse(interaction, StaleVersion())


async def after_draw(
    interaction: discord.Interaction[Any],
    service: TableService,
    before: TableSnapshot,
    events: Sequence[Event],
    *,
    in_place: bool = False,
) -> bool:
    """After a member's draw, privately: what they drew, with their hand while the turn
    is still theirs (the last tile drawn fits, and is theirs to place: R-CR-5, R-MG-5);
    or that it fitted nowhere and they passed, or that nobody could play after it. The
    table service made the draws and the pass that left no choice with the member's own
    (``Table``), and the channel sees the turn whole once it ends. ``before``: the table
    as it was when they drew. ``in_place``: the click came from their private hand,
    which becomes the answer (one request, where a new message would be two). False if
    the events hold no draw of theirs."""
    moved = [event.move for event in events if isinstance(event, Moved)]
    if not moved or moved[0] is not DRAW:
        return False
    user = interaction.user.id
    table = service.find(before.id)
    held, now = before.seat_view(user), table.seat_view(user) if table else None
    if any(isinstance(event, RoundOver) for event in events):
        said = play.draw_ended_round()
    elif table is None or held is None or now is None:
        return False
    else:
        drawn = [tile for tile in now.hand if tile not in held.hand]
        last = now.drawn  # while the turn is still theirs: the tile that fits
        if table.turn != now.seat or last is None:
            said = play.you_drew(drawn, fits=False)
        else:
            note = play.you_drew([*(t for t in drawn if t != last), last], fits=True)
            await send_hand(interaction, service, table, note=note, in_place=in_place)
            return True
    if in_place:
        await rewrite(interaction, said, view=None, attachments=[])
    else:
        await reply(interaction, said)
    return True


ANSWER_WITHIN = 0.05
"""Seconds a click waits for what it shows (a picture, a stored move) before
acknowledging the click on its own: ready in time, it is the answer itself, one request
instead of two. A twentieth of a second still feels instant; past it, the member sees
the click taken at once and the answer follows (Discord itself allows 3 seconds). On a
lightly loaded bot nearly every answer is ready in time. Under load a busy event loop
makes some answers late, and those clicks set the acknowledgement p99: a longer wait
raised it, a shorter one made more clicks need both requests and the bot fell behind
(``benchmarks/e2e.py``; the figures are in docs/BENCHMARKS.md)."""


@dataclass(frozen=True)
class Click:
    """A click that acts before it is answered, as the table service passes it on to
    the announcer: the announcer posts the table as the click's follow-up, which Discord
    takes only once the click is answered, so it waits for ``answered``."""

    interaction: discord.Interaction[Any]
    answered: asyncio.Event = field(default_factory=asyncio.Event)


async def in_a_moment(
    interaction: discord.Interaction[Any], work: Awaitable[T], *, thinking: bool
) -> T:
    """What ``work`` gives, the click left unanswered meanwhile so that the caller answers
    it with that, in one request; if it takes longer than :data:`ANSWER_WITHIN`, the
    click is acknowledged first (``thinking``: with a private "thinking…" that the
    answer replaces; else as a silent update of the message clicked)."""
    pending = asyncio.ensure_future(work)
    if not interaction.response.is_done():
        done, _ = await asyncio.wait({pending}, timeout=ANSWER_WITHIN)
        if not done:
            await interaction.response.defer(ephemeral=thinking, thinking=thinking)
    return await pending


async def send_hand(
    interaction: discord.Interaction[Any],
    service: TableService,
    table: TableSnapshot,
    note: str = "",
    *,
    in_place: bool = False,
) -> None:
    """The caller's hand, privately: the picture and a button per playable tile (with
    ``in_place``, in the private message clicked, see :func:`rewrite`). An away member
    who asks for their hand is back: the computer stops playing for them."""
    user = interaction.user.id
    seat = table.seat_of(user)
    if seat is None or table.view is None or table.status is not Status.PLAYING:
        await reply(interaction, play.no_hand())
        return
    if table.seats[seat].away:
        if not interaction.response.is_done():  # coming back is stored first
            await interaction.response.defer(ephemeral=True, thinking=not in_place)
        with contextlib.suppress(Refusal):
            await service.come_back(table.id, user)
        table = service.find(table.id) or table
    view = table.seat_view(user)
    if view is None:
        return
    legal = view.legal
    names = common.seat_names(table)
    painter: Painter = interaction.client.painter
    drawing = painter.draw_first(hand_png, HandScene.of(view), pictures.hand_text(view, names))
    png = await in_a_moment(interaction, drawing, thinking=not in_place)
    turn = play.pick_a_tile() if legal else play.is_to_play(names[table.turn or 0])
    more_time = table.more_time_left(user) > 0
    text = f"{note}\n{turn}".strip()
    buttons_now = buttons.hand_view(table, legal, more_time=more_time)
    alt = pictures.describe_hand(view)
    file = discord.File(io.BytesIO(png), filename="hand.png", description=alt)
    if in_place:
        await rewrite(interaction, text, attachments=[file], view=buttons_now)
    else:
        await reply(interaction, text, file=file, view=buttons_now)


async def send_hint(
    interaction: discord.Interaction[Any], table: TableSnapshot, level: str = "normal"
) -> None:
    """The caller's hint, privately (where hints do not apply, the refusal is raised for
    the caller's handler to answer). Deferred first: the hard player's search takes
    longer than Discord's 3 seconds allow an unacknowledged click on a busy machine."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    advised = await hints.hint(about(interaction, table), interaction.user.id, level)
    await reply(interaction, advice.hint(advised))
