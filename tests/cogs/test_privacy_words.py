"""/domino privacy names what is kept about a member within one message: the names they
last played under, one per server, are listed up to a few and the rest counted, so a
member of many servers is still answered (Discord refuses a message over 2,000
characters)."""

from __future__ import annotations

from data.models import Stored
from words import boards, i18n, marks
from words.boards import NAMES_LISTED

LONG = "Ann the Very Long Nickname {n}"  # 28 characters or so, as many servers give


def test_a_member_of_many_servers_is_told_their_names_within_one_message() -> None:
    names = tuple(LONG.format(n=n) for n in range(40))
    stored = Stored(stats=80, ratings=4, names=names, games=300, tournaments=2)
    for language in i18n.languages():
        with i18n.speaking(language), marks.using(marks.PLAIN):
            said = boards.privacy(stored, 24)
            assert len(said) <= 2000, (language.code, len(said))
            assert all(name in said for name in names[:NAMES_LISTED])
            assert names[NAMES_LISTED] not in said
    with i18n.speaking(i18n.ENGLISH), marks.using(marks.PLAIN):
        assert "and 35 more)" in boards.privacy(stored, 24)


def test_a_few_names_are_all_listed() -> None:
    stored = Stored(stats=2, ratings=1, names=("Ann", "Annie"), games=3)
    with i18n.speaking(i18n.ENGLISH), marks.using(marks.PLAIN):
        assert "(Ann and Annie)" in boards.privacy(stored, 24)
