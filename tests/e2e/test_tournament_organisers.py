"""Tournament organisers by a role the server chooses (issue 34), through the fake
Discord: ``/domino settings`` sets the role and clears it (Manage Server only, its
private answer naming the role in the member's language, as every private answer
does); a member with that role but without
Manage Server announces a tournament and pauses it; a member with neither is refused
both, and nothing changes."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from bot.client import DominoBot
from bot.tournaments.model import Phase
from data.models import TournamentRow
from data.repository import StoreError
from tests.e2e.conftest import Running
from tests.e2e.test_tournaments import (
    announce,
    announcements,
    deadline_then_next_round,
    enter,
    entered,
    started,
    with_picture,
)
from tests.fakediscord.fixtures import Server, make_server
from tests.fakediscord.server import CREATE_PUBLIC_THREADS
from tests.fakediscord.users import Member


async def test_settings_set_and_clear_the_organisers_role_for_managers_only(
    running: Running, server: Server
) -> None:
    role = server.fake.add_role(server.guild_id, "Referees")
    bot, _ = await started(running)
    channel = server.channels[0]
    boss, ann = server.member("Boss", manager=True), server.member("Ann")
    mention = f"<@&{role['id']}>"
    boss.locale = "es-ES"

    answer = await (await boss.slash("domino settings", channel, language="pt-BR",
                                     tournament_role=role)).reply()  # fmt: skip
    assert answer.visible_to == boss.id
    assert f"Organizan torneos: los miembros con Gestionar servidor o con el rol {mention}." in (
        answer.content
    ), answer.content
    assert (await bot.store.get_guild_settings(server.guild_id)).tournament_role == int(role["id"])

    refused = await (await ann.slash("domino settings", channel,
                                     clear_tournament_role=True)).reply()  # fmt: skip
    assert refused.visible_to == ann.id and "Manage Server" in refused.content
    assert (await bot.store.get_guild_settings(server.guild_id)).tournament_role == int(role["id"])

    both = await (await boss.slash("domino settings", channel, tournament_role=role,
                                   clear_tournament_role=True)).reply()  # fmt: skip
    assert both.visible_to == boss.id and "no ambas cosas" in both.content, both.content
    assert (await bot.store.get_guild_settings(server.guild_id)).tournament_role == int(role["id"])

    cleared = await (await boss.slash("domino settings", channel,
                                      clear_tournament_role=True)).reply()  # fmt: skip
    assert "Organizan torneos: los miembros con Gestionar servidor." in cleared.content
    assert mention not in cleared.content
    settings = await bot.store.get_guild_settings(server.guild_id)
    assert settings.tournament_role is None and settings.language == "pt-BR", "the rest kept"


async def test_a_role_holder_announces_and_pauses_and_a_member_with_neither_is_refused(
    running: Running, server: Server
) -> None:
    role = server.fake.add_role(server.guild_id, "Referees")
    bot, _ = await started(running)
    assert bot.tournaments is not None
    fake, channel = server.fake, server.channels[0]
    boss, referee, ann = (server.member("Boss", manager=True), server.member("Referee"),
                          server.member("Ann"))  # fmt: skip
    referee.roles.append(role["id"])
    await (await boss.slash("domino settings", channel, tournament_role=role)).reply()

    options = {"game": "cross", "format": "swiss", "rounds": 2}
    refused = await (await ann.slash("domino tournament new", channel, **options)).reply()
    assert refused.visible_to == ann.id and "tournament organisers" in refused.content
    assert not announcements(fake, channel) and not bot.tournaments.open

    _, tournament_id = await announce(server, referee, **options)
    assert bot.tournaments.get(tournament_id).organiser_id == referee.id
    log = await bot.store.tournament_log(tournament_id)

    denied = await (await ann.slash("domino tournament pause", channel)).reply()
    assert denied.visible_to == ann.id and "organiser" in denied.content, denied.content
    assert bot.tournaments.get(tournament_id).phase is Phase.SIGNUP
    assert await bot.store.tournament_log(tournament_id) == log, "nothing stored"

    paused = await (await referee.slash("domino tournament pause", channel)).reply()
    assert paused.visible_to == referee.id
    assert bot.tournaments.get(tournament_id).phase is Phase.PAUSED


async def test_an_organiser_who_does_not_play_changes_a_result_and_says_why(
    running: Running, server: Server
) -> None:
    """The referee (the role, not playing) names the other side of round 1's first table
    its winner: it is placed first, the channel is told who changed it (the referee, by
    mention: they have no entrant's name) and why, the reason is kept in the log; a
    player's attempt is refused and changes nothing."""
    role = server.fake.add_role(server.guild_id, "Referees")
    bot, clock = await started(running)
    assert bot.tournaments is not None
    fake, channel = server.fake, server.channels[0]
    boss, referee = server.member("Boss", manager=True), server.member("Referee")
    referee.roles.append(role["id"])
    await (await boss.slash("domino settings", channel, tournament_role=role)).reply()
    players = {member.id: member for member in (server.member(f"P{n}") for n in range(4))}
    announcement, tournament_id = await announce(
        server, referee, game="cross", format="swiss", rounds=2, seats=2, target=10,
        start_in=30, checkin=10,
    )  # fmt: skip
    await enter(bot, clock, announcement, list(players.values()), tournament_id)
    clock.now = bot.tournaments.get(tournament_id).settings.start_at
    await bot.tournaments.run_due()
    await deadline_then_next_round(server, bot, clock, tournament_id)  # computers play it
    before = bot.tournaments.get(tournament_id).result_of(1, 0)
    assert before is not None
    loser = next(side[0] for side, place in zip(before.sides, before.places, strict=True)
                 if place != 1)  # fmt: skip
    log = await bot.store.tournament_log(tournament_id)

    player = players[before.sides[0][0]]
    denied = await (await player.slash("domino tournament adjust", channel, round=1, table=1,
                                       winner=players[loser], reason="mine")).reply()  # fmt: skip
    assert denied.visible_to == player.id and "organiser" in denied.content, denied.content
    no_such = await (await player.slash("domino tournament adjust", channel, round=1, table=9,
                                        winner=players[loser], reason="mine")).reply()  # fmt: skip
    assert "organiser" in no_such.content, "who they are is answered before what they named"
    assert bot.tournaments.get(tournament_id).result_of(1, 0) == before
    assert await bot.store.tournament_log(tournament_id) == log, "nothing stored"

    answer = await (await referee.slash("domino tournament adjust", channel, round=1, table=1,
                                        winner=players[loser],
                                        reason="scoring error")).reply()  # fmt: skip
    assert answer.visible_to == referee.id
    after = bot.tournaments.get(tournament_id).result_of(1, 0)
    assert after is not None and after.points == before.points, "the game points as played"
    assert after.places[after.sides.index((loser,))] == 1
    said = f"was changed by <@{referee.id}>: scoring error"
    await fake.wait_for(lambda: [m for m in fake.public(channel) if said in m.content])
    [line] = [entry for entry in await bot.store.tournament_log(tournament_id)
              if entry["action"].get("kind") == "adjust"]  # fmt: skip
    assert line["action"]["reason"] == "scoring error" and line["action"]["by"] == referee.id


async def test_a_tournaments_buttons_forged_in_another_server_are_refused(
    running: Running, server: Server
) -> None:
    """The announcement's buttons name their tournament; clicked from another server (a
    forged request carrying them) they are refused privately, as a table's are, and
    nobody enters, checks in or withdraws from another server's tournament."""
    bot, clock = await started(running)
    assert bot.tournaments is not None
    boss, ann = server.member("Boss", manager=True), server.member("Ann")
    posted, tournament_id = await announce(server, boss, game="cross", format="swiss",
                                           rounds=1)  # fmt: skip
    await (await ann.click(posted, "Sign up")).reply()
    clock.now = bot.tournaments.get(tournament_id).settings.checkin_at
    other = make_server(server.fake, "Other Server")
    zed = other.member("Zed")
    forged = dataclasses.replace(copy.deepcopy(posted), channel_id=other.channels[0])
    log = await bot.store.tournament_log(tournament_id)
    for label in ("Sign up", "Check in", "Withdraw"):
        reply = await (await zed.click(forged, label)).reply()
        assert reply.visible_to == zed.id and "another server" in reply.content, reply.content
    assert bot.tournaments.get(tournament_id).player(zed.id) is None
    assert await bot.store.tournament_log(tournament_id) == log


async def test_a_cancelled_tournaments_announcement_keeps_no_buttons(
    running: Running, server: Server
) -> None:
    """Cancelled, the announcement is edited to carry no buttons, as at the start: the
    face is told the tournament as it was stored (a newer version than its last edit),
    not as it was before the cancel, whose edit it had already made."""
    bot, _ = await started(running)
    assert bot.tournaments is not None and bot.herald is not None
    boss = server.member("Boss", manager=True)
    posted, tournament_id = await announce(server, boss, game="cross", format="swiss",
                                           rounds=1)  # fmt: skip
    reply = await (await boss.slash("domino tournament cancel", server.channels[0])).reply()
    assert reply.visible_to == boss.id
    await bot.herald.settled()
    assert tournament_id not in bot.tournaments.open
    assert not server.fake.messages[posted.id].buttons(), "no live buttons once cancelled"


async def test_a_target_the_game_does_not_allow_is_refused_when_announced(
    running: Running, server: Server
) -> None:
    """The command's own range (1 to 1000) is every game's at once: Cross plays to 10 or
    more, Milo to 25 at most, Merry-Go-Round to 61 alone. A target its game does not
    allow is refused privately as the tournament is announced, and nothing is stored,
    rather than accepted and every table of round one failing to open at the start (the
    tournament left running with no round, for good)."""
    bot, _ = await started(running)
    assert bot.tournaments is not None
    fake, channel = server.fake, server.channels[0]
    boss = server.member("Boss", manager=True)
    for game, target, said in (
        ("cross", 5, "The target for Cross must be 10 to 1000, not"),
        ("milo", 100, "The target for Milo must be 1 to 25, not"),
        ("merry-go-round", 100, "always played to exactly 61"),
    ):
        options = {"game": game, "format": "swiss", "rounds": 1, "target": target}
        reply = await (await boss.slash("domino tournament new", channel, **options)).reply()
        assert reply.visible_to == boss.id and said in reply.content, reply.content
    assert not announcements(fake, channel) and not bot.tournaments.open
    assert not await bot.store.load_open_tournaments(), "nothing stored"


async def test_a_milo_knockout_with_drawn_partners_is_refused_when_announced(
    running: Running, server: Server
) -> None:
    """A knockout's sides go on whole, so Milo's partners cannot be drawn each round in
    one: announced so (partners left as drawn, the default), it is refused privately and
    nothing is stored, rather than accepted and found unable to draw its bracket at the
    start (left running with no round, for good). By pairs it is announced."""
    bot, _ = await started(running)
    assert bot.tournaments is not None
    fake, channel = server.fake, server.channels[0]
    boss = server.member("Boss", manager=True)
    for partners in ({}, {"partners": "drawn"}):
        reply = await (await boss.slash("domino tournament new", channel, game="milo",
                                        format="knockout", **partners)).reply()  # fmt: skip
        assert reply.visible_to == boss.id, reply.content
        assert "A knockout cannot draw partners: pairs sign up together." in reply.content
    assert not announcements(fake, channel) and not bot.tournaments.open
    assert not await bot.store.load_open_tournaments(), "nothing stored"
    await announce(server, boss, game="milo", format="knockout", partners="pairs")


async def test_a_tournament_is_not_announced_where_its_tables_could_not_play(
    running: Running, server: Server
) -> None:
    """Its tables play in threads of the channel: without Create Public Threads there,
    the organiser is told so privately, and nothing is announced or stored."""
    bot, _ = await started(running)
    assert bot.tournaments is not None
    fake, channel = server.fake, server.channels[0]
    boss = server.member("Boss", manager=True)
    await fake.deny(channel, CREATE_PUBLIC_THREADS)
    await refused_new(bot, server, boss, channel, "Create Public Threads")


async def refused_new(
    bot: DominoBot, server: Server, boss: Member, channel: int, reason: str
) -> None:
    """``/domino tournament new`` in ``channel`` is answered to ``boss`` alone, giving
    the ``reason``, and nothing is announced, kept or stored."""
    options = {"game": "cross", "format": "swiss", "rounds": 1}
    reply = await (await boss.slash("domino tournament new", channel, **options)).reply()
    assert reply.visible_to == boss.id and reason in reply.content, reply.content
    assert bot.tournaments is not None and not bot.tournaments.open
    assert not announcements(server.fake, channel)
    assert not await bot.store.load_open_tournaments(), "nothing stored"


async def test_the_tournaments_of_a_server_the_bot_is_removed_from_are_cancelled(
    running: Running, server: Server
) -> None:
    """No round of them could be posted or played there any more: each is stored as
    cancelled, where it stood."""
    bot, _ = await started(running)
    tournaments = bot.tournaments
    assert tournaments is not None
    boss = server.member("Boss", manager=True)
    _, tournament_id = await announce(server, boss, game="cross", format="swiss", rounds=2)
    await server.fake.remove_bot(server.guild_id)
    await server.fake.wait_for(lambda: not tournaments.open or None)
    row = await bot.store.get_tournament(tournament_id)
    assert row is not None and row.status == Phase.CANCELLED.value


async def test_a_dropped_player_is_still_dropped_in_the_standings_after_a_restart(
    running: Running, server: Server
) -> None:
    """The organiser drops one player and another withdraws in round 1; the bot restarts
    before the round ends. The standings picture then says which left how, in its lines
    and its alt text: what the organiser did is the tournament's, not the herald's
    memory."""
    there = await entered(running, server, [f"D{n}" for n in range(4)], format="swiss", rounds=2)
    bot, clock, boss, players = there.bot, there.clock, there.boss, there.players
    tournament_id = there.tournament_id
    fake, channel = server.fake, server.channels[0]
    clock.now = there.tournaments.get(tournament_id).settings.start_at
    await there.tournaments.run_due()
    dropped, leaver = players[0], players[1]
    await (await boss.slash("domino tournament drop", channel, member=dropped)).reply()
    await (await leaver.slash("domino tournament withdraw", channel)).reply()
    await running.stop()

    bot = await running.start()
    assert bot.tournaments is not None
    bot.tournaments.clock = clock
    await deadline_then_next_round(server, bot, clock, tournament_id)
    [standings] = await fake.wait_for(lambda: with_picture(fake, channel, "standings.png"))
    alt = standings.attachments[0]["description"]
    for entries in (alt.removesuffix(".").split(". "), standings.content.splitlines()):
        [gone] = [entry for entry in entries if dropped.name in entry]
        [went] = [entry for entry in entries if leaver.name in entry]
        assert gone.endswith("(dropped)") and went.endswith("(withdrew)"), entries


async def test_a_tournament_is_refused_in_a_thread_whose_tables_could_have_no_threads(
    running: Running, server: Server
) -> None:
    """A round's tables are played in threads of the tournament's channel, and Discord
    makes no thread in a thread: announced there, its rounds could never open."""
    bot, _ = await started(running)
    boss = server.member("Boss", manager=True)
    thread = server.fake.add_channel(server.guild_id, "chat", kind=11, parent=server.channels[0])
    await refused_new(bot, server, boss, thread, "text channel")


async def test_a_tournament_whose_channel_is_deleted_is_cancelled(
    running: Running, server: Server
) -> None:
    """Nothing of it could be posted there any more, its tables' threads gone with the
    channel: it is cancelled where it stands, not left paused for good."""
    there = await entered(running, server, [f"C{n}" for n in range(4)], format="swiss", rounds=2)
    tournaments, tournament_id = there.tournaments, there.tournament_id
    there.clock.now = tournaments.get(tournament_id).settings.start_at
    await tournaments.run_due()
    service = there.bot.service
    assert service is not None and len(service.tables) == 2, "round 1's tables open"
    await server.fake.delete_channel(server.channels[0])
    await server.fake.wait_for(lambda: not tournaments.open or None)
    row = await there.bot.store.get_tournament(tournament_id)
    assert row is not None and row.status == Phase.CANCELLED.value
    await server.fake.wait_for(lambda: not service.tables or None)


@pytest.mark.parametrize("gone", ["server", "channel"])
async def test_a_tournament_whose_server_or_channel_went_while_the_bot_was_down_ends(
    running: Running, server: Server, gone: str
) -> None:
    """Told nothing while it was stopped, the bot finds at its start that it is no
    longer in the server, or that the tournament's channel is gone from the server's
    list: the tournament is cancelled then."""
    bot, _ = await started(running)
    boss = server.member("Boss", manager=True)
    _, tournament_id = await announce(server, boss, game="cross", format="swiss", rounds=2)
    await running.stop()
    if gone == "server":
        await server.fake.remove_bot(server.guild_id)
    else:
        await server.fake.delete_channel(server.channels[0])
    bot = await running.start()
    tournaments = bot.tournaments
    assert tournaments is not None
    await server.fake.wait_for(lambda: not tournaments.open or None)
    row = await bot.store.get_tournament(tournament_id)
    assert row is not None and row.status == Phase.CANCELLED.value


async def test_a_cancel_the_store_fails_leaves_the_servers_other_tournaments_cancelled(
    running: Running, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot is removed from a server of two tournaments, and the store fails the
    first's cancel: the second is cancelled all the same (the failure stopped the rest),
    and the first is left to the next start's check."""
    bot, _ = await started(running)
    tournaments = bot.tournaments
    assert tournaments is not None
    boss = server.member("Boss", manager=True)
    for channel in server.channels[:2]:
        options = {"game": "cross", "format": "swiss", "rounds": 2}
        await (await boss.slash("domino tournament new", channel, **options)).reply()
    first, second = sorted(tournaments.open.values(), key=lambda t: t.channel_id)
    save = bot.store.save_tournament

    async def busy(row: TournamentRow, expected: int, action: dict[str, Any], *more: Any) -> None:
        if row.id == first.id and action["kind"] == "cancel":
            raise StoreError("busy")
        await save(row, expected, action, *more)

    monkeypatch.setattr(bot.store, "save_tournament", busy)
    await server.fake.remove_bot(server.guild_id)
    await server.fake.wait_for(lambda: second.id not in tournaments.open or None)
    row = await bot.store.get_tournament(second.id)
    assert row is not None and row.status == Phase.CANCELLED.value
    assert first.id in tournaments.open, "left to the next start"


async def test_a_second_tournament_in_a_channel_that_has_one_is_refused(
    running: Running, server: Server
) -> None:
    """A tournament's commands and its tables' threads find it by its channel: a second
    announced there would leave neither manageable. It is refused, privately, and the
    first is cancelled as before."""
    bot, _ = await started(running)
    assert bot.tournaments is not None
    channel = server.channels[0]
    boss = server.member("Boss", manager=True)
    await announce(server, boss, game="cross", format="swiss", rounds=2, seats=2)
    reply = await (await boss.slash("domino tournament new", channel, game="cross",
                                    format="knockout", seats=2)).reply()  # fmt: skip
    assert reply.visible_to == boss.id and "has an open tournament already" in reply.content
    assert len(bot.tournaments.in_guild(server.guild_id)) == 1
    reply = await (await boss.slash("domino tournament cancel", channel)).reply()
    assert bot.tournaments.in_guild(server.guild_id) == []


async def test_status_in_a_knockout_not_started_yet_says_no_round_was_played(
    running: Running, server: Server
) -> None:
    """Before the start a knockout has no bracket (nor, before check-in, anyone to draw
    one from): a member's status says no round has been played, as a Swiss's does."""
    await started(running)
    boss, ann = server.member("Boss", manager=True), server.member("Ann")
    posted, _ = await announce(server, boss, game="cross", format="knockout", seats=2)
    await (await ann.click(posted, "Sign up")).reply()
    reply = await (await ann.slash("domino tournament status", server.channels[0])).reply()
    assert reply.visible_to == ann.id and "No round has been played yet" in reply.content


async def test_paused_before_the_start_the_announcement_keeps_its_buttons(
    running: Running, server: Server
) -> None:
    """Paused before its first round, a tournament opens for sign-up again when resumed:
    its announcement keeps Sign up, Withdraw and Check in meanwhile (a withdrawal edits
    it while paused), and they say it is paused, not that it has started."""
    bot, _ = await started(running)
    assert bot.tournaments is not None and bot.herald is not None
    channel = server.channels[0]
    boss, ann, bob = server.member("Boss", manager=True), server.member("Ann"), server.member("Bob")
    posted, tournament_id = await announce(server, boss, game="cross", format="swiss",
                                           rounds=1, seats=2, start_in=60, checkin=10)  # fmt: skip
    for member in (ann, bob):
        await (await member.click(posted, "Sign up")).reply()
    await (await boss.slash("domino tournament pause", channel)).reply()
    await (await bob.slash("domino tournament withdraw", channel)).reply()
    await bot.herald.settled()
    labels = [button["label"] for button in server.fake.messages[posted.id].buttons()]
    assert labels == ["Sign up", "Withdraw", "Check in"]
    cat = server.member("Cat")
    paused = await (await cat.click(posted, "Sign up")).reply()
    assert "paused" in paused.content and "has started" not in paused.content
    await (await boss.slash("domino tournament resume", channel)).reply()
    joined = await (await cat.click(posted, "Sign up")).reply()
    assert "signed up" in joined.content
    assert bot.tournaments.get(tournament_id).phase is Phase.SIGNUP
