"""Leaderboards, stats and history through the fake Discord, over games written to the
store as a finished table writes them: what a member reads, and that every answer keeps
within Discord's limits whatever the names."""

from __future__ import annotations

import asyncio
import dataclasses

from bot.client import DominoBot
from data.models import FinishedGame, Participant, RoundResult
from tests.e2e.conftest import Running
from tests.fakediscord.fixtures import Server, make_server
from tests.fakediscord.server import DROPPED, Message
from tests.fakediscord.users import Member
from words.boards import unknown_player


def game_of(
    game_id: str,
    guild_id: int,
    when: float,
    seats: list[Member],
    *,
    game: str = "cross",
    nicks: bool = False,
) -> FinishedGame:
    """A finished game of ``seats`` (the first wins), one round, its seats named as their
    members are (``nicks``: as the game's server shows them, by their nickname there)."""
    participants = [
        Participant(seat=i, team=i, final_score=100 - i, won=i == 0, user_id=member.id,
                    name=named(member, guild_id) if nicks else member.name, points=100 - i)
        for i, member in enumerate(seats)
    ]  # fmt: skip
    return FinishedGame(
        id=game_id, table_id=game_id, guild_id=guild_id, game=game, finished_at=when,
        record={}, rounds=[RoundResult(1, "domino", 0, [0] * len(seats))],
        participants=participants,
    )  # fmt: skip


def named(member: Member, guild_id: int) -> str:
    """The member's name in a server, as Discord shows it there: their nickname, if any."""
    nick = member.fake.guild_member(guild_id, member.id)["nick"]
    return str(nick) if nick else member.name


async def answers_to(bot: DominoBot, member: Member, *sent: object) -> list[Message]:
    """Every message the bot sent for ``member``'s interactions so far, once they are
    all handled, oldest first."""
    await asyncio.gather(*bot.in_flight)
    fake = member.fake
    return [
        fake.messages[i]
        for interaction in fake.interactions.values()
        if interaction.user_id == member.id
        for i in [*([interaction.original_id] if interaction.original_id else []),
                  *interaction.followups]
    ]  # fmt: skip


async def test_a_page_of_history_lists_all_its_games_whatever_their_names(
    running: Running, server: Server
) -> None:
    """Four-seat games of members with long names make a page of ten longer than one
    message holds: every game of the page is still listed, whole, none cut off."""
    bot = await running.start()
    names = [f"{who}_with_a_rather_long_name_ok"[:32] for who in ("Ann", "Bob", "Cat", "Dan")]
    seats = [server.member(name) for name in names]
    ids = [f"game{n:02}-9" for n in range(10)]
    for n, game_id in enumerate(ids):
        await bot.store.record_finished_game(
            game_of(game_id, server.guild_id, 1_700_000_000.0 + n, seats, game="maltese-cross")
        )
    ann = seats[0]
    await (await ann.slash("domino history", server.channels[0])).reply()
    said = "\n".join(m.content for m in await answers_to(bot, ann))
    assert all(m.visible_to == ann.id for m in await answers_to(bot, ann))
    assert "page 1 of 1" in said
    for game_id in ids:
        assert f"`{game_id}`" in said, (game_id, said)
    assert not server.fake.violations, server.fake.violations


async def test_the_board_escapes_names_in_its_text_and_says_them_as_typed_in_its_alt(
    running: Running, server: Server
) -> None:
    """The board is public: a name with markup or a mention neither formats nor pings in
    the message, and its picture's alt text says it as typed; a page past the end says
    how many there are."""
    bot = await running.start()
    ann, bob = server.member("Ann *bold* @everyone"), server.member("Bob")
    for n in range(3):
        await bot.store.record_finished_game(
            game_of(f"g{n}-1", server.guild_id, 1_700_000_000.0 + n, [ann, bob])
        )
    board = await (
        await bob.slash("domino leaderboard", server.channels[0], game="cross", order="wins")
    ).reply()
    assert board.visible_to is None
    assert "1. Ann \\*bold\\* @\u200beveryone — 3 wins (3 games)" in board.content
    [alt] = [a["description"] for a in board.attachments]
    assert "1. Ann *bold* @everyone — 3 wins (3 games)" in alt
    past = await (
        await bob.slash("domino leaderboard", server.channels[0], game="cross", page=5)
    ).reply()
    assert "page 5 is past the end; there is only 1 page" in past.content


async def test_a_public_server_never_shows_a_nickname_given_in_another(
    running: Running, server: Server
) -> None:
    """Ann plays in this server as "AnnTheGamer", then last in a private server of
    friends as "Ann Smith (Mum)": this server's board, the board of every server shown
    here and Bob's history here name her as she played here, never by her nickname in
    the other server."""
    bot = await running.start()
    ann, bob = server.member("Ann", nick="AnnTheGamer"), server.member("Bob")
    friends = make_server(server.fake, "Friends")
    for n in range(3):
        await bot.store.record_finished_game(
            game_of(f"g{n}-1", server.guild_id, 1_700_000_000.0 + n, [ann, bob], nicks=True)
        )
    private = game_of("f0-1", friends.guild_id, 1_700_000_100.0, [ann, bob])
    await bot.store.record_finished_game(
        dataclasses.replace(
            private,
            participants=[
                dataclasses.replace(p, name="Ann Smith (Mum)") if p.user_id == ann.id else p
                for p in private.participants
            ],
        )
    )
    channel = server.channels[0]
    here = await (await bob.slash("domino leaderboard", channel, game="cross")).reply()
    everywhere = await (
        await bob.slash("domino leaderboard", channel, game="cross", scope="global")
    ).reply()
    for board in (here, everywhere):
        [alt] = [a["description"] for a in board.attachments]
        assert "1. AnnTheGamer" in board.content and "1. AnnTheGamer" in alt, board.content
        assert "Mum" not in board.content + alt
    await (await bob.slash("domino history", channel)).reply()
    said = "\n".join(m.content for m in await answers_to(bot, bob))
    assert "AnnTheGamer (won)" in said and "Mum" not in said


async def test_the_board_of_every_server_names_one_who_never_played_here_by_their_discord_name(
    running: Running, server: Server
) -> None:
    """Cy has played only in the friends' server, as "Cy Smith (Mum)": the board of
    every server, shown here, names her by her Discord name, which every server sees,
    not by that nickname (nor by digits of her id)."""
    bot = await running.start()
    friends = make_server(server.fake, "Friends")
    cy, dee = friends.member("Cy", nick="Cy Smith (Mum)"), friends.member("Dee")
    for n in range(3):
        await bot.store.record_finished_game(
            game_of(f"f{n}", friends.guild_id, 1_700_000_000.0 + n, [cy, dee], nicks=True)
        )
    bob = server.member("Bob")
    board = await (
        await bob.slash("domino leaderboard", server.channels[0], game="cross", scope="global")
    ).reply()
    [alt] = [a["description"] for a in board.attachments]
    assert "1. Cy" in board.content and "1. Cy" in alt, board.content
    assert "Mum" not in board.content + alt
    await running.stop()  # a restart: Cy is not cached, and Discord does not answer
    await running.start()
    server.fake.fail_next("GET", "/users/{user_id}", DROPPED, DROPPED)
    board = await (
        await bob.slash("domino leaderboard", server.channels[0], game="cross", scope="global")
    ).reply()
    assert f"1. {unknown_player(cy.id)}" in board.content, board.content
