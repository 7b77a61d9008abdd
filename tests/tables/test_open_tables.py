"""The open tables' indexes: found by channel and by member without walking them all,
and the clock's heap gives each due turn once, and none of a table that moved on."""

from __future__ import annotations

import dataclasses

from bot.commands import Join
from bot.engine import Options, find_variant
from bot.service.open_tables import OpenTables
from bot.table import Status, Table


def table(table_id: str, channel: int, *members: int, deadline: float | None = None) -> Table:
    variant = find_variant("cross")
    new = Table(table_id, 1, channel, members[0], "cross", Options.for_game(variant, 4), 7)
    for member in members:
        new.apply(Join(member, f"m{member}"))
    new.deadline = deadline
    return new


def test_tables_are_found_by_channel_and_by_member_and_forgotten_when_closed() -> None:
    tables = OpenTables()
    tables.put(table("a", 10, 1, 2))
    tables.put(table("b", 20, 3))
    assert tables.in_channel(10).id == "a" and tables.of_member(1, 2).id == "a"  # type: ignore[union-attr]
    moved = dataclasses.replace(tables["a"], channel_id=30, seats=tables["a"].seats[:1])
    tables.put(moved)
    assert tables.in_channel(10) is None and tables.in_channel(30) is moved
    assert tables.of_member(1, 2) is None, "a member who left is no longer found there"
    tables.put(dataclasses.replace(moved, status=Status.CANCELLED))
    assert "a" not in tables and tables.in_channel(30) is None and tables.of_member(1, 1) is None
    assert len(tables) == 1


def test_the_clock_gives_each_due_turn_once_and_skips_tables_that_moved_on() -> None:
    tables = OpenTables()
    early, late = table("a", 10, 1, deadline=5.0), table("b", 20, 2, deadline=9.0)
    tables.put(early)
    tables.put(late)
    assert tables.next_wake() == 5.0 and tables.due(4.0) == []
    assert tables.due(5.0) == [("a", early.version, False)]
    assert tables.due(5.0) == [], "given out once"
    tables.put(dataclasses.replace(late, version=late.version + 1, deadline=12.0))
    assert tables.next_wake() == 12.0, "the older turn of b is skipped"
    assert tables.due(20.0) == [("b", late.version + 1, False)]
    assert tables.next_wake() is None
