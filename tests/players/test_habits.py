"""The model of how a seat chooses among its plays (``bot.players.habits``), by which the
expert weighs its guesses: what it reads off a move in Milo's line, and what it makes of
a seat that did not lay a double it held."""

from __future__ import annotations

from bot.engine import LineRound, Milo, Tile
from bot.engine.tiles import mask_of
from bot.players.beliefs import deal_weight
from bot.players.habits import LineChoice, line_choice, on_the_line
from tests.engine.builders import build, play

HANDS = [
    "6-6 1-1 1-0 2-2 2-1 2-0 3-3",
    "6-0 6-5 5-4 4-3 4-2 4-1 4-0",
    "3-2 3-1 3-0 5-5 5-3 5-2 4-4",
    "6-4 6-3 6-2 6-1 5-1 5-0 0-0",
]


def third_to_play() -> LineRound:
    """6-6 led (R-MI-3), 6-0 and 3-0 laid on the right: the line's ends are 6 and 3, and
    seat 3 holds 6-4 6-3 6-2 6-1 5-1 5-0 0-0."""
    round_ = build(Milo, HANDS)
    assert isinstance(round_, LineRound)
    play(round_, "6-6", "6-0 R", "3-0 R")
    return round_


def choice(round_: LineRound, text: str) -> LineChoice:
    (move,) = (m for m in round_.legal_moves() if m.text == text)
    return line_choice(round_, move, on_the_line(round_))


def test_the_tiles_laid_are_those_on_the_line() -> None:
    assert on_the_line(third_to_play()) == mask_of([Tile(6, 6), Tile(6, 0), Tile(3, 0)])


def test_a_play_is_read_from_the_seats_hand_and_the_line() -> None:
    """6-3 on the 3 opens 6 beside the other 6; three of seat 3's six other tiles carry a
    6, and of the seven 6s two are laid, one is this tile and three are seat 3's, so one
    is elsewhere. Laid on the 6 instead, it opens 3, which seat 3 no longer holds and five
    others do. 6-4 on the 6 opens 4 beside the 3: only 6-3 of the rest fits then."""
    round_ = third_to_play()
    assert choice(round_, "6-3 R") == LineChoice(9, 0, follow=3, outside=1, closes=1)
    assert choice(round_, "6-3 L") == LineChoice(9, 0, follow=0, outside=5, closes=1)
    assert choice(round_, "6-4 L") == LineChoice(10, 0, follow=1, outside=6, closes=0)


def test_a_lead_opens_both_its_numbers() -> None:
    """Seat 1 leads 4-3 from 6-0 6-5 5-4 4-3 4-2 4-1 4-0: four of its other tiles carry a
    4 and none a 3, so two 4s and six 3s are elsewhere."""
    round_ = build(Milo, HANDS, leader=1)
    assert isinstance(round_, LineRound)
    lead = choice(round_, "4-3")  # seat 1 may lead any tile in a later round (R-MI-3)
    assert lead == LineChoice(7, 0, follow=4, outside=2 + 6, closes=0)


def test_passing_over_a_fitting_double_makes_holding_it_unlikely() -> None:
    """Seat 3 laid 6-4 on the 6. A guess in which it also held 3-3, a double that fitted
    the other end, needs it to have kept the double back; one in which it held 5-3 there
    instead, a single that fitted as well, needs less (seats lay doubles early). Either
    tile changes places with seat 3's 5-1, which fitted nowhere at any seat's turn."""
    round_ = third_to_play()
    play(round_, "6-4 L")
    view = round_.seat_view(1)
    truth = [round_.hand(s) for s in range(4)]

    def swapped(mine: Tile) -> list[list[Tile]]:
        hands = [list(h) for h in truth]
        holder = next(s for s in (0, 2) if mine in hands[s])
        hands[holder][hands[holder].index(mine)] = Tile(5, 1)
        hands[3][hands[3].index(Tile(5, 1))] = mine
        return hands

    double = deal_weight(view, swapped(Tile(3, 3)), [])[0]
    single = deal_weight(view, swapped(Tile(5, 3)), [])[0]
    assert 0 < double < single
