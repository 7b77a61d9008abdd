"""The coach: a finished game's moves judged by the expert, from the seat that made them.

For each move a seat made with more than one legal choice (a forced move is not graded,
and the same tile on ends that look alike to every rule is one choice under two names:
:meth:`~bot.engine.PublicView.same_choice`), the coach takes that seat's view just
before it — its own hand, the table and what everyone did, never another seat's hidden
tiles — and runs the expert's own search on
it (:func:`weigh`: the same weighed guesses, the same searches, the same counted work),
which values every legal move on the same guesses. The better move
is the one the expert makes there; the loss is how much less the move played is worth,
and the grade says how bad that is on the game's own scale (:data:`SCALES`).

What a move is worth is said in the game's unit (:class:`Unit`):

- **Points** in Cross, Maltese Cross and Merry-Go-Round: the round's points for the
  seat against the best other seat's (R-CR-6, R-MG-4, R-MG-6), the expert's own value.
  In Merry-Go-Round it also counts a won round 3 points more and reaching exactly 61
  (the game, R-MG-7) 100 more: what the expert plays for there. Where the expert
  grows one tree over its guesses (:mod:`bot.players.ismcts`: Maltese Cross, and
  Cross once few tiles are left), a move's points are the mean over the tree's
  simulations through it; the tree chooses by the round's winner as well, so the
  expert's move is not always the one with the most points, and a move that scored
  more is graded good, never better than the expert's.
- **Win chance** in Milo: the share of guesses in which the seat's team wins the round.
  A Milo round is worth one point or two (R-MI-5), so who wins it is most of its worth,
  and the expert's exact search there proves only that; early in a round, where each
  guess is played out, a played-out win counts.

Everything is counted work, never timed, and seeded from the record (:func:`analyse`):
the same record gives the same analysis on any machine, however busy.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from bot.engine import Match, Move, NotAMove, PublicView, Record, SeatView, read_record
from bot.players.base import players_seed
from bot.players.expert import ExpertPlayer, Weighing

ANALYSIS_FORMAT = "domino-analysis/1"
BUDGET = 1.0
"""The work per judged move, as a multiple of the expert's own decision: at 1.0 the very
search the expert makes in that seat's place (``docs/PLAYERS.md``, "The coach", times a
whole game's analysis)."""


class Unit(enum.Enum):
    """What a move's worth and loss are counted in (see the module's docstring)."""

    POINTS = "points"
    WIN_CHANCE = "win chance"
    """A fraction from 0 to 1."""


class Grade(enum.Enum):
    """How much a move lost against the expert's choice, least first."""

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


@dataclass(frozen=True, slots=True)
class Scale:
    """A game's unit and the losses from which a move is an inaccuracy, a mistake or a
    blunder. The accuracy of a move falls from 100 (no loss) in a straight line to 0 at
    a blunder's loss, and stays 0 beyond."""

    unit: Unit
    inaccuracy: float
    mistake: float
    blunder: float

    def grade(self, loss: float) -> Grade:
        if loss >= self.blunder:
            return Grade.BLUNDER
        if loss >= self.mistake:
            return Grade.MISTAKE
        if loss >= self.inaccuracy:
            return Grade.INACCURACY
        return Grade.GOOD

    def accuracy(self, loss: float) -> float:
        """0 to 100: how close to the expert's choice a move with this ``loss`` came."""
        return 100.0 * max(0.0, 1.0 - loss / self.blunder)

    @classmethod
    def of(cls, unit: Unit, round_worth: float) -> Scale:
        """The scale of a game whose rounds are usually worth ``round_worth``: a tenth of
        it lost is an inaccuracy, a quarter a mistake, half a blunder. Divided, not
        multiplied by 0.1: ``0.1 * 7`` is 0.7000000000000001, above a loss of 0.7,
        which must be an inaccuracy in Merry-Go-Round."""
        return cls(unit, round_worth / 10, round_worth / 4, round_worth / 2)


SCALES = {
    "cross": Scale.of(Unit.POINTS, 20.0),
    "maltese-cross": Scale.of(Unit.POINTS, 20.0),
    "merry-go-round": Scale.of(Unit.POINTS, 7.0),
    "milo": Scale.of(Unit.WIN_CHANCE, 0.5),
}
"""Each game's scale, from what a round is usually worth: half the swing from losing it
to winning it. A Cross or Maltese Cross round scores the other hands' counts (R-CR-6):
its margin came to 18–23 points on average over 300 rounds of the normal level against
itself, by game and player count. A Merry-Go-Round round scores a fifth of such counts
(R-MG-6) and a point or two a play (R-MG-4): 7, with the 3 the expert adds for winning
it. A Milo round goes from lost to won in a win chance of 1, so a blunder there gives
away a quarter of it. How the computer levels' moves grade is in ``docs/PLAYERS.md``
("The coach")."""


# -- the expert's search, every move valued ---------------------------------------------


def weigh(view: SeatView, seed: int, budget: float = BUDGET) -> Weighing:
    """Value each of ``view``'s legal moves (more than one) with the expert's own search
    (:meth:`ExpertPlayer.weigh`), its work times ``budget``: at budget 1.0 the best move
    is the one ``ExpertPlayer(seed).choose(view)`` makes."""
    moves = view.legal
    if len(moves) < 2:
        raise ValueError(f"seat {view.seat} has no choice to weigh: {len(moves)} legal moves")
    return ExpertPlayer(seed).weigh(view, budget)


# -- a game's analysis ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JudgedMove:
    """One graded move: where it was made, what was played, what the expert would have
    played, and what each is worth in the game's :class:`Unit`."""

    action: int
    """Its index in the record's actions (the replay's frame)."""
    game_number: int
    """The game's number in the match, from 1 (R-MI-7)."""
    round_number: int
    """The round's number in its game, from 1."""
    index: int
    """Its index in the round's history."""
    played: Move
    better: Move
    """The expert's choice: ``played`` itself when the expert would have played it."""
    played_worth: float
    better_worth: float
    grade: Grade

    @property
    def loss(self) -> float:
        """How much less the move played is worth than the expert's choice (never below
        0: in Milo the expert may choose by margin a move that wins no more often)."""
        return max(0.0, self.better_worth - self.played_worth)


@dataclass(frozen=True, slots=True)
class SeatAnalysis:
    """One seat's graded moves, in the order they were made."""

    seat: int
    scale: Scale
    moves: tuple[JudgedMove, ...]

    @property
    def accuracy(self) -> float | None:
        """0 to 100: the mean of each graded move's accuracy (:meth:`Scale.accuracy`);
        None when the seat had no move to grade. A loss-based figure, as chess sites
        give, rather than the share of good moves: a blunder weighs more than an
        inaccuracy, and a slip too small to grade still counts a little."""
        if not self.moves:
            return None
        return sum(self.scale.accuracy(move.loss) for move in self.moves) / len(self.moves)

    def costliest(self, count: int = 3) -> tuple[JudgedMove, ...]:
        """The ``count`` moves that lost most, costliest first (earlier first among
        equals); good moves are left out, so a slip too small to grade is never shown
        to a member as one of their costliest (as "−0.0 points")."""
        lost = [move for move in self.moves if move.grade is not Grade.GOOD]
        return tuple(sorted(lost, key=lambda move: -move.loss)[:count])


@dataclass(frozen=True, slots=True)
class Analysis:
    """A game's analysis: each analysed seat's graded moves."""

    game: str
    """The game's name, as records name it (``cross`` …)."""
    budget: float
    """The work each move was judged with (see :data:`BUDGET`)."""
    seats: tuple[SeatAnalysis, ...]
    """In seat order."""

    def seat(self, seat: int) -> SeatAnalysis:
        """The analysis of ``seat``; ``KeyError`` if it was not analysed."""
        for analysed in self.seats:
            if analysed.seat == seat:
                return analysed
        raise KeyError(seat)

    def accuracies(self) -> dict[int, float]:
        """Each analysed seat's accuracy, by seat, for the seats that had a move to
        judge (what a game's summary and history say)."""
        return {
            analysed.seat: analysed.accuracy
            for analysed in self.seats
            if analysed.accuracy is not None
        }

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON holds it (:meth:`from_dict` reads it back)."""
        return {
            "format": ANALYSIS_FORMAT,
            "game": self.game,
            "budget": self.budget,
            "seats": [
                {"seat": analysed.seat, "moves": [_move_dict(m) for m in analysed.moves]}
                for analysed in self.seats
            ],
        }

    @classmethod
    def from_dict(cls, data: object) -> Analysis:
        """Read :meth:`to_dict`'s form strictly: every field and no other, each of its
        type and in range; raise :class:`InvalidAnalysis` naming the first that is not."""
        top = _object("the analysis", data, ("format", "game", "budget", "seats"))
        if top["format"] != ANALYSIS_FORMAT:
            raise InvalidAnalysis("format", f"must be {ANALYSIS_FORMAT!r}, not {top['format']!r}")
        game = top["game"]
        if not isinstance(game, str) or game not in SCALES:
            raise InvalidAnalysis("game", f"must be one of {', '.join(SCALES)}, not {game!r}")
        budget = _number("budget", top["budget"])
        if budget <= 0:
            raise InvalidAnalysis("budget", f"must be above 0, not {budget!r}")
        seats: list[SeatAnalysis] = []
        for i, entry in enumerate(_list("seats", top["seats"])):
            field = f"seats[{i}]"
            analysed = _object(field, entry, ("seat", "moves"))
            seat = _count(f"{field}.seat", analysed["seat"])
            if seats and seat <= seats[-1].seat:
                raise InvalidAnalysis(f"{field}.seat", f"must come after seat {seats[-1].seat}")
            moves = tuple(
                _read_move(f"{field}.moves[{j}]", move)
                for j, move in enumerate(_list(f"{field}.moves", analysed["moves"]))
            )
            seats.append(SeatAnalysis(seat, SCALES[game], moves))
        return cls(game, budget, tuple(seats))

    @classmethod
    def of_game(cls, data: object, game: str, players: int, actions: int) -> Analysis:
        """Read an analysis stored for a game of ``game`` with ``players`` seats and
        ``actions`` recorded actions: :meth:`from_dict`, and held to that game, since a
        row that reads but names a seat the game has no name for, or a move past its
        record, would put a wrong name on an accuracy or show a wrong position; raise
        :class:`InvalidAnalysis` naming the first field that does not fit."""
        analysis = cls.from_dict(data)
        if analysis.game != game:
            raise InvalidAnalysis("game", f"must be {game!r}, the game's, not {analysis.game!r}")
        for i, analysed in enumerate(analysis.seats):
            if analysed.seat >= players:
                raise InvalidAnalysis(f"seats[{i}].seat", f"must be below {players}")
            for j, move in enumerate(analysed.moves):
                if move.action >= actions:
                    raise InvalidAnalysis(
                        f"seats[{i}].moves[{j}].action", f"must be below {actions}"
                    )
        return analysis


class InvalidAnalysis(ValueError):
    """A stored analysis whose ``field`` is missing, unknown, of the wrong type or out of
    range; ``problem`` says what it must be."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field} {problem}")
        self.field = field
        self.problem = problem


def analyse(
    record: object, seats: Iterable[int], budget: float = BUDGET, stood_in: Iterable[int] = ()
) -> Analysis:
    """Grade every move ``seats`` made in the game ``record`` holds (``docs/RECORD.md``)
    that had more than one choice (:func:`_has_choice`), each from that seat's view just
    before it, by the expert's search (:func:`weigh`) with ``budget`` times its work.
    The search is seeded with the record's seed and the position (the seat, the move's
    index in its round, the scores), so the better move is the one ``ExpertPlayer(seed)``
    would make there at budget 1.0, or the move played when that is the same choice
    under another name (:meth:`~bot.engine.PublicView.same_choice`). The actions
    ``stood_in`` indexes are left out: the computer chose them in a member's seat (a
    timeout, a seat away), so they are not the member's to be graded on, and they cost
    no search. Raises
    :class:`bot.engine.ReplayError` for a record that does not replay, ``ValueError``
    for a seat or an action it does not have or a budget not above 0."""
    Match.from_record(record)  # refuses a record that does not replay, naming why
    parsed = read_record(record)
    wanted = sorted(set(seats))
    if any(not 0 <= seat < parsed.players for seat in wanted):
        raise ValueError(f"the seats are 0 to {parsed.players - 1}, not {wanted}")
    left_out = set(stood_in)
    if any(not 0 <= action < len(parsed.actions) for action in left_out):
        raise ValueError(f"the actions are 0 to {len(parsed.actions) - 1}, not {sorted(left_out)}")
    if not (math.isfinite(budget) and budget > 0):
        raise ValueError(f"the budget must be a number above 0, not {budget!r}")
    scale = SCALES[parsed.variant.game]
    judged: dict[int, list[JudgedMove]] = {seat: [] for seat in wanted}
    for action, view, played in _positions(parsed):
        if view.seat in judged and _has_choice(view) and action not in left_out:
            weighing = weigh(view, players_seed(parsed.seed), budget)
            public = view.public
            better = played if public.same_choice(played, weighing.best) else weighing.best
            played_worth, better_worth = (
                _worth(weighing, public, played),
                _worth(weighing, public, better),
            )
            move = JudgedMove(
                action,
                public.game_number,
                public.round_number,
                len(public.history),
                played,
                better,
                played_worth,
                better_worth,
                scale.grade(max(0.0, better_worth - played_worth)),
            )
            judged[view.seat].append(move)
    analysed = tuple(SeatAnalysis(seat, scale, tuple(judged[seat])) for seat in wanted)
    return Analysis(parsed.variant.game, budget, analysed)


def _has_choice(view: SeatView) -> bool:
    """Whether ``view``'s seat had more than one choice: legal moves that are not all
    one choice under several names (one tile that fits only the lone spinner's four
    arms is as forced as a lone tile that fits one end)."""
    legal = view.legal
    return any(not view.public.same_choice(legal[0], move) for move in legal[1:])


def _worth(weighing: Weighing, public: PublicView, move: Move) -> float:
    """What ``move`` is worth: the most the search found for it under any of its names
    (:meth:`PublicView.same_choice`: the same tile on ends that look alike to every
    rule, as each of the lone spinner's four arms). The search values each name on its
    own samples, so they differ by its noise alone (by a blunder's loss, in Maltese
    Cross at the production budget); a member chooses the move, not the name, so any
    of its names is graded alike, and one of the expert's choice's is the expert's
    move (:func:`analyse`)."""
    return max(
        worth
        for other, worth in zip(weighing.moves, weighing.worth, strict=True)
        if public.same_choice(other, move)
    )


def _positions(parsed: Record) -> Iterator[tuple[int, SeatView, Move]]:
    """Each action of a record that replays: its index, the view of the seat that made
    it just before, and the move."""
    match = Match(
        parsed.variant, parsed.players, parsed.options, seed=parsed.seed, deals=parsed.deals
    )
    for action, (seat, text) in enumerate(parsed.actions):
        move = Move.parse(text)
        yield action, match.seat_view(seat), move
        match.play(move)


# -- reading a stored analysis ----------------------------------------------------------

_MOVE_FIELDS = (
    "action",
    "game_number",
    "round_number",
    "index",
    "played",
    "better",
    "played_worth",
    "better_worth",
    "grade",
)


def _move_dict(move: JudgedMove) -> dict[str, Any]:
    return {
        "action": move.action,
        "game_number": move.game_number,
        "round_number": move.round_number,
        "index": move.index,
        "played": move.played.text,
        "better": move.better.text,
        "played_worth": move.played_worth,
        "better_worth": move.better_worth,
        "grade": move.grade.value,
    }


def _read_move(field: str, data: object) -> JudgedMove:
    move = _object(field, data, _MOVE_FIELDS)
    grades = [grade.value for grade in Grade]
    if move["grade"] not in grades:
        raise InvalidAnalysis(
            f"{field}.grade", f"must be one of {', '.join(grades)}, not {move['grade']!r}"
        )
    return JudgedMove(
        _count(f"{field}.action", move["action"]),
        _count(f"{field}.game_number", move["game_number"], 1),
        _count(f"{field}.round_number", move["round_number"], 1),
        _count(f"{field}.index", move["index"]),
        _move(f"{field}.played", move["played"]),
        _move(f"{field}.better", move["better"]),
        _number(f"{field}.played_worth", move["played_worth"]),
        _number(f"{field}.better_worth", move["better_worth"]),
        Grade(move["grade"]),
    )


def _object(field: str, data: object, fields: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidAnalysis(field, f"must be an object, not {type(data).__name__}")
    unknown = sorted(str(key) for key in data if key not in fields)
    if unknown:
        raise InvalidAnalysis(field, f"has a field the format does not know: {unknown[0]!r}")
    missing = [key for key in fields if key not in data]
    if missing:
        raise InvalidAnalysis(field, f"has no {missing[0]!r}")
    return data


def _list(field: str, data: object) -> list[Any]:
    if not isinstance(data, list):
        raise InvalidAnalysis(field, f"must be a list, not {type(data).__name__}")
    return data


def _count(field: str, data: object, least: int = 0) -> int:
    if isinstance(data, bool) or not isinstance(data, int) or data < least:
        raise InvalidAnalysis(field, f"must be an integer from {least} up, not {data!r}")
    return data


def _number(field: str, data: object) -> float:
    if isinstance(data, bool) or not isinstance(data, int | float) or not math.isfinite(data):
        raise InvalidAnalysis(field, f"must be a finite number, not {data!r}")
    return float(data)


def _move(field: str, data: object) -> Move:
    try:
        return Move.parse(data)  # type: ignore[arg-type]  # a non-string is refused too
    except NotAMove:
        raise InvalidAnalysis(field, f"must be a move like 6-5 N, not {data!r}") from None
