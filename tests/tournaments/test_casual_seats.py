"""A tournament's players take no casual seat in its server: from its check-in until they
are out of it or it ends, opening a table, joining one and a rematch are refused,
naming the tournament and when their round's table comes, and nothing changes; so the
rule of one seat per member per server never keeps them from their round's table (a
started game cannot be left: at the show-up deadline they would forfeit). Members who
withdrew, were dropped, did not check in, were knocked out, whose tournament ended, and
any other server (the browser's local tables too) are not held."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.commands import Cancel, Join, Start
from bot.refusals import InTournament, SeatedElsewhere
from bot.service import NewTable, TableService
from bot.table import Status
from bot.tournaments.bracket import knockout, placings
from bot.tournaments.model import Format, Tournament
from data.repository import Repository
from tests.tables.helpers import Clock
from tests.tournaments.test_service import (
    CHANNEL,
    GUILD,
    ORGANISER,
    PLAYERS,
    Venue,
    entered,
    one_round,
    play_out,
    round_tables,
    running,
    started,
)
from web.identity import LOCAL_SERVER

CASUAL = itertools.count(4000)
"""Channels for casual tables, a new one each time."""


async def refused(tables: TableService, user: int, name: str) -> InTournament:
    """The member asks for a casual table of their own and is refused: nothing opened."""
    channel = next(CASUAL)
    with pytest.raises(InTournament) as refusal:
        await tables.open_table(NewTable(GUILD, channel, user, name, "cross"))
    assert tables.in_channel(channel) is None and tables.of_user(GUILD, user) is None
    return refusal.value


async def free(tables: TableService, user: int, name: str, guild: int = GUILD) -> None:
    """The member opens a casual table (and closes it again: their seat is free)."""
    table = await tables.open_table(NewTable(guild, next(CASUAL), user, name, "cross"))
    await tables.act(table.id, Cancel(user))


async def test_an_entrant_is_refused_a_casual_seat_and_takes_their_round_seat(
    store: Repository,
) -> None:
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = one_round(clock)
    (ann, ann_name), (bob, _) = PLAYERS[0], PLAYERS[1]
    cat = 999  # not entered
    tournament = await entered(tournaments, clock, settings, 2)
    before = await refused(tables, ann, ann_name)
    named = (before.channel_id, before.game, before.format, before.round, before.starts_at)
    assert named == (CHANNEL, "cross", "swiss", 0, settings.start_at), "which, and when"
    casual = await tables.open_table(NewTable(GUILD, next(CASUAL), cat, "Cat", "cross"))
    with pytest.raises(InTournament):
        await tables.act(casual.id, Join(ann, ann_name))
    assert [seat.user_id for seat in tables.snapshot(casual.id).seats] == [cat]

    clock.now = settings.start_at
    await tournaments.run_due()
    (table,) = round_tables(tables, tournaments.get(tournament.id))
    waiting = await refused(tables, ann, ann_name)
    assert waiting.round == 1 and waiting.waiting == table.channel_id, "where it waits"
    await tables.act(table.id, Join(bob, "Bob"))
    await tables.act(table.id, Join(ann, ann_name))
    await tournaments.settled()
    seated = tables.snapshot(table.id)
    assert seated.status is Status.PLAYING and {s.user_id for s in seated.seats} == {ann, bob}
    await tournaments.close()
    await tables.close()


async def test_a_rematch_is_refused_once_check_in_opens(store: Repository) -> None:
    """A casual game played before check-in opens is allowed; played again after, not."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = replace(one_round(clock), start_at=clock.now + 3600)  # check-in in 50 minutes
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    (ann, ann_name) = PLAYERS[0]
    await tournaments.sign_up(tournament.id, ann, ann_name, rating=1500.0)
    channel = next(CASUAL)
    casual = await tables.open_table(
        NewTable(GUILD, channel, ann, ann_name, "cross", target=10), computers=["easy"]
    )
    await tables.act(casual.id, Start(ann))
    await play_out(tables, clock, casual.id, seed=1)
    game = await store.game_of_table(casual.id)
    assert game is not None and clock.now < settings.checkin_at

    clock.now = settings.checkin_at
    await tournaments.check_in(tournament.id, ann)
    with pytest.raises(InTournament):
        await tables.rematch(game.id, GUILD, channel, ann, ann_name)
    assert tables.in_channel(channel) is None
    await tournaments.close()
    await tables.close()


async def test_who_is_out_of_the_tournament_or_elsewhere_is_not_held(store: Repository) -> None:
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = one_round(clock)
    tournament = await entered(tournaments, clock, settings, 4)
    (late, late_name), (left, left_name), (dropped, dropped_name), (plays, plays_name) = (
        PLAYERS[4],
        *PLAYERS[:3],
    )
    await tournaments.sign_up(tournament.id, late, late_name, rating=1500.0)
    await refused(tables, late, late_name)  # entered: held from check-in, checked in or not
    clock.now = settings.start_at
    await tournaments.run_due()
    await free(tables, late, late_name)  # never checked in: does not play
    await tournaments.withdraw(tournament.id, left)
    await free(tables, left, left_name)
    await tournaments.withdraw(tournament.id, dropped, by=ORGANISER)
    await free(tables, dropped, dropped_name)
    await refused(tables, plays, plays_name)
    await free(tables, plays, plays_name, guild=GUILD + 1)  # another server
    await free(tables, plays, plays_name, guild=LOCAL_SERVER)  # the browser's own tables
    await tournaments.cancel(tournament.id, ORGANISER)
    await free(tables, plays, plays_name)
    await tournaments.close()
    await tables.close()


async def test_a_knocked_out_player_is_free_and_the_winner_is_held(store: Repository) -> None:
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    tournament: Tournament = await started(tournaments, clock, one_round(clock, Format.KNOCKOUT), 4)
    first, _ = round_tables(tables, tournament)
    for user in first.invited:
        await tables.act(first.id, Join(user, "here"))
    await tournaments.settled()
    await play_out(tables, clock, first.id, seed=0)
    await tournaments.settled()
    now = tournaments.get(tournament.id)
    result = now.result_of(1, 0)
    assert result is not None
    [(_, loser)] = placings(knockout(now.starters, now.settings.seating), [result])
    [winner] = [user for user in first.invited if user != loser]
    await free(tables, loser, "out")
    held = await refused(tables, winner, "on")
    assert held.round == 1 and held.waiting is None, "the next round is drawn later"
    await tournaments.close()
    await tables.close()


async def test_a_member_seated_elsewhere_once_check_in_opens_may_not_enter_nor_check_in(
    store: Repository,
) -> None:
    """Check-in open, Bob (not entered yet) sits at a casual game that has started: he
    may neither sign up nor, entered before it, check in, which would take his round's
    seat from him (one seat a server) and have him forfeit. Once it is over, he may."""
    clock, venue = Clock(), Venue()
    tables, tournaments = await running(store, clock, venue)
    settings = replace(one_round(clock), start_at=clock.now + 3600)
    tournament = await tournaments.create(GUILD, CHANNEL, ORGANISER, settings)
    (ann, ann_name), (bob, bob_name) = PLAYERS[0], PLAYERS[1]
    await tournaments.sign_up(tournament.id, ann, ann_name, rating=1500.0)
    clock.now = settings.checkin_at
    channel = next(CASUAL)
    casual = await tables.open_table(
        NewTable(GUILD, channel, bob, bob_name, "cross", target=10), computers=["easy"]
    )
    await tables.act(casual.id, Start(bob))
    with pytest.raises(SeatedElsewhere) as at:
        await tournaments.sign_up(tournament.id, bob, bob_name, rating=1500.0)
    assert at.value.channel_id == channel
    assert tournaments.get(tournament.id).player(bob) is None, "nothing changed"
    await play_out(tables, clock, casual.id, seed=2)
    await tournaments.sign_up(tournament.id, bob, bob_name, rating=1500.0)
    await tournaments.check_in(tournament.id, bob)
    assert tournaments.get(tournament.id).player(bob) is not None
    await tournaments.close()
    await tables.close()
