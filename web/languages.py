"""The language a page is worded in: the one it asks for, else the browser's preferred
languages (``Accept-Language``, best first), else English."""

from __future__ import annotations

from words import i18n


def preferred(header: str | None) -> list[str]:
    """The tags of an ``Accept-Language`` header, the most wanted first (``q=0``: not
    wanted at all)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and tag != "*" and weight > 0:
            ranked.append((-weight, index, tag.strip()))
    return [tag for _, _, tag in sorted(ranked)]


def choose(asked: str | None, header: str | None) -> i18n.Language:
    for tag in [asked or "", *preferred(header)]:
        language = i18n.find(tag)
        if language is not None:
            return language
    return i18n.ENGLISH
