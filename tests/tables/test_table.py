"""The table as a state machine: lobby, turns, refusals that change nothing, timeouts."""

from __future__ import annotations

import pytest

from bot.engine import Options, find_variant
from bot.table import (
    AWAY,
    AWAY_AFTER_TIMEOUTS,
    BACK,
    GAME_OVER,
    MOVED,
    StaleVersion,
    Status,
    Table,
    TableError,
)

HOST, ANN, BOB, CAT = 1, 2, 3, 4


def lobby(game: str = "cross", **options: int) -> Table:
    variant = find_variant(game)
    table = Table(
        id="t1",
        guild_id=10,
        channel_id=20,
        host_id=HOST,
        game=game,
        options=Options.for_game(variant, max(variant.player_counts), **options),
        seed=7,
    )
    table.join(HOST, "Host")
    return table


def test_lobby_seats_fill_up_and_a_full_table_refuses() -> None:
    table = lobby()
    table.join(ANN, "Ann")
    table.add_computer(HOST, "easy")
    table.join(BOB, "Bob")
    assert [s.name for s in table.seats] == ["Host", "Ann", "Computer 1 (easy)", "Bob"]
    with pytest.raises(TableError, match=r"the table is full \(4 seats\)"):
        table.join(CAT, "Cat")


def test_refused_actions_change_nothing() -> None:
    table = lobby()
    table.join(ANN, "Ann")
    before = table.to_dict()
    for refused in (
        lambda: table.join(ANN, "Ann"),
        lambda: table.leave(BOB),
        lambda: table.start(ANN),
        lambda: table.add_computer(BOB, "hard"),
        lambda: table.add_computer(ANN, "godlike"),
        lambda: table.cancel(ANN),
    ):
        with pytest.raises(TableError):
            refused()
        assert table.to_dict() == before


def test_start_needs_an_allowed_number_of_players() -> None:
    table = lobby("milo")
    table.join(ANN, "Ann")
    with pytest.raises(TableError, match="Milo needs 4 players; 2 seated"):
        table.start(HOST)
    table.add_computer(HOST, "normal")
    table.add_computer(ANN, "hard")
    table.start(HOST)
    assert table.status is Status.PLAYING and table.match is not None


def playing() -> Table:
    table = lobby()
    table.join(ANN, "Ann")
    table.start(HOST)
    return table


def test_only_the_seat_to_move_may_play_and_a_bad_move_changes_nothing() -> None:
    table = playing()
    assert table.match is not None
    mover = [HOST, ANN][table.turn or 0]
    other = ANN if mover == HOST else HOST
    before = table.to_dict()
    with pytest.raises(TableError, match="turn, not yours"):
        table.play(other, table.match.legal_moves()[0])
    not_mine = table.match.round.hand(table.seat_of(other) or 0)[0]
    with pytest.raises(TableError, match=f"{not_mine} is not in your hand"):
        table.play(mover, str(not_mine))
    with pytest.raises(TableError, match="not playing at this table"):
        table.play(CAT, "draw")
    assert table.to_dict() == before


def test_a_stale_version_is_refused() -> None:
    table = playing()
    seen = table.version
    mover = [HOST, ANN][table.turn or 0]
    assert table.match is not None
    table.play(mover, table.match.legal_moves()[0])
    with pytest.raises(StaleVersion, match="moved on"):
        table.check_version(seen)


def test_three_timeouts_in_a_row_make_a_seat_away_until_its_owner_acts() -> None:
    table = playing()
    assert table.match is not None
    ann = table.seats[table.seat_of(ANN) or 0]
    kinds: list[str] = []
    while ann.timeouts < AWAY_AFTER_TIMEOUTS:
        move = table.match.legal_moves()[0]
        if table.seats[table.seat_to_move()] is ann:
            assert not ann.away
            kinds += [e.kind for e in table.timeout(move)]
        else:
            table.play(HOST, move)
    assert ann.away and kinds.count(AWAY) == 1
    assert [e.kind for e in table.come_back(ANN)] == [BACK]
    assert not ann.away and ann.timeouts == 0


def test_the_whole_game_can_be_played_and_ends_finished() -> None:
    table = playing()
    assert table.match is not None
    events = []
    while table.status is Status.PLAYING:
        seat = table.seat_to_move()
        user = table.seats[seat].user_id
        assert user is not None
        events += table.play(user, table.match.legal_moves()[0])
    assert table.status is Status.FINISHED
    assert events[-1].kind == GAME_OVER and any(e.kind == MOVED for e in events)
    assert Table.from_dict(table.to_dict()).to_dict() == table.to_dict()
