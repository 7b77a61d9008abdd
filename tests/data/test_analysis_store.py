"""The coach's analyses are kept once per finished game, read back as written (one game,
or a page of games at once), outlive a restart, and go with their game; each is noted as
announced once, and a start finds the recent games with a member whose analysis is
missing or unannounced: on SQLite and on PostgreSQL."""

from __future__ import annotations

import dataclasses
import sqlite3
from typing import Any

import asyncpg
import pytest

from bot.coaching import accuracies, stored_analysis
from data import open_store
from data.analyses import Unsaid
from data.backend import Session
from data.models import Participant
from data.repository import Repository
from tests.data.databases import Database, count
from tests.data.test_history_and_privacy import at, duel

ANALYSIS: dict[str, Any] = {
    "format": "domino-analysis/1",
    "game": "cross",
    "budget": 0.5,
    "seats": [{"seat": 0, "moves": [{"action": 3, "played": "6-5 N", "played_worth": -1.5}]}],
}


async def test_an_analysis_is_stored_once_and_read_back_as_written(store: Repository) -> None:
    await store.record_finished_game(at("g1", 10.0, duel(5, 6)))
    assert await store.get_analysis("g1") is None
    assert await store.save_analysis("g1", ANALYSIS) is True
    assert await store.save_analysis("g1", {**ANALYSIS, "budget": 2.0}) is False
    assert await store.get_analysis("g1") == ANALYSIS
    assert await count(store, "game_analysis") == 1


async def test_an_analysis_made_again_for_one_that_did_not_read_takes_its_place(
    store: Repository,
) -> None:
    await store.record_finished_game(at("g1", 10.0, duel(5, 6)))

    async def damage(tx: Session) -> None:
        await tx.execute(
            "INSERT INTO game_analysis (game_id, analysis, created_at) VALUES (?, ?, 0)",
            ("g1", '{"format": "domino-analysis/1", '),
        )

    await store.backend.write(damage)
    assert await store.save_analysis("g1", ANALYSIS, replacing=True) is True
    assert await store.get_analysis("g1") == ANALYSIS
    assert await count(store, "game_analysis") == 1


async def test_a_page_of_games_reads_the_analyses_it_has(store: Repository) -> None:
    for number in range(3):
        await store.record_finished_game(at(f"g{number}", float(number), duel(5, 6)))
    await store.save_analysis("g0", ANALYSIS)
    await store.save_analysis("g2", {**ANALYSIS, "game": "milo"})
    assert await store.analyses_of([]) == {}
    assert await store.analyses_of(["g0", "g1", "g2", "nowhere"]) == {
        "g0": ANALYSIS,
        "g2": {**ANALYSIS, "game": "milo"},
    }


async def test_an_analysis_outlives_a_restart(database: Database) -> None:
    async with await open_store(database.url) as store:
        await store.record_finished_game(at("g1", 10.0, duel(5, 6)))
        await store.save_analysis("g1", ANALYSIS)
    async with await open_store(database.url) as again:
        assert await again.get_analysis("g1") == ANALYSIS


async def test_an_analysis_belongs_to_a_stored_game_and_goes_with_it(store: Repository) -> None:
    with pytest.raises((sqlite3.IntegrityError, asyncpg.ForeignKeyViolationError)):
        await store.save_analysis("never-played", ANALYSIS)
    await store.record_finished_game(at("g1", 10.0, duel(5, 6)))
    await store.save_analysis("g1", ANALYSIS)

    async def drop(tx: Session) -> None:
        await tx.execute("DELETE FROM game_seats WHERE game_id = ?", ("g1",))
        await tx.execute("DELETE FROM game_rounds WHERE game_id = ?", ("g1",))
        await tx.execute("DELETE FROM games WHERE id = ?", ("g1",))

    await store.backend.write(drop)
    assert await store.get_analysis("g1") is None


async def test_an_analysis_is_announced_once_and_a_start_finds_what_is_left_unsaid(
    store: Repository,
) -> None:
    computers = [
        Participant(seat=seat, team=seat, final_score=0, won=seat == 0, computer_level="easy")
        for seat in range(2)
    ]
    for game_id, when, seats in [
        ("old", 10.0, duel(5, 6)),
        ("unanalysed", 100.0, duel(5, 6)),
        ("unannounced", 90.0, duel(5, 6)),
        ("announced", 95.0, duel(5, 6)),
        ("computers", 99.0, computers),
    ]:
        await store.record_finished_game(at(game_id, when, seats))
    for game_id in ("unannounced", "announced"):
        await store.save_analysis(game_id, ANALYSIS)
    assert await store.announcement_due("unanalysed") is None
    assert await store.announcement_due("announced") is True
    assert await store.mark_announced("announced", 96.0) is True
    assert await store.mark_announced("announced", 97.0) is False, "noted once"
    assert await store.mark_announced("unanalysed", 97.0) is False, "nothing stored to note"
    assert await store.announcement_due("announced") is False
    assert await store.unsaid_since(50.0) == [
        Unsaid("unannounced", 10),
        Unsaid("unanalysed", 10),
    ]


async def test_an_analysis_that_does_not_read_is_passed_over_not_a_failure(
    store: Repository, caplog: pytest.LogCaptureFixture
) -> None:
    """A row edited by hand or half written: the store gives back its text, the coach's
    format refuses it (logged), and the page of history reads its other games."""
    for number in range(3):
        await store.record_finished_game(at(f"g{number}", float(number), duel(5, 6)))
    await store.save_analysis("g0", {**ANALYSIS, "seats": [{"seat": 0, "moves": []}]})

    async def damage(tx: Session) -> None:
        await tx.executemany(
            "INSERT INTO game_analysis (game_id, analysis, created_at) VALUES (?, ?, 0)",
            [("g1", '{"format": "domino-analysis/1", '), ("g2", "[]")],
        )

    await store.backend.write(damage)
    games = [game for number in range(3) if (game := await store.get_game(f"g{number}"))]
    assert list(await accuracies(store, games)) == ["g0"]
    assert await stored_analysis(store, games[1]) is None
    assert await stored_analysis(store, games[0]) is not None
    assert "game g1's stored analysis does not read" in caplog.text


async def test_an_analysis_that_does_not_fit_its_game_is_passed_over_not_a_failure(
    store: Repository, caplog: pytest.LogCaptureFixture
) -> None:
    """A row that reads as an analysis but not of its game: another game's, a seat the
    game has not (a name would be missing for its accuracy), a move past the record
    (the position shown would be another's). Each is logged and taken as none, as one
    that does not read: the page of history reads its other games."""
    record = {"actions": [[0, "6-6"]] * 4}
    move = {
        "action": 3, "game_number": 1, "round_number": 1, "index": 3, "played": "6-5 N",
        "better": "6-5 N", "played_worth": 1.0, "better_worth": 1.0, "grade": "good",
    }  # fmt: skip
    fits = {**ANALYSIS, "seats": [{"seat": 1, "moves": [move]}]}
    games = [
        dataclasses.replace(at(f"g{number}", float(number), duel(5, 6)), record=record)
        for number in range(4)
    ]
    for game in games:
        await store.record_finished_game(game)
    await store.save_analysis("g0", fits)
    await store.save_analysis("g1", {**fits, "game": "milo"})
    await store.save_analysis("g2", {**fits, "seats": [{"seat": 2, "moves": [move]}]})
    past = {**move, "action": 4}
    await store.save_analysis("g3", {**fits, "seats": [{"seat": 1, "moves": [past]}]})
    assert list(await accuracies(store, games)) == ["g0"]
    assert await stored_analysis(store, games[0]) is not None
    assert [await stored_analysis(store, game) for game in games[1:]] == [None] * 3
    for problem in ("game must be 'cross'", "seats[0].seat must be below 2",
                    "seats[0].moves[0].action must be below 4"):  # fmt: skip
        assert problem in caplog.text


async def test_an_analysed_game_whose_record_no_longer_reads_is_passed_over(
    store: Repository,
) -> None:
    """A game listed in a member's history though its record was damaged since its
    analysis was stored (the store hands such a record back as its text): its analysis
    no longer fits it and is passed over; the page's other games keep theirs."""
    record = {"actions": [[0, "6-6"]] * 4}
    move = {
        "action": 3, "game_number": 1, "round_number": 1, "index": 3, "played": "6-5 N",
        "better": "6-5 N", "played_worth": 1.0, "better_worth": 1.0, "grade": "good",
    }  # fmt: skip
    for number in range(2):
        game = dataclasses.replace(at(f"g{number}", float(number), duel(5, 6)), record=record)
        await store.record_finished_game(game)
        await store.save_analysis(
            f"g{number}", {**ANALYSIS, "seats": [{"seat": 1, "moves": [move]}]}
        )

    async def damage(tx: Session) -> None:
        await tx.execute("UPDATE games SET record = '{\"actions\": [' WHERE id = 'g1'")

    await store.backend.write(damage)
    games, _ = await store.games_of(5, 10)
    assert list(await accuracies(store, games)) == ["g0"]
