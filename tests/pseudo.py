"""A pseudo-language for tests: every message of the template "translated" to itself in
brackets (``⟦You played {move}.⟧``), and a checker that finds any word a player would
read that no catalogue gave: English written straight into the code, a sentence glued
from pieces outside a message, a library's own words.

Once names, numbers, tiles, mentions, timestamps, rule numbers, end letters, quoted user
text and punctuation are set aside, what is left of a text must be bracketed segments,
each one a message of the template whose placeholders hold only such things (or other
segments) in turn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from string import Formatter

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import words
from words import i18n

PSEUDO = "qps-ploc"
"""A locale no one speaks (Windows' pseudo-locale code): only tests install it."""
OPEN, CLOSE = "⟦", "⟧"
TEMPLATE = Path(words.__file__).parent / "locales" / "domino.pot"

NOT_WORDS = re.compile(
    r"<@!?\d+>|<#\d+>|<t:\d+:\w>"  # mentions, channels, timestamps
    r"|\b[0-9a-f]{8}-\d+\b"  # a game's id
    r"|\bR-[A-Z]+-\d+\b"  # rule numbers
    r"|\b\d-\d\b|\d+"  # tiles, numbers
    r"|\b[NESWLR]\b"  # the ends' letters
    r"|`[^`]*`"  # what a member typed, quoted back
)


def _sources() -> list[str]:
    """Every message of the template, each plural form on its own."""
    with TEMPLATE.open("rb") as file:
        template = read_po(file)
    found: list[str] = []
    for message in template:
        if message.id:
            found += list(message.id) if isinstance(message.id, tuple | list) else [message.id]
    return found


def pseudo_language() -> i18n.Language:
    """The pseudo-language, compiled as the bot compiles a catalogue."""
    with TEMPLATE.open("rb") as file:
        template = read_po(file)
    catalog = Catalog(locale="en", domain=i18n.DOMAIN)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):  # a plural's forms (babel's pluralizable)
            string: str | tuple[str, ...] = tuple(OPEN + text + CLOSE for text in message.id)
        else:
            string = OPEN + message.id + CLOSE
        catalog.add(message.id, string, context=message.context)
    return i18n.compiled(catalog, PSEUDO)


Chunk = tuple[str, bool]
"""A piece of a message: literal text (False), or a placeholder's name (True)."""


def _chunks(message: str) -> list[Chunk]:
    chunks: list[Chunk] = []
    for literal, field, _, _ in Formatter().parse(OPEN + message + CLOSE):
        if literal:
            chunks.append((literal, False))
        if field is not None:
            chunks.append((field, True))
    return chunks


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += (char == OPEN) - (char == CLOSE)
        if depth < 0:
            return False
    return depth == 0


def _fillings(chunks: list[Chunk], text: str, at: int = 0) -> Iterator[list[str]]:
    """Every way ``text[at:]`` reads as ``chunks``: the placeholders' values, each one
    bracket-balanced."""
    if not chunks:
        if at == len(text):
            yield []
        return
    (piece, is_field), rest = chunks[0], chunks[1:]
    if not is_field:
        if text.startswith(piece, at):
            yield from _fillings(rest, text, at + len(piece))
        return
    following = rest[0][0] if rest and not rest[0][1] else None
    ends: Iterable[int] = range(at, len(text) + 1)
    if following is not None:
        ends = (m.start() for m in re.finditer(re.escape(following), text[at:]))
        ends = [at + end for end in ends]
    for end in ends:
        value = text[at:end]
        if _balanced(value):
            for values in _fillings(rest, text, end):
                yield [value, *values]


class Checker:
    """Finds the words in a text that come from no catalogue."""

    def __init__(self, names: Iterable[str]) -> None:
        self.messages = [_chunks(message) for message in _sources()]
        self.names = re.compile(
            "|".join(rf"\b{re.escape(n)}\b" for n in sorted(names, key=len, reverse=True))
            or r"(?!)"
        )
        self._known: dict[str, tuple[str, ...]] = {}
        """What :meth:`strays` found in each text already read: the answer depends on the
        text alone, and the same segments come back in text after text (a placeholder's
        value is read as often as the messages it might fill)."""

    def strays(self, text: str) -> list[str]:
        """What in ``text`` no catalogue gave (empty: every word is catalogued)."""
        known = self._known.get(text)
        if known is None:
            known = self._known[text] = tuple(self._strays(text))
        return list(known)

    def _strays(self, text: str) -> list[str]:
        found: list[str] = []
        outside: list[str] = []
        depth, start = 0, 0
        for index, char in enumerate(text):
            if char == OPEN:
                if depth == 0:
                    start = index
                depth += 1
            elif char == CLOSE and depth:
                depth -= 1
                if depth == 0:
                    segment = text[start : index + 1]
                    if not self._catalogued(segment):
                        found.append(segment)
                    outside.append(" ")
                continue
            if depth == 0 and char != CLOSE:
                outside.append(char)
            elif depth == 0:
                found.append(char)  # a bracket closing nothing
        if depth:
            found.append(text[start:])
        rest = NOT_WORDS.sub(" ", self.names.sub(" ", "".join(outside)))
        if any(char.isalpha() for char in rest):
            found.append(rest.strip())
        return found

    def _catalogued(self, segment: str) -> bool:
        for chunks in self.messages:
            for values in _fillings(chunks, segment):
                if all(not self.strays(value) for value in values):
                    return True
        return False
