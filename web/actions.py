"""What a page's messages do: each read strictly (``web.protocol``), then carried out by
the table service exactly as a Discord click is (the seat, the turn and the version the
page was drawn for are checked there, under the table's lock). A refusal is sent to that
page alone, worded in its language, and changes nothing."""

from __future__ import annotations

import logging
import time

from bot import hints
from bot.commands import (
    AddComputer,
    Cancel,
    ComeBack,
    Command,
    Join,
    Leave,
    MoreTime,
    Play,
    Start,
)
from bot.refusals import (
    GuestOnly,
    NoTableHere,
    NotConfirmed,
    NotEnded,
    NotInActivity,
    Refusal,
    StaleVersion,
    TableClosed,
)
from bot.service import NewTable
from bot.snapshot import TableSnapshot
from bot.table import Status
from web import protocol
from web.face import Activity, Reader, WebFace
from web.identity import LOCAL_SERVER, Guest, new_channel_id
from web.languages import choose
from words import advice, common, refusals

log = logging.getLogger(__name__)


async def handle(face: WebFace, reader: Reader, raw: str) -> None:
    """Carry out one message of ``reader``'s page; answer a refusal to it alone."""
    message: protocol.Message | None = None
    try:
        message = protocol.parse(raw)
        await _do(face, reader, message)
    except Refusal as refused:
        table = _about(face, reader, message)
        with face.speaking(reader.language, table):
            names = common.names(table) if table is not None else None
            reader.send({"type": "refused", "text": refusals.refusal(refused, names)})


def _about(face: WebFace, reader: Reader, message: protocol.Message | None) -> TableSnapshot | None:
    """The table a refusal of ``message`` speaks of, whose seats it may name: the one
    the message names (a page may act at a table other than the one it shows: a second
    tab, an old link), if the page may see it; else the one the page follows."""
    match message:
        case protocol.Act(table=table_id) | protocol.Watch(table=table_id):
            try:
                return _table(face, reader, table_id)
            except Refusal:
                return None
    return face.table_in(reader.channel) if reader.channel is not None else None


async def _do(face: WebFace, reader: Reader, message: protocol.Message) -> None:
    match message:
        case protocol.SetLanguage(lang):
            reader.language = choose(lang, None)
            face.greet(reader)
            if reader.lobby:
                face.show_lobby(reader)
            if reader.channel is not None:
                table = face.table_in(reader.channel)
                if table is not None:
                    face.show(reader, table, again=True)
        case protocol.FollowLobby():
            reader.lobby = True
            face.show_lobby(reader)
        case protocol.Watch(table_id):
            table = _table(face, reader, table_id)
            reader.lobby = False  # one page shows one thing: this table now
            face.follow(reader, table.channel_id)
            face.show(reader, table)
        case protocol.JoinActivity(token, instance):
            await _join_activity(face, reader, token, instance)
        case protocol.Open():
            guest = _guest(reader)
            if reader.activity is not None:  # a Discord channel's tables open in Discord
                raise NoTableHere()
            table = await face.service.open_table(
                NewTable(
                    LOCAL_SERVER,
                    new_channel_id(),
                    guest.id,
                    guest.name,
                    message.game,
                    target=message.target,
                    keep_last_two=message.keep_last_two,
                    match_games=message.match_games,
                    hints=message.hints,
                )
            )
            reader.lobby = False
            face.follow(reader, table.channel_id)
            reader.send({"type": "opened", "table": table.id})
            face.opened(table)
        case protocol.Act():
            await _act(face, reader, message)


CONFIRMED_SECONDS = 10.0
"""How long Discord's confirmation of a page's member holds for the seats it asks for
next (:func:`_confirm`), and for its sign-in sent again (:func:`_join_activity`): each
asks Discord three times, out of the bot's share of its requests, and a page may ask as
often as it likes (a join over and over)."""


async def _act(face: WebFace, reader: Reader, message: protocol.Act) -> None:
    guest = _guest(reader)
    table = _table(face, reader, message.table)
    if message.action == "rematch" and table.status is not Status.FINISHED:
        # The page offers it at a game's end only; a cancelled table played no game.
        raise NotEnded() if table.is_open else TableClosed()
    if reader.activity is not None and message.action in ("join", "rematch"):
        guest = await _confirm(face, reader)  # still in the Activity, before a seat is given
    if message.action == "rematch":
        again, opened = await face.service.rematch(
            table.game_id, table.guild_id, table.channel_id, guest.id, guest.name
        )
        if not opened:  # a confirmation: its Join was announced as any action is
            return
        face.opened(again)
        if reader.activity is not None:  # the channel is shown the new lobby too
            await face.service.repost(again.id, via=reader)
        return
    if message.action == "hint":
        if message.version != table.version:  # as Discord's Hint button: advice for
            raise StaleVersion()  # a position the page does not show would mislead
        advised = await hints.hint(table, guest.id)
        with face.speaking(reader.language, table):
            reader.send({"type": "hint", "text": advice.hint(advised)})
        return
    command = _command(message, guest, table)
    await face.service.act(table.id, command, seen_version=message.version, via=reader)


def _command(message: protocol.Act, guest: Guest, table: TableSnapshot) -> Command:
    """The service's command for a table action (its arguments checked by the service:
    an unknown level, a move that is not legal, are its refusals)."""
    user = guest.id
    match message.action:
        case "join":
            return Join(user, guest.name)
        case "leave":
            return Leave(user)
        case "start":
            return Start(user)
        case "cancel":
            return Cancel(user)
        case "computer":
            return AddComputer(user, message.level or "")
        case "back":
            return ComeBack(user)
        case "more_time":
            return MoreTime(user)
        case "draw" | "pass":
            return Play(user, message.action)
        case _:
            return Play(user, message.move or "")


def _table(face: WebFace, reader: Reader, table_id: str) -> TableSnapshot:
    """The table ``table_id``, if this page may see it: a local one, or in an Activity
    the one the face has it follow (its channel's, open or finished there last, or one
    in a thread of that channel: :meth:`WebFace.for_activity`)."""
    table = face.service.find(table_id) or face.finished(table_id)
    if table is None or table.guild_id != reader.guild_id:
        raise TableClosed()
    if reader.activity is not None and table.channel_id != reader.channel:
        raise NotInActivity()
    return table


async def _join_activity(face: WebFace, reader: Reader, token: str, instance: str) -> None:
    """The page is in Discord: from now on it speaks for the member Discord confirms,
    in the Activity's server, and follows the table of the Activity's channel (or of a
    thread of it: :meth:`WebFace.for_activity`). The page sends this again as it moves
    (back from the rules, say): the same sign-in confirmed lately is not asked of
    Discord again (:data:`CONFIRMED_SECONDS`), as each asking takes requests from the
    bot's share."""
    reader.in_discord = True
    activities = face.activities
    if activities is None:
        raise NotConfirmed()
    known = reader.activity
    same = known is not None and (known.token, known.instance) == (token, instance)
    if known is None or not same or not _fresh(reader.signed_in_at):
        member = await activities.participant(token, instance)
        reader.guest = Guest(member.user_id, member.name)
        reader.guild_id = member.guild_id
        reader.activity = known = Activity(token, instance, member.channel_id)
        reader.signed_in_at = time.monotonic()
    assert reader.guest is not None
    reader.lobby = False
    face.greet(reader)
    table = face.for_activity(known.channel_id, reader.guest.id)
    face.follow(reader, known.channel_id if table is None else table.channel_id)
    if table is None:
        raise NoTableHere()
    face.show(reader, table)


async def _confirm(face: WebFace, reader: Reader) -> Guest:
    """The page's member, asked of Discord again before a seat is given: still in the
    Activity's channel, the same member, and named as they are in the server now (a
    click in the chat seats a member under their name at the time of the click, so a
    nickname changed since the page opened is the one a seat takes here too; the page
    is greeted again to say so). A confirmation holds for :data:`CONFIRMED_SECONDS`."""
    assert reader.activity is not None and face.activities is not None
    if _fresh(reader.confirmed_at):
        assert reader.guest is not None
        return reader.guest
    member = await face.activities.participant(reader.activity.token, reader.activity.instance)
    if member.channel_id != reader.activity.channel_id or reader.guest is None:
        raise NotInActivity()
    if member.user_id != reader.guest.id:
        raise NotConfirmed()
    reader.confirmed_at = time.monotonic()
    if member.name != reader.guest.name:
        reader.guest = Guest(member.user_id, member.name)
        face.greet(reader)
    return reader.guest


def _fresh(confirmed: float | None) -> bool:
    """Discord confirmed the page's member at ``confirmed`` (``time.monotonic``), lately
    enough not to ask again (:data:`CONFIRMED_SECONDS`)."""
    return confirmed is not None and time.monotonic() - confirmed < CONFIRMED_SECONDS


def _guest(reader: Reader) -> Guest:
    if reader.guest is None:
        raise NotInActivity() if reader.in_discord else GuestOnly()
    return reader.guest
