"""The store's part for tournaments: rows by compare-and-swap on their version, the log of
what was done to each, and the tables each round opened; on both databases."""

from __future__ import annotations

import asyncio
import dataclasses
from contextlib import AsyncExitStack
from typing import Any

import pytest

from data import open_store
from data.backend import Session
from data.models import NewsRow, Told, TournamentRow
from data.repository import Repository, VersionConflict
from tests.data.databases import Database, count

STATE = {"format": "swiss", "rounds": 3, "entrants": [{"user_id": 5, "name": "Ann"}]}
"""A stand-in for the service's document: the store never looks inside it."""


def tournament(
    tournament_id: str = "0a1b2c3d",
    version: int = 1,
    status: str = "signup",
    guild_id: int = 10,
    created_at: float = 1.0,
    **changes: Any,
) -> TournamentRow:
    row = TournamentRow(
        id=tournament_id, guild_id=guild_id, channel_id=20, status=status, version=version,
        state={**STATE, "version": version}, due=50.0, created_at=created_at,
        updated_at=created_at + version,
    )  # fmt: skip
    return dataclasses.replace(row, **changes)


def action(kind: str, who: int = 1, **more: Any) -> dict[str, Any]:
    return {"kind": kind, "who": who, **more}


async def test_a_created_tournament_reads_back_as_it_was_written(store: Repository) -> None:
    row = tournament()
    await store.create_tournament(row, action("new"))
    assert await store.get_tournament(row.id) == row
    assert await store.get_tournament("ffffffff") is None
    assert [line["action"] for line in await store.tournament_log(row.id)] == [action("new")]


async def test_a_save_moves_the_row_on_and_logs_the_action(store: Repository) -> None:
    await store.create_tournament(tournament(), action("new"))
    running = tournament(version=2, status="running", due=None, channel_id=21)
    await store.save_tournament(running, 1, action("start"))
    assert await store.get_tournament(running.id) == running
    assert [line["version"] for line in await store.tournament_log(running.id)] == [1, 2]


async def test_save_is_compare_and_swap_on_the_version(store: Repository) -> None:
    """A second save from the same version is refused and writes nothing: no row, no log
    line, no table mapping."""
    await store.create_tournament(tournament(), action("new"))
    await store.save_tournament(tournament(version=2, status="running"), 1, action("start"))
    late = tournament(version=2, status="cancelled")
    with pytest.raises(VersionConflict):
        await store.save_tournament(late, 1, action("cancel"), tables=[("t1", 1, 0)])
    stored = await store.get_tournament("0a1b2c3d")
    assert stored is not None and (stored.version, stored.status) == (2, "running")
    assert await count(store, "tournament_log") == 2
    assert await count(store, "tournament_tables") == 0
    with pytest.raises(VersionConflict):
        await store.save_tournament(tournament("ffffffff", version=2), 1, action("start"))


async def test_two_processes_saving_the_same_version_exactly_one_wins(
    database: Database,
) -> None:
    """Two stores on one database, as two bot processes: the database alone lets one of
    them move the tournament on at each version."""
    async with AsyncExitStack() as stack:
        one = await stack.enter_async_context(await open_store(database.url))
        two = await stack.enter_async_context(await open_store(database.url))
        await one.create_tournament(tournament(), action("new"))
        for version in range(2, 12):
            results = await asyncio.gather(
                one.save_tournament(tournament(version=version), version - 1, action("by one")),
                two.save_tournament(tournament(version=version), version - 1, action("by two")),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["NoneType", "VersionConflict"]
        assert await count(one, "tournament_log") == 11


async def test_an_action_that_cannot_be_stored_leaves_the_previous_state(
    store: Repository,
) -> None:
    """The log line fails to serialize after the row was updated inside the transaction:
    the row and the round's tables are rolled back with it."""
    await store.create_tournament(tournament(), action("new"))
    with pytest.raises(TypeError):
        await store.save_tournament(
            tournament(version=2), 1, {"not json": object()}, tables=[("t1", 1, 0)]
        )
    stored = await store.get_tournament("0a1b2c3d")
    assert stored is not None and stored.version == 1
    assert await count(store, "tournament_tables") == 0
    assert await count(store, "tournament_log") == 1


async def test_open_tournaments_load_after_the_store_is_opened_again(
    database: Database,
) -> None:
    """What a restart resumes: the open tournaments (signing up, running, paused) with
    their states, deadlines and servers, not the finished or cancelled ones."""
    rows = [
        tournament("00000001", status="signup", created_at=1.0),
        tournament("00000002", status="running", created_at=2.0, guild_id=11),
        tournament("00000003", status="paused", created_at=3.0),
        tournament("00000004", status="finished", created_at=4.0),
        tournament("00000005", status="cancelled", created_at=5.0),
    ]
    async with await open_store(database.url) as store:
        for row in rows:
            await store.create_tournament(dataclasses.replace(row, status="signup"), action("new"))
            if row.status != "signup":
                moved = dataclasses.replace(row, version=2)
                await store.save_tournament(moved, 1, action(row.status))
    async with await open_store(database.url) as store:
        loaded = await store.load_open_tournaments()
        assert [(r.id, r.guild_id, r.status, r.due) for r in loaded] == [
            ("00000001", 10, "signup", 50.0),
            ("00000002", 11, "running", 50.0),
            ("00000003", 10, "paused", 50.0),
        ]
        assert loaded[1].state == {**STATE, "version": 1}
        closed = await store.get_tournament("00000004")
        assert closed is not None and closed.status == "finished"


async def test_a_rounds_tables_are_stored_with_their_tournament(database: Database) -> None:
    """The tables a save opens are stored with their tournament, round and place, and are
    still there after a restart; an action that opens none stores none."""
    async with await open_store(database.url) as store:
        await store.create_tournament(tournament("00000001"), action("new"))
        await store.create_tournament(tournament("00000002"), action("new"))
        round_one = [("ta", 1, 0), ("tb", 1, 1)]
        await store.save_tournament(tournament("00000001", version=2), 1, action("r1"), round_one)
        await store.save_tournament(
            tournament("00000002", version=2), 1, action("r1"), [("tc", 1, 0)]
        )
        await store.save_tournament(tournament("00000001", version=3), 2, action("pause"))
        await store.save_tournament(
            tournament("00000001", version=4), 3, action("r2"), [("td", 2, 0)]
        )
    async with await open_store(database.url) as store:

        async def mapped(tx: Session) -> list[tuple[str, str, int, int]]:
            rows = await tx.fetch(
                "SELECT tournament_id, table_id, round, position FROM tournament_tables"
                " ORDER BY tournament_id, round, position"
            )
            return [(r["tournament_id"], r["table_id"], r["round"], r["position"]) for r in rows]

        assert await store.backend.read(mapped) == [
            ("00000001", "ta", 1, 0), ("00000001", "tb", 1, 1), ("00000001", "td", 2, 0),
            ("00000002", "tc", 1, 0),
        ]  # fmt: skip


async def test_the_log_reads_back_in_the_order_it_was_written(store: Repository) -> None:
    """Oldest first, each line with its version and time; an organiser's adjustment keeps
    its reason. Another tournament's lines are not mixed in."""
    await store.create_tournament(tournament(), action("new"))
    await store.create_tournament(tournament("ffffffff"), action("new", who=9))
    adjust = action("adjust", table="ta", reason="the score was entered for the wrong seat")
    for version, done in enumerate([action("start"), adjust, action("finish")], start=2):
        await store.save_tournament(tournament(version=version), version - 1, done)
    log = await store.tournament_log("0a1b2c3d")
    assert [(line["version"], line["at"]) for line in log] == [(1, 2.0), (2, 3.0), (3, 4.0),
                                                               (4, 5.0)]  # fmt: skip
    assert [line["action"]["kind"] for line in log] == ["new", "start", "adjust", "finish"]
    assert log[2]["action"] == adjust
    assert [line["action"]["who"] for line in await store.tournament_log("ffffffff")] == [9]
    assert await store.tournament_log("00000000") == []


async def test_a_state_that_is_not_json_is_handed_back_as_its_text(store: Repository) -> None:
    """A damaged row (written by hand, or half by a faulty release) loads beside the
    others, its state as the stored text: the service judges it, and can still save it
    over, since the version is intact."""
    await store.create_tournament(tournament("00000001"), action("new"))
    await store.create_tournament(tournament("00000002", created_at=2.0), action("new"))

    async def damage(tx: Session) -> None:
        await tx.execute("UPDATE tournaments SET state = '{\"rounds\": [1, 2' WHERE id = ?",
                         ("00000001",))  # fmt: skip
        await tx.execute(
            "UPDATE tournament_log SET action = 'not json' WHERE tournament_id = ?",
            ("00000001",),
        )

    await store.backend.write(damage)
    damaged, sound = await store.load_open_tournaments()
    assert damaged.state == '{"rounds": [1, 2'
    assert sound.state == {**STATE, "version": 1}
    assert await store.get_tournament("00000001") == damaged
    assert [line["action"] for line in await store.tournament_log("00000001")] == ["not json"]
    set_aside = dataclasses.replace(damaged, version=2, status="cancelled")
    await store.save_tournament(set_aside, 1, action("unreadable", who=0))
    assert [r.id for r in await store.load_open_tournaments()] == ["00000002"]


async def test_news_is_kept_with_the_change_it_tells_and_read_back_in_order(
    database: Database,
) -> None:
    """Each piece at the version of its change, in the order told, with the tournament
    as it stood then (the row moves on) and the change's time; the tournaments oldest
    first; after the store is opened again, as a start reads them."""
    adjustment = {"result": [1, 0, [[5], [6]], [1, 2], [10, 3]], "reason": "misread"}
    async with await open_store(database.url) as store:
        await store.create_tournament(tournament(), action("new"), [Told("created")])
        await store.create_tournament(tournament("ffffffff", created_at=0.5, guild_id=11),
                                      action("new"), [Told("created")])  # fmt: skip
        await store.save_tournament(
            tournament(version=2), 1, action("result"), news=[Told("result"), Told("round-over")]
        )
        await store.save_tournament(tournament(version=3), 2, action("tables"))  # tells nothing
        await store.save_tournament(tournament(version=4), 3, action("adjust"),
                                    news=[Told("adjusted", (7,), adjustment)])  # fmt: skip
    async with await open_store(database.url) as store:
        unposted = await store.unposted_news()
        assert [(n.tournament_id, n.version, n.ordinal, n.told.what) for n in unposted] == [
            ("ffffffff", 1, 0, "created"),
            ("0a1b2c3d", 1, 0, "created"), ("0a1b2c3d", 2, 0, "result"),
            ("0a1b2c3d", 2, 1, "round-over"), ("0a1b2c3d", 4, 0, "adjusted"),
        ]  # fmt: skip
        assert unposted[-1] == NewsRow(
            "0a1b2c3d", 10, 4, 0, Told("adjusted", (7,), adjustment),
            {**STATE, "version": 4}, 5.0,
        )  # fmt: skip
        assert unposted[2].state == {**STATE, "version": 2}, "as it stood at its version"
        assert [n.tournament_id for n in await store.unposted_news(lambda guild: guild == 11)] \
            == ["ffffffff"], "a shard's servers only"  # fmt: skip


async def test_a_change_not_stored_keeps_no_news(store: Repository) -> None:
    """A save refused on its version, or failing within its transaction, leaves no news
    of a change that never was."""
    await store.create_tournament(tournament(), action("new"))
    await store.save_tournament(tournament(version=2), 1, action("start"))
    with pytest.raises(VersionConflict):
        await store.save_tournament(tournament(version=2), 1, action("cancel"),
                                    news=[Told("cancelled")])  # fmt: skip
    with pytest.raises(TypeError):
        await store.save_tournament(tournament(version=3), 2, {"not json": object()},
                                    news=[Told("paused")])  # fmt: skip
    assert await store.unposted_news() == []
    assert await count(store, "tournament_news") == 0


async def test_news_marked_posted_or_given_up_is_not_read_again(store: Repository) -> None:
    """Marked, a piece is done with (once: a second mark changes nothing) and keeps no
    copy of the state; why one was given up is kept."""
    await store.create_tournament(tournament(), action("new"), [Told("created")])
    await store.save_tournament(tournament(version=2), 1, action("pause"),
                                news=[Told("paused"), Told("absent", (5,))])  # fmt: skip
    await store.news_posted("0a1b2c3d", 1, 0, 10.0)
    await store.news_posted("0a1b2c3d", 2, 0, 11.0, given_up="forbidden")
    await store.news_posted("0a1b2c3d", 2, 0, 12.0)
    assert [(n.version, n.ordinal) for n in await store.unposted_news()] == [(2, 1)]

    async def marks(tx: Session) -> list[tuple[Any, ...]]:
        rows = await tx.fetch("SELECT version, ordinal, posted_at, given_up, state"
                              " FROM tournament_news ORDER BY version, ordinal")  # fmt: skip
        return [tuple(r[k] for k in ("version", "ordinal", "posted_at", "given_up", "state"))
                for r in rows]  # fmt: skip

    [created, paused, absent] = await store.backend.read(marks)
    assert created == (1, 0, 10.0, None, None)
    assert paused == (2, 0, 11.0, "forbidden", None)
    assert absent[2:4] == (None, None) and absent[4] is not None


async def test_a_piece_of_news_that_does_not_read_back_keeps_no_other_from_being_read(
    store: Repository,
) -> None:
    """A hand-edited or half-written piece (whom it is about is no list of ids): it is
    handed back marked unreadable, with what it told, and the others read as stored."""
    await store.create_tournament(tournament("00000001"), action("new"), [Told("created")])
    await store.create_tournament(
        tournament("00000002", created_at=2.0), action("new"), [Told("created", (7,))]
    )

    async def damage(tx: Session) -> None:
        await tx.execute(
            "UPDATE tournament_news SET about = '[1, 2' WHERE tournament_id = '00000001'"
        )

    await store.backend.write(damage)
    damaged, sound = await store.unposted_news()
    assert (damaged.tournament_id, damaged.told.what, damaged.readable) == (
        "00000001", "created", False
    )  # fmt: skip
    assert (sound.told, sound.readable) == (Told("created", (7,)), True)
