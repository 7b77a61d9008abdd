"""``/domino rules`` and docs/RULES.md say the same: each game's text, in every language
the bot speaks, cites every rule the page gives that game (its own section, the common
rules, and the spinner layout where the page applies it), and cites no number the page
lacks. Either one changing alone fails here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.engine import GAMES, Cross, Milo
from words import common, i18n, rules

DOC = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"
CITATION = re.compile(r"\bR-[A-Z]+-\d+\b")
DISCORD_MESSAGE_LIMIT = 2000
"""Characters Discord accepts in a message's content; the rules are sent as one."""
LANGUAGES = [language.code for language in i18n.languages()]
WORDS = {"es-ES": ("ficha", "pozo", "ronda"), "pt-BR": ("pedra", "monte", "rodada")}
"""Words each language's rules use for a tile, the boneyard and a round."""


def rules_in(language: str, game: str) -> str:
    with i18n.speaking(i18n.for_locale(language)):
        return rules.rules_for(game)


@dataclass
class Section:
    code: str
    """``CR`` for the section headed ``## Cross (R-CR)``."""
    name: str
    """The heading before the code: ``Cross``, ``Every game``, ``Spinner layouts``."""
    games: list[str]
    """The game titles the heading lists after a colon, if any."""
    numbers: list[int] = field(default_factory=list)

    def rules(self) -> set[str]:
        return {f"R-{self.code}-{n}" for n in self.numbers}

    def applies_to(self, title: str) -> bool:
        return self.code == "ALL" or self.name == title or title in self.games


def sections() -> list[Section]:
    """The numbered sections of docs/RULES.md, with their rule numbers in order."""
    found: list[Section] = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        heading = re.fullmatch(r"## (.+?) \(R-([A-Z]+)\)(?::\s*(.*))?", line)
        if heading:
            name, code, games = heading.groups()
            listed = re.split(r",\s*|\s+and\s+", games) if games else []
            found.append(Section(code, name, listed))
        elif line.startswith("## "):
            found.append(Section("", line, []))  # an unnumbered section ends the last one
        elif found and found[-1].code and (item := re.match(r"(\d+)\. ", line)):
            found[-1].numbers.append(int(item.group(1)))
    return [section for section in found if section.code]


def test_each_section_of_the_page_is_numbered_from_one_without_gaps() -> None:
    codes = [section.code for section in sections()]
    assert {"ALL", "SP", "CR", "MC", "MG", "MI"} <= set(codes) and len(codes) == len(set(codes))
    for section in sections():
        assert section.numbers == list(range(1, len(section.numbers) + 1)), section.name


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_rules_command_cites_every_rule_the_page_gives_the_game(
    game: str, language: str
) -> None:
    title = GAMES[game].title
    applying = [section for section in sections() if section.applies_to(title)]
    assert any(section.name == title and section.numbers for section in applying), (
        f"docs/RULES.md has no numbered section for {title}"
    )
    required = set().union(*(section.rules() for section in applying))
    cited = set(CITATION.findall(rules_in(language, game)))
    assert sorted(required - cited) == [], f"/domino rules {game} leaves these rules out"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_rules_command_cites_only_rules_the_page_has(game: str, language: str) -> None:
    documented = set().union(*(section.rules() for section in sections()))
    cited = set(CITATION.findall(rules_in(language, game)))
    assert sorted(cited - documented) == [], f"/domino rules {game} cites rules the page lacks"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_rules_fit_in_one_discord_message(game: str, language: str) -> None:
    assert len(rules_in(language, game)) <= DISCORD_MESSAGE_LIMIT


@pytest.mark.parametrize("language", sorted(WORDS))
@pytest.mark.parametrize("game", list(GAMES))
def test_each_language_has_its_own_rules_page(game: str, language: str) -> None:
    """The page is the language's own: its words for tiles, the boneyard and rounds,
    the game's title as the language says it, and no English sentence left in it."""
    page = rules_in(language, game)
    with i18n.speaking(i18n.for_locale(language)):
        title = common.game_title(GAMES[game])
    assert page.startswith(f"**{title}**")
    assert all(word in page for word in WORDS[language]), WORDS[language]
    for english in ("tile", "boneyard", "round", "players", "the spinner"):
        assert english not in page


class Crossroads(Cross):
    """A game the rules pages have never heard of, laid out as Cross is."""

    game = "crossroads"
    title = "Crossroads"


class Longline(Milo):
    game = "longline"
    title = "Longline"
    player_counts = (2, 4)
    default_target = 7


def test_each_game_s_page_is_found_through_the_game_not_a_list_of_names() -> None:
    for variant in GAMES.values():
        assert rules.rules_for(variant) == rules.rules_for(variant.game)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_game_has_a_page_from_its_traits_and_the_rules_it_shares(language: str) -> None:
    """A game with no page of its own is not refused: its heading says its players and
    target, then the spinner layout's rules if it has a spinner, then every game's."""
    with i18n.speaking(i18n.for_locale(language)):
        spinner, line = rules.rules_for(Crossroads), rules.rules_for(Longline)
        every_game = rules.rules_for("milo").split("\n\n")[-1]
        layout = rules.rules_for("cross").split("\n\n")[-2]
    assert spinner.startswith("**Crossroads** (") and "100" in spinner.split("\n")[0]
    assert spinner.endswith(f"\n\n{layout}\n\n{every_game}")
    assert line.startswith("**Longline** (") and "7" in line.split("\n")[0]
    assert line.endswith(f")\n\n{every_game}") and layout not in line
    assert "R-SP-1" in spinner and "R-SP-1" not in line and "R-ALL-8" in line
