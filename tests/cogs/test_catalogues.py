"""The catalogues: every message the code can say is in the template and in every
language's catalogue, translated, with the same placeholders (a missing, extra or
renamed one fails), the same rule numbers, tiles and numbers, the ends' letters as the
language writes them, the plural forms of the CLDR data Babel carries (Babel >= 2.19:
Spanish and Portuguese have a third form, for a million), and the commands a message
quotes named as that language names them. The template is what ``pybabel extract``
finds in the code today."""

from __future__ import annotations

import io
import re
from pathlib import Path
from string import Formatter
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

import cogs
import discord_face
import words
from bot.engine import GAMES
from words import common, i18n

LOCALES = Path(words.__file__).parent / "locales"
MARKED = (words, cogs, discord_face)
"""Where messages are marked: the sentences in ``words``, the commands' names
(``locale_str``) where the Discord face declares them."""
TEMPLATE = LOCALES / "domino.pot"
KEYWORDS = {**DEFAULT_KEYWORDS, "locale_str": None, "slash": ((1, "c"), 2)}
"""What ``pybabel extract -k locale_str -k slash:1c,2`` (docs/LANGUAGES.md's command) marks."""
CATALOGUES = sorted(LOCALES.glob("*/LC_MESSAGES/domino.po"))

RULE = re.compile(r"\bR-[A-Z]+-\d+\b")
TILE = re.compile(r"\b\d-\d\b")
NUMBER = re.compile(r"\d+")
END = re.compile(r"\b[NESWLR]\b")
LETTER = re.compile(r"\b[A-Z]\b")
COMMAND = re.compile(r"/(\w+) ([\w-]+)")


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def key(message: Message) -> tuple[str | None, str]:
    return message.context, sources(message)[0]


def messages(catalog: Catalog) -> dict[tuple[str | None, str], Message]:
    return {key(m): m for m in catalog if m.id}


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message fills in (a stray brace fails here)."""
    return {field for _, field, _, _ in Formatter().parse(text) if field is not None}


def forms(message: Message) -> list[str]:
    """Each plural form (or the one translation; empty when there is none)."""
    string = message.string
    return [string or ""] if string is None or isinstance(string, str) else list(string)


def sources(message: Message) -> list[str]:
    return [message.id] if isinstance(message.id, str) else list(message.id)


def test_every_shipped_catalogue_is_a_language_the_bot_speaks() -> None:
    codes = {path.parent.parent.name.replace("_", "-") for path in CATALOGUES}
    assert {"es-ES", "pt-BR"} <= codes
    assert [language.code for language in i18n.SHIPPED] == ["en-US", *sorted(codes)]


def folder(package: ModuleType) -> str:
    """The folder of one of our packages (each is a folder with an ``__init__.py``)."""
    assert package.__file__ is not None, package
    return str(Path(package.__file__).parent)


def test_the_template_holds_exactly_what_the_code_marks_for_translation() -> None:
    """Regenerate with docs/LANGUAGES.md's ``pybabel extract`` command when this fails."""
    found = {
        (context, message[0] if isinstance(message, tuple) else message)
        for package in MARKED
        for _, _, message, _, context in extract_from_dir(
            folder(package), [("**.py", "python")], keywords=KEYWORDS
        )
    }
    assert found == set(messages(read(TEMPLATE)))


def test_the_template_holds_every_games_title_and_no_other() -> None:
    titles = {variant.title for variant in GAMES.values()}
    assert set(common.TITLES) == titles
    assert {(None, title) for title in titles} <= set(messages(read(TEMPLATE)))


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_every_message_is_translated_with_the_same_placeholders(path: Path) -> None:
    template, catalogue = messages(read(TEMPLATE)), messages(read(path))
    assert sorted(template.keys() - catalogue.keys(), key=str) == [], "missing"
    assert sorted(catalogue.keys() - template.keys(), key=str) == [], "not in the template"
    for where, message in catalogue.items():
        assert not message.fuzzy, where
        source = sources(template[where])
        expected = set().union(*(placeholders(text) for text in source))
        for text in forms(message):
            assert text, f"{where} is not translated"
            assert placeholders(text) == expected, (where, text)


def language_of(path: Path) -> i18n.Language:
    language = i18n.find(path.parent.parent.name.replace("_", "-"))
    assert language is not None
    return language


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_rule_numbers_tiles_figures_and_end_letters_are_kept(path: Path) -> None:
    """R-CR-5, 6-5, 61: the same in every language (the rules are cited by number). An
    end's letter a message spells out (``N, E, S, W`` in the command's description) is
    the language's own letter for that end (``O`` for W in Spanish and Portuguese), and
    a message that names no end names none in translation either."""
    template = messages(read(TEMPLATE))
    with i18n.speaking(language_of(path)):
        letters = common.end_letters()
    for where, message in messages(read(path)).items():
        source = " ".join(sources(template[where]))
        named = {letters[end] for end in END.findall(RULE.sub(" ", source))}
        candidates = set(letters.values()) | set(letters) if named else set(letters)
        for text in forms(message):
            for pattern in (RULE, TILE):
                assert sorted(set(pattern.findall(text))) == sorted(set(pattern.findall(source))), (
                    where,
                    pattern.pattern,
                    text,
                )
            said = {x for x in LETTER.findall(RULE.sub(" ", text)) if x in candidates}
            assert said == named, (where, text)
            assert set(NUMBER.findall(text)) == set(NUMBER.findall(source)), (where, text)


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_plurals_have_the_languages_own_number_of_forms(path: Path) -> None:
    """The header declares the plural rule of Babel's CLDR data, and every plural
    message has each of its forms."""
    catalogue = read(path)
    assert catalogue.locale is not None
    babel = Catalog(locale=catalogue.locale)
    assert (catalogue.num_plurals, catalogue.plural_expr) == (babel.num_plurals, babel.plural_expr)
    plural = [m for m in catalogue if m.id and isinstance(m.id, tuple)]
    assert plural and all(len(forms(m)) == babel.num_plurals for m in plural)


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_refreshing_a_catalogue_from_the_template_keeps_its_plural_rule(path: Path) -> None:
    """What docs/LANGUAGES.md's ``pybabel update`` does (the catalogue updated from the template
    and written back) leaves the header's rule and every form in place."""
    catalogue = read(path)
    catalogue.update(read(TEMPLATE))
    written = io.BytesIO()
    write_po(written, catalogue, width=76, ignore_obsolete=True)
    written.seek(0)
    again = read_po(written)
    assert (again.num_plurals, again.plural_expr) == (catalogue.num_plurals, catalogue.plural_expr)
    assert again.plural_forms == Catalog(locale=catalogue.locale).plural_forms
    assert all(len(forms(m)) == again.num_plurals for m in again if isinstance(m.id, tuple))


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_a_command_a_message_quotes_is_named_as_the_language_names_it(path: Path) -> None:
    """ "/dominó nueva" in Spanish, as Discord shows the command to a Spanish member."""
    names = {m.id: forms(m)[0] for m in read(path) if m.context == "command"}
    english = {m.id for m in read(TEMPLATE) if m.context == "command"}
    quoted = 0
    template = messages(read(TEMPLATE))
    for where, message in messages(read(path)).items():
        for group, command in COMMAND.findall(" ".join(sources(template[where]))):
            assert group == "domino" and command in english, where
        for text in forms(message):
            for group, command in COMMAND.findall(text):
                assert (group, command) in {(names["domino"], names[c]) for c in english}, (
                    where,
                    text,
                )
                quoted += 1
    assert quoted > 10
