"""The browser's marks: what a user typed can never become a mark of the page's."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from web.marks import WebMarks

MARKS = WebMarks({-7: "**Ann**"}, lambda channel: "ab12cd34" if channel == -3 else None)


def unmarked(text: str) -> str:
    """What the page's renderer shows of text with no mark in it: each escape undone."""
    shown, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            i += 1
        elif text[i] in "*`<":
            raise AssertionError(f"an unescaped mark character in {text!r}")
        shown.append(text[i])
        i += 1
    return "".join(shown)


@given(st.text(max_size=40))
def test_a_name_shows_as_typed_and_never_as_a_mark(name: str) -> None:
    assert unmarked(MARKS.name(name)) == name


def test_members_are_named_tables_by_id_and_moments_left_to_the_readers_clock() -> None:
    assert unmarked(MARKS.member(-7)) == "**Ann**"
    assert MARKS.channel(-3) == "`ab12cd34`"
    assert MARKS.relative_time(1_700_000_000.9) == "<t:1700000000>"
    assert not MARKS.slash_commands
