"""Milo by pairs end to end through the fake Discord (issue 34: "Milo by teams: sign up as
a pair"): announced with ``partners: pairs``; each member presses Sign up and chooses
their partner in the private member select, and a pair is entered once both chose
each other (the announcement shows those waiting, then ``A & B``); each member checks
in. A Swiss of three pairs over two rounds: each round one table of two pairs, partners
across (seats 0 and 2 against 1 and 3), all four pinged, and a bye to the third pair;
the second round meets no pair met before; the bot restarts in the middle of round 2;
the standings and the podium name the pairs. And a choice still waiting for its answer
kept across a restart, and a withdrawal that takes the pair out."""

from __future__ import annotations

from bot.table import Status
from bot.tournaments.model import Phase, Tournament
from bot.tournaments.results import Result
from tests.e2e.conftest import Running
from tests.e2e.driver import service_of
from tests.e2e.test_tournaments import (
    announce,
    announcements,
    current,
    lobbies,
    next_round,
    play_table,
    podium_of,
    started,
    with_picture,
)
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import Message
from tests.fakediscord.users import Member

CHOOSE = "Choose your partner"
"""The partner select's placeholder."""


async def choose(member: Member, announcement: Message, partner: Member) -> str:
    """The member presses Sign up and chooses ``partner`` in the select it answers with;
    returns the answer to the choice."""
    prompt = await (await member.click(announcement, "Sign up")).reply()
    assert prompt.visible_to == member.id and CHOOSE in prompt.content, prompt.content
    answer = await (await member.select_members(prompt, CHOOSE, partner)).reply()
    assert answer.visible_to == member.id
    return answer.content


def seated_across(tournament: Tournament, round_: int) -> tuple[int, ...]:
    """The round's one table: its seats, checked to seat each pair's members across."""
    [drawn] = tournament.tables_of(round_)
    first, second = (tournament.members_of(side[0]) for side in drawn.sides)
    assert drawn.seats == (first[0], second[0], first[1], second[1]), "partners sit across"
    return drawn.seats


async def test_a_swiss_of_three_pairs_with_a_bye_each_round_and_a_restart(
    running: Running, server: Server
) -> None:
    bot, clock = await started(running)
    assert bot.tournaments is not None
    fake, channel = server.fake, server.channels[0]
    boss = server.member("Boss", manager=True)
    ann, bob, cat, dan, eve, fay = (server.member(name) for name in
                                    ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))  # fmt: skip
    members = {m.id: m for m in (ann, bob, cat, dan, eve, fay)}
    cross = {"game": "cross", "format": "swiss", "rounds": 2, "partners": "pairs"}
    refused = await (await boss.slash("domino tournament new", channel, **cross)).reply()
    assert "Only Milo is played by partners" in refused.content, refused.content
    assert not announcements(fake, channel)
    announcement, tournament_id = await announce(
        server, boss, game="milo", format="swiss", rounds=2, partners="pairs", target=2,
        start_in=60, checkin=30,
    )  # fmt: skip
    assert "partners sign up together" in announcement.text()

    # Ann chooses Bob, and waits for him; choosing herself is refused.
    said = await choose(ann, announcement, bob)
    assert f"You chose <@{bob.id}>" in said, said
    await fake.wait_for(lambda: f"Ann (chose <@{bob.id}>)" in fake.messages[announcement.id].text())
    prompt = await (await ann.click(announcement, "Sign up")).reply()
    refusal = await (await ann.select_members(prompt, CHOOSE, ann)).reply()
    assert "your own partner" in refusal.content, refusal.content
    # Bob is told Ann chose him, and chooses her back: the pair is entered.
    prompt = await (await bob.click(announcement, "Sign up")).reply()
    assert "Ann chose you" in prompt.content, prompt.content
    entered = await (await bob.select_members(prompt, CHOOSE, ann)).reply()
    assert "You and Ann are signed up as a pair" in entered.content, entered.content
    # Cat cannot take Ann, who is in a pair now.
    prompt = await (await cat.click(announcement, "Sign up")).reply()
    taken = await (await cat.select_members(prompt, CHOOSE, ann)).reply()
    assert "already in a pair" in taken.content, taken.content
    for first, second in ((cat, dan), (dan, cat), (eve, fay), (fay, eve)):
        await choose(first, announcement, second)

    def listed() -> bool:
        text = fake.messages[announcement.id].text()
        return all(pair in text for pair in ("Ann & Bob", "Cat & Dan", "Eve & Fay"))

    await fake.wait_for(listed)
    assert "Waiting for a partner" not in fake.messages[announcement.id].text()

    clock.now = bot.tournaments.get(tournament_id).settings.checkin_at
    checked = await (await ann.click(announcement, "Check in")).reply()
    assert "only if Bob checks in too" in checked.content, checked.content
    for member in (bob, cat, dan, eve, fay):
        checked = await (await member.click(announcement, "Check in")).reply()
        assert "checked in" in checked.content, checked.content

    clock.now = bot.tournaments.get(tournament_id).settings.start_at
    await bot.tournaments.run_due()
    [lobby] = await lobbies(fake, bot, tournament_id, game="Milo")
    tournament = current(bot, tournament_id)
    assert tournament is not None and tournament.round == 1
    seats = seated_across(tournament, 1)
    pairing = next(m for m in fake.public(channel) if "Round 1 begins" in m.content)
    assert all(f"<@{user}>" in pairing.content for user in seats), "all four are pinged"
    [bye] = [b for b in tournament.record if not isinstance(b, Result) and b.round == 1]
    resting = tournament.members_of(bye.entrant)
    assert f"<@{resting[0]}> & <@{resting[1]}>" in pairing.content, pairing.content

    await play_table(server, bot, lobby, members, seats)
    table = service_of(bot).in_channel(lobby.channel_id)
    assert table is None or table.status is not Status.LOBBY
    tournament = await next_round(server, bot, 1, tournament_id)
    assert tournament is not None and tournament.round == 2
    [standings] = await fake.wait_for(lambda: with_picture(fake, channel, "standings.png"))
    alt = standings.attachments[0]["description"]
    assert all(pair in alt for pair in ("Ann & Bob", "Cat & Dan", "Eve & Fay")), alt

    # The bot restarts in the middle of round 2: the round, its table and its deadline
    # are taken up, and the lobby posted before still seats the four.
    [lobby] = await lobbies(fake, bot, tournament_id, game="Milo")
    due = tournament.due
    await running.stop()
    bot = await running.start()
    assert bot.tournaments is not None
    bot.tournaments.clock = clock
    again = current(bot, tournament_id)
    assert again is not None and again.round == 2 and again.due == due
    assert again.pairs == tournament.pairs
    seats = seated_across(again, 2)
    [met] = [r for r in again.record if isinstance(r, Result)]
    [now] = again.tables_of(2)
    assert set(now.sides) != set(met.sides), "no two pairs meet twice while avoidable"
    [second_bye] = [b for b in again.record if not isinstance(b, Result) and b.round == 2]
    assert second_bye.entrant != bye.entrant, "a bye to a pair that has had none"
    await play_table(server, bot, lobby, members, seats)
    assert await next_round(server, bot, 2, tournament_id) is None
    stored = await bot.store.get_tournament(tournament_id)
    assert stored is not None and stored.status == Phase.FINISHED.value
    podium = await fake.wait_for(lambda: podium_of(fake, channel))
    assert " & " in podium.text(), "the podium names pairs"
    final = with_picture(fake, channel, "standings.png")[-1].attachments[0]["description"]
    assert "Final standings" in final and "Eve & Fay" in final, final


async def test_a_choice_waits_across_a_restart_and_a_withdrawal_takes_the_pair_out(
    running: Running, server: Server
) -> None:
    bot, _ = await started(running)
    fake, channel = server.fake, server.channels[0]
    boss = server.member("Boss", manager=True)
    ann, bob = server.member("Ann"), server.member("Bob")
    announcement, tournament_id = await announce(
        server, boss, game="milo", format="knockout", partners="pairs", start_in=60
    )
    await choose(ann, announcement, bob)
    await running.stop()
    bot = await running.start()
    prompt = await (await bob.click(announcement, "Sign up")).reply()
    assert "Ann chose you" in prompt.content, "Ann's choice was kept across the restart"
    entered = await (await bob.select_members(prompt, CHOOSE, ann)).reply()
    assert "You and Ann are signed up as a pair" in entered.content, entered.content
    await fake.wait_for(lambda: "Ann & Bob" in fake.messages[announcement.id].text())
    left = await (await bob.click(announcement, "Withdraw")).reply()
    assert "Bob withdrew" in left.content, left.content
    said = "Bob withdrew, and with them their pair, Ann & Bob."
    await fake.wait_for(lambda: any(said in m.content for m in fake.public(channel)))
    await fake.wait_for(lambda: "Ann & Bob" not in fake.messages[announcement.id].text())
    tournament = current(bot, tournament_id)
    assert tournament is not None and tournament.pairs == ()
