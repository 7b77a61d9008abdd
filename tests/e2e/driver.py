"""Playing whole games through the fake Discord, as the members would: "My hand", a
tile button (and an end button when the tile fits in several places), or the table's
Draw and Pass; every few moves ``/domino play`` instead. After each move the driver
checks what the channel shows. It reads the bot's words in a language (English unless
told), looking labels and sentences up as the bot does, through the ``words`` package."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from bot.client import DominoBot
from bot.engine import TILES
from bot.service import TableService
from bot.table import Table
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import FakeDiscord, Message
from tests.fakediscord.users import Member, Sent
from words import common as wording
from words import i18n

TILE = re.compile(r"\b[0-6]-[0-6]\b")


DRAW_ENDED_ROUND = "You drew, and then nobody could play: the round is over (see the table)."
"""What a member is told of a draw after which nobody could play (the round is over)."""


@dataclass(frozen=True)
class Words:
    """The bot's words in ``language``, as a member reading them would look for them."""

    language: i18n.Language = i18n.ENGLISH

    def label(self, action: str) -> str:
        with i18n.speaking(self.language):
            return wording.label(action)

    def says(self, message: str) -> re.Pattern[str]:
        """The sentence of the English ``message`` in this language, any value in its
        placeholders."""
        with i18n.speaking(self.language):
            return _any_values(i18n._(message))

    def says_counted(self, singular: str, plural: str, n: int) -> re.Pattern[str]:
        """As :meth:`says`, for a message with a plural, said of ``n`` things."""
        with i18n.speaking(self.language):
            return _any_values(i18n.ngettext(singular, plural, n))

    def drew(self, content: str, passed: bool | None = None) -> bool:
        """Whether ``content`` tells the member what they drew: that the last tile fits
        (``passed`` False), that none did so they passed (True), either (None), or that
        the draw ended the round."""
        fits = ("You drew {tiles}. It fits: play it.",
                "You drew {tiles}. The last of them fits: play it.")  # fmt: skip
        not_fit = ("You drew {tiles}. It does not fit, so you pass.",
                   "You drew {tiles}. None of them fits, so you pass.")  # fmt: skip
        told = [self.says(DRAW_ENDED_ROUND)]
        for singular, plural in [fits] * (passed is not True) + [not_fit] * (passed is not False):
            told += [self.says_counted(singular, plural, n) for n in (1, 2)]
        return any(message.match(content) for message in told)


ENGLISH = Words()


def _any_values(sentence: str) -> re.Pattern[str]:
    """``sentence`` with any value in each of its placeholders."""
    return re.compile(".*?".join(re.escape(part) for part in re.split(r"\{\w+\}", sentence)))


def service_of(bot: DominoBot) -> TableService:
    """The running bot's table service: ``bot.service`` is None until ``setup_hook``."""
    assert bot.service is not None, "the bot's table service is not started"
    return bot.service


def table_messages(fake: FakeDiscord, channel_id: int) -> list[Message]:
    return [
        m
        for m in fake.public(channel_id)
        if any(a["filename"] == "table.png" for a in m.attachments)
    ]


def check_picture(message: Message) -> None:
    """A valid PNG, with alt text, and an embed showing it."""
    [attachment] = [a for a in message.attachments if a["filename"] == "table.png"]
    assert attachment["description"], "the picture has no alt text"
    image = Image.open(io.BytesIO(message.files["table.png"]))
    assert image.format == "PNG" and image.width > 0
    shown = [e.get("image", {}).get("url") for e in message.embeds]
    assert "attachment://table.png" in shown, "an embed shows the picture"


def shown_version(message: Message) -> int | None:
    """The table version a message's buttons were drawn for (None: no buttons)."""
    buttons = message.buttons()
    return int(buttons[0]["custom_id"].split(":")[2]) if buttons else None


def hidden_tiles(table: Table) -> set[str]:
    """Tiles nobody but their holder may see now."""
    if table.match is None:
        return set()
    round_ = table.match.round
    held = {str(t) for seat in range(round_.n) for t in round_.hand(seat)}
    return held | {str(TILES[i]) for i in round_.boneyard}


@dataclass
class Driver:
    fake: FakeDiscord
    service: TableService
    channel_id: int
    members: dict[int, Member]
    moves: int = 0
    checked_messages: set[int] = field(default_factory=set)
    table_id: str = ""
    words: Words = ENGLISH

    def __post_init__(self) -> None:
        table = self.service.in_channel(self.channel_id)
        assert table is not None, "no table in that channel"
        self.table_id = table.id

    def table(self) -> Table | None:
        """The table while it is open (the service lets it go once its end is stored)."""
        return self.service.tables.get(self.table_id)

    def finished(self) -> bool:
        """The channel shows the end of the game."""
        winner = self.words.says("Winner: {name}")
        return any(
            winner.fullmatch(e.get("title", ""))
            for m in self.fake.public(self.channel_id)
            for e in m.embeds
        )

    def assert_no_hand_in_public(self, table: Table) -> None:
        """Every public message showing the table as it is now: no tile still held in a
        hand (the round-over summary reveals the finished round's hands, which is its
        purpose). A message is judged against the state it shows: one posted for an
        earlier round, seen only now, shows tiles that a new deal has put in hands since
        (the announcer may post a moment late, skipping stale states)."""
        hidden = hidden_tiles(table)
        for message in self.fake.public(self.channel_id):
            if message.id in self.checked_messages or shown_version(message) != table.version:
                continue
            self.checked_messages.add(message.id)
            if any(
                self.words.says("Round over").fullmatch(e.get("title", "")) for e in message.embeds
            ):
                continue
            leaked = hidden & set(TILE.findall(message.text()))
            assert not leaked, f"hand tiles {leaked} shown publicly: {message.text()[:200]}"

    def mover(self, table: Table) -> Member:
        """The member whose seat is to move at ``table`` (one of this driver's)."""
        user_id = table.seats[table.seat_to_move()].user_id
        assert user_id is not None, "a member's seat is to move, not a computer's"
        return self.members[user_id]

    def latest_version(self) -> int | None:
        """The version the latest table message's buttons were drawn for."""
        messages = table_messages(self.fake, self.channel_id)
        return shown_version(messages[-1]) if messages else None

    def settled(self) -> bool:
        """The game is over, or a member is to move and the channel shows the table now:
        its latest message has buttons for this version, and no older one has any. Judged
        from what the channel shows, since the fake re-checks it on each request."""
        if self.finished():
            return True
        table = self.table()
        shown = table_messages(self.fake, self.channel_id)
        return (
            table is not None
            and self.latest_version() == table.version
            and not table.computer_to_move
            and not any(m.buttons() for m in shown[:-1])
        )

    async def play_one(self, slash: bool = False, *, shown: bool = True) -> None:
        """One member's move, then wait until the bot has shown its result (not
        ``shown``: or until the table has closed, for a test in which the bot stops
        before showing its end): every seventh by slash command (or this one, if
        ``slash``), the others with buttons."""
        await self.fake.wait_for(self.settled, timeout=15)
        table = self.table()
        assert table is not None and table.match is not None
        member = self.mover(table)
        version = table.version
        self.moves += 1
        if slash or self.moves % 7 == 0:
            await self._slash_move(member, table)
        else:
            await self._button_move(member)
        # A turn may be several actions (a draw, then the tile drawn): it is over when
        # the channel shows a newer version, or when it closed the table.
        await self.fake.wait_for(
            lambda: (
                (self.settled() and self.latest_version() != version)
                or (not shown and self.table() is None)
            ),
            15,
        )
        table = self.table()
        if not self.finished() and table is not None:
            self.assert_no_hand_in_public(table)
            check_picture(table_messages(self.fake, self.channel_id)[-1])

    async def _button_move(self, member: Member) -> None:
        latest = table_messages(self.fake, self.channel_id)[-1]
        hand = await (await member.click(latest, self.words.label("hand"))).reply()
        assert hand.visible_to == member.id and hand.files.get("hand.png")
        tiles = [b for b in hand.buttons() if re.match(r"^\d-\d", b["label"])]
        if not tiles:
            # The table's Draw or Pass, or the hand's own when the member reads another
            # language than the channel (the hand is in theirs, the table in the server's).
            action = next(b["label"] for b in hand.buttons())
            # A seat that can neither play nor draw was passed by the bot (R-MI-4).
            assert action == self.words.label("draw"), hand.buttons()
            shown = any(b["label"] == action for b in latest.buttons())
            sent = await member.click(latest if shown else hand, action)
            if action == self.words.label("draw"):
                await self._after_draw(member, sent, None if shown else hand)
            return
        await self._play_from(member, hand)

    async def _play_from(self, member: Member, hand: Message) -> None:
        """Play the first tile button of a private hand (and its end, when asked)."""
        tiles = [b for b in hand.buttons() if re.match(r"^\d-\d", b["label"])]
        choice = await member.click(hand, tiles[0]["label"])
        if tiles[0]["label"].endswith("…"):
            ends = await choice.reply()
            await member.click(ends, ends.buttons()[-1]["label"])

    async def _after_draw(self, member: Member, sent: Sent, hand: Message | None) -> None:
        """A draw is answered privately with what was drawn: in the ``hand`` clicked,
        which becomes the answer, or in a new message (the table's Draw, or the slash
        command). The bot made the draws and the pass that left no choice (R-CR-5,
        R-MG-5): the turn is over, or the member places the tile that fits."""
        if hand is not None:
            answer = await self.fake.wait_for(
                lambda: hand if self.words.drew(hand.content) else None, 10
            )
        else:
            answer = await sent.follow_up()
        if answer.visible_to is None:  # the draw blocked the round: the turn is over
            over = self.words.says("Round over")
            assert any(over.fullmatch(e.get("title", "")) for e in answer.embeds), answer.text()
            return
        assert answer.visible_to == member.id and self.words.drew(answer.content), answer.content
        tiles = [b for b in answer.buttons() if re.match(r"^\d-\d", b["label"])]
        if tiles:
            assert self.words.drew(answer.content, passed=False), answer.content
            await self._play_from(member, answer)
        else:  # nothing left to click: the turn went on without the member
            assert not answer.buttons(), answer.buttons()

    async def _slash_move(self, member: Member, table: Table) -> None:
        legal = table.legal_for(member.id)
        move = legal[-1]
        if move.tile is None:
            sent = await member.slash(f"domino {move.text}", self.channel_id)
            if move.text == "draw":
                await self._after_draw(member, sent, None)
            return
        choices = await member.autocomplete("domino play", self.channel_id, "tile", tile="")
        assert str(move.tile) in {c["value"] for c in choices}
        ends = await member.autocomplete(
            "domino play", self.channel_id, "end", tile=str(move.tile), end=""
        )
        if move.end_name is None:  # a lead names no end (R-SP-1, R-MI-2)
            assert ends == []
            sent = await member.slash("domino play", self.channel_id, tile=str(move.tile))
        else:
            assert move.end_name in {c["value"] for c in ends}
            sent = await member.slash(
                "domino play", self.channel_id, tile=str(move.tile), end=move.end_name
            )
        reply = await sent.reply()
        played = self.words.says("You played {move}.")
        assert reply.visible_to == member.id and played.fullmatch(reply.content), reply.content


async def open_and_fill(
    server: Server,
    game: str,
    players: list[Member],
    options: dict[str, Any] | None = None,
    words: Words = ENGLISH,
) -> Message:
    """The first member opens a table in the first channel, the others join, the host
    starts; returns the lobby message."""
    channel = server.channels[0]
    host = players[0]
    lobby = await open_lobby(server.fake, host, channel, words, game=game, **(options or {}))
    for member in players[1:]:
        await member.click(lobby, words.label("join"))

        def joined(member: Member = member) -> bool:
            return member.name in server.fake.messages[lobby.id].text()

        await server.fake.wait_for(joined)
    await host.click(lobby, words.label("start"))
    await server.fake.wait_for(lambda: table_messages(server.fake, channel))
    buttons = server.fake.messages[lobby.id].buttons()
    assert not buttons, "the lobby keeps no buttons once the game starts"
    return lobby


def lobby_messages(fake: FakeDiscord, channel_id: int, words: Words = ENGLISH) -> list[Message]:
    """The messages of ``channel_id`` everyone sees that carry a table's Join button:
    its lobbies."""
    join = words.label("join")
    public = fake.public(channel_id)
    return [m for m in public if any(b["label"] == join for b in m.buttons())]


async def open_lobby(
    fake: FakeDiscord, host: Member, channel_id: int, words: Words = ENGLISH, **options: Any
) -> Message:
    """``/domino new``: the host is answered privately, and the lobby with its buttons is
    posted in the channel for everyone; returns the lobby."""
    sent = await host.slash("domino new", channel_id, **options)
    [lobby] = await fake.wait_for(lambda: lobby_messages(fake, channel_id, words))
    answers = [fake.messages[f] for f in sent.interaction.followups]
    private = [m for m in answers if m.visible_to is not None]
    assert [m.visible_to for m in private] == [host.id], "one private answer, to the host"
    opened = words.says(
        "Your table is open: others press {join}, or {computer}; then press {start}."
    )
    assert opened.fullmatch(private[0].content), private[0].content
    return lobby


async def seated_game(
    server: Server, service: TableService, game: str, count: int, options: dict[str, Any]
) -> Driver:
    """``count`` members (Ann, Bob, Cat, Dan) at a started table in the first channel,
    and a driver for it once the first table message is up."""
    players = [server.member(name) for name in ("Ann", "Bob", "Cat", "Dan")[:count]]
    await open_and_fill(server, game, players, options)
    driver = Driver(server.fake, service, server.channels[0], {m.id: m for m in players})
    await server.fake.wait_for(driver.settled)
    return driver
