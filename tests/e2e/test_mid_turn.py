"""A turn that goes on after a draw (R-CR-5: the tile drawn fits, and must be played) is
posted once, when it ends; but meanwhile the table is still there for whoever asks for it
(``/domino status``) and the member to move is reminded, as at any other time."""

from __future__ import annotations

import secrets
import types

import pytest

from bot.commands import Play
from bot.engine import DRAW, Match, Options, find_variant
from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, open_and_fill, service_of, table_messages
from tests.fakediscord.fixtures import Server

OPTIONS = Options.for_game(find_variant("cross"), 4, target=10)


def deal_where_a_drawn_tile_fits() -> tuple[int, int]:
    """A seed of two-seat Cross where, each seat playing its first legal tile, a seat
    comes to have nothing to play (R-CR-5) and the tile it draws fits; and the number of
    tiles played before that draw."""
    for seed in range(1000):
        match = Match("cross", 2, OPTIONS, seed=seed)
        for played in range(40):
            legal = match.legal_moves()
            if legal == (DRAW,):
                match.play(DRAW)
                if any(move.tile is not None for move in match.legal_moves()):
                    return seed, played
                break
            tiles = [move for move in legal if move.tile is not None]
            if not tiles:
                break
            match.play(tiles[0])
    raise AssertionError("no such deal among the first 1,000")


async def test_status_and_the_reminder_come_while_a_drawn_tile_waits_to_be_played(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, played = deal_where_a_drawn_tile_fits()
    # The table service's own randomness only: discord.py draws every message's nonce
    # from the same module, and Discord (the fake too) answers a repeated nonce with the
    # message it made first.
    monkeypatch.setattr(
        "bot.service.core.secrets",
        types.SimpleNamespace(randbits=lambda bits: seed, token_hex=secrets.token_hex),
    )
    bot = await running.start()
    service = service_of(bot)
    players = [server.member("Ann"), server.member("Bob")]
    await open_and_fill(server, "cross", players, {"target": 10})
    driver = Driver(server.fake, service, server.channels[0], {m.id: m for m in players})
    await server.fake.wait_for(driver.settled)
    for _ in range(played):  # the same first legal tiles, through the service
        table = service.snapshot(driver.table_id)
        move = next(m for m in table.moves_to_make() if m.tile is not None)
        mover = table.seats[table.turn or 0].user_id
        assert mover is not None
        await service.act(driver.table_id, Play(mover, move))
        await server.fake.wait_for(driver.settled)
    table = service.snapshot(driver.table_id)
    member = driver.members[table.seats[table.turn or 0].user_id or 0]
    posted = len(table_messages(server.fake, server.channels[0]))
    latest = table_messages(server.fake, server.channels[0])[-1]
    answer = await (await member.click(latest, "Draw")).reply()
    assert "It fits: play it." in answer.content, answer.content
    assert service.snapshot(driver.table_id).turn_goes_on

    asker = server.member("Cat")
    said = await (await asker.slash("domino status", server.channels[0])).reply()
    assert said.visible_to == asker.id
    shown = await server.fake.wait_for(
        lambda: table_messages(server.fake, server.channels[0])[posted:] or None
    )
    assert f"<@{member.id}>, your turn" in shown[-1].content, "the table as it stands"

    service.clockwork.remind(driver.table_id)  # a quarter of the member's time is left
    reminded = await server.fake.wait_for(
        lambda: (
            [
                m
                for m in server.fake.public(server.channels[0])
                if f"<@{member.id}>" in m.content and not m.attachments
            ]
            or None
        )
    )
    assert len(reminded) == 1
