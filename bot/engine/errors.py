"""The engine's refusals: exception classes that carry data, as python-chess's do.

Every refusal is an :class:`EngineError`. Each class keeps the facts a caller needs to
word the refusal itself — in another language, say — (a tile, the ends it fits, a
count, the rule's number in ``rule``), and a default English ``str()`` for developers,
logs and the command line::

    EngineError                    .rule: the RULES.md number, where one refuses it
    ├── IllegalMove                a move the rules do not allow now (.reason: the words)
    │   ├── NotAMove               not a move at all (.text; .what: move, tile or end)
    │   ├── RoundOver / MatchOver  nothing more to play
    │   ├── WrongSeat              a record's action by a seat not on turn (.expected, .got)
    │   ├── NotInHand              (.tile) the seat does not hold it
    │   ├── MustPlay               holds a tile that fits (R-ALL-4; .drawn after a draw)
    │   ├── MustDrawFirst          cannot play, may draw: draw before passing (.drawn: the
    │   │                          tile drawn did not fit, draw again, R-MG-5)
    │   ├── NoDrawAllowed          the boneyard is down to what nobody draws (.boneyard_count)
    │   ├── AlreadyDrew            the one draw a turn is made (R-CR-5)
    │   ├── NoBoneyard             Milo: nothing to draw (R-MI-4)
    │   ├── NotLedYet              draw or pass before the lead
    │   ├── LeadNamesNoEnd         (.tile) the lead is played on no end
    │   ├── WrongLead              (.tile, .required, .lead) not a tile that may lead
    │   ├── OnlyDrawnTile          (.drawn, .fits, .draw_again) after a draw only it may be
    │   │                          played; fitting nowhere, the turn goes on to a pass or a draw
    │   ├── AmbiguousMove          (.tile, .ends) fits several ends, none named
    │   ├── FitsNowhere            (.tile) fits no end now
    │   ├── NotAnEnd               (.end, .ends) an end this layout does not have
    │   └── WrongEnd               (.tile, .end, .fits_on) not on that end
    │       ├── DoesNotFit         (.need) the end shows another number (R-SP-2, R-MI-2)
    │       ├── ArmStartedAlready  the cross comes first (R-CR-3, R-MC-2, R-MG-3)
    │       ├── CapsOnly           (.need) only the cap, a double, goes there now (R-MC-3)
    │       ├── ArmCapped          capped already: cap another arm (R-MC-3)
    │       └── ArmDead            the arm died when the boneyard ran down (R-MC-5)
    ├── NotATile                   (.text) not a tile (also a ValueError)
    │   └── BadPips                (.pips) Tile(a, b) of no two pips 0..6 (R-ALL-1; also a
    │                              TypeError)
    ├── NotASeat                   (.seat, .players) asked for a seat there is not (R-ALL-2)
    ├── NotASide                   (.side, .sides) asked for a side there is not
    ├── InvalidOptions             table options the game does not allow
    │   ├── UnknownGame            (.name, .games)
    │   ├── WrongPlayerCount       (.game, .allowed, .got)
    │   ├── FixedTarget            (.game, .target) its target cannot be changed (R-MG-7)
    │   ├── TargetOutOfRange       (.game, .low, .high, .got)
    │   ├── OptionNotOffered       (.game, .option, .offered_by) another game's option
    │   ├── MatchGamesOutOfRange   (.low, .high, .got) (R-MI-7)
    │   ├── UnknownOption          (.name)
    │   └── BadOptionType          (.field, .expected, .got) a value of the wrong type
    ├── InvalidDeal                an explicit deal the rules refuse (R-ALL-3)
    │   ├── WrongHandCount         (.game, .allowed, .got) hands for a player count
    │   ├── WrongHandSize          (.game, .seat, .size, .held)
    │   ├── NotEachTileOnce        the hands and boneyard are not the 28 tiles
    │   ├── WrongLeader            (.named, .expected, .double, .lead) not the leader the
    │   │                          rules name
    │   ├── NoDouble               nobody holds a double: the deal is made again
    │   └── WrongScores            (.game, .sides, .target, .got) totals no game reaches
    ├── InvalidRecord              (.field, .problem) a record field of the wrong type/range
    └── ReplayError                (.index, .action, .error) a record that does not replay

The ``game`` an error names is the game's round class (``.game.title``, ``.game.game``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.engine.round import Round
    from bot.engine.tiles import Tile

_LONGEST = 40
"""Characters of a caller's value quoted in a message, at most."""


def brief(value: object) -> str:
    """A caller's value as a message quotes it: short, one line, never failing (a huge
    number or a deeply nested list is named, not printed)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 128:
            return f"a {int(value.bit_length() * 0.30103)}-digit number"
        text = repr(value)
    elif isinstance(value, float | str):
        text = repr(value)
    elif isinstance(value, list | tuple | dict | set | frozenset):
        return f"{_a(type(value).__name__)} of {len(value)}"
    else:
        return _a(type(value).__name__)
    return text if len(text) <= _LONGEST else text[: _LONGEST - 1] + "…"


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiouAEIOU" else f"a {noun}"


def _or(items: Sequence[object]) -> str:
    return " or ".join(str(item) for item in items)


def _listed(value: object) -> str:
    """A caller's short list item by item (``[70, -5]``); anything else as :func:`brief`."""
    if isinstance(value, list | tuple) and len(value) <= 8:
        return f"[{', '.join(brief(item) for item in value)}]"
    return brief(value)


class EngineError(Exception):
    """Base of every refusal the engine raises."""

    rule: str | None = None
    """The rule of RULES.md that refuses it (``R-CR-3``), when one does."""


# -- moves ----------------------------------------------------------------------------------


class IllegalMove(EngineError):
    """A move the rules do not allow now; ``str(error)`` says why in plain words.

    ``reason`` is the sentence without the rule; ``rule`` names the rule of RULES.md that
    refuses the move (``R-CR-3``) when one does.
    """

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule


class NotAMove(IllegalMove, ValueError):
    """``text`` is not a move (or, ``what`` says, not a tile or an end of one); ``hint``
    says what one looks like. Also a ValueError, as :meth:`Move.parse` raised before."""

    def __init__(
        self,
        text: object,
        hint: str = "write a tile and an end, like 6-5 N",
        what: str = "a move",
    ) -> None:
        super().__init__(f"{brief(text)} is not {what}: {hint}")
        self.text = text
        self.hint = hint
        self.what = what


class RoundOver(IllegalMove):
    """The round has ended: no move is taken."""

    def __init__(self) -> None:
        super().__init__("the round is over")


class MatchOver(IllegalMove):
    """The match has ended: no move is taken."""

    def __init__(self) -> None:
        super().__init__("the match is over")


class WrongSeat(IllegalMove):
    """A record's action made by ``got`` while ``expected`` is to move."""

    def __init__(self, expected: int, got: object) -> None:
        super().__init__(f"it is seat {expected}'s turn, not seat {brief(got)}'s")
        self.expected = expected
        self.got = got


class NotInHand(IllegalMove):
    """The seat to move does not hold ``tile``."""

    def __init__(self, tile: Tile) -> None:
        super().__init__(f"{tile} is not in your hand")
        self.tile = tile


class MustPlay(IllegalMove):
    """A draw or a pass by a seat that holds a tile that fits (R-ALL-4); after a draw,
    ``drawn`` is that tile, which must be played (R-CR-5, R-MG-5)."""

    def __init__(self, rule: str, drawn: Tile | None = None) -> None:
        if drawn is None:
            super().__init__("you hold a tile that fits, so you must play it", rule)
        else:
            super().__init__(f"the tile you drew, {drawn}, fits, so you must play it", rule)
        self.drawn = drawn


class MustDrawFirst(IllegalMove):
    """A pass by a seat that cannot play but may draw. ``drawn``, when the seat has drawn
    this turn already, is the tile it drew last, which does not fit: it draws again
    (R-MG-5)."""

    def __init__(self, rule: str, drawn: Tile | None = None) -> None:
        if drawn is None:
            super().__init__("you cannot play, so you must draw first", rule)
        else:
            super().__init__(f"the tile you drew, {drawn}, does not fit: draw again", rule)
        self.drawn = drawn


class NoDrawAllowed(IllegalMove):
    """A draw with only ``boneyard_count`` tiles left, which nobody draws (R-CR-5,
    R-MG-5): the seat passes."""

    def __init__(self, boneyard_count: int, rule: str) -> None:
        super().__init__(
            f"nobody draws: {boneyard_count} tiles are left in the boneyard, you pass", rule
        )
        self.boneyard_count = boneyard_count


class AlreadyDrew(IllegalMove):
    """A second draw in a turn whose one draw did not fit (R-CR-5): the seat passes."""

    def __init__(self, rule: str) -> None:
        super().__init__("you have drawn your one tile this turn and it does not fit: pass", rule)


class NoBoneyard(IllegalMove):
    """A draw in a game with no boneyard (Milo, R-MI-4): the seat passes."""

    def __init__(self, rule: str) -> None:
        super().__init__("Milo has no boneyard: you cannot play, so pass", rule)


class NotLedYet(IllegalMove):
    """A draw or a pass before the round is led."""

    def __init__(self, rule: str) -> None:
        super().__init__("the round has not been led yet: lead a tile", rule)


class LeadNamesNoEnd(IllegalMove):
    """The lead, ``tile``, played on an end: the first tile has none to go on."""

    def __init__(self, tile: Tile, rule: str) -> None:
        super().__init__(f"the first tile names no end: play just {tile}", rule)
        self.tile = tile


class LeadRule(enum.Enum):
    """Which tiles a leader may lead, as :class:`WrongLead` reports it."""

    HIGHEST_DOUBLE = "highest double"
    """Its highest double (R-CR-2, R-MC-1)."""
    ANY_DOUBLE = "any double"
    """Any double of its own (R-MG-2)."""
    SIX_SIX = "6-6"
    """6-6, in the first round of a game (R-MI-3)."""
    PASSED_ON = "any tile"
    """Any tile: the lead passed on to the leader (R-MI-3, R-MI-7)."""


class WrongLead(IllegalMove):
    """``tile`` may not lead: the leader must lead one of ``required`` (the tiles of its
    hand that may), as ``lead`` says."""

    def __init__(self, tile: Tile, required: tuple[Tile, ...], lead: LeadRule, rule: str) -> None:
        if lead is LeadRule.ANY_DOUBLE:
            reason = "the round opens with a double of yours"
        elif lead is LeadRule.SIX_SIX:
            reason = "the first round of a game opens with 6-6"
        else:
            reason = f"the round opens with your highest double, {_or(required)}"
        super().__init__(reason, rule)
        self.tile = tile
        self.required = required
        self.lead = lead


class OnlyDrawnTile(IllegalMove):
    """The seat drew this turn, and only the tile it drew, ``drawn``, may be played now
    (R-CR-5, R-MG-5, R-MC-5). ``fits``: whether it fits somewhere. When it does not, the
    turn goes on without it: the seat passes (R-CR-5, R-MC-5) or, ``draw_again``, draws
    another tile (R-MG-5)."""

    def __init__(self, drawn: Tile, rule: str, fits: bool = True, draw_again: bool = False) -> None:
        if fits:
            reason = f"you drew {drawn} this turn: it is the only tile you may play"
        else:
            then = "draw again" if draw_again else "pass"
            reason = (
                f"you drew {drawn} this turn and may play no other tile; it fits nowhere: {then}"
            )
        super().__init__(reason, rule)
        self.drawn = drawn
        self.fits = fits
        self.draw_again = draw_again


class AmbiguousMove(IllegalMove):
    """``tile`` was played without naming an end, and it fits on ``ends`` (R-SP-3):
    :meth:`Round.parse_move` raises it only when there are several."""

    def __init__(self, tile: Tile, ends: tuple[str, ...], rule: str) -> None:
        super().__init__(f"say where {tile} goes: {_or(ends)}", rule)
        self.tile = tile
        self.ends = ends


class FitsNowhere(IllegalMove):
    """``tile`` fits on no end now."""

    def __init__(self, tile: Tile) -> None:
        super().__init__(f"{tile} does not fit anywhere now")
        self.tile = tile


class NotAnEnd(IllegalMove):
    """``end`` (``L``) is not one of this layout's ``ends`` (``N E S W``)."""

    def __init__(self, end: str, ends: tuple[str, ...], rule: str) -> None:
        super().__init__(f"this layout's ends are {', '.join(ends)}", rule)
        self.end = end
        self.ends = ends


class WrongEnd(IllegalMove):
    """``tile`` may not go on ``end`` now; ``fits_on`` lists the ends where it may (the
    sentence adds them)."""

    def __init__(
        self, tile: Tile, end: str, fits_on: tuple[str, ...], reason: str, rule: str
    ) -> None:
        if fits_on:
            reason = f"{reason}; {tile} fits on {_or(fits_on)}"
        super().__init__(reason, rule)
        self.tile = tile
        self.end = end
        self.fits_on = fits_on


def _place(end: str) -> str:
    return f"end {end}" if end in ("L", "R") else f"arm {end}"


class DoesNotFit(WrongEnd):
    """``end`` shows ``need`` and ``tile`` does not carry it (R-SP-2, R-MI-2)."""

    def __init__(
        self, tile: Tile, end: str, need: int, fits_on: tuple[str, ...], rule: str
    ) -> None:
        reason = f"{tile} does not fit: {_place(end)} needs a {need}"
        super().__init__(tile, end, fits_on, reason, rule)
        self.need = need


class ArmStartedAlready(WrongEnd):
    """Arm ``end`` is started, and no arm grows until all four are (R-CR-3, R-MC-2,
    R-MG-3)."""

    def __init__(self, tile: Tile, end: str, fits_on: tuple[str, ...], rule: str) -> None:
        reason = f"arm {end} is started already: all four arms must be started before any arm grows"
        super().__init__(tile, end, fits_on, reason, rule)


class CapsOnly(WrongEnd):
    """Until every arm is capped, arm ``end`` takes only its cap, the double of ``need``
    (R-MC-3)."""

    def __init__(
        self, tile: Tile, end: str, need: int, fits_on: tuple[str, ...], rule: str
    ) -> None:
        reason = (
            f"until every arm is capped only doubles may be played: arm {end} needs"
            f" the {need}-{need}"
        )
        super().__init__(tile, end, fits_on, reason, rule)
        self.need = need


class ArmCapped(WrongEnd):
    """Arm ``end`` is capped, and other arms still wait for theirs (R-MC-3)."""

    def __init__(self, tile: Tile, end: str, fits_on: tuple[str, ...], rule: str) -> None:
        super().__init__(tile, end, fits_on, f"arm {end} is capped already: cap another arm", rule)


class ArmDead(WrongEnd):
    """Arm ``end`` had no cap when the boneyard ran down to 2: it takes nothing for the
    rest of the round (R-MC-5)."""

    def __init__(self, tile: Tile, end: str, fits_on: tuple[str, ...], rule: str) -> None:
        reason = f"arm {end} is dead: it had no cap when the boneyard ran down to 2"
        super().__init__(tile, end, fits_on, reason, rule)


class NotASeat(EngineError):
    """``seat`` is not one of the ``players`` seats, numbered from 0 (R-ALL-2)."""

    rule = "R-ALL-2"

    def __init__(self, seat: object, players: int) -> None:
        super().__init__(f"seat {brief(seat)} is not a seat: seats run from 0 to {players - 1}")
        self.seat = seat
        self.players = players


class NotASide(EngineError):
    """``side`` is not one of the ``sides`` that score: each seat, or Milo's two teams
    (R-MI-1)."""

    def __init__(self, side: object, sides: int) -> None:
        super().__init__(f"side {brief(side)} is not a side: sides run from 0 to {sides - 1}")
        self.side = side
        self.sides = sides


class NotATile(EngineError, ValueError):
    """``text`` is not a tile. Also a ValueError, as :meth:`Tile.parse` raised before."""

    def __init__(self, text: object) -> None:
        super().__init__(f"{brief(text)} is not a tile: write it like 6-5")
        self.text = text


class BadPips(NotATile, TypeError):
    """``Tile(a, b)`` with ``pips`` ``(a, b)`` that are not two whole numbers from 0 to 6
    (R-ALL-1; also ``text``, as every :class:`NotATile` has). A ValueError, as
    ``Tile(7, 7)`` raised before, and a TypeError, as ``Tile(5.5, 1)`` did."""

    rule = "R-ALL-1"

    def __init__(self, a: object, b: object) -> None:
        # NotATile's words are about text; a tile's two numbers get their own.
        super(NotATile, self).__init__(
            f"Tile({brief(a)}, {brief(b)}): pip values are whole numbers from 0 to 6 (R-ALL-1)"
        )
        self.pips = self.text = (a, b)


# -- options --------------------------------------------------------------------------------


class InvalidOptions(EngineError):
    """Table options the game does not allow (refused before the table opens)."""


class UnknownGame(InvalidOptions):
    """There is no game called ``name``; ``games`` are the names there are."""

    def __init__(self, name: object, games: tuple[str, ...]) -> None:
        super().__init__(f"there is no game {brief(name)}: choose one of {', '.join(games)}")
        self.name = name
        self.games = games


class WrongPlayerCount(InvalidOptions):
    """``game`` is played by one of ``allowed`` players, not ``got``."""

    def __init__(self, game: type[Round], allowed: tuple[int, ...], got: int) -> None:
        super().__init__(f"{game.title} is played by {_or(allowed)} players, not {brief(got)}")
        self.game = game
        self.allowed = allowed
        self.got = got
        self.rule = game.deal_rule


class FixedTarget(InvalidOptions):
    """``game`` is always played to ``target`` (R-MG-7)."""

    def __init__(self, game: type[Round], target: int) -> None:
        super().__init__(
            f"{game.title} is always played to exactly {target} ({game.target_rule});"
            " its target cannot be changed"
        )
        self.game = game
        self.target = target
        self.rule = game.target_rule


class TargetOutOfRange(InvalidOptions):
    """A target for ``game`` outside ``low`` .. ``high``."""

    def __init__(self, game: type[Round], low: int, high: int, got: int) -> None:
        super().__init__(
            f"the target for {game.title} must be between {low} and {high}, not {brief(got)}"
        )
        self.game = game
        self.low = low
        self.high = high
        self.got = got


class OptionNotOffered(InvalidOptions):
    """``option`` (``keep_last_two``, ``match_games``) is an option of ``offered_by``,
    not of ``game``."""

    def __init__(
        self, game: type[Round], option: str, offered_by: tuple[type[Round], ...], rule: str
    ) -> None:
        what = {"keep_last_two": "'keep last two'", "match_games": "match length"}[option]
        owners = _or([g.title for g in offered_by])
        super().__init__(f"{what} is {_a(owners)} option, not {game.title}'s")
        self.game = game
        self.option = option
        self.offered_by = offered_by
        self.rule = rule


class MatchGamesOutOfRange(InvalidOptions):
    """A match length outside ``low`` .. ``high`` games won (R-MI-7)."""

    def __init__(self, low: int, high: int, got: int) -> None:
        super().__init__(f"a match is {low} to {high} games won, not {brief(got)}")
        self.low = low
        self.high = high
        self.got = got
        self.rule = "R-MI-7"


class UnknownOption(InvalidOptions):
    """``name`` is no option of any game."""

    def __init__(self, name: object) -> None:
        super().__init__(f"unknown option {brief(name)}")
        self.name = name


class BadOptionType(InvalidOptions):
    """Option ``field`` must be ``expected`` (``an integer``, ``true or false``), and
    ``got`` is not."""

    def __init__(self, field: str, expected: str, got: object) -> None:
        super().__init__(f"{field} must be {expected}, not {brief(got)}")
        self.field = field
        self.expected = expected
        self.got = got


# -- deals ----------------------------------------------------------------------------------


class InvalidDeal(EngineError):
    """An explicit deal the rules refuse (R-ALL-3), or one given in the wrong shape;
    ``deal`` is its index among a match's deals, once the match has said which."""

    deal: int | None = None

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule

    def in_deal(self, index: int) -> InvalidDeal:
        """This refusal, said of the match's deal ``index``."""
        self.deal = index
        self.args = (f"deal {index}: {self.args[0]}",)
        return self


class WrongHandCount(InvalidDeal):
    """``got`` hands dealt, and ``game`` is played by one of ``allowed`` players."""

    def __init__(self, game: type[Round], allowed: tuple[int, ...], got: int) -> None:
        super().__init__(
            f"{game.title} is played by {_or(allowed)} players, not {got}", game.deal_rule
        )
        self.game = game
        self.allowed = allowed
        self.got = got


class WrongHandSize(InvalidDeal):
    """Seat ``seat`` holds ``held`` tiles, and ``game`` deals ``size`` to each."""

    def __init__(self, game: type[Round], players: int, seat: int, size: int, held: int) -> None:
        rest = 28 - players * size
        left = f"{rest} in the boneyard" if rest else "no boneyard"
        super().__init__(
            f"{game.title} deals {size} tiles to each of {players} players, leaving {left}:"
            f" seat {seat} holds {held}",
            game.deal_rule,
        )
        self.game = game
        self.seat = seat
        self.size = size
        self.held = held


class NotEachTileOnce(InvalidDeal):
    """The hands and the boneyard together are not the 28 tiles, each once."""

    def __init__(self) -> None:
        super().__init__(
            "hands and boneyard must hold each of the 28 tiles exactly once", "R-ALL-3"
        )


class WrongLeader(InvalidDeal):
    """Seat ``named`` was named to lead, and the rules name seat ``expected``, for the
    reason ``lead`` gives: it holds ``double``, the highest double (``HIGHEST_DOUBLE``,
    R-CR-2 and R-MG-2) or 6-6 (``SIX_SIX``, a Milo game's first round, R-MI-3); or the lead
    passed on to it (``PASSED_ON``, ``double`` None: R-MI-3, R-MI-7)."""

    def __init__(
        self, named: int, expected: int, lead: LeadRule, double: Tile | None, rule: str
    ) -> None:
        if lead is LeadRule.PASSED_ON:
            why = f"the lead passes to seat {expected}"
        elif lead is LeadRule.SIX_SIX:
            why = f"seat {expected} holds 6-6, which leads a game's first round"
        else:
            why = f"seat {expected} holds the highest double, {double}"
        super().__init__(f"seat {named} may not lead: {why}", rule)
        self.named = named
        self.expected = expected
        self.lead = lead
        self.double = double


class NoDouble(InvalidDeal):
    """Nobody holds a double, so nobody may lead: the tiles are dealt again (R-CR-2,
    R-MG-2)."""

    def __init__(self, rule: str) -> None:
        super().__init__("nobody holds a double: deal again", rule)


class WrongScores(InvalidDeal):
    """A round of ``game`` asked to start from ``got``, which is not a total for each of
    the ``sides``, each a whole number from 0 to one below ``target``: at the target the
    game is over (R-CR-7, R-MC-6, R-MI-6), and no Merry-Go-Round score passes it
    (R-MG-7). ``rule`` is the game's target rule."""

    def __init__(self, game: type[Round], sides: int, target: int, got: object) -> None:
        super().__init__(
            f"the scores must be {sides} whole numbers, one a side, from 0 to {target - 1}:"
            f" not {_listed(got)}",
            game.target_rule,
        )
        self.game = game
        self.sides = sides
        self.target = target
        self.got = got


# -- records --------------------------------------------------------------------------------


class InvalidRecord(EngineError):
    """A record whose ``field`` (``options.target``, ``actions[3]``) is of the wrong type
    or out of range; ``problem`` says what it must be."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field} {problem}")
        self.field = field
        self.problem = problem


class ReplayError(EngineError):
    """A record whose action at ``index`` (a ``(seat, move text)`` pair) could not be
    applied; ``index`` -1 and ``action`` None: the record could not even be set up,
    before its first action. ``error`` is the refusal, with its data."""

    def __init__(self, index: int, action: tuple[int, str] | None, error: EngineError) -> None:
        self.where = (
            f"at action {index} [{action[0]}, {brief(action[1])}]"
            if action is not None
            else "before action 0"
        )
        super().__init__(f"{self.where}: {error}")
        self.index = index
        self.action = action
        self.error = error
        self.reason = str(error)
        self.rule = error.rule
