"""The words as the Discord face shows them: every test here reads them with Discord's
marks (mentions, timestamps, escaped names), whichever test module imported the face
first."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from discord_face.marks import DISCORD
from words import marks


@pytest.fixture(autouse=True)
def discord_marks() -> Iterator[None]:
    with marks.using(DISCORD):
        yield
