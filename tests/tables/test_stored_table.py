"""A table as the store keeps it (the ``state`` of its row): the JSON earlier releases
wrote is still what is written, and what they wrote still loads, so a restart after an
upgrade resumes every open table as it was."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import pytest

from bot import table as tables
from bot.commands import Join, Start
from bot.engine import Options, find_variant
from bot.stored import stored_fields
from bot.table import Seat, Status, Table

STORED: dict[str, Any] = {
    "id": "t2",
    "guild_id": 10,
    "channel_id": 20,
    "host_id": 1,
    "game": "milo",
    "options": {"target": 5, "keep_last_two": False, "match_games": 1},
    "seed": 7,
    "seats": [
        {"name": "Host", "user_id": 1, "level": None, "timeouts": 0, "away": False},
        {"name": "Ann", "user_id": 2, "level": None, "timeouts": 2, "away": True},
        {
            "name": "Computer 1 (hard)",
            "user_id": None,
            "level": "hard",
            "timeouts": 0,
            "away": False,
        },
    ],
    "status": "playing",
    "version": 9,
    "match": None,
    "deadline": 1000.5,
    "hints": True,
    "rematch_of": "t1-40",
    "invited": [3],
    "series": [2, 1],
    "lineup": ["u1", "u3", "c0"],
}
"""A table's state as earlier releases stored it (every field set; the match is the
engine's own stored form, tested with the engine)."""
SHOWN_IN_STATE = {**STORED, "message_id": 555, "announced_version": 8}
"""As releases stored it while what the Discord face had shown was the table's own."""

TABLE = Table(
    "t2",
    10,
    20,
    1,
    "milo",
    Options(target=5, keep_last_two=False, match_games=1),
    7,
    seats=(
        Seat("Host", user_id=1),
        Seat("Ann", user_id=2, timeouts=2, away=True),
        Seat("Computer 1 (hard)", level="hard"),
    ),
    status=Status.PLAYING,
    version=9,
    deadline=1000.5,
    hints=True,
    rematch_of="t1-40",
    invited=(3,),
    series=(2, 1),
    lineup=("u1", "u3", "c0"),
)


def test_a_table_is_stored_as_earlier_releases_stored_it_and_read_back_whole() -> None:
    # What they stored, and the fields added since (for a tournament's tables; whether
    # its members may take more time, as they could before it was a setting; the moves
    # the computer chose in a member's seat, none before they were kept; the names of
    # those it names unseated, none before they were kept).
    assert TABLE.to_dict() == {
        **STORED,
        "rated": True,
        "tournament": None,
        "more_time": True,
        "stood_in": [],
        "unseated": [],
    }
    assert Table.from_dict(json.loads(json.dumps(STORED))) == TABLE


def test_more_time_taken_is_stored_and_a_seat_reads_past_fields_it_does_not_know() -> None:
    """A seat's more time is written once taken (a seat that took none is stored as the
    release before wrote it, which that release still reads); a field a later release
    adds to a seat is passed over, so a rollback's tables still load."""
    seat = Seat("Ann", user_id=2, more_time=3)
    assert seat.to_dict()["more_time"] == 3
    assert Seat.from_dict({**seat.to_dict(), "added_later": True}) == seat


def test_a_table_stored_with_what_its_channel_showed_loads_without_it() -> None:
    """What a face has shown is the face's, kept apart (``table_faces``): the keys an
    earlier release wrote into the table's state are read past."""
    assert Table.from_dict(json.loads(json.dumps(SHOWN_IN_STATE))) == TABLE
    assert "message_id" not in TABLE.to_dict() and "announced_version" not in TABLE.to_dict()


def test_a_game_under_way_is_read_back_where_it_was() -> None:
    variant = find_variant("cross")
    table = Table("t1", 10, 20, 1, "cross", Options.for_game(variant, 2), 7)
    table.apply(Join(1, "Host"))
    table.apply(Join(2, "Ann"))
    table.apply(Start(1))
    read = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert read.match is not None and table.match is not None
    assert read.match.view() == table.match.view()
    assert read.legal_for(1) == table.legal_for(1) and read.legal_for(2) == table.legal_for(2)


def test_a_table_stored_before_its_later_fields_loads_as_it_then_was() -> None:
    """A row from a release that stored neither hints, rematches nor series: the game is
    rated, and it is no rematch."""
    old = {
        key: value
        for key, value in STORED.items()
        if key not in ("hints", "rematch_of", "invited", "series", "lineup")
    }
    table = Table.from_dict(old)
    assert table.version == 9
    assert not table.hints
    assert (table.rematch_of, table.invited, table.series, table.lineup) == (None, (), (), ())
    assert table.seats == TABLE.seats and table.status is Status.PLAYING


def test_the_names_of_members_named_without_a_seat_are_stored_beside_their_ids() -> None:
    """As ``[id, name]`` rows, which forget-me finds by the id (``data.privacy``)."""
    kept = replace(TABLE, invited=(3, 4), unseated=((3, "Cy"), (4, "Di")))
    assert kept.to_dict()["unseated"] == [[3, "Cy"], [4, "Di"]]
    assert Table.from_dict(json.loads(json.dumps(kept.to_dict()))) == kept


@pytest.mark.parametrize("missing", ["id", "guild_id", "game", "seed", "version"])
def test_a_stored_table_without_what_makes_it_is_refused_not_half_loaded(missing: str) -> None:
    """The service sets such a row aside (its channel is free again) on a KeyError."""
    with pytest.raises(KeyError):
        Table.from_dict({key: value for key, value in STORED.items() if key != missing})


def test_a_table_field_with_no_stored_form_is_refused_not_dropped() -> None:
    """A new field of a type the stored form does not know would come back as its
    default after every restart: it is refused when the module loads instead."""

    @dataclass
    class Grown(Table):
        watchers: frozenset[int] = frozenset()

    with pytest.raises(TypeError, match=r"Grown\.watchers"):
        stored_fields(Grown, tables._FORMS)
