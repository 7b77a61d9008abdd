"""The coach grades a seat's moves by the expert's own search from that seat's view: it
finds a move that gives a round away, agrees with the expert's choices, never reads
another seat's hidden tiles, leaves forced moves alone, gives the same analysis every
time, and stores it in a form it reads back strictly."""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine import Match, Move, ReplayError, SeatView
from bot.players import computer_player
from bot.players.coach import (
    BUDGET,
    SCALES,
    Analysis,
    Grade,
    InvalidAnalysis,
    JudgedMove,
    SeatAnalysis,
    Unit,
    analyse,
    weigh,
)
from bot.players.expert import TREES, ExpertPlayer

SMALL = 0.05
"""A twentieth of the expert's work a move: enough for the positions below."""

BLUNDER_DEAL = {
    "hands": [
        ["2-0", "4-2", "4-4", "5-3", "6-0", "6-2", "6-4"],
        ["1-0", "1-1", "3-1", "3-3", "5-2", "6-1", "6-6"],
        ["2-1", "2-2", "3-2", "4-0", "4-3", "5-0", "6-5"],
        ["0-0", "3-0", "4-1", "5-1", "5-4", "5-5", "6-3"],
    ],
    "boneyard": [],
    "leader": None,
}
BLUNDER_ACTIONS = [
    [1, "6-6"], [2, "6-5 L"], [3, "5-5 L"], [0, "6-4 R"], [1, "5-2 L"], [2, "2-2 L"],
    [3, "5-4 R"], [0, "5-3 R"], [1, "3-3 R"], [2, "4-3 R"], [3, "4-1 R"], [0, "6-2 L"],
    [1, "6-1 L"], [2, "2-1 R"], [3, "5-1 L"], [0, "4-2 R"], [1, "pass"], [2, "5-0 L"],
    [3, "0-0 L"], [0, "4-4 R"], [1, "1-0 L"], [2, "4-0 R"], [3, "3-0 R"], [0, "pass"],
    [1, "1-1 L"], [2, "3-2 R"],
]  # fmt: skip
"""A Milo round (seats 0 and 2 against 1 and 3, R-MI-1). At action 24 seat 1 holds 1-1
and 3-1 with the line's ends 1 and 3; seat 0 has just passed, so it holds no 1 and no 3
(R-MI-4), and seat 1 can tell the four tiles it cannot see: seat 0's two are 2-0 and 6-0,
and seats 2 and 3 hold 3-2 and 6-3, one each. Laying 1-1 leaves the 3 open, and seat 2
dominoes with its last tile (R-MI-5); laying 3-1 on the 3 leaves 1 at both ends, which
only seat 1's 1-1 fits: it dominoes next turn."""


def record(
    game: str, deal: dict[str, Any], actions: list[list[Any]], seed: int = 0
) -> dict[str, Any]:
    """A record of a game dealt ``deal`` first, with ``actions``."""
    return {
        "format": "domino-record/1",
        "game": game,
        "players": len(deal["hands"]),
        "options": {},
        "seed": seed,
        "deals": [deal],
        "actions": actions,
    }


def played(game: str, players: int, levels: list[str], seed: int) -> dict[str, Any]:
    """A record of the first round of a match dealt from ``seed``, its deal written out
    (so that the tests can deal it otherwise), each seat played by the computer level
    named for it."""
    match = Match(game, players, seed=seed)
    dealt = match.round.to_dict()
    bots = [computer_player(level, seed) for level in levels]
    while match.rounds_dealt == 1:
        assert match.turn is not None
        match.play(bots[match.turn].choose(match.seat_view(match.turn)))
    data = match.record()
    data["deals"] = [{"hands": dealt["hands"], "boneyard": dealt["boneyard"], "leader": None}]
    return data


def views(data: dict[str, Any]) -> Iterator[tuple[int, SeatView]]:
    """Each action's index and the view of the seat that made it, just before."""
    match = Match.from_record({**data, "actions": []})
    for index, (seat, text) in enumerate(data["actions"]):
        yield index, match.seat_view(seat)
        match.play(text)


def test_a_move_that_gives_the_round_away_is_a_blunder_and_the_better_move_is_named() -> None:
    analysis = analyse(record("milo", BLUNDER_DEAL, BLUNDER_ACTIONS), [1], SMALL)
    judged = {move.action: move for move in analysis.seat(1).moves}[24]
    assert (judged.played.text, judged.better.text) == ("1-1 L", "3-1 R")
    assert judged.grade is Grade.BLUNDER
    # Certain from seat 1's view: a lost round against a won one, in win chance.
    assert analysis.seat(1).scale.unit is Unit.WIN_CHANCE
    assert (judged.played_worth, judged.better_worth, judged.loss) == (0.0, 1.0, 1.0)
    assert judged.game_number == judged.round_number == 1 and judged.index == 24
    assert analysis.seat(1).costliest()[0] == judged


def test_the_experts_own_moves_are_graded_good() -> None:
    """At the expert's own budget, seeded as the record is, the coach's better move is
    the move the expert made: every one of its moves is good, and its accuracy 100."""
    data = played("milo", 4, ["expert", "normal", "normal", "normal"], seed=3)
    seat = analyse(data, [0], BUDGET).seat(0)
    assert len(seat.moves) >= 3
    assert all(move.better is move.played for move in seat.moves)
    assert {move.grade for move in seat.moves} == {Grade.GOOD}
    assert seat.accuracy == 100.0


@pytest.mark.parametrize("game", ["cross", "maltese-cross", "merry-go-round"])
def test_the_better_move_is_the_experts_choice_in_the_points_games(game: str) -> None:
    """The coach values every move by the expert's own search: at its budget and seed,
    the best is the move the expert makes (a round's last choice, searched to the end;
    the Milo test above takes a round's every choice, played out and searched)."""
    data = played(game, 3, ["normal"] * 3, seed=11)
    view = [view for _, view in views(data) if len(view.legal) > 1][-1]
    assert weigh(view, 11).best is ExpertPlayer(11).choose(view)


def redeals(data: dict[str, Any], seat: int) -> Iterator[dict[str, Any]]:
    """The record with two tiles of its first deal exchanged between other hands or the
    boneyard, tiles ``seat`` never sees (it neither holds nor draws them, nobody lays
    them), wherever the same actions still replay: ``seat`` sees the same at every
    turn, the other seats hold otherwise."""
    deal = data["deals"][0]
    drawers = [mover for mover, text in data["actions"] if text == "draw"]
    seen = set(deal["hands"][seat]) | {
        tile for tile, drawer in zip(deal["boneyard"], drawers, strict=False) if drawer == seat
    }
    seen |= {text.split()[0] for _, text in data["actions"] if text not in ("draw", "pass")}

    def lot(dealt: dict[str, Any], key: int | None) -> list[str]:
        """A seat's hand, or (``None``) the boneyard."""
        tiles: list[str] = dealt["boneyard"] if key is None else dealt["hands"][key]
        return tiles

    keys = [s for s in range(len(deal["hands"])) if s != seat] + [None]
    hidden = [(key, i) for key in keys for i, tile in enumerate(lot(deal, key)) if tile not in seen]
    for (a, i), (b, j) in itertools.combinations(hidden, 2):
        if a == b:
            continue  # within one lot: the same deal
        other = copy.deepcopy(data)
        dealt = other["deals"][0]
        lot(dealt, a)[i], lot(dealt, b)[j] = lot(dealt, b)[j], lot(dealt, a)[i]
        try:
            Match.from_record(other)
        except ReplayError:
            continue  # a pass, a draw or a lead the other deal would not allow
        yield other


@pytest.mark.parametrize(
    ("data", "seat"),
    [
        (record("milo", BLUNDER_DEAL, BLUNDER_ACTIONS[:25]), 1),
        (played("cross", 3, ["normal"] * 3, seed=5), 0),
    ],
    ids=["milo", "cross"],
)
def test_the_analysis_never_depends_on_tiles_the_seat_cannot_see(
    data: dict[str, Any], seat: int
) -> None:
    """Another deal of the tiles the seat never sees, with the same play, is analysed
    exactly alike (R-ALL-6: the seat judges from its own view)."""
    analysed = analyse(data, [seat], SMALL)
    others = list(itertools.islice(redeals(data, seat), 3))
    assert others
    for other in others:
        assert other["deals"] != data["deals"]
        assert analyse(other, [seat], SMALL) == analysed


def one_choice(view: SeatView) -> bool:
    """Whether every legal move of ``view`` is one choice under its several names."""
    return all(view.public.same_choice(view.legal[0], move) for move in view.legal)


def test_forced_moves_are_not_graded_and_every_choice_is() -> None:
    """A draw, a pass or the one tile that fits (R-ALL-4, R-CR-5) is no choice, and
    neither is one tile that fits only ends that look alike (the lone spinner's arms)."""
    data = played("cross", 3, ["normal"] * 3, seed=5)
    analysis = analyse(data, [0, 2], SMALL)
    for seat in (0, 2):
        choices = [i for i, view in views(data) if view.seat == seat and not one_choice(view)]
        assert [move.action for move in analysis.seat(seat).moves] == choices
    forced = [i for i, view in views(data) if len(view.legal) == 1]
    named = [i for i, view in views(data) if len(view.legal) > 1 and one_choice(view)]
    assert forced and named  # the round had some of each
    assert not {move.action for seat in analysis.seats for move in seat.moves} & set(named)


def name_of(view: SeatView, move: Move) -> str:
    """The first of ``move``'s names among ``view``'s legal moves."""
    return next(m.text for m in view.legal if view.public.same_choice(m, move))


def test_a_move_is_graded_alike_under_each_of_its_names() -> None:
    """The same tile on ends that look alike (here the spinner's arms, each showing 5)
    is one move: whichever end the seat named, it is worth the same and graded the
    same, and when it is the expert's choice it is the expert's move, good, whatever
    end the expert's search named (its samples for each name differ by noise alone)."""
    data = played("cross", 3, ["normal"] * 3, seed=5)
    index, view = next((i, view) for i, view in views(data) if i == 6)
    best = weigh(view, data["seed"], SMALL).best
    graded: dict[str, list[JudgedMove]] = {}
    for move in view.legal:
        record = {**data, "actions": [*data["actions"][:index], [view.seat, move.text]]}
        judged = analyse(record, [view.seat], SMALL).seat(view.seat).moves[-1]
        assert judged.action == index and judged.played is move
        graded.setdefault(name_of(view, move), []).append(judged)
    expert = graded[name_of(view, best)]
    assert len(expert) == 3  # 5-0 on N, E and S
    for judged in expert:
        assert judged.better is judged.played and judged.loss == 0.0
        assert judged.grade is Grade.GOOD
    for names in graded.values():
        assert len({(m.played_worth, m.better_worth, m.grade) for m in names}) == 1
    assert len(graded) > 1 and any(len(names) > 1 for names in graded.values())


def test_the_moves_the_computer_chose_in_a_members_seat_are_not_graded() -> None:
    """A move the computer chose for a member (their turn timer ran out, or they were
    away) is not theirs: it is not judged, so it counts neither in their accuracy nor
    among their costliest moves; their own moves are judged as before. With none of
    their own, they have no accuracy, as a member whose every move was forced."""
    data = record("milo", BLUNDER_DEAL, BLUNDER_ACTIONS)
    whole = analyse(data, [1, 2], SMALL).seat(1)
    assert 24 in [move.action for move in whole.moves] and whole.costliest()[0].action == 24
    analysis = analyse(data, [1, 2], SMALL, stood_in=[24, 2])
    own = analysis.seat(1)
    assert own.moves == tuple(move for move in whole.moves if move.action != 24)
    assert 24 not in [move.action for move in own.costliest()]
    assert own.accuracy is not None and whole.accuracy is not None
    assert own.accuracy > whole.accuracy  # the blunder was the computer's
    assert 2 not in [move.action for move in analysis.seat(2).moves]
    chosen = [i for i, view in views(data) if view.seat == 1 and len(view.legal) > 1]
    nothing = analyse(data, [1], SMALL, stood_in=chosen)
    assert nothing.seat(1).moves == () and nothing.seat(1).accuracy is None
    assert nothing.accuracies() == {}
    with pytest.raises(ValueError, match="actions are 0 to 25"):
        analyse(data, [1], SMALL, stood_in=[26])


def test_the_same_record_gives_the_same_analysis() -> None:
    data = played("merry-go-round", 2, ["normal", "normal"], seed=8)
    assert analyse(data, [0, 1], SMALL) == analyse(copy.deepcopy(data), [1, 0], SMALL)


def test_the_work_of_a_judgement_is_bounded_by_the_budget() -> None:
    """Counted, not timed: a fraction of the expert's budget searches that fraction of
    its guesses at most (160 a decision, four times as many in Milo before its exact
    searches), or in one tree (Maltese Cross) runs that fraction of its moves'
    simulations, each of which makes a move at least (every legal move is tried once)."""
    data = played("cross", 3, ["normal"] * 3, seed=5)
    first = next(view for _, view in views(data) if len(view.legal) > 1)
    assert 1 <= weigh(first, 0, SMALL).guesses <= round(160 * SMALL)
    with pytest.raises(ValueError, match="no choice"):
        weigh(next(view for _, view in views(data) if len(view.legal) == 1), 0)
    data = played("maltese-cross", 3, ["normal"] * 3, seed=5)
    first = next(view for _, view in views(data) if len(view.legal) > 1)
    simulations = weigh(first, 0, SMALL).guesses
    work = TREES["maltese-cross"].work * SMALL
    assert len(first.legal) <= simulations <= max(len(first.legal), work)
    assert weigh(first, 0, 4 * SMALL).guesses > simulations


def test_analysing_refuses_what_it_cannot_replay_or_a_seat_the_game_lacks() -> None:
    data = record("milo", BLUNDER_DEAL, BLUNDER_ACTIONS)
    with pytest.raises(ValueError, match="seats are 0 to 3"):
        analyse(data, [4], SMALL)
    with pytest.raises(ValueError, match="budget"):
        analyse(data, [1], 0.0)
    broken = record("milo", BLUNDER_DEAL, [*BLUNDER_ACTIONS[:24], [1, "5-3 L"]])
    with pytest.raises(ReplayError):
        analyse(broken, [1], SMALL)


def judged(action: int, loss: float) -> JudgedMove:
    """A Milo move that lost ``loss`` of the win chance, graded as the coach grades it."""
    move = Match("milo", 4).legal_moves()[0]
    return JudgedMove(action, 1, 1, action, move, move, 1.0 - loss, 1.0, SCALES["milo"].grade(loss))


@pytest.mark.parametrize(
    ("game", "losses"),
    [
        ("cross", (2.0, 5.0, 10.0)),
        ("maltese-cross", (2.0, 5.0, 10.0)),
        ("merry-go-round", (0.7, 1.75, 3.5)),
        ("milo", (0.05, 0.125, 0.25)),
    ],
)
def test_a_loss_of_exactly_a_grades_figure_has_that_grade(
    game: str, losses: tuple[float, float, float]
) -> None:
    """At least a tenth of a round's usual worth is an inaccuracy, a quarter a mistake,
    half a blunder (``docs/PLAYERS.md``'s figures): a loss of exactly one is graded so,
    and a hair less is not (a tenth of 7 worked out as 0.7000000000000001 once, so a
    loss of 0.7 in Merry-Go-Round was good)."""
    scale = SCALES[game]
    grades = (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)
    below = (Grade.GOOD, Grade.INACCURACY, Grade.MISTAKE)
    for loss, grade, lesser in zip(losses, grades, below, strict=True):
        assert scale.grade(loss) is grade
        assert scale.grade(loss * (1 - 1e-9)) is lesser
    assert scale.accuracy(losses[2]) == 0.0


def test_the_costliest_moves_come_first_and_a_blunder_scores_no_accuracy() -> None:
    scale = SCALES["milo"]
    seat = SeatAnalysis(
        0,
        scale,
        (judged(0, 0.0), judged(1, 0.15), judged(2, 0.5), judged(3, 0.15), judged(4, 0.05)),
    )
    assert [move.action for move in seat.costliest()] == [2, 1, 3]
    assert [move.action for move in seat.costliest(9)] == [2, 1, 3, 4]
    slip = SeatAnalysis(0, scale, (judged(0, 0.01), judged(1, 0.0)))
    assert slip.moves[0].grade is Grade.GOOD and slip.moves[0].loss > 0
    assert slip.costliest() == (), "a good move is nobody's costliest, however small its loss"
    # A Milo blunder gives away a quarter of the round's win chance (half a round's
    # worth): each move's accuracy falls from 100 at no loss to 0 there.
    assert seat.accuracy == pytest.approx((100 + 40 + 0 + 40 + 80) / 5)
    assert SeatAnalysis(0, scale, ()).accuracy is None
    assert [scale.grade(loss) for loss in (0.04, 0.06, 0.2, 0.3)] == list(Grade)


def test_an_analysis_is_stored_and_read_back_as_it_was() -> None:
    analysis = analyse(record("milo", BLUNDER_DEAL, BLUNDER_ACTIONS), [1, 2], SMALL)
    stored = json.loads(json.dumps(analysis.to_dict()))
    assert Analysis.from_dict(stored) == analysis
    with pytest.raises(KeyError):
        analysis.seat(0)


def malformed() -> Iterator[tuple[str, Any]]:
    """Stored analyses each wrong in one field, with the field the refusal must name."""
    scale = SCALES["milo"]
    seats = (
        SeatAnalysis(1, scale, (judged(24, 1.0),)),
        SeatAnalysis(3, scale, (judged(6, 0.0),)),
    )
    good = Analysis("milo", SMALL, seats).to_dict()
    move = "seats[0].moves[0]"

    def changed(path: list[str | int], value: Any) -> dict[str, Any]:
        data = copy.deepcopy(good)
        inner: Any = data
        for key in path[:-1]:
            inner = inner[key]
        if value is KeyError:
            del inner[path[-1]]
        else:
            inner[path[-1]] = value
        return data

    yield "format", changed(["format"], "domino-analysis/2")
    yield "game", changed(["game"], "chess")
    yield "game", changed(["game"], ["milo"])
    yield "budget", changed(["budget"], True)
    yield "budget", changed(["budget"], -1)
    yield "the analysis", changed(["extra"], 1)
    yield "the analysis", changed(["seats"], KeyError)
    yield "seats", changed(["seats"], {})
    yield "seats[1].seat", changed(["seats", 1, "seat"], 1)
    yield "seats[0].seat", changed(["seats", 0, "seat"], "1")
    yield move, changed(["seats", 0, "moves", 0], [])
    yield f"{move}.grade", changed(["seats", 0, "moves", 0, "grade"], "brilliant")
    yield f"{move}.played", changed(["seats", 0, "moves", 0, "played"], "7-7 L")
    yield f"{move}.better", changed(["seats", 0, "moves", 0, "better"], 6)
    yield f"{move}.played_worth", changed(["seats", 0, "moves", 0, "played_worth"], float("nan"))
    yield f"{move}.round_number", changed(["seats", 0, "moves", 0, "round_number"], 0)
    yield f"{move}.action", changed(["seats", 0, "moves", 0, "action"], 2.0)


@pytest.mark.parametrize(("field", "data"), list(malformed()))
def test_a_malformed_analysis_is_refused_naming_the_field(field: str, data: Any) -> None:
    with pytest.raises(InvalidAnalysis) as refused:
        Analysis.from_dict(data)
    assert refused.value.field == field
    assert str(refused.value).startswith(f"{field} ")
