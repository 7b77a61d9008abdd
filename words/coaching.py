"""The coach's words: a grade's name, a player's accuracy, a judged move with the better
one and what it cost, the card that sums up a member's analysis of a game, and what is
said of each member's accuracy once a game's analysis is made at its end: in the game's
channel, and in the finished table's summary in a browser (``bot.coaching``; what the
grades and the accuracy mean is in ``docs/PLAYERS.md``, "The coach")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from bot.engine import Kind, Move, find_variant
from bot.players.coach import Analysis, Grade, JudgedMove, SeatAnalysis, Unit
from words import marks
from words.cards import Card, Field
from words.common import end_of, game_title, plain
from words.i18n import _, decimal, ngettext, number, pgettext

COSTLIEST = 3
"""How many of a member's costliest moves ``/domino analysis`` shows."""


def grade_name(grade: Grade) -> str:
    """A grade as a word on its own (a heading, a count's label)."""
    names = {
        Grade.GOOD: pgettext("grade", "good"),
        Grade.INACCURACY: pgettext("grade", "inaccuracy"),
        Grade.MISTAKE: pgettext("grade", "mistake"),
        Grade.BLUNDER: pgettext("grade", "blunder"),
    }
    return names[grade]


GRADE_MARKS = {Grade.GOOD: "", Grade.INACCURACY: "?!", Grade.MISTAKE: "?", Grade.BLUNDER: "??"}
"""A grade's mark beside a move, as chess annotators write them: the same in every
language, and readable at a glance on a replay's frame."""


class Marked(NamedTuple):
    """A judged move a replay marks, and the seat that made it (the analysis keeps
    moves by seat)."""

    seat: int
    move: JudgedMove


def marked_moves(analysis: Analysis | None) -> dict[int, Marked]:
    """The moves a replay marks, by their index in the record's actions: every judged
    move that was not good (a good one is the replay's plain line). None (a game never
    analysed) marks nothing."""
    if analysis is None:
        return {}
    return {
        move.action: Marked(analysed.seat, move)
        for analysed in analysis.seats
        for move in analysed.moves
        if move.grade is not Grade.GOOD
    }


def replay_note(move: JudgedMove) -> str:
    """What a replay says of a marked move, after or under its line: the grade's mark
    and name, and the expert's better move (``? mistake (6-6 on E was better)``)."""
    mark, grade = GRADE_MARKS[move.grade], grade_name(move.grade)
    if move.better == move.played:  # a loss too small to grade leaves the move good
        return _("{mark} {grade}").format(mark=mark, grade=grade).strip()
    return _("{mark} {grade} ({better} was better)").format(
        mark=mark, grade=grade, better=move_phrase(move.better)
    )


def grade_counts(analysed: SeatAnalysis) -> str:
    """How many of a seat's judged moves had each grade, worst first, the grades it had
    none of left out (``1 blunder · 2 mistakes · 9 good``)."""
    counts = {grade: 0 for grade in Grade}
    for move in analysed.moves:
        counts[move.grade] += 1
    plurals = {
        Grade.BLUNDER: lambda n: ngettext("{count} blunder", "{count} blunders", n),
        Grade.MISTAKE: lambda n: ngettext("{count} mistake", "{count} mistakes", n),
        Grade.INACCURACY: lambda n: ngettext("{count} inaccuracy", "{count} inaccuracies", n),
        Grade.GOOD: lambda n: ngettext("{count} good", "{count} good", n),
    }
    return " · ".join(
        plurals[grade](counts[grade]).format(count=number(counts[grade]))
        for grade in plurals
        if counts[grade]
    )


def accuracy(value: float) -> str:
    """A player's accuracy in a game, a whole percentage (``accuracy 87%``)."""
    return _("accuracy {percent}%").format(percent=number(round(value)))


def _named_accuracies(labels: Sequence[str], accuracy: Mapping[int, float]) -> list[str]:
    """Each judged seat's label and accuracy (``Ann 87%``), in seat order: ``labels``
    name every seat, ``accuracy`` holds the seats the coach judged."""
    return [
        _("{name} {percent}%").format(name=plain(labels[seat]), percent=number(round(value)))
        for seat, value in sorted(accuracy.items())
    ]


def history_accuracies(labels: Sequence[str], accuracy: Mapping[int, float]) -> str:
    """The accuracies of a game's members, for the end of its history line
    (``accuracy: Ann 87%, Bob 64%``)."""
    listed = ", ".join(_named_accuracies(labels, accuracy))
    return _("accuracy: {players}").format(players=listed)


def game_accuracies(game_id: str, labels: Sequence[str], accuracy: Mapping[int, float]) -> str:
    """The coach's word in a game's channel once its analysis is made at its end: each
    member's accuracy, and how each may see their own costliest moves (privately: the
    channel is told figures only, never a move or a hand)."""
    listed = ", ".join(_named_accuracies(labels, accuracy))
    return _accuracies_sentence().format(players=listed, id=game_id)


def says_game_accuracies(content: str, game_id: str) -> bool:
    """Whether ``content`` is the coach's word on game ``game_id`` in the language of
    the moment, whoever it names and however they were called when it was posted (a
    member may have been renamed since)."""
    prefix, _named, suffix = _accuracies_sentence().format(players="\0", id=game_id).partition("\0")
    return len(content) > len(prefix) + len(suffix) and (
        content.startswith(prefix) and content.endswith(suffix)
    )


def _accuracies_sentence() -> str:
    return _(
        "The coach · accuracy: {players}. Your costliest moves, shown to you alone:"
        " /domino analysis game:{id}"
    )


def accuracy_field(labels: Sequence[str], accuracy: Mapping[int, float]) -> Field:
    """Each member's accuracy, one a line, for a finished game's summary (the browser's
    game-over card)."""
    return Field(_("Accuracy"), "\n".join(_named_accuracies(labels, accuracy)), inline=False)


def move_phrase(move: Move) -> str:
    """A move as the subject of a sentence (``6-5 on N``, ``leading 6-6``, ``drawing``)."""
    if move.kind is Kind.DRAW:
        return _("drawing")
    if move.tile is None:
        return _("passing")
    if move.end_name is None:
        return _("leading {tile}").format(tile=move.tile)
    return _("{tile} on {end}").format(tile=move.tile, end=end_of(move))


def _graded(grade: Grade) -> str:
    """A grade as what a move *was* (``a mistake``; ``good``)."""
    phrases = {
        Grade.GOOD: pgettext("a move was", "good"),
        Grade.INACCURACY: pgettext("a move was", "an inaccuracy"),
        Grade.MISTAKE: pgettext("a move was", "a mistake"),
        Grade.BLUNDER: pgettext("a move was", "a blunder"),
    }
    return phrases[grade]


def _cost(move: JudgedMove, unit: Unit) -> str:
    if unit is Unit.WIN_CHANCE:
        return _("win chance {played}% against {better}%").format(
            played=number(round(100 * move.played_worth)),
            better=number(round(100 * move.better_worth)),
        )
    return _("−{points} points").format(points=decimal(move.loss))


def judged_line(move: JudgedMove, unit: Unit) -> str:
    """One judged move: what was played, its grade, and the expert's better move with
    what the difference cost (``6-5 on N was a mistake: 6-6 on E was better (−4.0
    points)``; in Milo, the win chances of both)."""
    played = move_phrase(move.played)
    if move.better == move.played:
        text = _("{played} was {grade}: the expert's move too.").format(
            played=played, grade=_graded(move.grade)
        )
        return text[:1].upper() + text[1:]
    text = _("{played} was {grade}: {better} was better ({cost}).").format(
        played=played, grade=_graded(move.grade), better=move_phrase(move.better),
        cost=_cost(move, unit),
    )  # fmt: skip
    return text[:1].upper() + text[1:]


def where(move: JudgedMove, in_match: bool) -> str:
    """Where in the game a judged move was made (``Round 2, move 7``; in a Milo match,
    its game too)."""
    if in_match:
        return _("Game {game}, round {round}, move {move}").format(
            game=number(move.game_number), round=number(move.round_number),
            move=number(move.index + 1),
        )  # fmt: skip
    return _("Round {round}, move {move}").format(
        round=number(move.round_number), move=number(move.index + 1)
    )


def costly_move(move: JudgedMove, unit: Unit, in_match: bool) -> str:
    """One of a member's costliest moves, over its pictures: where, in bold, then the
    judged move (:func:`judged_line`)."""
    return f"{marks.current().bold(where(move, in_match))} · {judged_line(move, unit)}"


def analysis_card(game_id: str, game: str, name: str, analysed: SeatAnalysis | None) -> Card:
    """The summary of a member's moves in a game: their accuracy, how many moves had
    each grade and how the coach judged them; the costliest moves follow it, each with
    its picture. ``analysed`` is None when the member had no move to judge."""
    title = _("The coach on {name}'s moves · {game}").format(
        name=plain(name), game=game_title(find_variant(game))
    )
    footer = _(
        "Each move with a choice is judged from your seat as it was: your tiles, the table"
        " and what everyone did, never another's hidden tiles. Game {id}."
    ).format(id=game_id)
    if analysed is None or analysed.accuracy is None:
        # The computer's moves in an away or timed-out member's seat are not theirs to be
        # judged on (``FinishedGame.stood_in``): such a member may have none left.
        nothing = _(
            "No move of yours had a choice to judge: each was forced, or the computer"
            " made it while you were away."
        )
        return Card(title, nothing, footer=footer)
    # Translators: a whole percentage (the member's accuracy), as "accuracy {percent}%".
    percent = _("{percent}%").format(percent=number(round(analysed.accuracy)))
    fields = [
        Field(_("Accuracy"), percent),
        Field(_("Moves judged"), grade_counts(analysed)),
    ]
    worst = analysed.costliest(COSTLIEST)
    description = (
        _("Your costliest moves follow, each with the table as you saw it.")
        if worst
        else _("None of your moves was an inaccuracy, a mistake or a blunder: each was good.")
    )
    return Card(title, description, tuple(fields), footer)


def not_your_game() -> str:
    """Refused: the coach shows a member their own moves only."""
    return _("Only the players of a game can ask for its analysis, each for their own moves.")


def analysis_running() -> str:
    """Refused while the member's previous analysis is still being made (one at a time:
    each is seconds of the machine's work)."""
    return _("Your last analysis is still being made: ask again once it is shown.")
