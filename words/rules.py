"""Each game's rules page (``/domino rules``): the game's own page, found through the
game (a page is registered for its round class), then the spinner layout's rules where
the game is laid out on a spinner, then what every game shares. A game with no page of
its own still has one, built from its traits, so a new game never lacks its rules."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import (
    LINE_ENDS,
    SPINNER_ARMS,
    Cross,
    LayoutKind,
    MalteseCross,
    MerryGoRound,
    Milo,
    Round,
    find_variant,
)
from words.common import and_list, end_letter, game_title, letters_for, or_list, to_target
from words.i18n import _, number

Page = Callable[[], str]
_pages: dict[type[Round], Page] = {}


def page(game: type[Round]) -> Callable[[Page], Page]:
    """Registers the function that writes ``game``'s own rules (its class exactly: a
    game built on another states its own rules)."""

    def register(write: Page) -> Page:
        _pages[game] = write
        return write

    return register


def rules_for(game: type[Round] | str) -> str:
    """The whole rules page of a game (its round class, or its name)."""
    variant = find_variant(game) if isinstance(game, str) else game
    own = _pages.get(variant)
    spinner = variant.layout_kind is LayoutKind.SPINNER
    layout = f"\n\n{_spinner()}" if spinner else ""
    return f"{own() if own else _traits(variant)}{layout}\n\n{_common()}"


def _traits(variant: type[Round]) -> str:
    """A game's page when it has none of its own: what its traits say."""
    # Translators: the heading of the rules page of a game that has no page of its own:
    # its title, its player counts ("2, 3, or 4") and its target ("to 100").
    return _("**{game}** ({counts} players, {target})").format(
        game=game_title(variant),
        counts=or_list(number(n) for n in variant.player_counts),
        target=to_target(variant.default_target, variant.exact_target),
    )


def _common() -> str:
    return _(
        "**Every game** — one double-six set of 28 tiles; a tile is written high end first "
        "(`6-5`, worth 11) (R-ALL-1). Turns go round in seat order (R-ALL-2). Deals are random "
        "yet replayable from their seed, and a deal given by hand must keep the game's rules "
        "(R-ALL-3). If you hold a tile that fits you must play it; where it goes is your choice "
        "(R-ALL-4). A round ends when someone plays their last tile, or when nobody can play or "
        "draw (blocked) (R-ALL-5). Your hand is only ever shown to you, the boneyard only as a "
        "count (R-ALL-6). Your count is the pips left in your hand (R-ALL-7); in a blocked round, "
        "a tie for the lowest count scores nothing (R-ALL-8)."
    )


def _spinner() -> str:
    return _(
        "**The layout** — the first tile is a double, the spinner, with four arms: {arms} "
        "(R-SP-1). An arm starts with a tile matching the spinner; its open end is then the far "
        "number of its last tile, and a double on an arm lies crosswise (R-SP-2). A move names "
        "the tile and the arm (`6-5 {north}`); the bot fills in the arm when there is only one "
        "(R-SP-3)."
    ).format(arms=and_list(letters_for(SPINNER_ARMS)), north=end_letter("N"))


@page(Cross)
def _cross() -> str:
    return _(
        "**Cross** (2–4 players; 7 tiles each with 2 players, 5 with 3 or 4; the rest "
        "is the boneyard) (R-CR-1)\n"
        "• The highest double leads as the spinner; if nobody has a double, the tiles "
        "are dealt again (R-CR-2).\n"
        "• First build the cross: each play must start an empty arm with a tile "
        "matching the spinner, until all four are started (R-CR-3). Then play on any "
        "arm's open end (R-CR-4).\n"
        "• Can't play? Draw one tile. If it fits you must play it at once, and it is "
        "the only tile you may play that turn; otherwise pass. The last two boneyard "
        "tiles are never drawn (R-CR-5).\n"
        "• Play out: score everyone else's count. Blocked: the lowest count scores the "
        "others' total minus their own (13 vs 30 → 17) (R-CR-6). First to 100 wins "
        "(R-CR-7)."
    )


@page(MalteseCross)
def _maltese_cross() -> str:
    return _(
        "**Maltese Cross** — Cross with a second phase (2–4 players, hands and lead as "
        "Cross) (R-MC-1)\n"
        "• Start all four arms first (R-MC-2).\n"
        "• Then cap every arm with the double of its open number, laid crosswise; only "
        "such doubles may be played until all four are capped, and you draw as in "
        "Cross (R-MC-3). Then open play on the four arm ends (R-MC-4).\n"
        "• When the boneyard is down to two with the cross unfinished, every arm "
        "without a cap dies at once. The draw that took it there is still one turn: the "
        "drawn tile is played if it fits a live end, otherwise you pass, and no other "
        "tile may be played that turn. If no arm was capped, the round is blocked "
        "there and then (R-MC-5).\n"
        "• Scoring as Cross (18 vs 40 → 22); first to 100 by default, or 60, or your "
        "choice (R-MC-6)."
    )


@page(MerryGoRound)
def _merry_go_round() -> str:
    return _(
        "**Merry-Go-Round** (2–4 players, 7 tiles each; the rest is the boneyard) "
        "(R-MG-1)\n"
        "• The holder of the highest double leads any double: the spinner; if nobody "
        "has a double, the tiles are dealt again (R-MG-2). All four sides must be "
        "played before anything else (R-MG-3).\n"
        "• After every tile, add up the open ends (a double at an end counts both "
        "halves; the spinner counts both halves until two arms start). A multiple of 5 "
        "scores a point per 5 (R-MG-4).\n"
        "• Can't play? Draw until you can, or the boneyard is empty (option: keep the "
        "last two) (R-MG-5).\n"
        "• Round winner: the others' count minus yours, to the nearest 5, divided by 5 "
        "(23 → 5, 22 → 4) (R-MG-6). The game is to exactly 61: a score that goes past "
        "is not added (bust); reaching 61 ends the game at once (R-MG-7)."
    )


@page(Milo)
def _milo() -> str:
    return _(
        "**Milo** (4 players in two partnerships: seats 1 & 3 against 2 & 4; 7 tiles "
        "each, no boneyard) (R-MI-1)\n"
        "• One line with two ends, {ends}; doubles lie crosswise and are not spinners "
        "(R-MI-2).\n"
        "• The first round of a game is led with 6-6; then the lead passes to the next "
        "seat, who may lead any tile (R-MI-3). Can't play? Pass; four passes in a row "
        "block the round (R-MI-4).\n"
        "• Play out: 1 point for your team, 1 more if both ends then show the same "
        "number. Blocked: the team with the lower count scores 1; a tie scores nothing "
        "(R-MI-5).\n"
        "• First team to 5 wins (R-MI-6). A match is first to win N games; each new "
        "game is led by the seat after the one that led the last game's first round, "
        "with any tile (R-MI-7)."
    ).format(ends=and_list(letters_for(LINE_ENDS)))
