"""Every label the page looks up is one the server sends (``words.page``), in every
language: a missing one would show its key to the reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from words import i18n
from words.page import page_words

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
LOOKUP = re.compile(r"""\bword\(\s*"([a-z_]+)"|\bword\(\s*`([a-z_]+)_\$\{""")
"""``word("key")``, and ``word(`prefix_${…}`)`` (a family of keys, by its prefix)."""


def looked_up() -> tuple[set[str], set[str]]:
    keys, prefixes = set(), set()
    for module in STATIC.glob("*.js"):
        for key, prefix in LOOKUP.findall(module.read_text()):
            if key:
                keys.add(key)
            else:
                prefixes.add(prefix + "_")
    return keys, prefixes


@pytest.mark.parametrize("language", i18n.SHIPPED, ids=lambda language: language.code)
def test_every_label_the_page_asks_for_is_sent_and_worded(language: i18n.Language) -> None:
    keys, prefixes = looked_up()
    assert len(keys) > 40, "the page's lookups were not found: has word() been renamed?"
    with i18n.speaking(language):
        sent = page_words()
    assert keys - set(sent) == set()
    for prefix in prefixes:
        assert any(key.startswith(prefix) for key in sent), prefix
    assert all(text.strip() for text in sent.values())
