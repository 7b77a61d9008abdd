"""Every refusal a player can meet has its own words in ``words`` (not the
engine's developer English), quotes at most a few characters of what was typed, and
lets no name ping anyone."""

from __future__ import annotations

import random

import pytest

from bot.engine import GAMES, TILES, EngineError, Match, Move, Options, find_variant
from bot.engine.moves import END_NAMES
from bot.players.advice import Advice, Why
from words import advice, common, engine_refusals, i18n, play


def refusals_met_in_play(game: str, seed: int) -> list[EngineError]:
    """Every refusal the engine gives to random wrong moves along a random game."""
    variant = GAMES[game]
    match = Match(game, variant.player_counts[-1], seed=seed)
    rng = random.Random(seed)
    found: list[EngineError] = []
    texts = ["draw", "pass", "banana", "6-6 Q", "7-7", ""]
    while match.outcome() is None and len(match.actions) < 400:
        for _ in range(4):
            tile = rng.choice(TILES)
            text = rng.choice([str(tile), f"{tile} {rng.choice(END_NAMES)}", *texts])
            try:
                match.parse_move(text)
            except EngineError as error:
                found.append(error)
        match.play(rng.choice(match.legal_moves()))
    try:
        match.play(Move.parse("draw"))
    except EngineError as error:
        found.append(error)
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_refusal_met_in_play_has_words_of_its_own(game: str) -> None:
    kinds = set()
    for seed in range(6):
        for error in refusals_met_in_play(game, seed):
            assert engine_refusals.engine_words(error) is not None, type(error).__name__
            kinds.add(type(error).__name__)
    assert len(kinds) >= 5, kinds


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("merry-go-round", {"target": 100}),
        ("cross", {"target": 5}),
        ("cross", {"keep_last_two": True}),
        ("cross", {"match_games": 3}),
        ("milo", {"match_games": 99}),
        ("cross", {"target": "100"}),
    ],
)
def test_every_options_refusal_has_words_of_its_own(game: str, options: dict[str, object]) -> None:
    with pytest.raises(EngineError) as refused:
        Options.for_game(find_variant(game), 4, **options)  # type: ignore[arg-type]
    words = engine_refusals.engine_refusal(refused.value)
    assert engine_refusals.engine_words(refused.value) is not None, type(refused.value).__name__
    assert words.endswith(".") and len(words) < 200


def test_what_a_member_typed_is_quoted_short_and_harmless() -> None:
    typed = "@everyone " + "x" * 2000
    with pytest.raises(EngineError) as refused:
        Move.parse(typed)
    words = engine_refusals.engine_refusal(refused.value)
    assert len(words) < 120 and "x" * 20 not in words
    assert "@everyone" not in common.plain("@everyone")
    assert "<@110000000000000001>" not in common.plain("<@110000000000000001>")
    assert "<@&110000000000000001>" not in common.plain("<@&110000000000000001>")


def test_the_turn_reminder_mentions_the_member_and_when_it_runs_out() -> None:
    text = play.time_running_out(110000000000000001, 1_800_000_000.7)
    assert text.startswith("<@110000000000000001>") and "<t:1800000000:R>" in text


@pytest.mark.parametrize("code", ["en-US", "es-ES", "pt-BR"])
def test_every_hint_reason_has_its_own_sentence_with_its_figures(code: str) -> None:
    """A hint names the move and the one reason that decided it (issue: hints), each
    reason in words of its own, in the member's language, its figures filled in."""
    move = Move.parse("6-5 N")
    figures = {"points": 2, "target": 61, "open_sum": 10, "pips": 11, "count": 3,
               "number": 4, "share": 0.75, "deals": 40}  # fmt: skip
    with i18n.speaking(i18n.for_locale(code)):
        said = {why: advice.hint(Advice(move, "hard", why, **figures)) for why in Why}  # type: ignore[arg-type]
    assert len(set(said.values())) == len(Why), "two reasons read the same"
    for why, text in said.items():
        assert "6-5" in text and "N" in text and "{" not in text, (why, text)
    assert "61" in said[Why.REACHES_TARGET] and "10" in said[Why.SCORES]
    assert "75" in said[Why.WINS_DEALS] and "40" in said[Why.WINS_DEALS]
    assert "4-4" in said[Why.CAN_CAP]
