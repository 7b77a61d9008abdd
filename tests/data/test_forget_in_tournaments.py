"""``/domino forget-me`` and closed tournaments (issue 34): in the same transaction as the
rest of forgetting, a finished or cancelled tournament's stored state and log no longer
hold the member's id or name. Their id becomes one negative id, the same everywhere in
that tournament (players, seats, sides, absentees, results, byes, organiser, log lines),
so its standings stay as they were; another entrant of the same name keeps theirs, and
open tournaments are left to the service. On both databases, with the service's own
document (``Tournament.to_dict``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.tournaments.model import Drawn, Format, Phase, Player, Settings, Tournament
from bot.tournaments.results import Result
from bot.tournaments.seating import Bye, Entrant
from bot.tournaments.standings import swiss_standings
from data.models import Told, TournamentRow
from data.repository import Repository

ANN, BOB, CAT, DAN, OTHER_ANN = (1_100_000_000_000_000_000 + n for n in range(5))
"""Members' ids, snowflakes as Discord's are."""


def ended(tournament_id: str, phase: Phase = Phase.FINISHED) -> Tournament:
    """A Swiss of five over two rounds that Ann organised and played: she beat Bob, then
    had a bye; Cat never came to round 2 and forfeited to Dan."""
    players = (
        Player(ANN, "Ann", 1500.0, True), Player(BOB, "Bob", 1400.0, True),
        Player(CAT, "Cat", 1300.0, True, out=True), Player(DAN, "Dan", 1200.0, True),
        Player(OTHER_ANN, "Ann", 1100.0, True),
    )  # fmt: skip
    drawn = (
        Drawn(1, 0, (ANN, BOB), ((ANN,), (BOB,)), "t1"),
        Drawn(1, 1, (CAT, DAN), ((CAT,), (DAN,)), "t2"),
        Drawn(2, 0, (DAN, CAT), ((DAN,), (CAT,)), "t3", absent=(CAT,)),
        Drawn(2, 1, (BOB, OTHER_ANN), ((BOB,), (OTHER_ANN,)), "t4"),
    )
    record = (
        Bye(1, OTHER_ANN, 2),
        Result(1, 0, ((ANN,), (BOB,)), (1, 2), (10, 4)),
        Result(1, 1, ((CAT,), (DAN,)), (1, 2), (10, 7)),
        Bye(2, ANN, 2),
        Result(2, 0, ((DAN,), (CAT,)), (1, 2), (10, 0)),
        Result(2, 1, ((BOB,), (OTHER_ANN,)), (2, 1), (3, 10)),
    )
    return Tournament(
        tournament_id, 10, 20, ANN, Settings("cross", Format.SWISS, 2, rounds=2),
        phase=phase, players=players, round=2, drawn=drawn, record=record, version=9,
    )  # fmt: skip


def row(tournament: Tournament) -> TournamentRow:
    return TournamentRow(
        tournament.id, tournament.guild_id, tournament.channel_id, tournament.phase.value,
        tournament.version, tournament.to_dict(), None, 1.0, 2.0,
    )  # fmt: skip


LOG: list[dict[str, Any]] = [
    {"kind": "create", "by": ANN},
    {"kind": "sign-up", "by": ANN},
    {"kind": "drop", "by": ANN, "player": CAT},
    {"kind": "absent", "players": [CAT]},
    {"kind": "adjust", "by": ANN, "round": 1, "table": 0, "reason": "a misdeal"},
]


async def stored(store: Repository, tournament: Tournament) -> None:
    """The tournament and its log as the service would have left them."""
    await store.create_tournament(dataclasses.replace(row(tournament), version=1), LOG[0])
    for version, line in enumerate(LOG[1:], start=2):
        await store.save_tournament(
            dataclasses.replace(row(tournament), version=version), version - 1, line
        )


def ints(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    items = value if isinstance(value, list) else value.values() if isinstance(value, dict) else ()
    return [number for item in items for number in ints(item)]


def renamed(tournament: Tournament, old: int, new: int) -> list[tuple[int, int, int, int]]:
    """The Swiss standings' lines (everyone who played) with ``old`` read as ``new``."""
    entrants = [Entrant(p.user_id, p.rating) for p in tournament.players]
    return [
        (s.place, new if s.entrant == old else s.entrant, s.points, s.played)
        for s in swiss_standings(entrants, tournament.record)
    ]


async def test_a_finished_tournament_keeps_its_standings_and_forgets_the_member(
    store: Repository,
) -> None:
    before = ended("00000001")
    await stored(store, before)
    await stored(store, ended("00000002", Phase.CANCELLED))
    running = ended("00000003", Phase.RUNNING)  # open: the service's to refuse
    await stored(store, running)

    gone = await store.forget(ANN)
    assert gone.tournaments == 2

    found = await store.get_tournament("00000001")
    assert found is not None and ANN not in ints(found.state)
    after = Tournament.from_dict(found.state)
    placeholder = after.organiser_id
    assert placeholder < 0 and placeholder not in ints(before.to_dict())
    assert after.players[0] == Player(placeholder, "", 1500.0, True)
    assert after.player(OTHER_ANN) == Player(OTHER_ANN, "Ann", 1100.0, True), "not her"
    assert after.drawn[0].seats == (placeholder, BOB)
    assert after.drawn[0].sides == ((placeholder,), (BOB,))
    assert Bye(2, placeholder, 2) in after.record
    assert after.result_of(1, 0) == Result(1, 0, ((placeholder,), (BOB,)), (1, 2), (10, 4))
    assert renamed(after, placeholder, placeholder) == renamed(before, ANN, placeholder)

    log = [line["action"] for line in await store.tournament_log("00000001")]
    assert ANN not in ints(log)
    assert log == [
        {**line, "by": placeholder} if line.get("by") == ANN else line for line in LOG
    ], "the same placeholder in the log; everything else as it was"

    still = await store.get_tournament("00000003")
    assert still is not None and still.state == running.to_dict()


async def test_a_second_member_forgotten_gets_an_id_of_their_own(store: Repository) -> None:
    await stored(store, ended("00000001"))
    await store.forget(ANN)
    gone = await store.forget(CAT)
    assert gone.tournaments == 1
    found = await store.get_tournament("00000001")
    assert found is not None
    after = Tournament.from_dict(found.state)
    ann, cat = after.organiser_id, after.players[2].user_id
    assert ann < 0 and cat < 0 and ann != cat
    assert after.players[2] == Player(cat, "", 1300.0, True, out=True)
    assert after.tables_of(2)[0].absent == (cat,), "her forfeit stays hers"
    log = [line["action"] for line in await store.tournament_log("00000001")]
    assert {"kind": "drop", "by": ann, "player": cat} in log
    assert {"kind": "absent", "players": [cat]} in log
    assert (await store.forget(CAT)).tournaments == 0, "nothing left to forget"


async def test_news_of_an_ended_tournament_not_yet_posted_forgets_the_member_too(
    store: Repository,
) -> None:
    """A stop before the herald posted the podium leaves its news with a copy of the
    state: forgotten meanwhile, the member is a former player there as in the row."""
    tournament = ended("00000001")
    await stored(store, tournament)
    finished = dataclasses.replace(row(tournament), version=len(LOG) + 1)
    await store.save_tournament(finished, len(LOG), {"kind": "finish"},
                                news=[Told("dropped", (CAT, ANN)), Told("finished")])  # fmt: skip
    await store.forget(ANN)
    found = await store.get_tournament("00000001")
    assert found is not None
    placeholder = Tournament.from_dict(found.state).organiser_id
    [dropped, podium] = await store.unposted_news()
    assert dropped.told.about == (CAT, placeholder)
    assert podium.told.what == "finished" and podium.state == found.state
