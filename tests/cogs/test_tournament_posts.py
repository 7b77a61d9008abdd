"""A large tournament's standings or bracket is posted with every line its picture
leaves to the text: a 64-player knockout draws its bracket from a later round, and its
first round's matches are listed as text, in as many messages as they need (Discord
takes 2,000 characters a message), the picture with the first."""

from __future__ import annotations

from typing import Any, cast

import discord

from bot.tournaments import Entrant, Result, knockout, progress
from bot.tournaments.model import Drawn, Format, Phase, Player, Settings, Tournament
from discord_face import acting
from discord_face.budget import RequestBudget
from discord_face.tournaments import TournamentHerald
from rendering.painter import Painter


class Channel:
    """A tournament's channel that keeps what is posted there."""

    def __init__(self) -> None:
        self.sent: list[tuple[str | None, discord.File | None]] = []

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append((content, kwargs.get("file")))


class Client:
    user = None  # not logged in

    def __init__(self, channel: Channel) -> None:
        self.channel = channel

    def get_channel(self, channel_id: int) -> Channel:
        return self.channel


async def test_a_64_player_knockouts_bracket_names_every_player_in_its_posts() -> None:
    players = tuple(
        Player(1000 + n, f"Player number {n:02d} of the event", 25.0 - n / 100, checked_in=True)
        for n in range(64)
    )
    settings = Settings("cross", Format.KNOCKOUT, size=2)
    bracket = knockout(tuple(Entrant(p.user_id, p.rating) for p in players), settings.seating)
    seated = progress(bracket, []).seated
    record = tuple(
        Result(1, match.table, tuple((e,) for e in seated[match.number] if e is not None),
               (1, 2), (10, 3))
        for match in bracket.rounds[0]
    )  # fmt: skip
    tournament = Tournament("abcdef12", 1, 2, 3, settings, Phase.RUNNING, players, 2, (),
                            record, version=5)  # fmt: skip
    channel = Channel()
    herald = TournamentHerald(
        cast(discord.Client, Client(channel)), cast(Any, None), Painter(0), RequestBudget(50)
    )
    await herald._picture(tournament)
    assert len(channel.sent) > 1, "more than one message's worth of lines"
    assert channel.sent[0][1] is not None and all(f is None for _, f in channel.sent[1:])
    assert all(len(text or "") <= 2000 for text, _ in channel.sent)
    posted = "\n".join(text or "" for text, _ in channel.sent)
    assert [p.name for p in players if p.name not in posted] == []


class Thread:
    id = 555


class Heading:
    """The round's table heading, from which its thread is started."""

    async def create_thread(self, **kwargs: Any) -> Thread:
        return Thread()


class HeadingChannel(Channel):
    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        await super().send(content, **kwargs)
        return Heading()


async def test_a_tables_thread_opened_as_the_bot_starts_does_not_wait_for_its_servers(
    monkeypatch: Any,
) -> None:
    """After a restart the round's missing tables are opened from inside the bot's
    setup_hook, before it connects to Discord: naming their threads must not wait for
    the bot to know its servers, which could only delay the start (and did, ten seconds
    a table)."""

    async def never(client: object) -> bool:
        raise AssertionError("waited for the bot to know its servers")

    monkeypatch.setattr(acting, "ready", never)
    settings = Settings("cross", Format.SWISS, size=2, rounds=1)
    tournament = Tournament("abcdef12", 1, 2, 3, settings, Phase.RUNNING, (), 1, (), ())
    channel = HeadingChannel()
    client = cast(discord.Client, Client(channel))
    client.get_guild = lambda guild_id: None  # type: ignore[method-assign]
    herald = TournamentHerald(client, cast(Any, Tables()), Painter(0), RequestBudget(50))
    drawn = Drawn(1, 0, (10, 11), ((10,), (11,)))
    assert await herald.place_for(tournament, drawn) == Thread.id


class Tables:
    """The table service, as the herald asks it for a server's chosen language."""

    async def settings(self, guild_id: int) -> Any:
        class Chosen:
            language = None

        return Chosen()
