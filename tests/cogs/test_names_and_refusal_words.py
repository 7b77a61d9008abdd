"""Seats told apart wherever a finished game is shown (history, replay), names given the
room a line has, a rematch's series only of the seats that play it, and the engine's
refusals after a draw worded as the rules have them (R-MG-5, R-CR-5, R-MC-5)."""

from __future__ import annotations

from bot.commands import Start
from bot.engine import MustDrawFirst, OnlyDrawnTile, Tile, find_variant
from bot.engine.options import Options
from bot.snapshot import TableSnapshot
from bot.table import Seat, Table
from data.models import Participant
from rendering import fit_name
from words import i18n
from words.boards import seat_labels
from words.engine_refusals import engine_refusal
from words.play import table_card


def test_a_finished_games_computers_are_numbered_as_the_table_numbered_them() -> None:
    players = [
        Participant(seat=0, team=0, final_score=0, won=False, user_id=7, name="Ann"),
        Participant(seat=1, team=1, final_score=0, won=False, computer_level="easy"),
        Participant(seat=2, team=2, final_score=0, won=True, computer_level="easy"),
        Participant(seat=3, team=3, final_score=0, won=False),
    ]
    with i18n.speaking(i18n.ENGLISH):
        assert seat_labels(list(reversed(players))) == [
            "Ann",
            "Computer 1 (easy)",
            "Computer 2 (easy)",
            "a former player",
        ]


def test_a_name_alone_on_a_line_gets_the_lines_room() -> None:
    name = "Computer 1 (normal) of a long name"
    assert fit_name(name).endswith("…"), "four names side by side share the header"
    assert fit_name(name, wide=True) == name


def test_a_rematchs_series_leaves_out_a_seat_that_did_not_play_those_games() -> None:
    table = Table(
        id="0123abcd",
        guild_id=1,
        channel_id=2,
        host_id=10,
        game="cross",
        options=Options.for_game(find_variant("cross"), 4),
        seed=1,
        seats=(
            Seat(name="Ann", user_id=10),
            Seat(name="Bob", user_id=11),
            Seat(name="Computer 1 (easy)", level="easy"),
        ),
        series=(2, 1),
        lineup=("u10", "u11"),
    )
    table.apply(Start(10))
    snapshot = TableSnapshot.of(table)
    assert snapshot.series_by_seat() == [2, 1, None]
    with i18n.speaking(i18n.ENGLISH):
        shown = "\n".join(field.value or "" for field in table_card(snapshot).fields)
    assert "Series so far: Ann 2, Bob 1" in shown and "Computer" not in shown.split("Series")[1]


def test_a_drawn_tile_that_does_not_fit_is_said_so() -> None:
    with i18n.speaking(i18n.ENGLISH):
        again = engine_refusal(MustDrawFirst("R-MG-5", drawn=Tile(0, 0)))
        assert again == "The tile you drew, 0-0, does not fit: draw again (R-MG-5)."
        passing = engine_refusal(OnlyDrawnTile(Tile(5, 3), "R-CR-5", fits=False))
        assert passing == "You drew 5-3 this turn and it fits nowhere: pass (R-CR-5)."
        only = engine_refusal(OnlyDrawnTile(Tile(5, 3), "R-MC-5"))
        assert "it is the only tile you may play (R-MC-5)" in only
