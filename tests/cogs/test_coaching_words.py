"""The coach's words: a judged move with the better one and its cost (points, or a Milo
win chance), the grades counted worst first, accuracy as a whole percentage, the card
for a member with and without moves to judge; in English, Spanish and Portuguese, with
the ends' letters as each language writes them."""

from __future__ import annotations

from bot.engine import Move
from bot.players.coach import SCALES, Grade, JudgedMove, SeatAnalysis, Unit
from words import coaching, i18n


def judged(played: str, better: str, played_worth: float, better_worth: float) -> JudgedMove:
    loss = better_worth - played_worth
    grade = SCALES["cross"].grade(loss)
    return JudgedMove(
        7, 1, 2, 6, Move.parse(played), Move.parse(better), played_worth, better_worth, grade
    )


MISTAKE = judged("6-5 N", "6-6 W", 1.0, 5.0)
GOOD = judged("3-2 S", "3-2 S", 2.0, 2.0)
BLUNDER = judged("4-4", "6-6 W", -9.0, 3.0)


def test_a_judged_move_names_both_moves_the_grade_and_the_cost() -> None:
    assert MISTAKE.grade is Grade.INACCURACY  # 4 points in Cross: at least 2, under 5
    assert coaching.judged_line(MISTAKE, Unit.POINTS) == (
        "6-5 on N was an inaccuracy: 6-6 on W was better (−4.0 points)."
    )
    assert coaching.judged_line(BLUNDER, Unit.POINTS) == (
        "Leading 4-4 was a blunder: 6-6 on W was better (−12.0 points)."
    )
    assert coaching.judged_line(GOOD, Unit.POINTS) == "3-2 on S was good: the expert's move too."
    milo = JudgedMove(24, 1, 1, 24, Move.parse("1-1 L"), Move.parse("3-1 R"), 0.0, 1.0,
                      Grade.BLUNDER)  # fmt: skip
    assert coaching.judged_line(milo, Unit.WIN_CHANCE) == (
        "1-1 on L was a blunder: 3-1 on R was better (win chance 0% against 100%)."
    )
    assert coaching.where(MISTAKE, in_match=False) == "Round 2, move 7"
    assert coaching.where(MISTAKE, in_match=True) == "Game 1, round 2, move 7"


def test_the_same_in_spanish_and_portuguese_with_their_letters() -> None:
    with i18n.speaking(i18n.for_locale("es-ES")):
        assert coaching.judged_line(MISTAKE, Unit.POINTS) == (
            "6-5 en N fue una imprecisión: 6-6 en O era mejor (−4,0 puntos)."
        )
        assert coaching.accuracy(86.6) == "precisión 87 %"
        card = coaching.analysis_card(
            "ab12", "cross", "Ann", SeatAnalysis(0, SCALES["cross"], (GOOD,))
        )
        assert card.fields[0].value == "100 %", "as every other accuracy in Spanish"
    with i18n.speaking(i18n.for_locale("pt-BR")):
        assert coaching.judged_line(BLUNDER, Unit.POINTS) == (
            "Sair com 4-4 foi um erro grave: 6-6 em O era melhor (−12,0 pontos)."
        )
        assert coaching.grade_name(Grade.MISTAKE) == "erro"


def test_grades_are_counted_worst_first_and_accuracy_is_a_whole_percentage() -> None:
    analysed = SeatAnalysis(0, SCALES["cross"], (MISTAKE, GOOD, BLUNDER, GOOD))
    assert coaching.grade_counts(analysed) == "1 blunder · 1 inaccuracy · 2 good"
    # (60 + 100 + 0 + 100) / 4: a 4-point loss keeps 60% of a move's accuracy in Cross.
    assert analysed.accuracy == 65.0
    assert coaching.accuracy(analysed.accuracy) == "accuracy 65%"
    assert coaching.history_accuracies(["Ann", "Cy", "Bob"], {2: 99.6, 0: 65.0}) == (
        "accuracy: Ann 65%, Bob 100%"
    )


def test_the_card_gives_accuracy_and_grades_or_says_there_was_nothing_to_judge() -> None:
    analysed = SeatAnalysis(0, SCALES["cross"], (MISTAKE, GOOD))
    card = coaching.analysis_card("ab12", "cross", "Ann", analysed)
    assert card.title == "The coach on Ann's moves · Cross"
    assert [(f.name, f.value) for f in card.fields] == [
        ("Accuracy", "80%"), ("Moves judged", "1 inaccuracy · 1 good"),
    ]  # fmt: skip
    assert card.description == "Your costliest moves follow, each with the table as you saw it."
    assert card.footer is not None and "ab12" in card.footer
    clean = coaching.analysis_card(
        "ab12", "cross", "Ann", SeatAnalysis(0, SCALES["cross"], (GOOD,))
    )
    assert clean.description == (
        "None of your moves was an inaccuracy, a mistake or a blunder: each was good."
    )
    forced = coaching.analysis_card("ab12", "milo", "Ann", None)
    assert forced.description == (
        "No move of yours had a choice to judge: each was forced, or the computer made it"
        " while you were away."
    )
    assert forced.fields == ()


def test_the_coachs_word_on_a_game_is_known_whoever_it_names() -> None:
    """After a restart the bot looks for its word on a game in the channel: found by the
    game's id and the sentence around the names, which may have changed since."""
    said = coaching.game_accuracies("ab12", ["Ann", "Bob"], {0: 80.0, 1: 65.0})
    renamed = said.replace("Ann", "Annabel")
    assert coaching.says_game_accuracies(said, "ab12")
    assert coaching.says_game_accuracies(renamed, "ab12")
    assert not coaching.says_game_accuracies(said, "ab1"), "another game's"
    assert not coaching.says_game_accuracies("Replay of game `ab12`.", "ab12")
    with i18n.speaking(i18n.for_locale("es-ES")):
        assert not coaching.says_game_accuracies(said, "ab12"), "in another language's words"
        assert coaching.says_game_accuracies(
            coaching.game_accuracies("ab12", ["Ann"], {0: 50.0}), "ab12"
        )
