"""The words every other module of ``words`` uses: names (made harmless, a computer's
in words), what a user typed quoted back, games' titles, lists, counts, button labels,
computer levels and options, and the ends' letters. The letters are the language's own
(``O`` for West in Spanish) in every text a player reads, and are read back from what
they type; the engine, the stored moves and the buttons' ids keep the engine's names
(N E S W, L R)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Protocol

from bot.engine import LINE_ENDS, SPINNER_ARMS, LayoutKind, Move, Round
from bot.levels import LEVELS
from bot.snapshot import TableSnapshot
from words import i18n, marks
from words.i18n import N_, _, ngettext, number, pgettext

QUOTE_LIMIT = 12
"""At most this many characters of what a user typed are quoted back."""


def plain(text: str) -> str:
    """A display name, or anything a user typed, as harmless text: no mention fires,
    no markup applies (in the face's own way)."""
    return marks.current().name(text)


def quote(text: str) -> str:
    """What a user typed, shortened and made harmless, for quoting in an answer."""
    short = text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "…"
    return marks.current().code(short)


def sentence(clause: str) -> str:
    """The engine words its refusals as clauses ("6-5 does not fit: arm N needs a 3")."""
    return f"{clause[:1].upper()}{clause[1:]}."


TITLES = (N_("Cross"), N_("Maltese Cross"), N_("Merry-Go-Round"), N_("Milo"))
"""The games' titles: the engine owns them (``variant.title``, in English); they are
marked here so the catalogues hold them, and read through :func:`game_title`."""


def game_title(game: type[Round] | str) -> str:
    """A game's title (a variant, or its English title) in the language of the moment."""
    return _(game if isinstance(game, str) else game.title)


def or_list(items: Iterable[object]) -> str:
    """``6-6, 5-5, or 4-4``: the items as the language lists alternatives."""
    return i18n.listing([str(item) for item in items], style="or")


def and_list(items: Iterable[str]) -> str:
    """``Ann and Cat`` (a partnership, in a sentence)."""
    return i18n.listing(list(items))


def _end_letters() -> dict[str, str]:
    """Each end's letter in the language of the moment, by the engine's name."""
    return {
        # Translators: the North arm of a spinner layout, as buttons and moves show it
        # ("6-5 N"); one capital letter, different from the other three arms' letters.
        "N": pgettext("arm", "N"),
        # Translators: the East arm (one capital letter, as for N).
        "E": pgettext("arm", "E"),
        # Translators: the South arm (one capital letter, as for N).
        "S": pgettext("arm", "S"),
        # Translators: the West arm (one capital letter, as for N).
        "W": pgettext("arm", "W"),
        # Translators: the left end of Milo's line of tiles (one capital letter, not
        # the same as the right end's).
        "L": pgettext("line end", "L"),
        # Translators: the right end of Milo's line of tiles (one capital letter).
        "R": pgettext("line end", "R"),
    }


@lru_cache(maxsize=16)
def _letters_of(language: i18n.Language) -> dict[str, str]:
    """Kept per language: every move line, button, caption and alt text names ends."""
    with i18n.speaking(language):
        return _end_letters()


def end_letters() -> dict[str, str]:
    """Each end's letter as the language of the moment writes it, by the engine's name
    (the engine's own: ``N E S W``, ``L R``; Spanish ``N E S O``, ``I D``; Portuguese
    ``N E S O``, ``E D``). The engine, the stored moves and the buttons' custom_ids keep
    the engine's names; only what a player reads is written with these."""
    return _letters_of(i18n.current())


def end_letter(end: str) -> str:
    """One end's letter (``W`` → ``O`` in Spanish)."""
    return end_letters().get(end, end)


def ends_of(layout: LayoutKind) -> tuple[str, ...]:
    return SPINNER_ARMS if layout is LayoutKind.SPINNER else LINE_ENDS


def read_end(typed: str, layout: LayoutKind) -> str | None:
    """The engine's name of the end a member typed, in a game laid out as ``layout``:
    the letter the language of the moment shows, or the engine's own (``O`` or ``W`` for
    West in Spanish). Read per layout, since one letter may name different ends in the
    two: in Portuguese ``E`` is East in a spinner game and the left end in Milo. None
    if it names no end of that layout."""
    word, letters = typed.strip().upper(), end_letters()
    ends = ends_of(layout)
    shown = next((end for end in ends if letters.get(end, end).upper() == word), None)
    return shown or (word if word in ends else None)


def typed_move(tile: str, end: str | None, layout: LayoutKind) -> str:
    """A move as ``/domino play`` was given it, in the engine's words: the end (or an
    end typed after the tile, ``6-5 O``) read as :func:`read_end` reads it. What names no
    end is left as typed, for the engine to refuse with its reason."""
    words = tile.split()
    if end is None and len(words) == 2:
        tile, end = words
    if end is None:
        return tile
    return f"{tile} {read_end(end, layout) or end.strip()}"


def move_text(move: Move) -> str:
    """A move as a button or a sentence shows it: ``6-1 O`` (the engine's ``6-1 W``)."""
    if move.tile is None or move.end_name is None:
        return move.text
    return f"{move.tile} {end_letter(move.end_name)}"


def letters_for(ends: Iterable[str]) -> list[str]:
    return [end_letter(end) for end in ends]


def end_of(move: Move) -> str:
    """The letter of the end a move was played on (a lead names none)."""
    return end_letter(move.end_name) if move.end_name else ""


def option_name(option: str) -> str:
    """An option's name as a member reads it (``turn_timer`` → ``Turn timer``)."""
    names = {
        "turn_timer": _("Turn timer"),
        "page": _("Page"),
        "order": _("Order"),
        "target": _("Target"),
        "match_games": _("Match games"),
        "keep_last_two": _("Keep last two"),
    }
    return names.get(option, option.replace("_", " ").capitalize())


def level_name(level: str) -> str:
    """A computer level as a word in a sentence (``normal``)."""
    names = {
        "easy": pgettext("computer level", "easy"),
        "normal": pgettext("computer level", "normal"),
        "hard": pgettext("computer level", "hard"),
        "expert": pgettext("computer level", "expert"),
    }
    return names.get(level, level)


def label(action: str) -> str:
    """A button's label, by the action (or computer level) it stands for."""
    labels = {
        "join": pgettext("button", "Join"),
        "leave": pgettext("button", "Leave"),
        "computer": pgettext("button", "Add computer"),
        "start": pgettext("button", "Start"),
        "cancel": pgettext("button", "Cancel"),
        "hand": pgettext("button", "My hand"),
        "draw": pgettext("button", "Draw"),
        "pass": pgettext("button", "Pass"),
        "rules": pgettext("button", "Rules"),
        "easy": pgettext("button", "Easy"),
        "normal": pgettext("button", "Normal"),
        "hard": pgettext("button", "Hard"),
        "expert": pgettext("button", "Expert"),
        "rematch": pgettext("button", "Rematch"),
        "forget": pgettext("button", "Delete my data"),
        "hint": pgettext("button", "Hint"),
        # Translators: the member to move adds a whole turn to their clock.
        "more_time": pgettext("button", "More time"),
        # Translators: opens the table inside Discord, as an Activity (drag the tiles).
        "activity": pgettext("button", "Open the table"),
    }
    return labels[action]


def games_count(n: int) -> str:
    return ngettext("{count} game", "{count} games", n).format(count=number(n))


def wins_count(n: int) -> str:
    return ngettext("{count} win", "{count} wins", n).format(count=number(n))


def points_count(n: int) -> str:
    return ngettext("{count} point", "{count} points", n).format(count=number(n))


def tiles_count(n: int) -> str:
    return ngettext("{count} tile", "{count} tiles", n).format(count=number(n))


def team_note() -> str:
    return _("Partners sit across: seats 1 & 3 play against seats 2 & 4.")


def hints_on() -> str:
    return _("Hints are on: this game is not rated.")


class Seat(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def level(self) -> str | None: ...


class Seated(Protocol):
    @property
    def seats(self) -> Sequence[Seat]: ...


def seat_names(table: Seated) -> list[str]:
    """The seats' names as the pictures draw them: a member's as they typed it, a
    computer's in the language of the moment (``Computer 2 (hard)``; the table numbers
    its computers in the order they sat down)."""
    shown, computers = [], 0
    for seat in table.seats:
        if seat.level is None:
            shown.append(seat.name)
            continue
        computers += 1
        shown.append(computer_name(computers, seat.level))
    return shown


def computer_name(count: int, level: str) -> str:
    """The ``count``-th computer seat of a table (numbered in the order they sat down),
    at ``level``: ``Computer 2 (hard)``."""
    return _("Computer {number} ({level})").format(number=number(count), level=level_name(level))


def computer_names() -> frozenset[str]:
    """How the computer seats are named (casefolded) in every language the bot speaks,
    as :func:`computer_name` names them: a guest may take none of these names, or the
    other players could not tell a member from a computer. Worked out once per set of
    languages: every guest cookie read checks its name against them."""
    return _computer_names(tuple(language.code for language in i18n.languages()))


@lru_cache(maxsize=4)
def _computer_names(codes: tuple[str, ...]) -> frozenset[str]:
    named = set()
    for code in codes:
        with i18n.speaking(i18n.for_locale(code)):
            named |= {
                computer_name(count, level).casefold() for count in range(1, 5) for level in LEVELS
            }
    return frozenset(named)


def names(table: Seated) -> list[str]:
    """The seats' names as text for messages: escaped, so none pings or formats."""
    return [plain(name) for name in seat_names(table)]


def side_names(table: TableSnapshot) -> list[str]:
    """The names of the scoring sides: players, or partnerships (the engine says which
    seats make each side)."""
    names_ = names(table)
    return [
        " & ".join(names_[seat] for seat in seats) for seats in table.variant.sides_of(len(names_))
    ]


def to_target(target: int, exactly: bool) -> str:
    if exactly:
        return _("to {target} exactly").format(target=number(target))
    return _("to {target}").format(target=number(target))


def options_text(table: TableSnapshot) -> str:
    options = table.options
    parts = [to_target(options.target, table.variant.exact_target)]
    if options.keep_last_two:
        parts.append(_("last two boneyard tiles kept"))
    if options.match_games > 1:
        parts.append(
            ngettext(
                "match: first to win {count} game", "match: first to win {count} games",
                options.match_games,
            ).format(count=number(options.match_games))
        )  # fmt: skip
    return ", ".join(parts)
