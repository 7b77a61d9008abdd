"""A member's finished games, one game whole (to replay it), the series between the same
seats, what is stored about a member, forgetting them, and pruning closed tables: on
SQLite and on PostgreSQL."""

from __future__ import annotations

import dataclasses

import pytest

from bot.refusals import NoSuchGame
from bot.standings import Standings
from data.backend import Session
from data.models import FinishedGame, Participant
from data.repository import Repository
from tests.data.databases import rating_of
from tests.data.test_store import finished, table_row

ANN, BOB = 5, 6


def duel(winner: int, loser: int, names: dict[int, str] | None = None) -> list[Participant]:
    named = names or {}
    return [
        Participant(seat=0, team=0, final_score=100, won=True, user_id=winner,
                    name=named.get(winner, ""), points=100),
        Participant(seat=1, team=1, final_score=30, won=False, user_id=loser,
                    name=named.get(loser, ""), points=30),
    ]  # fmt: skip


def at(game_id: str, when: float, seats: list[Participant]) -> FinishedGame:
    return dataclasses.replace(finished(game_id, seats, table_id=game_id), finished_at=when)


async def test_a_members_games_come_newest_first_one_page_at_a_time(store: Repository) -> None:
    for number in range(5):
        await store.record_finished_game(at(f"g{number}", 10.0 + number, duel(ANN, BOB)))
    await store.record_finished_game(at("other", 99.0, duel(BOB, 7)))
    page, total = await store.games_of(ANN, 10, page=0, page_size=2)
    assert total == 5 and [g.id for g in page] == ["g4", "g3"]
    page, _ = await store.games_of(ANN, 10, page=2, page_size=2)
    assert [g.id for g in page] == ["g0"]
    assert (await store.games_of(ANN, 11))[1] == 0, "another server's games are not listed"


async def test_a_game_comes_back_whole_with_its_names(store: Repository) -> None:
    game = at("g1", 1.0, duel(ANN, BOB, {ANN: "Ann", BOB: "Bob"}))
    await store.record_finished_game(game)
    back = await store.get_game("g1")
    assert back is not None and back.record == game.record and back.rated
    assert [(p.user_id, p.name, p.won) for p in back.participants] == [
        (ANN, "Ann", True), (BOB, "Bob", False)
    ]  # fmt: skip
    assert [r.number for r in back.rounds] == [1]
    assert await store.get_game("nope") is None


@pytest.mark.parametrize("forged", ["g1\x00", "g1\ud800", "g1; --", "ǵ1"])
async def test_a_forged_game_id_is_no_game_on_either_database(
    store: Repository, forged: str
) -> None:
    """A game's id comes from the asker (a slash command's option, the browser's replay
    address): one of characters no id is made of (a NUL, which PostgreSQL refuses
    outright; a lone surrogate; spaces and punctuation) is refused as no game, naming
    it in printable characters, on SQLite and PostgreSQL alike."""
    await store.record_finished_game(at("g1", 1.0, duel(ANN, BOB)))
    with pytest.raises(NoSuchGame) as refused:
        await Standings(store).game(forged, 10)
    assert refused.value.game_id.isprintable()
    assert (await Standings(store).game("g1", 10)).id == "g1"


async def test_a_game_with_hints_is_kept_but_counts_for_nobody(store: Repository) -> None:
    await store.record_finished_game(
        dataclasses.replace(finished("h1", duel(ANN, BOB)), rated=False)
    )
    assert await store.get_stats(ANN) == [] and await rating_of(store, ANN, "cross") is None
    kept = await store.get_game("h1")
    assert kept is not None and not kept.rated


async def test_a_game_with_hints_still_names_its_members(store: Repository) -> None:
    """An unrated game counts for nobody, but its members are still named when it is
    read back (history, replay, the coach's word in the channel), even members who
    never played a rated game: not "Player …0005"."""
    names = {ANN: "Ann", BOB: "Bob"}
    await store.record_finished_game(
        dataclasses.replace(finished("h1", duel(ANN, BOB, names)), rated=False)
    )
    kept = await store.get_game("h1")
    assert kept is not None and [p.name for p in kept.participants] == ["Ann", "Bob"]
    assert (await store.stored_about(ANN)).names == ("Ann",), "privacy says the name it keeps"
    assert await store.get_stats(ANN) == [], "and still counts it for nobody"


async def test_a_game_whose_record_is_not_json_does_not_hide_the_others(
    store: Repository,
) -> None:
    """A record edited by hand or half written: the history and the series (a rematch)
    still read, and the game comes back with its text (it does not replay)."""
    await store.record_finished_game(at("g1", 1.0, duel(ANN, BOB)))
    await store.record_finished_game(at("g2", 2.0, duel(BOB, ANN)))

    async def damage(tx: Session) -> None:
        await tx.execute("UPDATE games SET record = '{\"actions\": [' WHERE id = 'g1'")

    await store.backend.write(damage)
    games, total = await store.games_of(ANN, 10)
    assert ([game.id for game in games], total) == (["g2", "g1"], 2)
    assert await store.series(10, "cross", [(ANN, None), (BOB, None)]) == [1, 1]
    damaged = await store.get_game("g1")
    assert damaged is not None and damaged.record == '{"actions": ['


async def test_a_game_whose_other_json_is_damaged_does_not_hide_the_others(
    store: Repository,
) -> None:
    """The same for a game's other JSON columns, a round's points and the moves the
    computer made for a member: they read as none (as for a game stored before they were
    kept), and the game, the history and the series still read."""
    await store.record_finished_game(at("g1", 1.0, duel(ANN, BOB)))
    await store.record_finished_game(at("g2", 2.0, duel(BOB, ANN)))
    await store.record_finished_game(at("g3", 3.0, duel(ANN, BOB)))

    async def damage(tx: Session) -> None:
        await tx.execute("UPDATE games SET stood_in = '[1,' WHERE id = 'g1'")
        await tx.execute("UPDATE games SET stood_in = '{\"a\": \"b\"}' WHERE id = 'g2'")
        await tx.execute("UPDATE game_rounds SET points = 'x' WHERE game_id = 'g3'")

    await store.backend.write(damage)
    games, total = await store.games_of(ANN, 10)
    assert ([game.id for game in games], total) == (["g3", "g2", "g1"], 3)
    assert [(game.stood_in, game.rounds[0].points) for game in reversed(games)] == [
        ((), [20, 0]), ((), [20, 0]), ((), [])
    ]  # fmt: skip
    assert await store.series(10, "cross", [(ANN, None), (BOB, None)]) == [2, 1]


async def test_the_series_counts_wins_between_exactly_the_same_seats(store: Repository) -> None:
    await store.record_finished_game(at("g1", 1.0, duel(ANN, BOB)))
    await store.record_finished_game(at("g2", 2.0, duel(BOB, ANN)))
    await store.record_finished_game(at("g3", 3.0, duel(ANN, BOB)))
    await store.record_finished_game(at("g4", 4.0, duel(ANN, 7)))  # not the same seats
    wins = await store.series(10, "cross", [(BOB, None), (ANN, None)])
    assert wins == [1, 2]


async def test_the_series_credits_each_of_two_computers_of_one_level_its_own_wins(
    store: Repository,
) -> None:
    """Milo: Ann and a normal computer (seats 0 and 2) against Bob and a normal computer
    (seats 1 and 3). Bob's side wins: Bob's partner, the second computer, is credited,
    not Ann's (a rematch seats everyone as they sat, so the k-th computer of a level is
    the same seat)."""
    computer = Participant(seat=0, team=0, final_score=0, won=False, computer_level="normal")
    ann = dataclasses.replace(computer, user_id=ANN, computer_level=None, name="Ann")
    bob = dataclasses.replace(ann, seat=1, team=1, won=True, user_id=BOB, name="Bob")
    seats = [
        ann,
        bob,
        dataclasses.replace(computer, seat=2),
        dataclasses.replace(computer, seat=3, team=1, won=True),
    ]
    game = dataclasses.replace(at("m1", 1.0, seats), game="milo")
    await store.record_finished_game(game)
    wins = await store.series(10, "milo", [(ANN, None), (BOB, None), (None, "normal"),
                                           (None, "normal")])  # fmt: skip
    assert wins == [0, 1, 0, 1]


async def test_forgetting_a_member_keeps_their_games_anonymous(store: Repository) -> None:
    await store.record_finished_game(at("g1", 1.0, duel(ANN, BOB, {ANN: "Ann", BOB: "Bob"})))
    closed = dataclasses.replace(
        table_row("t9", status="finished", channel_id=3),
        state={"seats": [{"user_id": ANN, "name": "Ann"}]},
    )
    await store.create_table(closed)
    before = await store.stored_about(ANN)
    assert (before.games, before.names) == (1, ("Ann",)) and before.stats > 0
    gone = await store.forget(ANN)
    assert (gone.seats, gone.closed_tables, gone.names) == (1, 1, 1)
    after = await store.stored_about(ANN)
    assert (after.stats, after.ratings, after.names, after.games) == (0, 0, (), 0)
    game = await store.get_game("g1")
    assert game is not None and [p.user_id for p in game.participants] == [None, BOB]
    assert await store.get_stats(BOB), "the other player keeps theirs"
    assert await store.get_table("t9") is None


async def test_forgetting_a_member_is_not_stopped_by_a_damaged_closed_table(
    store: Repository,
) -> None:
    """A closed table set aside because its state did not read keeps that state (for a
    developer to look at): forget-me still works for everyone, and deletes such a table
    when its text names the member."""
    await store.record_finished_game(at("g1", 1.0, duel(ANN, BOB, {ANN: "Ann", BOB: "Bob"})))
    states = {"t1": f'{{"seats": [{{"user_id": {ANN}', "t2": "not json", "t3": "[1, 2]"}
    for channel, (table_id, state) in enumerate(states.items()):
        await store.create_table(table_row(table_id, status="cancelled", channel_id=channel))

        async def damage(tx: Session, table_id: str = table_id, state: str = state) -> None:
            await tx.execute("UPDATE active_tables SET state = ? WHERE id = ?", (state, table_id))

        await store.backend.write(damage)
    gone = await store.forget(ANN)
    assert (gone.seats, gone.closed_tables, gone.names) == (1, 1, 1)
    assert await store.get_table("t1") is None
    assert await store.get_table("t2") is not None and await store.get_table("t3") is not None


async def test_forgetting_an_organiser_deletes_the_closed_tables_they_hosted_unseated(
    store: Repository,
) -> None:
    """A tournament's organiser hosts its round tables without a seat: their id is the
    table's host, on its row and in its state, and goes with forget-me as a player's."""
    hosted = dataclasses.replace(
        table_row("t1", status="finished", channel_id=1),
        host_id=ANN,
        state={"host_id": ANN, "seats": [{"user_id": BOB, "name": "Bob"}], "tournament": "x"},
    )
    await store.create_table(hosted)
    await store.create_table(table_row("t2", status="finished", channel_id=2))
    gone = await store.forget(ANN)
    assert gone.closed_tables == 1
    assert await store.get_table("t1") is None
    assert await store.get_table("t2") is not None, "another host's table stays"


async def test_closed_tables_are_pruned_by_age_and_open_ones_never(store: Repository) -> None:
    old = dataclasses.replace(table_row("old", status="finished", channel_id=1), updated_at=5.0)
    new = dataclasses.replace(table_row("new", status="cancelled", channel_id=2), updated_at=50.0)
    live = dataclasses.replace(table_row("live", status="playing", channel_id=3), updated_at=1.0)
    for row in (old, new, live):
        await store.create_table(row)
    assert await store.prune_closed(before=10.0) == 1
    assert await store.get_table("old") is None
    assert await store.get_table("new") is not None and await store.get_table("live") is not None


async def test_the_open_table_a_member_sits_at_is_found_whoever_plays_it(
    store: Repository,
) -> None:
    """Forget-me asks before it deletes: an open table of any process seating them, or
    a rematch's lobby keeping them a seat (another process's: the asking process lets
    its own go)."""
    seated = {"seats": [{"user_id": BOB, "name": "Bob"}, {"user_id": ANN, "name": "Ann"}]}
    for name, status, channel, state in (
        ("done", "finished", 1, seated),
        ("hosted", "lobby", 2, {"host_id": ANN, "seats": [], "invited": [ANN]}),
        ("live", "playing", 3, seated),
    ):
        row = dataclasses.replace(table_row(name, status=status, channel_id=channel), state=state)
        await store.create_table(row)
    assert await store.seated_at(ANN) == 2, "a rematch's lobby keeping her seat"
    assert await store.seated_at(ANN, passing={"hosted"}) == 3
    assert await store.seated_at(7) is None


async def test_a_table_keeping_a_members_name_beside_their_id_is_theirs_to_forget(
    store: Repository,
) -> None:
    """A table keeps the names of those it names without a seat (``unseated``: the
    organiser hosting a tournament's table, the players whose seats it keeps), for a
    face that cannot mention them: another process's open table keeping one is found
    before forget-me deletes anything, and a closed one is deleted with the rest."""
    named = {"host_id": 7, "seats": [], "unseated": [[BOB, "Bob"], [ANN, "Ann"]]}
    for name, status, channel in (("open", "lobby", 4), ("closed", "cancelled", 5)):
        row = dataclasses.replace(table_row(name, status=status, channel_id=channel), state=named)
        await store.create_table(row)
    assert await store.seated_at(ANN) == 4
    assert await store.seated_at(ANN, passing={"open"}) is None
    assert (await store.forget(ANN)).closed_tables == 1
    assert await store.get_table("closed") is None
