"""The snapshot the faces read: every field of the table's state at one version, which
nothing changes — not the table moving on, not a face writing to it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.commands import AddComputer, ComputerMove, Join, Start, Timeout
from bot.engine import Options, find_variant
from bot.snapshot import TableSnapshot
from bot.table import Seat, Table, TableState

HOST, ANN = 1, 2


def playing() -> Table:
    table = Table("t1", 10, 20, HOST, "cross", Options.for_game(find_variant("cross"), 4), 7)
    table.apply(Join(HOST, "Host"))
    table.apply(Join(ANN, "Ann"))
    table.apply(AddComputer(HOST, "easy"))
    table.apply(Start(HOST))
    return table


def test_a_snapshot_shows_every_field_of_the_tables_state() -> None:
    table = playing()
    snapshot = TableSnapshot.of(table)
    for field in dataclasses.fields(TableState):
        assert getattr(snapshot, field.name) == getattr(table, field.name), field.name
    assert snapshot.view is not None and snapshot.view.turn == snapshot.turn == table.turn


def test_a_snapshot_stays_as_it_was_when_the_table_moves_on() -> None:
    """A cog holding a snapshot across an ``await`` keeps one consistent version."""
    table = playing()
    assert table.match is not None
    while table.computer_to_move:
        table.apply(ComputerMove(table.match.legal_moves()[0]))
    snapshot = TableSnapshot.of(table)
    before = (snapshot.version, snapshot.seats, snapshot.turn, snapshot.view)
    table.apply(Timeout(table.match.legal_moves()[0]))  # the member's seat times out
    assert table.version > snapshot.version and table.seats != snapshot.seats
    assert (snapshot.version, snapshot.seats, snapshot.turn, snapshot.view) == before


def test_a_face_cannot_change_a_snapshot_nor_its_seats() -> None:
    snapshot = TableSnapshot.of(playing())
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.status = snapshot.status
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.seats[0].away = True  # type: ignore[misc]
    assert isinstance(snapshot.seats, tuple) and isinstance(snapshot.seats[0], Seat)


def test_a_tables_stored_form_holds_every_field() -> None:
    """A field left out of :meth:`Table.to_dict` would come back as its default after a
    restart."""
    table = playing()
    assert set(table.to_dict()) == {field.name for field in dataclasses.fields(Table)}
