"""The table as a state machine: lobby, turns, refusals that change nothing, timeouts."""

from __future__ import annotations

import json
import random
from typing import Unpack

import pytest

from bot.commands import (
    AddComputer,
    Cancel,
    ComeBack,
    ComputerMove,
    Join,
    Leave,
    MoreTime,
    Play,
    Start,
    Timeout,
)
from bot.engine import DRAW, PASS, Move, Options, find_variant
from bot.events import Away, Back, GameOver, Moved
from bot.refusals import (
    AlreadySeated,
    HostOnly,
    HostOrManagerOnly,
    MoveRefused,
    NoMoreTime,
    NotSeated,
    NotStarted,
    NotYourTurn,
    SeatedOnly,
    StaleVersion,
    TableFull,
    UnknownLevel,
    WrongPlayerCount,
)
from bot.service.rows import finished_game
from bot.table import AWAY_AFTER_TIMEOUTS, Status, Table
from tests.engine.builders import OptionKeywords

HOST, ANN, BOB, CAT = 1, 2, 3, 4


def lobby(game: str = "cross", **options: Unpack[OptionKeywords]) -> Table:
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
    table.apply(Join(HOST, "Host"))
    return table


def test_lobby_seats_fill_up_and_a_full_table_refuses() -> None:
    table = lobby()
    table.apply(Join(ANN, "Ann"))
    table.apply(AddComputer(HOST, "easy"))
    table.apply(Join(BOB, "Bob"))
    assert [s.name for s in table.seats] == ["Host", "Ann", "Computer 1 (easy)", "Bob"]
    with pytest.raises(TableFull) as refused:
        table.apply(Join(CAT, "Cat"))
    assert refused.value.seats == 4


def test_refused_actions_change_nothing_and_say_why() -> None:
    table = lobby()
    table.apply(Join(ANN, "Ann"))
    before = table.to_dict()
    for command, why in (
        (Join(ANN, "Ann"), AlreadySeated),
        (Leave(BOB), NotSeated),
        (Start(ANN), HostOnly),
        (AddComputer(BOB, "hard"), SeatedOnly),
        (AddComputer(ANN, "godlike"), UnknownLevel),
        (Cancel(ANN), HostOrManagerOnly),
    ):
        with pytest.raises(why):
            table.apply(command)
        assert table.to_dict() == before


def test_start_needs_an_allowed_number_of_players() -> None:
    table = lobby("milo")
    table.apply(Join(ANN, "Ann"))
    with pytest.raises(WrongPlayerCount) as refused:
        table.apply(Start(HOST))
    assert (refused.value.allowed, refused.value.seated) == ((4,), 2)
    table.apply(AddComputer(HOST, "normal"))
    table.apply(AddComputer(ANN, "hard"))
    table.apply(Start(HOST))
    assert table.status is Status.PLAYING and table.match is not None


def playing() -> Table:
    table = lobby()
    table.apply(Join(ANN, "Ann"))
    table.apply(Start(HOST))
    return table


def test_only_the_seat_to_move_may_play_and_a_bad_move_changes_nothing() -> None:
    table = playing()
    assert table.match is not None
    mover = [HOST, ANN][table.turn or 0]
    other = ANN if mover == HOST else HOST
    before = table.to_dict()
    with pytest.raises(NotYourTurn) as refused:
        table.apply(Play(other, table.match.legal_moves()[0]))
    assert refused.value.seat == table.turn
    not_mine = table.match.round.hand(table.seat_of(other) or 0)[0]
    with pytest.raises(MoveRefused, match=f"{not_mine} is not in your hand"):
        table.apply(Play(mover, Move.parse(str(not_mine))))
    with pytest.raises(NotSeated):
        table.apply(Play(CAT, DRAW))
    assert table.to_dict() == before


def test_a_stale_version_is_refused() -> None:
    table = playing()
    seen = table.version
    mover = [HOST, ANN][table.turn or 0]
    assert table.match is not None
    table.apply(Play(mover, table.match.legal_moves()[0]))
    with pytest.raises(StaleVersion):
        table.check_version(seen)


def test_three_timeouts_in_a_row_make_a_seat_away_until_its_owner_acts() -> None:
    table = playing()
    assert table.match is not None
    seat = table.seat_of(ANN) or 0
    events: list[object] = []
    while table.seats[seat].timeouts < AWAY_AFTER_TIMEOUTS:
        move = table.match.legal_moves()[0]
        if table.seat_to_move() == seat:
            assert not table.seats[seat].away
            events += table.apply(Timeout(move))
        else:
            table.apply(Play(HOST, move))
    assert table.seats[seat].away and sum(isinstance(e, Away) for e in events) == 1
    assert table.apply(ComeBack(ANN)) == [Back(seat)]
    assert not table.seats[seat].away and table.seats[seat].timeouts == 0


def test_more_time_is_refused_for_a_turn_the_computer_plays_and_in_the_lobby() -> None:
    """An away seat's turn is the computer's: more time there would only hold the table
    up (its member comes back instead); a lobby has no clock to add to."""
    with pytest.raises(NotStarted):
        lobby().apply(MoreTime(HOST))
    table = playing()
    assert table.match is not None
    seat = table.seat_of(ANN) or 0
    while not table.seats[seat].away or table.seat_to_move() != seat:
        move = table.match.legal_moves()[0]
        if table.seat_to_move() == seat and not table.seats[seat].away:
            table.apply(Timeout(move))
        else:
            table.apply(ComputerMove(move) if table.seat_to_move() == seat else Play(HOST, move))
    version = table.version
    with pytest.raises(NoMoreTime) as refused:
        table.apply(MoreTime(ANN))
    assert refused.value.used is None and table.version == version


def test_more_time_counts_afresh_in_a_matchs_next_game() -> None:
    """Ten times a game: in a match of several games, each game gives its own."""
    table = lobby("milo", target=1, match_games=2)
    for user, name in ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")):
        table.apply(Join(user, name))
    table.apply(Start(HOST))
    assert table.match is not None
    while table.match.game_number == 1:
        mover = table.seats[table.seat_to_move()]
        assert mover.user_id is not None
        if mover.more_time == 0:
            table.apply(MoreTime(mover.user_id))
        table.apply(Play(mover.user_id, table.match.legal_moves()[0]))
    assert [seat.more_time for seat in table.seats] == [0, 0, 0, 0]


def test_the_moves_the_computer_made_in_a_members_seat_are_kept_to_the_games_end() -> None:
    """The coach grades a member's own moves only (README, "The coach"): the table keeps
    the index in the record's actions of each move the computer made in a member's seat
    (a timeout's, then every one while the seat is away), with its stored state, and
    the finished game carries them. A member's own moves, the host's, the moves the
    rules forced and a computer seat's own are not among them."""
    table = lobby()
    table.apply(Join(ANN, "Ann"))
    table.apply(AddComputer(HOST, "easy"))
    table.apply(Start(HOST))
    assert table.match is not None
    ann = table.seat_of(ANN)
    assert ann is not None
    stood_in: list[int] = []
    own = computers = 0
    while table.status is Status.PLAYING:
        seat, move = table.seat_to_move(), table.match.legal_moves()[0]
        made = len(table.match.actions)  # the index this move will have in the record
        if seat != ann:
            user = table.seats[seat].user_id
            table.apply(ComputerMove(move) if user is None else Play(user, move))
            computers += user is None
        elif len(stood_in) < AWAY_AFTER_TIMEOUTS:
            table.apply(Timeout(move))
            stood_in.append(made)
        elif len(stood_in) < AWAY_AFTER_TIMEOUTS + 2:
            assert table.seats[ann].away
            table.apply(ComputerMove(move))
            stood_in.append(made)
            if len(stood_in) == AWAY_AFTER_TIMEOUTS + 2:
                table.apply(ComeBack(ANN))
        else:
            table.apply(Play(ANN, move))
            own += 1
        assert list(table.stood_in) == stood_in
        assert Table.from_dict(json.loads(json.dumps(table.to_dict()))).stood_in == tuple(stood_in)
    assert own and computers, "Ann played her own moves too, and the computer its seat's"
    assert finished_game(table, 1.0).stood_in == tuple(stood_in)
    record = table.match.record()["actions"]
    assert {record[index][0] for index in stood_in} == {ann}


def test_the_whole_game_can_be_played_and_ends_finished() -> None:
    table = playing()
    assert table.match is not None
    events = []
    while table.status is Status.PLAYING:
        seat = table.seat_to_move()
        user = table.seats[seat].user_id
        assert user is not None
        events += table.apply(Play(user, table.match.legal_moves()[0]))
    assert table.status is Status.FINISHED
    assert isinstance(events[-1], GameOver) and any(isinstance(e, Moved) for e in events)
    assert Table.from_dict(table.to_dict()).to_dict() == table.to_dict()


@pytest.mark.parametrize("game", ["cross", "maltese-cross", "merry-go-round", "milo"])
def test_no_click_is_asked_for_that_could_only_be_one_move(game: str) -> None:
    """R-CR-5, R-MC-3, R-MG-5, R-MI-4: the draws until a tile fits (Merry-Go-Round), the
    pass when the tile drawn fits nowhere and the pass of a seat that can neither play
    nor draw are made in the action that led to them, each a move in the round's history;
    a turn's first draw is still its player's own. Played at random, each seat always
    left with a choice or a first draw to make."""
    followed: dict[Move, int] = {DRAW: 0, PASS: 0}
    for seed in range(40):
        table = lobby(game)
        table.apply(Join(ANN, "Ann"))
        table.apply(Join(BOB, "Bob"))
        if game == "milo":
            table.apply(Join(CAT, "Cat"))
        table.seed = seed
        table.apply(Start(HOST))
        chooser = random.Random(seed)
        while table.status is Status.PLAYING:
            assert table.match is not None
            legal = table.match.legal_moves()
            assert table.match.forced_move() is None and legal != (PASS,)
            seat = table.seat_to_move()
            member = table.seats[seat].user_id
            assert member is not None
            tiles = [m for m in legal if m.tile is not None]
            move = chooser.choice(tiles) if tiles else legal[0]
            round_ = table.match.round
            history = len(round_.history)
            events = table.apply(Play(member, move))
            made = [(e.seat, e.move) for e in events if isinstance(e, Moved)]
            assert made[0] == (seat, move) and len(made) == len(round_.history) - history
            for _, forced in made[1:]:
                followed[forced] += 1
    assert followed[PASS] and (followed[DRAW] or game != "merry-go-round")
