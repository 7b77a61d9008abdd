"""Tournaments end to end through the fake Discord (issue 34): a Swiss of nine members
(a bye each round, computers standing in for absentees) and a knockout of thirteen (byes
in round one), announced with ``/domino tournament new``, entered and checked in with
the announcement's buttons, each round's tables in threads of their own, one table a
round played by its members with the table's buttons, the others left to the show-up
deadline (the computer plays an absentee's seat and they forfeit), a withdrawal, and a
restart of the bot in the middle of a round.

The tournament service's clock is the test's (``Clock``): check-in, the start and each
round's show-up deadline come when the test moves it, without waiting."""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.client import DominoBot
from bot.table import Status
from bot.tournaments.model import Phase, Tournament
from bot.tournaments.results import Result
from bot.tournaments.service import TournamentService
from tests.e2e.conftest import Running
from tests.e2e.driver import Driver, service_of
from tests.fakediscord.fixtures import Server
from tests.fakediscord.server import FakeDiscord, Message
from tests.fakediscord.users import Member
from tests.tables.helpers import Clock

ROUND_TIMEOUT = 60.0
"""Seconds a round's computer tables may take to finish (they play at once)."""


def announcements(fake: FakeDiscord, channel: int) -> list[Message]:
    return [m for m in fake.public(channel) if any(b["label"] == "Sign up" for b in m.buttons())]


async def announce(server: Server, boss: Member, **options: object) -> tuple[Message, str]:
    """``/domino tournament new`` in the first channel: the organiser is answered
    privately and the announcement is posted with its buttons; returns it and the
    tournament's id (from its buttons' custom_ids)."""
    channel = server.channels[0]
    reply = await (await boss.slash("domino tournament new", channel, **options)).reply()
    assert reply.visible_to == boss.id and "Sign-up is open" in reply.content, reply.content
    [posted] = await server.fake.wait_for(lambda: announcements(server.fake, channel))
    return posted, posted.buttons()[0]["custom_id"].split(":")[1]


async def enter(bot: DominoBot, clock: Clock, announcement: Message, members: list[Member],
                tournament_id: str) -> None:  # fmt: skip
    """Everyone signs up, then checks in once check-in opens (the clock moved there)."""
    for member in members:
        reply = await (await member.click(announcement, "Sign up")).reply()
        assert reply.visible_to == member.id and "signed up" in reply.content, reply.content
    assert bot.tournaments is not None
    clock.now = bot.tournaments.get(tournament_id).settings.checkin_at
    for member in members:
        reply = await (await member.click(announcement, "Check in")).reply()
        assert "checked in" in reply.content, reply.content


def current(bot: DominoBot, tournament_id: str) -> Tournament | None:
    assert bot.tournaments is not None
    return bot.tournaments.open.get(tournament_id)


async def lobbies(
    fake: FakeDiscord, bot: DominoBot, tournament_id: str, game: str = "Cross"
) -> list[Message]:
    """The round's lobbies, each posted in its own thread of the tournament's channel
    (the announcer posts them, the thread named by the ``game``'s title), in the order
    of the round's tables."""
    tournament = current(bot, tournament_id)
    assert tournament is not None
    found = []
    for drawn in tournament.tables_of(tournament.round):
        table = service_of(bot).find(drawn.table_id or "")
        assert table is not None and table.status is Status.LOBBY
        thread = fake.channels[table.channel_id]
        assert thread["parent_id"] == str(tournament.channel_id)
        # named by its place in the round (a knockout's walkovers take places too)
        name = f"{game} · {tournament.round}.{drawn.position + 1}"
        assert thread["name"] == name, thread["name"]

        def lobby(channel: int = table.channel_id) -> Message | None:
            return next((m for m in fake.public(channel)
                         if any(b["label"] == "Join" for b in m.buttons())), None)  # fmt: skip

        found.append(await fake.wait_for(lobby))
    return found


async def play_table(
    server: Server,
    bot: DominoBot,
    lobby: Message,
    members: dict[int, Member],
    seats: tuple[int, ...],
) -> None:
    """The table's players sit down with Join (it starts when the last sits) and play it
    to its end with the table's buttons."""
    for user in seats:
        await members[user].click(lobby, "Join")
    service = service_of(bot)
    table = service.in_channel(lobby.channel_id)
    assert table is not None
    await server.fake.wait_for(
        lambda: (t := service.find(table.id)) is None or t.status is not Status.LOBBY
    )
    driver = Driver(server.fake, service, lobby.channel_id, {u: members[u] for u in seats})
    while not driver.finished():
        await driver.play_one()


async def deadline(bot: DominoBot, clock: Clock, tournament_id: str) -> int:
    """The round's show-up deadline passes: the computer stands in for every absentee
    and every table starts. Returns the round."""
    tournament = current(bot, tournament_id)
    assert tournament is not None and tournament.due is not None and bot.tournaments is not None
    clock.now = max(clock.now, tournament.due)
    await bot.tournaments.run_due()
    return tournament.round


async def next_round(
    server: Server, bot: DominoBot, played: int, tournament_id: str
) -> Tournament | None:
    """The tournament once round ``played``'s tables have all ended and the next round
    is drawn and opened (None: it has ended)."""

    def moved_on() -> bool:
        now = current(bot, tournament_id)
        return now is None or (
            now.round > played and all(d.table_id for d in now.tables_of(now.round))
        )

    await server.fake.wait_for(moved_on, timeout=ROUND_TIMEOUT)
    return current(bot, tournament_id)


async def deadline_then_next_round(
    server: Server, bot: DominoBot, clock: Clock, tournament_id: str
) -> Tournament | None:
    """The deadline passes, and every table is left to the computers."""
    return await next_round(server, bot, await deadline(bot, clock, tournament_id), tournament_id)


async def started(running: Running) -> tuple[DominoBot, Clock]:
    """The bot, its tournament service on a clock the test moves."""
    bot = await running.start()
    clock = Clock()
    clock.now = time.time()
    assert bot.tournaments is not None
    bot.tournaments.clock = clock
    return bot, clock


@dataclass
class Entered:
    """A tournament announced by a manager, its players signed up and checked in."""

    bot: DominoBot
    clock: Clock
    tournaments: TournamentService
    boss: Member
    players: list[Member]
    tournament_id: str


async def entered(running: Running, server: Server, names: list[str], **options: object) -> Entered:
    """The bot started, and a tournament announced by a manager (Cross at tables of two
    to 10, starting in 30 minutes, unless ``options`` say otherwise) with the members
    ``names`` entered, before its start."""
    bot, clock = await started(running)
    assert bot.tournaments is not None
    boss = server.member("Boss", manager=True)
    players = [server.member(name) for name in names]
    chosen = {"game": "cross", "seats": 2, "target": 10, "start_in": 30, "checkin": 10}
    announcement, tournament_id = await announce(server, boss, **(chosen | options))
    await enter(bot, clock, announcement, players, tournament_id)
    return Entered(bot, clock, bot.tournaments, boss, players, tournament_id)


def assert_podium(podium: Message) -> None:
    """The podium names its champion, unless the first place is shared (level on every
    tie-break), when it lists them all first and names none."""
    [first] = [f for f in podium.embeds[0]["fields"] if f["name"] == "1st"]
    shared = len(first["value"].splitlines()) > 1
    assert ("Champion" in podium.text()) is not shared, podium.text()


def podium_of(fake: FakeDiscord, channel: int) -> Message | None:
    titled = (m for m in fake.public(channel) for e in m.embeds if "podium" in e.get("title", ""))
    return next(titled, None)


def with_picture(fake: FakeDiscord, channel: int, filename: str) -> list[Message]:
    return [
        m for m in fake.public(channel) if any(a["filename"] == filename for a in m.attachments)
    ]


async def test_a_swiss_of_nine_with_a_no_show_a_withdrawal_and_a_restart(
    running: Running, server: Server
) -> None:
    bot, clock = await started(running)
    assert bot.tournaments is not None
    fake, channel = server.fake, server.channels[0]
    boss = server.member("Boss", manager=True)
    players = [server.member(f"P{n}") for n in range(9)]
    members = {m.id: m for m in players}
    refused = await (await players[0].slash("domino tournament new", channel, game="cross",
                                             format="swiss", rounds=2)).reply()  # fmt: skip
    assert "Manage Server" in refused.content and not announcements(fake, channel)
    announcement, tournament_id = await announce(
        server, boss, game="cross", format="swiss", rounds=2, seats=2, target=10,
        start_in=60, checkin=30,
    )  # fmt: skip
    await enter(bot, clock, announcement, players, tournament_id)
    await fake.wait_for(
        lambda: all(p.name in fake.messages[announcement.id].text() for p in players)
    )

    clock.now = bot.tournaments.get(tournament_id).settings.start_at
    await bot.tournaments.run_due()
    first = await lobbies(fake, bot, tournament_id)
    tournament = current(bot, tournament_id)
    assert tournament is not None and tournament.round == 1 and len(first) == 4
    assert not fake.messages[announcement.id].buttons(), "sign-up is over: no buttons"
    pairing = next(m for m in fake.public(channel) if "Round 1 begins" in m.content)
    drawn = tournament.tables_of(1)
    assert all(f"<@{user}>" in pairing.content for d in drawn for user in d.seats)
    assert "Bye" in pairing.content, "nine players at tables of two: one bye"

    # Table 1 is played by its members; at table 2 one member sits and the other never
    # comes; the rest are left to the deadline. A player of table 3 withdraws.
    await play_table(server, bot, first[0], members, drawn[0].seats)
    present, absentee = drawn[1].seats
    await members[present].click(first[1], "Join")
    await fake.wait_for(lambda: members[present].name in fake.messages[first[1].id].text())
    leaver = members[drawn[2].seats[0]]
    reply = await (await leaver.slash("domino tournament withdraw", channel)).reply()
    assert reply.visible_to == leaver.id and "withdrew" in reply.content
    await deadline(bot, clock, tournament_id)
    driver = Driver(fake, service_of(bot), first[1].channel_id, {present: members[present]})
    while not driver.finished():  # the one who came plays against the computer
        await driver.play_one()
    tournament = await next_round(server, bot, 1, tournament_id)
    assert tournament is not None and tournament.round == 2
    no_show = next(d for d in tournament.tables_of(1) if d.position == 1)
    assert no_show.absent == (absentee,), "the one who never came is marked absent"
    assert any(f"{members[absentee].name} did not come" in m.content for m in fake.public(channel))
    assert any(f"{leaver.name} withdrew" in m.content for m in fake.public(channel))
    assert all(leaver.id not in d.seats for d in tournament.tables_of(2)), "no longer paired"
    [standings] = await fake.wait_for(lambda: with_picture(fake, channel, "standings.png"))
    assert standings.attachments[0]["description"], "the standings picture has alt text"

    # The bot restarts in the middle of round 2: the round, its tables and its deadline
    # are taken up, and the lobbies posted before still seat their players.
    second = await lobbies(fake, bot, tournament_id)
    due = tournament.due
    await running.stop()
    bot = await running.start()
    assert bot.tournaments is not None
    bot.tournaments.clock = clock
    again = current(bot, tournament_id)
    assert again is not None and again.round == 2 and again.due == due
    await play_table(server, bot, second[0], members, again.tables_of(2)[0].seats)
    assert await deadline_then_next_round(server, bot, clock, tournament_id) is None
    stored = await bot.store.get_tournament(tournament_id)
    assert stored is not None and stored.status == Phase.FINISHED.value
    podium = await fake.wait_for(lambda: podium_of(fake, channel))
    assert_podium(podium)
    assert len(with_picture(fake, channel, "standings.png")) == 3, "after each round, and final"


async def test_a_knockout_of_thirteen_gives_byes_and_ends_with_a_champion(
    running: Running, server: Server
) -> None:
    bot, clock = await started(running)
    assert bot.tournaments is not None
    fake, channel = server.fake, server.channels[0]
    boss = server.member("Boss", manager=True)
    players = [server.member(f"K{n}") for n in range(13)]
    members = {m.id: m for m in players}
    announcement, tournament_id = await announce(
        server, boss, game="cross", format="knockout", seats=2, target=10, start_in=30,
        checkin=10,
    )  # fmt: skip
    await enter(bot, clock, announcement, players, tournament_id)
    clock.now = bot.tournaments.get(tournament_id).settings.start_at
    await bot.tournaments.run_due()
    first = await lobbies(fake, bot, tournament_id)
    tournament = current(bot, tournament_id)
    assert tournament is not None
    assert len(first) == 5, "13 of a bracket of 16: three byes, five matches in round one"
    await play_table(server, bot, first[0], members, tournament.tables_of(1)[0].seats)
    rounds = 1
    while tournament := await deadline_then_next_round(server, bot, clock, tournament_id):
        rounds += 1
        await lobbies(fake, bot, tournament_id)
    assert rounds == 4, "16 → 8 → 4 → 2"
    brackets = await fake.wait_for(lambda: with_picture(fake, channel, "bracket.png"))
    assert brackets[-1].attachments[0]["description"]
    podium = await fake.wait_for(lambda: podium_of(fake, channel))
    assert_podium(podium)


async def test_a_round_robin_of_five_meets_everyone_once_and_ranks_by_head_to_head(
    running: Running, server: Server
) -> None:
    """Five at tables of two: five rounds, one bye each round, each pair meeting once
    (the circle method); the standings after each round, the podium at the end."""
    there = await entered(running, server, [f"R{n}" for n in range(5)], format="round-robin")
    bot, clock, players = there.bot, there.clock, there.players
    tournament_id = there.tournament_id
    fake, channel = server.fake, server.channels[0]
    clock.now = there.tournaments.get(tournament_id).settings.start_at
    await there.tournaments.run_due()
    rounds = 1
    while await deadline_then_next_round(server, bot, clock, tournament_id) is not None:
        rounds += 1
    assert rounds == 5
    stored = await bot.store.get_tournament(tournament_id)
    assert stored is not None and stored.status == Phase.FINISHED.value
    ended = Tournament.from_dict(stored.state)
    met = [frozenset(e for side in r.sides for e in side) for r in ended.record
           if isinstance(r, Result)]  # fmt: skip
    assert sorted(map(sorted, met)) == sorted(
        sorted((a.id, b.id)) for i, a in enumerate(players) for b in players[i + 1 :]
    ), "every pair met exactly once"
    await fake.wait_for(lambda: podium_of(fake, channel))
    assert len(with_picture(fake, channel, "standings.png")) == 6, "after each round, and final"


async def test_status_says_out_of_the_knockout_to_its_losers_and_not_to_a_swiss_leaver(
    running: Running, server: Server
) -> None:
    """``status`` tells a knockout's player who lost that they are out of it (the words
    say so only in a knockout: "out" is how a run ends there), and a Swiss's player who
    withdrew is not told they are out of a knockout they never played."""
    there = await entered(running, server, [f"S{n}" for n in range(4)], format="knockout")
    bot, clock, boss, players = there.bot, there.clock, there.boss, there.players
    assert bot.tournaments is not None
    knockout_id, channel = there.tournament_id, server.channels[0]
    members = {m.id: m for m in players}
    clock.now = bot.tournaments.get(knockout_id).settings.start_at
    await bot.tournaments.run_due()
    tournament = await deadline_then_next_round(server, bot, clock, knockout_id)
    assert tournament is not None and tournament.round == 2
    (final,) = tournament.tables_of(2)
    [loser, winner] = [members[u] for u in tournament.tables_of(1)[0].seats
                       if u not in final.seats] + [members[final.seats[0]]]  # fmt: skip
    lost = await (await loser.slash("domino tournament status", channel)).reply()
    assert lost.visible_to == loser.id and "You are out of the knockout." in lost.content, (
        lost.content
    )
    plays_on = await (await winner.slash("domino tournament status", channel)).reply()
    assert "out of the knockout" not in plays_on.content, plays_on.content

    await (await boss.slash("domino tournament cancel", channel)).reply()
    announcement, swiss_id = await announce(server, boss, game="cross", format="swiss",
                                            rounds=2, seats=2, target=10)  # fmt: skip
    await enter(bot, clock, announcement, players, swiss_id)
    clock.now = bot.tournaments.get(swiss_id).settings.start_at
    await bot.tournaments.run_due()
    await (await players[0].slash("domino tournament withdraw", channel)).reply()
    left = await (await players[0].slash("domino tournament status", channel)).reply()
    assert left.visible_to == players[0].id and "knockout" not in left.content, left.content


async def test_options_a_tournament_would_ignore_are_refused_and_nothing_is_announced(
    running: Running, server: Server
) -> None:
    """Rounds asked of a knockout (it plays until one is left) and partners asked of
    Cross (only Milo is played by partners) would be left unheard: each is refused in
    words, privately, and no tournament is made; the same without them is announced."""
    bot, _ = await started(running)
    assert bot.tournaments is not None
    boss, channel = server.member("Boss", manager=True), server.channels[0]
    for options, said in (
        ({"game": "cross", "format": "knockout", "rounds": 3}, "Only a Swiss tournament"),
        ({"game": "cross", "format": "swiss", "rounds": 2, "partners": "drawn"},
         "Only Milo is played by partners"),
    ):  # fmt: skip
        refused = await (await boss.slash("domino tournament new", channel, **options)).reply()
        assert refused.visible_to == boss.id and said in refused.content, refused.content
        assert not bot.tournaments.open and not announcements(server.fake, channel)
    await announce(server, boss, game="cross", format="knockout")
