"""Forget-me in an ended tournament's news and log: whom each piece of news is about
and an organiser's adjustment, posted or not, and the log lines of a member its state
never named (a moderator who paused it). Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import json

from bot.tournaments.model import adjustment_to_json
from bot.tournaments.results import Adjustment, Result
from data.backend import Row, Session
from data.models import Told
from data.repository import Repository
from tests.data.test_forget_in_tournaments import ANN, BOB, CAT, LOG, ended, row, stored

STAFF = 1_100_000_000_000_000_077
"""A server's moderator (Manage Server), not the tournament's creator nor a player."""


async def _all_news(store: Repository) -> list[Row]:
    async def query(tx: Session) -> list[Row]:
        return await tx.fetch(
            "SELECT version, ordinal, what, about, adjustment, posted_at FROM tournament_news"
            " ORDER BY version, ordinal"
        )

    return await store.backend.read(query)


async def test_posted_news_of_an_ended_tournament_names_the_forgotten_member_no_more(
    store: Repository,
) -> None:
    """Cat's drop was posted (as every piece is, moments after it is stored); the
    tournament ended; Cat asks to be forgotten and is told the ended tournament no
    longer names her: nor does its news, posted or not."""
    tournament = ended("00000001")
    await stored(store, tournament)
    done = dataclasses.replace(row(tournament), version=len(LOG) + 1)
    await store.save_tournament(done, len(LOG), {"kind": "finish"},
                                news=[Told("dropped", (CAT,)), Told("finished")])  # fmt: skip
    await store.news_posted("00000001", len(LOG) + 1, 0, at=5.0)
    await store.news_posted("00000001", len(LOG) + 1, 1, at=5.0)
    gone = await store.forget(CAT)
    assert gone.tournaments == 1, "she is told the ended tournament no longer names her"
    for news in await _all_news(store):
        assert CAT not in json.loads(news["about"]), news["what"]


async def test_an_adjustment_in_news_names_the_forgotten_member_no_more(
    store: Repository,
) -> None:
    """An organiser's adjustment, kept with its news: its result names the member,
    and is rewritten as the piece's ``about`` and ``state`` are."""
    tournament = ended("00000002")
    await stored(store, tournament)
    result = Result(1, 0, ((ANN,), (BOB,)), (1, 2), (10, 4))
    adjusted = adjustment_to_json(Adjustment(result, "a misdeal"))
    done = dataclasses.replace(row(tournament), version=len(LOG) + 1)
    await store.save_tournament(done, len(LOG), {"kind": "finish"},
                                news=[Told("adjusted", (CAT,), adjusted)])  # fmt: skip
    await store.forget(BOB)
    [piece] = [n for n in await _all_news(store) if n["what"] == "adjusted"]
    assert str(BOB) not in piece["adjustment"], piece["adjustment"]


async def test_an_organisers_log_lines_in_an_ended_tournament_name_them_no_more(
    store: Repository,
) -> None:
    """A moderator (not the creator, not a player) paused and resumed a tournament that
    has since ended: their forget-me takes their id out of its log too, though its
    state never named them."""
    tournament = ended("00000003")
    await stored(store, tournament)
    version = len(LOG)
    for line in ({"kind": "pause", "by": STAFF}, {"kind": "resume", "by": STAFF}):
        version += 1
        await store.save_tournament(
            dataclasses.replace(row(tournament), version=version), version - 1, line
        )
    await store.forget(STAFF)
    log = await store.tournament_log("00000003")
    assert all(STAFF not in list(line["action"].values()) for line in log), log


async def test_privacy_counts_the_tournaments_that_name_a_member_until_forgotten(
    store: Repository,
) -> None:
    """``/domino privacy`` says how many tournaments name the member (entered, or run:
    a moderator's log lines), and none once forget-me has made them anonymous."""
    tournament = ended("00000004")
    await stored(store, tournament)
    version = len(LOG) + 1
    await store.save_tournament(
        dataclasses.replace(row(tournament), version=version), version - 1,
        {"kind": "pause", "by": STAFF},
    )  # fmt: skip
    assert (await store.stored_about(CAT)).tournaments == 1
    assert (await store.stored_about(STAFF)).tournaments == 1
    assert (await store.stored_about(STAFF + 1)).tournaments == 0, "a member it never named"
    await store.forget(CAT)
    await store.forget(STAFF)
    assert (await store.stored_about(CAT)).tournaments == 0
    assert (await store.stored_about(STAFF)).tournaments == 0
