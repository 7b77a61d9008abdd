"""The language a player reads, and the catalogues that hold every language but English.

English is the source: the words written in the ``words`` package are the message ids,
and every other language is a gettext catalogue, ``words/locales/<locale>/LC_MESSAGES/
domino.po`` (its template ``words/locales/domino.pot`` is extracted from the code with
``pybabel extract``; docs/LANGUAGES.md says how). The catalogues are read and compiled in
memory when this module is first imported, so nothing generated is kept in the
repository, and adding a language is adding its file.

Which language a word is looked up in is a context variable, so the wording functions
need no language argument: a face sets it where each command or click starts (the
member's own locale, for what only they see) and around every public post (the
server's language). Locales are named by Discord's codes (``es-ES``), which are BCP 47
tags any face can use. New tasks and ``asyncio.to_thread`` copy it; a picture's words are
chosen before it is handed to the drawing process (``rendering.painter``), so it speaks
the language of the code that asked for it.

Numbers in sentences go through Babel (``12.3`` reads ``12,3`` in Spanish), and so do
lists (``2, 3 o 4``); plurals through each catalogue's own plural rule, the one of Babel's
CLDR data (Brazilian Portuguese says "0 pedra", Spanish "0 fichas", both "1000000 de").
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from gettext import NullTranslations
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Literal

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

DOMAIN = "domino"
SOURCE = "en-US"
"""The language the message ids are written in (Discord's code for it)."""


@dataclass(frozen=True, slots=True)
class Language:
    """One language the bot speaks: its Discord locale code (``es-ES``), Babel's locale
    for numbers, and its compiled catalogue."""

    code: str
    locale: Locale
    translations: NullTranslations

    @property
    def name(self) -> str:
        """The language's name in itself (``Português (Brasil)``): each catalogue names
        its own language, so adding one needs no other change."""
        return self.translations.pgettext("language", "English")


ENGLISH = Language(SOURCE, Locale.parse("en_US"), NullTranslations())


def compiled(catalog: Catalog, code: str) -> Language:
    """A catalogue compiled in memory, as ``msgfmt`` would, to speak for the Discord
    locale ``code`` (its numbers as the catalogue's locale writes them)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Language(code, catalog.locale or ENGLISH.locale, Translations(buffer, domain=DOMAIN))


def read_catalogue(po: Traversable, code: str) -> Language:
    """A ``.po`` file as the language of the Discord locale ``code``."""
    with po.open("rb") as file:
        catalog = read_po(file, locale=Locale.parse(code, sep="-"), domain=DOMAIN)
    return compiled(catalog, code)


def _catalogues() -> dict[str, Language]:
    """Every catalogue shipped in ``words/locales``, by its Discord code (the folder
    ``pt_BR`` serves ``pt-BR``)."""
    found: dict[str, Language] = {}
    folder = resources.files("words") / "locales"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        po = entry / "LC_MESSAGES" / f"{DOMAIN}.po"
        if entry.is_dir() and po.is_file():
            code = entry.name.replace("_", "-")
            found[code] = read_catalogue(po, code)
    return found


SHIPPED: tuple[Language, ...] = (ENGLISH, *_catalogues().values())
"""English and every catalogue shipped: the languages a server may choose."""
_added: dict[str, Language] = {}


def languages() -> list[Language]:
    """The languages the bot speaks, English first."""
    return [*SHIPPED, *_added.values()]


def add_language(language: Language) -> None:
    """Speak one more language from now on, though no server may choose it (a test's
    pseudo-language, spoken to members and servers whose locale is its code)."""
    _added[language.code] = language


def remove_language(code: str) -> None:
    _added.pop(code, None)


def find(locale: str | None) -> Language | None:
    """The language for a Discord locale: the same code, or else a catalogue of the same
    language (``es-419`` reads ``es-ES``, ``en-GB`` English); None when the bot does not
    speak it."""
    if not locale:
        return None
    spoken = languages()
    exact = next((language for language in spoken if language.code == locale), None)
    primary = locale.split("-")[0].lower()
    return exact or next((lang for lang in spoken if lang.code.split("-")[0] == primary), None)


def for_locale(locale: str | None) -> Language:
    return find(locale) or ENGLISH


def server_language(chosen: str | None, preferred: str | None) -> Language:
    """A server's language: the one chosen with ``/domino settings language``, else the
    server's preferred locale when the bot speaks it, else English."""
    return find(chosen) or find(preferred) or ENGLISH


# -- the current language ---------------------------------------------------------------

_current: ContextVar[Language] = ContextVar("language", default=ENGLISH)


def current() -> Language:
    return _current.get()


def use(locale: str | None) -> Language:
    """Speak ``locale``'s language from here to the end of the current task (each
    interaction is handled in a task of its own, so this never leaks to another)."""
    language = for_locale(locale)
    _current.set(language)
    return language


@contextlib.contextmanager
def speaking(language: Language) -> Iterator[Language]:
    """Speak ``language`` inside the block only (a public post made while handling a
    member's private answer)."""
    token = _current.set(language)
    try:
        yield language
    finally:
        _current.reset(token)


def _(message: str) -> str:
    return _current.get().translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.get().translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _current.get().translations.pgettext(context, message)


def N_(message: str) -> str:
    """Marks a message for extraction without translating it here (it is looked up
    later, with ``_``): words that live as data elsewhere, such as the games' titles."""
    return message


def number(value: int) -> str:
    """A whole number as the language writes it (no thousands separator: ``3600 s``)."""
    return _whole(value, _current.get().locale)


@functools.lru_cache(maxsize=4096)
def _whole(value: int, locale: Locale) -> str:
    """Kept, because Babel reads the locale's pattern again on every call and a table's
    words and alt text name dozens of small numbers on every move."""
    return format_decimal(value, locale=locale, group_separator=False)


def listing(items: Sequence[str], style: Literal["standard", "or"] = "standard") -> str:
    """Items as the language lists them, with "and" (``3-1, 4-4 and 6-2``, ``3-1, 4-4 y
    6-2``) or with "or" (``style="or"``: ``2, 3, or 4``, ``2, 3 o 4``, ``2, 3 ou 4``)."""
    locale = _current.get().locale
    text = format_list(list(items), style=style, locale=locale)
    if locale.language == "es" and len(items) > 1:
        return _spanish_conjunction(text, items[-1])
    return text


_SOUNDS_I = re.compile(r"h?[ií](?![aeoáéó])", re.IGNORECASE)
"""A word that starts with the sound /i/ ("Inés", "hilo"; not "hielo", "hiato")."""
_SOUNDS_O = re.compile(r"h?[oó]|8|11(?:\d{3})*(?!\d)", re.IGNORECASE)
"""A word (or number) that starts with the sound /o/: "Olga", "hora", 8, 80, 11, 11000."""


def _spanish_conjunction(text: str, last: str) -> str:
    """Spanish says "y" as "e" before a word that starts with the sound /i/ ("Ana e
    Inés") and "o" as "u" before one that starts with /o/ ("S u O", "7 u 8"): a rule of
    the language that CLDR's list patterns do not carry (Babel joins with "y" and "o")."""
    word = last.lstrip("\\*_~`|> ")
    for plain, spoken, sound in ((" y ", " e ", _SOUNDS_I), (" o ", " u ", _SOUNDS_O)):
        if text.endswith(plain + last) and sound.match(word):
            return text[: len(text) - len(plain + last)] + spoken + last
    return text


def decimal(value: float, places: int = 1) -> str:
    """A number with ``places`` decimals in the language's own way (``12,3``); one that
    rounds to nothing is 0, never "-0.0" (a rating a hair below zero)."""
    pattern = "0." + "0" * places if places else "0"
    shown = round(value, places) + 0.0  # -0.0 + 0.0 is 0.0
    return format_decimal(shown, format=pattern, locale=_current.get().locale)
