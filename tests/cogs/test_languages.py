"""The bot speaks English, Spanish and Brazilian Portuguese: which language a Discord
locale reads, a server's language, the language of the moment kept per task (and into
the thread that draws a picture), numbers and plurals as each language writes them, the
pictures' words and alt text in Spanish, and — under a pseudo-language — every word of
every refusal, rules page and picture taken from a catalogue."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Literal

import pytest
from babel import Locale
from babel.lists import format_list
from discord.app_commands import locale_str

from bot.engine import GAMES, EngineError, Options, find_variant
from bot.refusals import (
    InTournament,
    LobbyClosed,
    NotRead,
    NotSaved,
    NotYourTurn,
    OutOfRange,
    SeatedElsewhere,
    TableFull,
    UnknownLanguage,
    UnknownLevel,
    WrongPlayerCount,
)
from data.models import LeaderboardEntry
from discord_face.commands_i18n import slash, translated
from rendering import played
from tests.cogs.test_picture_words import played as positions
from tests.cogs.test_replay_words import record, words_only
from tests.cogs.test_wording import refusals_met_in_play
from tests.pseudo import Checker, pseudo_language
from words import boards, common, engine_refusals, i18n, pictures, refusals, replays, rules

NAMES = ["Ann", "Bob", "Cat", "Dan"]
SPANISH = i18n.find("es-ES")
PORTUGUESE = i18n.find("pt-BR")


def list_words(locale: Locale) -> list[str]:
    """The words Babel's CLDR data joins a list with in ``locale`` ("and", "or"): the
    language's own data, as its numbers are, not words the bot writes, so the
    pseudo-language's checker sets them aside with the names."""
    joined = " ".join(format_list(["0", "1", "2"], style, locale) for style in ("standard", "or"))
    return sorted(set(re.findall(r"[^\W\d]+", joined)))


@pytest.fixture
def pseudo() -> Iterator[i18n.Language]:
    language = pseudo_language()
    with i18n.speaking(language):
        yield language


def spanish() -> i18n.Language:
    assert SPANISH is not None
    return SPANISH


def portuguese() -> i18n.Language:
    assert PORTUGUESE is not None
    return PORTUGUESE


# -- which language ----------------------------------------------------------------------


def test_a_discord_locale_reads_its_language_or_english() -> None:
    """Discord's Latin American Spanish reads the Spanish catalogue; British English and
    a language the bot does not speak read English."""
    assert i18n.for_locale("es-ES") is spanish()
    assert i18n.for_locale("es-419") is spanish()
    assert i18n.for_locale("pt-BR") is portuguese()
    assert i18n.for_locale("en-GB") is i18n.ENGLISH
    assert i18n.for_locale("fr") is i18n.ENGLISH
    assert i18n.for_locale(None) is i18n.ENGLISH


def test_a_servers_language_is_its_choice_else_its_preferred_locale_else_english() -> None:
    assert i18n.server_language("es-ES", "pt-BR") is spanish()
    assert i18n.server_language(None, "pt-BR") is portuguese()
    assert i18n.server_language(None, "ja") is i18n.ENGLISH
    assert i18n.server_language(None, None) is i18n.ENGLISH


def test_each_language_is_named_in_itself() -> None:
    assert [lang.name for lang in i18n.languages()] == [
        "English",
        "Español",
        "Português (Brasil)",
    ]


def test_command_words_are_translated_for_discords_locales_and_left_to_discord_in_english() -> None:
    name = slash("command", "end")
    option = slash("option", "end")
    assert translated(name, "es-ES") == translated(name, "es-419") == "terminar"
    assert translated(option, "es-ES") == "punta"  # the same word, told apart
    assert translated(name, "pt-BR") == "encerrar"
    assert translated(name, "en-US") is None and translated(name, "ko") is None
    assert translated(locale_str("Milo"), "es-ES") is None  # the same in Spanish


async def test_each_task_speaks_its_own_language_and_a_picture_thread_follows_it() -> None:
    """Two members' clicks handled at once each get their own language; the words of a
    picture drawn in a worker thread are the task's."""

    async def answer(locale: str) -> tuple[str, str]:
        i18n.use(locale)
        await asyncio.sleep(0)  # let the other task set its own
        here = common.label("draw")
        there = await asyncio.to_thread(common.label, "draw")
        return here, there

    results = await asyncio.gather(answer("es-419"), answer("pt-BR"), answer("en-US"))
    # gather gives a list (typeshed says a tuple for three awaitables)
    assert list(results) == [("Robar", "Robar"), ("Comprar", "Comprar"), ("Draw", "Draw")]
    assert i18n.current() is i18n.ENGLISH  # nothing leaked out of the tasks


# -- numbers and plurals --------------------------------------------------------------------


def test_numbers_are_written_as_each_language_writes_them() -> None:
    entry = LeaderboardEntry(1, 1, rating=12.345, games=4, wins=1, points=30)
    assert boards.board_value(entry, "rating") == "12.3"
    with i18n.speaking(spanish()):
        assert boards.board_value(entry, "rating") == "12,3"
    with i18n.speaking(portuguese()):
        assert boards.board_value(entry, "rating") == "12,3"


def test_a_rating_a_hair_below_zero_is_shown_as_nought_not_minus_nought() -> None:
    """A rating starts at 0 and may end a game a little below it (openskill's mu less
    three sigmas): rounded to one decimal it is 0.0, never "-0.0"."""
    entry = LeaderboardEntry(1, 1, rating=-0.04, games=5, wins=2, points=30)
    assert boards.board_value(entry, "rating") == "0.0"
    with i18n.speaking(spanish()):
        assert boards.board_value(entry, "rating") == "0,0"
    below = LeaderboardEntry(1, 1, rating=-0.06, games=5, wins=2, points=30)
    assert boards.board_value(below, "rating") == "-0.1"


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [("en-US", "1 win", "2 wins"), ("es-ES", "1 victoria", "2 victorias"),
     ("pt-BR", "1 vitória", "2 vitórias")],
)  # fmt: skip
def test_plurals_follow_each_languages_rule(language: str, one: str, two: str) -> None:
    with i18n.speaking(i18n.for_locale(language)):
        assert boards.board_value(LeaderboardEntry(1, 1, 0.0, 1, 1, 0), "wins") == one
        assert boards.board_value(LeaderboardEntry(1, 1, 0.0, 2, 2, 0), "wins") == two


def test_brazilian_portuguese_counts_nought_in_the_singular_as_its_rule_says() -> None:
    """gettext's pt_BR rule, plural=(n > 1): "0 vitória", where Spanish says "0 victorias"."""
    nought = LeaderboardEntry(1, 1, 0.0, 0, 0, 0)
    with i18n.speaking(portuguese()):
        assert boards.board_value(nought, "wins") == "0 vitória"
    with i18n.speaking(spanish()):
        assert boards.board_value(nought, "wins") == "0 victorias"


@pytest.mark.parametrize(
    ("language", "many"),
    [("en-US", "1000000 wins"), ("es-ES", "1000000 de victorias"),
     ("pt-BR", "1000000 de vitórias")],
)  # fmt: skip
def test_a_million_takes_the_plural_form_cldr_gives_it(language: str, many: str) -> None:
    """Babel 2.19's data: Spanish and Portuguese say "de" after a million ("many")."""
    million = LeaderboardEntry(1, 1, 0.0, 1_000_000, 1_000_000, 0)
    with i18n.speaking(i18n.for_locale(language)):
        assert boards.board_value(million, "wins") == many


# -- lists -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "counts"),
    [("en-US", "2, 3, or 4 players"), ("es-ES", "2, 3 o 4 jugadores"),
     ("pt-BR", "2, 3 ou 4 jogadores")],
)  # fmt: skip
def test_alternatives_are_listed_as_the_language_lists_them(language: str, counts: str) -> None:
    with i18n.speaking(i18n.for_locale(language)):
        assert counts in refusals.refusal(WrongPlayerCount("cross", (2, 3, 4), 1))


@pytest.mark.parametrize(
    ("items", "style", "listed"),
    [(["Ana", "Bea", "Inés"], "standard", "Ana, Bea e Inés"),
     (["Ana", "Hilda"], "standard", "Ana e Hilda"),
     (["Ana", "Hielo"], "standard", "Ana y Hielo"),
     (["Ana", "Olga"], "standard", "Ana y Olga"),
     (["N", "E", "S", "O"], "or", "N, E, S u O"),
     (["7", "8"], "or", "7 u 8"),
     (["10", "11"], "or", "10 u 11"),
     (["1", "110"], "or", "1 o 110"),
     (["Olga", "Ana"], "or", "Olga o Ana"),
     (["Ana", "Hora"], "or", "Ana u Hora")],
)  # fmt: skip
def test_spanish_says_e_before_an_i_sound_and_u_before_an_o_sound(
    items: list[str], style: Literal["standard", "or"], listed: str
) -> None:
    with i18n.speaking(spanish()):
        assert i18n.listing(items, style) == listed
    with i18n.speaking(portuguese()):
        assert i18n.listing(["Ana", "Inês"]) == "Ana e Inês"


# -- the leaderboard card --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "columns"),
    [("en-US", ["Rating", "Wins", "Points"]), ("es-ES", ["Valoración", "Victorias", "Puntos"]),
     ("pt-BR", ["Rating", "Vitórias", "Pontos"])],
)  # fmt: skip
def test_the_cards_third_column_is_named_for_what_the_board_is_ordered_by(
    language: str, columns: list[str]
) -> None:
    """The rating by default: the column shows it, not a score."""
    with i18n.speaking(i18n.for_locale(language)):
        named = [
            pictures.leaderboard_text("t", order).value for order in ("rating", "wins", "points")
        ]
        assert named == columns
        assert pictures.leaderboard_text("t").value == columns[0]


# -- the pictures' words and alt text in Spanish -----------------------------------------------


def test_the_alt_text_of_a_spanish_table_is_in_spanish() -> None:
    for _, view in positions("merry-go-round", seeds=2):
        if view.layout is None or view.outcome is not None:
            continue
        with i18n.speaking(spanish()):
            text = pictures.describe_table(view, NAMES[: view.players])
            header = pictures.table_text(view, NAMES[: view.players])
        assert text.startswith(f"Carrusel, ronda {view.round_number}, a 61.")
        assert f"Turno de {NAMES[view.turn]}." in text and "Puntas: " in text
        assert "Eje " in text and "Brazo N" in text and "Pozo " in text
        for english in ("to play", "Scores", "Open ends", "Spinner", "Arm ", "Boneyard"):
            assert english not in text and english not in " ".join(header.header)
        assert header.header[-1] == f"Turno de {NAMES[view.turn]}"
        assert header.before_lead == "Esperando la salida." and header.dead == "muerto"


# -- every word from a catalogue ----------------------------------------------------------------


def test_the_checker_finds_words_no_catalogue_gave() -> None:
    """The pseudo-language check can fail: English outside a segment, a segment that is
    no message, and English inside a message's placeholder are all found."""
    checker = Checker(["Ann"])
    assert checker.strays("⟦You played 6-5 N.⟧ <@1> Ann 12 · R-CR-5") == []
    assert checker.strays("⟦You played 6-5 N.⟧ Well done") == ["Well done"]
    assert checker.strays("⟦You played it all.⟧") == ["⟦You played it all.⟧"]
    assert checker.strays("⟦Ann plays it⟧") == ["⟦Ann plays it⟧"]
    assert checker.strays("⟦It is another player's turn, not yours.⟧") != []
    assert checker.strays("⟦It is ⟦another player⟧'s turn, not yours.⟧") == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_refusal_is_worded_from_the_catalogue(
    pseudo: i18n.Language, game: str
) -> None:  # fmt: skip
    checker = Checker(NAMES + list_words(pseudo.locale))
    for error in refusals_met_in_play(game, seed=1):
        text = engine_refusals.engine_refusal(error)
        assert checker.strays(text) == [], text


@pytest.mark.parametrize(
    ("game", "options"),
    [("merry-go-round", {"target": 100}), ("cross", {"target": 5}),
     ("cross", {"keep_last_two": True}), ("cross", {"match_games": 3}),
     ("milo", {"match_games": 99}), ("cross", {"target": "100"})],
)  # fmt: skip
def test_every_options_refusal_is_worded_from_the_catalogue(
    pseudo: i18n.Language, game: str, options: dict[str, object]
) -> None:
    with pytest.raises(EngineError) as refused:
        Options.for_game(find_variant(game), 4, **options)  # type: ignore[arg-type]
    text = engine_refusals.engine_refusal(refused.value)
    assert Checker(NAMES + list_words(pseudo.locale)).strays(text) == [], text


def test_every_table_refusal_is_worded_from_the_catalogue(pseudo: i18n.Language) -> None:
    """(A language is named in itself, as language menus name them.)"""
    names = NAMES + [language.name for language in i18n.languages()]
    checker = Checker(names + list_words(pseudo.locale))
    refused = [
        SeatedElsewhere(110000000000000001), LobbyClosed("join"), LobbyClosed("leave"),
        TableFull(4), UnknownLevel(("easy", "normal", "hard")), UnknownLanguage(("en-US",)),
        WrongPlayerCount("milo", (4,), 3), NotYourTurn(1), NotYourTurn(7),
        OutOfRange("turn_timer", 20, 3600, 5), OutOfRange("page", 1, 1000, "x"),
        NotSaved("busy", "play"), NotRead("full"), NotSaved("gone", "join"),
        InTournament(22, "cross", "swiss", 0, 1_800_000_000.0),
        InTournament(22, "milo", "knockout", 2, 1_800_000_000.0),
        InTournament(22, "cross", "round-robin", 1, 1_800_000_000.0, waiting=23),
    ]  # fmt: skip
    for refusal in refused:
        text = refusals.refusal(refusal, NAMES[:2])
        assert checker.strays(text) == [], text


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_rules_and_the_pictures_words_are_all_from_the_catalogue(
    pseudo: i18n.Language, game: str
) -> None:
    checker = Checker(NAMES + list_words(pseudo.locale))
    assert checker.strays(rules.rules_for(game)) == []
    for match, view in positions(game, seeds=2):
        names = NAMES[: view.players]
        header = pictures.table_text(view, names)
        for text in (*header.header, header.before_lead, header.dead,
                     pictures.describe_table(view, names)):  # fmt: skip
            assert checker.strays(text) == [], text
        mine = match.seat_view(view.turn)
        hand = pictures.hand_text(mine, names)
        for text in (hand.title, hand.status, pictures.describe_hand(mine)):
            assert checker.strays(text) == [], text


@pytest.mark.parametrize("game", ["cross", "merry-go-round", "milo match"])
def test_a_replays_words_are_all_from_the_catalogue(pseudo: i18n.Language, game: str) -> None:
    """Every move's line, round card and last card, and the alt text."""
    data = record(game)
    names = NAMES[: data["players"]]
    checker = Checker(names + list_words(pseudo.locale))
    text = replays.replay_text(names)
    said: list[str] = []
    for index, view, ended in played(data):
        said.append(text.move(view, index + 1, len(data["actions"])))
        if ended:
            said += text.round_over(view)
            said += [text.hand(view, seat) for seat in range(view.players)]
    replay = words_only(data)
    assert replay.final is not None
    said += text.final(replay.final)
    said.append(replays.describe_replay(replay, names))
    assert [line for line in said if checker.strays(line)] == []
