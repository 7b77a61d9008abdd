"""What a page's messages do: each read strictly (``web.protocol``), then carried out by
the table service exactly as a Discord click is (the seat, the turn and the version the
page was drawn for are checked there, under the table's lock). A refusal is sent to that
page alone, worded in its language, and changes nothing."""

from __future__ import annotations

import logging

from bot import hints
from bot.commands import AddComputer, Cancel, ComeBack, Command, Join, Leave, Play, Start
from bot.refusals import GuestOnly, Refusal, TableClosed
from bot.service import NewTable
from bot.snapshot import TableSnapshot
from web import frames, protocol
from web.face import Reader, WebFace
from web.identity import LOCAL_SERVER, Guest, new_channel_id
from web.languages import choose
from words import advice, common, refusals

log = logging.getLogger(__name__)


async def handle(face: WebFace, reader: Reader, raw: str) -> None:
    """Carry out one message of ``reader``'s page; answer a refusal to it alone."""
    try:
        message = protocol.parse(raw)
        await _do(face, reader, message)
    except Refusal as refused:
        table = face.table_in(reader.channel) if reader.channel is not None else None
        with face.speaking(reader.language, table):
            names = common.names(table) if table is not None else None
            reader.send({"type": "refused", "text": refusals.refusal(refused, names)})


async def _do(face: WebFace, reader: Reader, message: protocol.Message) -> None:
    match message:
        case protocol.SetLanguage(lang):
            reader.language = choose(lang, None)
            with face.speaking(reader.language):
                guest = reader.guest
                reader.send(frames.hello(None if guest is None else (guest.id, guest.name),
                                         reader.language))  # fmt: skip
            if reader.lobby:
                face.show_lobby(reader)
            if reader.channel is not None:
                table = face.table_in(reader.channel)
                if table is not None:
                    face.show(reader, table)
        case protocol.FollowLobby():
            reader.lobby = True
            face.show_lobby(reader)
        case protocol.Watch(table_id):
            table = face.service.find(table_id) or face.finished(table_id)
            if table is None or table.guild_id != LOCAL_SERVER:
                raise TableClosed()
            face.follow(reader, table.channel_id)
            face.show(reader, table)
        case protocol.Open():
            guest = _guest(reader)
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
            face.follow(reader, table.channel_id)
            reader.send({"type": "opened", "table": table.id})
            face.opened(table)
        case protocol.Act():
            await _act(face, reader, message)


async def _act(face: WebFace, reader: Reader, message: protocol.Act) -> None:
    guest = _guest(reader)
    table = face.service.find(message.table) or face.finished(message.table)
    if table is None or table.guild_id != LOCAL_SERVER:
        raise TableClosed()
    if message.action == "rematch":
        opened, _ = await face.service.rematch(
            table.game_id, LOCAL_SERVER, table.channel_id, guest.id, guest.name
        )
        face.opened(opened)
        return
    if message.action == "hint":
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
        case "draw" | "pass":
            return Play(user, message.action)
        case _:
            return Play(user, message.move or "")


def _guest(reader: Reader) -> Guest:
    if reader.guest is None:
        raise GuestOnly()
    return reader.guest
