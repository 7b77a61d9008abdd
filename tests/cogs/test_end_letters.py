"""The ends' letters are each language's own wherever a player reads an end, and
``/domino play`` takes them as well as the engine's N E S W (R-SP-1) and L R (R-MI-2):
Spanish and Portuguese write West O (Oeste); Milo's left and right ends are I and D in
Spanish, E and D in Portuguese, so a Portuguese "E" is East in the Cross family and the
left end in Milo. The engine, the stored moves and the buttons' custom_ids keep the
engine's names."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.commands import Join, Play, Start
from bot.engine import (
    LINE_ENDS,
    SPINNER_ARMS,
    DoesNotFit,
    LayoutKind,
    LineLayout,
    Match,
    Move,
    NotAMove,
    Options,
    Tile,
    find_variant,
)
from bot.snapshot import TableSnapshot
from bot.table import Table
from cogs.tables import TablesCog
from discord_face.buttons import ends_view, hand_view
from rendering import render_table
from words import common, engine_refusals, i18n, pictures, play, rules

SPINNER, LINE = LayoutKind.SPINNER, LayoutKind.LINE
LETTERS = {
    "en-US": {"N": "N", "E": "E", "S": "S", "W": "W", "L": "L", "R": "R"},
    "es-ES": {"N": "N", "E": "E", "S": "S", "W": "O", "L": "I", "R": "D"},
    "pt-BR": {"N": "N", "E": "E", "S": "S", "W": "O", "L": "E", "R": "D"},
}


def speaking(code: str) -> Any:
    return i18n.speaking(i18n.for_locale(code))


def table_where(game: str, end: str) -> tuple[TableSnapshot, int]:
    """A started table of ``game`` whose member to move can play on ``end``, and that
    member's id."""
    variant = find_variant(game)
    players = variant.player_counts[0]
    table = Table("0123abcd", 1, 2, 10, game, Options.for_game(variant, players), 7)
    for member in range(10, 10 + players):
        table.apply(Join(member, f"m{member}"))
    table.apply(Start(10))
    for _ in range(60):
        snapshot = TableSnapshot.of(table)
        user = snapshot.seats[snapshot.turn or 0].user_id or 0
        legal = snapshot.legal_for(user)
        if any(move.end_name == end for move in legal):
            return snapshot, user
        table.apply(Play(user, legal[0]))
    raise AssertionError(f"no {game} turn could play on {end}")


def labels(components: list[dict[str, Any]]) -> Iterator[tuple[str, str]]:
    for row in components:
        for button in row["components"]:
            yield button["label"], button["custom_id"]


@pytest.mark.parametrize("code", sorted(LETTERS))
def test_each_language_writes_the_ends_with_its_own_letters(code: str) -> None:
    with speaking(code):
        assert common.end_letters() == LETTERS[code]


@pytest.mark.parametrize("code", sorted(LETTERS))
@pytest.mark.parametrize("layout", [SPINNER, LINE])
def test_within_a_game_each_letter_names_one_end_and_reads_back_to_it(
    code: str, layout: LayoutKind
) -> None:
    ends = SPINNER_ARMS if layout is SPINNER else LINE_ENDS
    with speaking(code):
        shown = [common.end_letter(end) for end in ends]
        assert len(set(shown)) == len(ends), shown
        for end, letter in zip(ends, shown, strict=True):
            assert common.read_end(letter, layout) == end
            assert common.read_end(letter.lower(), layout) == end
            assert common.read_end(end, layout) == end  # the engine's own, always


def test_portuguese_e_is_east_in_the_cross_family_and_the_left_end_in_milo() -> None:
    with speaking("pt-BR"):
        assert common.read_end("E", SPINNER) == "E"
        assert common.read_end("E", LINE) == "L"
        assert common.read_end("D", LINE) == "R"
        assert common.read_end("O", SPINNER) == "W"
        assert common.read_end("O", LINE) is None


def test_spanish_reads_o_as_west_and_i_d_as_milos_ends_and_nothing_across_games() -> None:
    with speaking("es-ES"):
        assert common.read_end("O", SPINNER) == "W" and common.read_end("I", LINE) == "L"
        assert common.read_end("I", SPINNER) is None and common.read_end("O", LINE) is None
    assert common.read_end("O", SPINNER) is None  # English has no O


@pytest.mark.parametrize(
    ("code", "tile", "end", "layout", "move"),
    [
        ("es-ES", "6-5", "O", SPINNER, "6-5 W"),
        ("es-ES", "6-5 o", None, SPINNER, "6-5 W"),
        ("es-ES", "6-5", "W", SPINNER, "6-5 W"),
        ("es-ES", "6-5", "I", LINE, "6-5 L"),
        ("pt-BR", "6-5", "E", LINE, "6-5 L"),
        ("pt-BR", "6-5", "E", SPINNER, "6-5 E"),
        ("pt-BR", "6-5", "X", SPINNER, "6-5 X"),
        ("pt-BR", "6-5", None, SPINNER, "6-5"),
        ("pt-BR", "draw", None, LINE, "draw"),
    ],
)
def test_a_typed_move_is_read_in_the_members_language_for_the_tables_game(
    code: str, tile: str, end: str | None, layout: LayoutKind, move: str
) -> None:
    """What names no end (X) is left for the engine to refuse with its reason."""
    with speaking(code):
        assert common.typed_move(tile, end, layout) == move


def test_a_portuguese_e_plays_east_at_cross_and_the_left_end_at_milo() -> None:
    """Read per game, then played: the engine gets its own names (R-SP-3, R-MI-2)."""
    for game, end in (("cross", "E"), ("milo", "L")):
        table, user = table_where(game, end)
        move = next(m for m in table.legal_for(user) if m.end_name == end)
        with speaking("pt-BR"):
            typed = common.typed_move(str(move.tile), "E", table.variant.layout_kind)
        assert Move.parse(typed) is move


@pytest.mark.parametrize(("code", "label"), [("en-US", "W"), ("es-ES", "O"), ("pt-BR", "O")])
def test_a_hands_buttons_show_the_letters_and_keep_the_engines_end_in_their_ids(
    code: str, label: str
) -> None:
    table, user = table_where("cross", "W")
    legal = table.legal_for(user)
    west = [move for move in legal if move.end_name == "W"]
    with speaking(code):
        for view in (hand_view(table, legal), ends_view(table, west)):
            shown = dict(labels(view.to_components()))
            for move in west:
                assert shown[f"{move.tile} {label}"].endswith(f":play:{move.tile} W")


@pytest.mark.parametrize(("code", "letters"), [("es-ES", ["I", "D"]), ("pt-BR", ["E", "D"])])
async def test_end_autocomplete_shows_the_letters_and_sends_the_engines_names(
    code: str, letters: list[str]
) -> None:
    table, user = table_where("milo", "L")
    tile = next(m.tile for m in table.legal_for(user) if m.end_name == "L")
    cog = cast(Any, SimpleNamespace(_quiet_table=lambda interaction: table))
    namespace, member = SimpleNamespace(tile=str(tile)), SimpleNamespace(id=user)
    asked = cast(Any, SimpleNamespace(namespace=namespace, user=member))
    complete = cast(Any, TablesCog._end_choices)  # the method, as discord.py calls it
    with speaking(code):
        everything = await complete(cog, asked, "")
        typed = await complete(cog, asked, letters[0].lower())
    ends = [m.end_name for m in table.legal_for(user) if m.tile is tile]
    assert [(c.name, c.value) for c in everything] == [
        (dict(zip(LINE_ENDS, letters, strict=True))[end or ""], end) for end in ends
    ]
    assert [c.value for c in typed] == ["L"]


def test_move_lines_hints_and_replays_name_the_end_with_the_letter() -> None:
    west, left = Move.play(Tile.parse("6-5"), "W"), Move.play(Tile.parse("6-5"), "L")
    with speaking("es-ES"):
        assert play.you_played(west) == "Jugaste 6-5 O."
        assert common.move_text(left) == "6-5 I"
    with speaking("pt-BR"):
        assert play.you_played(left) == "Você jogou 6-5 E."
        assert common.move_text(west) == "6-5 O"


def test_refusals_name_the_ends_with_the_letters() -> None:
    """R-SP-2: the arm that refused the tile, and what an end is, in the language's
    letters (listed as the language lists alternatives)."""
    tile = Tile.parse("6-5")
    with speaking("es-ES"):
        said = engine_refusals.engine_refusal(DoesNotFit(tile, "W", 3, ("N", "W"), "R-SP-2"))
        assert said == "6-5 no encaja: el brazo O pide un 3; 6-5 encaja en N u O (R-SP-2)."
        typed = engine_refusals.engine_refusal(NotAMove("Q", "use N", "an end"))
        assert typed == "`Q` no es una punta: usa N, E, S u O (I o D en Milo)."
    with speaking("pt-BR"):
        typed = engine_refusals.engine_refusal(NotAMove("Q", "use N", "an end"))
        assert typed == "`Q` não é uma ponta: use N, E, S ou O (E ou D no Milo)."


def test_the_rules_pages_name_the_ends_with_the_letters() -> None:
    """R-SP-1 names the four arms, R-MI-2 Milo's two ends."""
    with speaking("es-ES"):
        assert "cuatro brazos: N, E, S y O (R-SP-1)" in rules.rules_for("cross")
        assert "(`6-5 N`)" in rules.rules_for("merry-go-round")
        assert "dos puntas, I y D (izquierda y derecha)" in rules.rules_for("milo")
    with speaking("pt-BR"):
        assert "quatro braços: N, E, S e O (R-SP-1)" in rules.rules_for("maltese-cross")
        assert "duas pontas, E e D (esquerda e direita)" in rules.rules_for("milo")
    assert "four arms: N, E, S, and W (R-SP-1)" in rules.rules_for("cross")
    assert "two ends, L and R;" in rules.rules_for("milo")


def test_the_pictures_and_their_alt_text_name_the_ends_with_the_letters() -> None:
    """The West arm's label and caption, its line in the alt text; Milo's line."""
    table, user = table_where("cross", "W")
    mine = table.seat_view(user)
    assert mine is not None
    view = mine.public
    match = Match("milo", 4, seed=3)
    match.play(match.legal_moves()[0])
    with speaking("es-ES"):
        picture = render_table(view, pictures.table_text(view, ["Ana", "Beto"]))
        alt = pictures.describe_table(view, ["Ana", "Beto"])
        hand = pictures.hand_text(mine, ["Ana", "Beto"])
        mine_alt = pictures.describe_hand(mine)
        line = pictures.describe_table(match.view(), ["Ana", "Beto", "Cris", "Dani"])
    assert {end: words.split(":")[0] for end, words, _, _ in picture.labels}["W"] == "O"
    assert "Brazo O: " in alt and "Brazo W" not in alt
    assert hand.ends == LETTERS["es-ES"]
    assert " u O" in mine_alt  # where each tile fits: "en N, E, S u O"
    assert isinstance(match.view().layout, LineLayout) and "Línea de I a D: " in line
