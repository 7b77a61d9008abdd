"""A tournament's words (``words.tournaments``): every refusal of the core worded from
its data, the alt texts naming everyone they can within Discord's limit (and the text
lines everyone), the cards, and every word in each of the three languages, taken from
the catalogues (a pseudo-language finds any word written straight into the code)."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import bot.tournaments.errors
from bot.engine import GAMES
from bot.tournaments import (
    Bracket,
    DuplicateEntrant,
    NoBracket,
    NoSuchTable,
    Progress,
    Result,
    Seating,
    TournamentError,
    knockout,
    progress,
    swiss,
    swiss_standings,
)
from bot.tournaments.model import Format
from tests.cogs.test_languages import list_words
from tests.pseudo import Checker, pseudo_language
from tests.tournaments.play import entrants, played
from words import i18n, tournaments
from words.cards import Card, Tone
from words.tournaments import (
    ALT_LIMIT,
    FIELD_LIMIT,
    Announcement,
    announcement_card,
    bracket_lines,
    bracket_text,
    describe_bracket,
    describe_standings,
    podium_card,
    standings_lines,
    standings_rows,
    standings_text,
    tournament_refusal,
    tournament_title,
)

LANGUAGES = ["en-US", "es-ES", "pt-BR"]
CROSS = GAMES["cross"]
MILO = GAMES["milo"]


def language(code: str) -> i18n.Language:
    found = i18n.find(code)
    assert found is not None
    return found


def errors() -> list[TournamentError]:
    """One of every refusal the core raises, made from sample data for its fields."""
    samples: dict[str, Any] = {
        "problem": "sides, places and points differ in number",
        "smaller": (3,),
        "counts": (2, 3),
        "drawn_partners": False,
    }
    made = []
    for name, kind in vars(bot.tournaments.errors).items():
        if not (isinstance(kind, type) and issubclass(kind, TournamentError)):
            continue
        if kind is TournamentError or name.startswith("_"):
            continue
        parameters = list(inspect.signature(kind).parameters)
        made.append(kind(*(samples.get(p, 7) for p in parameters)))
    return made


def names_for(ids: list[int]) -> dict[int, str]:
    return {entrant: f"Zoë{entrant}" for entrant in ids}


def bracket_played(count: int, size: int = 2, rounds: int = 99) -> tuple[Bracket, Progress]:
    bracket = knockout(entrants(count), Seating(size, tuple(range(size - 1, 1, -1))))
    results: list[Result] = []
    for number, matches in enumerate(bracket.rounds[:rounds], start=1):
        now = progress(bracket, results)
        for match in matches:
            if match.walkover:
                continue
            seated = sorted((e for e in now.seated[match.number] if e is not None), key=abs)
            places = tuple(range(1, len(seated) + 1))
            sides = tuple((entrant,) for entrant in seated)
            results.append(Result(number, match.table, sides, places, places))
    return bracket, progress(bracket, results)


def standings_of(count: int, rounds: int = 2) -> list[Any]:
    people = entrants(count)
    rng = random.Random(count)
    record: list[Any] = []
    for number in range(1, rounds + 1):
        pairings = swiss(people, record, Seating(4, (3,)), number)
        record += [*played(pairings, rng), *pairings.byes]
    return list(swiss_standings(people, record))


# -- refusals ----------------------------------------------------------------------------


def test_every_refusal_of_the_core_has_its_own_wording_in_every_language() -> None:
    made = errors()
    assert len(made) == len(bot.tournaments.errors.TournamentError.__subclasses__()) >= 11
    for code in LANGUAGES:
        with i18n.speaking(language(code)):
            fallback = tournament_refusal(TournamentError())
            worded = [tournament_refusal(error, {7: "Zoë"}) for error in made]
        assert all(text != fallback and "{" not in text for text in worded), worded
        assert len(set(worded)) == len(worded)


def test_refusals_name_entrants_and_count_tables_from_one() -> None:
    assert tournament_refusal(DuplicateEntrant(42), {42: "Ann"}) == "Ann is entered twice."
    assert tournament_refusal(DuplicateEntrant(1042)) == "Player …1042 is entered twice."
    assert tournament_refusal(NoSuchTable(3, 0)) == "Table 1 of round 3 has no result to change."


REASONS = ["rounds", "rounds-swiss-only", "closed", "started", "signed-up", "not-entered",
           "check-in-closed", "organiser-only", "already", "moved-on", "partners", "pairs-game",
           "partner-self", "partner-bot", "replace-bot", "partner-taken",
           "partner-chose-another", "already-chosen", "entered", "withdrawn", "plays-on",
           "not-a-player", "newcomer-entered", "not-paired"]  # fmt: skip
"""What the tournament service's ``TournamentRefused`` names (``bot/tournaments/service.py``)."""


def test_every_reason_the_service_refuses_for_has_its_own_words() -> None:
    worded = [tournaments.tournament_refused(why) for why in REASONS]
    assert len(set(worded)) == len(REASONS)
    assert tournaments.tournament_refused("unheard-of") == "The tournament cannot do that."
    assert tournaments.tournament_refused("not-entered") == "You are not in this tournament."
    wrapped = tournaments.tournament_refused("NoSuchTable", NoSuchTable(2, 1))
    assert wrapped == "Table 2 of round 2 has no result to change."


def test_too_few_says_how_many_came_and_how_many_were_needed() -> None:
    assert tournaments.too_few(1, 2) == (
        "Only 1 entrant checked in, and at least 2 are needed: the tournament is cancelled."
    )


# -- alt texts and lines ---------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 5, 9, 16])
def test_the_standings_alt_text_names_everyone_when_it_can(count: int) -> None:
    standings = standings_of(count)
    names = names_for([s.entrant for s in standings])
    rows = standings_rows(standings, names, {standings[-1].entrant: "dropped"})
    text = standings_text(tournament_title(CROSS, Format.SWISS), Format.SWISS, 2, 4, count)
    alt = describe_standings(rows, text, Format.SWISS)
    assert len(alt) <= ALT_LIMIT
    assert all(name in alt for name in names.values()), alt
    assert alt.startswith("Cross tournament (Swiss). Round 2 of 4 — standings.")
    assert "(dropped)" in alt


def test_a_big_events_alt_text_says_how_many_it_left_out_and_the_lines_hold_everyone() -> None:
    standings = standings_of(256, rounds=1)
    names = names_for([s.entrant for s in standings])
    rows = standings_rows(standings, names, {})
    alt = describe_standings(rows, standings_text("T", Format.SWISS, 1, 8, 256), Format.SWISS)
    assert len(alt) <= ALT_LIMIT
    said = [s for s in standings if names[s.entrant] + ":" in alt]
    assert said == standings[: len(said)] and len(said) > 10
    assert alt.endswith(f"… and {256 - len(said)} more.")
    lines = standings_lines(rows, Format.SWISS)
    assert [line.split(" — ")[0] for line in lines] == [
        f"{s.place}. {names[s.entrant]}" for s in standings
    ]


def test_a_standings_line_says_each_figure_with_its_plural() -> None:
    standings = standings_of(6, rounds=1)
    rows = standings_rows(standings, names_for([s.entrant for s in standings]), {})
    lines = standings_lines(rows, Format.SWISS)
    assert all("table played" in line or "tables played" in line for line in lines)
    assert all("Buchholz" in line and ("bye" in line) for line in lines)


@pytest.mark.parametrize(("count", "size"), [(2, 2), (5, 2), (13, 2), (9, 3), (12, 4)])
def test_the_bracket_alt_text_names_every_entrant_round_by_round(count: int, size: int) -> None:
    for rounds in (0, 1, 99):
        bracket, state = bracket_played(count, size, rounds)
        names = names_for(list(bracket.seeds))
        alt = describe_bracket(bracket, state, names, tournament_title(CROSS, Format.KNOCKOUT))
        assert len(alt) <= ALT_LIMIT
        assert all(name in alt for name in names.values()), alt
        assert f"{tournaments.round_name(bracket, 1)}: Match 1, " in alt
        if state.champion is not None:
            assert f"Champion: {names[state.champion]}." in alt


def test_a_big_brackets_alt_text_fits_and_its_lines_hold_every_match() -> None:
    bracket, state = bracket_played(256, 2, rounds=7)
    names = names_for(list(bracket.seeds))
    alt = describe_bracket(bracket, state, names, "T")
    assert len(alt) <= ALT_LIMIT and alt.endswith("more.")
    lines = bracket_lines(bracket, state, names)
    assert len(lines) == len(bracket.matches) + len(bracket.rounds)
    assert all(any(name in line for line in lines) for name in names.values())
    assert lines[-1].startswith("Match 255: ")
    text = bracket_text(bracket, "T")
    assert text.note == "Rounds 1 to 4 are not drawn: their matches are listed as text."


def test_the_brackets_words_name_rounds_matches_seats_to_come_and_byes() -> None:
    bracket, _ = bracket_played(13, 2, rounds=0)
    text = bracket_text(bracket, "T")
    assert text.rounds == ("Round 1", "Quarter-finals", "Semi-finals", "Final")
    assert text.matches[14] == "Match 15" and text.bye == "bye" and not text.note
    assert text.pending[(14, 1)] == "Winner of match 14"
    four = knockout(entrants(16), Seating(4), advance=2)
    assert bracket_text(four, "T").pending[(1, 2)] == "Runner-up of match 1"


# -- cards ---------------------------------------------------------------------------------


def announcement(**changes: Any) -> Announcement:
    fields: dict[str, Any] = {
        "game": CROSS,
        "format": Format.SWISS,
        "rounds": 5,
        "seats": 4,
        "start": 2_000_000_000,
        "checkin_opens": 1_999_998_200,
        "checkin_closes": 2_000_000_000,
        "rated": True,
        "organiser": 42,
        "entrants": ("Ann", "Bob"),
        "smaller": (3,),
    }
    return Announcement(**{**fields, **changes})


def field(card: Card, start: str) -> str:
    return next(f.value for f in card.fields if f.name.startswith(start))


def test_the_announcement_says_format_tables_check_in_ratings_and_entrants() -> None:
    card = announcement_card(announcement())
    assert card.title == "Cross tournament (Swiss)"
    assert "@42" in (card.description or "")
    assert field(card, "Format") == "Swiss, 5 rounds"
    assert field(card, "Tables") == "Tables of 4 (or 3 when the numbers need it)"
    assert field(card, "Check-in").startswith("Opens ")
    assert field(card, "Ratings").startswith("Rated")
    assert field(card, "Entrants (2)") == "Ann, Bob"
    assert card.footer == "Press Sign up to enter, Withdraw to leave."
    unrated = announcement_card(announcement(rated=False, entrants=(), partners="drawn"))
    assert field(unrated, "Ratings") == "Not rated." and field(unrated, "Entrants") == "Nobody yet."
    assert "drawn each round" in field(unrated, "Tables")
    knockout_ = announcement_card(announcement(format=Format.KNOCKOUT, advance=2, target=150))
    assert "first 2 of each table" in field(knockout_, "Format")
    assert field(knockout_, "Game") == "to 150"


def test_the_announcement_by_pairs_lists_each_pair_and_who_waits_for_a_partner() -> None:
    card = announcement_card(
        announcement(game=MILO, partners="pairs", entrants=(tournaments.pair_name("Ann", "Bob"),),
                     waiting=(("Cat", 42), ("Dan", None)))
    )  # fmt: skip
    assert field(card, "Tables") == "Teams of two: partners sign up together."
    assert field(card, "Entrants (1)") == "Ann & Bob"
    assert field(card, "Waiting for a partner") == "Cat (chose <@42>), Dan"
    nobody = announcement_card(announcement(game=MILO, partners="pairs"))
    assert all(f.name != "Waiting for a partner" for f in nobody.fields), "none while none wait"


def test_a_long_list_of_entrants_is_cut_to_a_field_saying_how_many_more() -> None:
    names = tuple(f"Entrant number {n}" for n in range(256))
    value = field(announcement_card(announcement(entrants=names)), "Entrants (256)")
    assert len(value) <= FIELD_LIMIT
    shown = value.count("Entrant number")
    assert value.endswith(f"… and {256 - shown} more") and shown > 30


def test_the_podium_names_the_champion_and_places_shared_and_pairs() -> None:
    card = podium_card(
        tournament_title(MILO, Format.KNOCKOUT),
        [(1, ("Ann", "Cat")), (2, ("Bob", "Dan")), (3, ("Eve", "Fay")), (3, ("Gus", "Hal"))],
    )
    assert card.tone is Tone.WINNER
    assert card.description == "Champion: Ann and Cat"
    assert [(f.name, f.value) for f in card.fields] == [
        ("1st", "Ann and Cat"), ("2nd", "Bob and Dan"), ("3rd", "Eve and Fay\nGus and Hal"),
    ]  # fmt: skip


# -- every word, in every language --------------------------------------------------------------


def every_text() -> Iterator[str]:
    """Everything ``words.tournaments`` says, over a small and a big event."""
    t = tournaments
    yield from (t.format_name(f) for f in (Format.KNOCKOUT, Format.SWISS, Format.ROUND_ROBIN))
    yield from (t.tie_break_name(b) for b in ("buchholz", "head_to_head", "difference"))
    yield from (t.tournament_label(a) for a in ("signup", "withdraw", "checkin"))
    crowd = tuple(f"Zoë{n}" for n in range(200))
    for changes in (
        {},
        {"format": Format.KNOCKOUT, "advance": 2, "target": 150},
        {
            "partners": "pairs",
            "rated": False,
            "entrants": (),
            "waiting": (("Zoë1", 7), ("Zoë2", None)),
        },
        {"partners": "drawn", "entrants": crowd},
    ):
        card = announcement_card(announcement(**changes))
        yield from (card.title, card.description or "", card.footer or "")
        yield from (text for f in card.fields for text in (f.name, f.value))
    podium = podium_card("T", [(1, ("Zoë1",)), (2, ("Zoë2",)), (3, ("Zoë3",)), (3, ("Zoë4",))])
    yield from (podium.title, podium.description or "", *(f.name for f in podium.fields))
    yield from (t.signup_open(), t.signed_up(), t.checkin_open(2e9), t.checked_in())
    # Milo by pairs
    yield from (t.choose_partner(), t.choose_partner(["Zoë1"]), t.choose_partner(["Zoë1", "Zoë2"]))
    yield from (t.partner_placeholder(), t.partner_chosen(7), t.pair_signed_up("Zoë1"))
    yield from (t.checked_in_before_partner("Zoë1"), t.checked_in_without_pair())
    pair = t.pair_name("Zoë1", "Zoë2")
    yield from (t.not_both_checked_in(pair), t.no_show_in_pair("Zoë1", pair))
    yield from (t.pair_withdrew("Zoë1", pair), t.pair_dropped("Zoë1", pair))
    yield from (t.round_begins(2, 2e9), t.your_table(2, 99), t.your_bye(3), t.no_show("Zoë1"))
    yield from (t.withdrew("Zoë1"), t.dropped("Zoë1"), t.replaced("Zoë1", "Zoë2"))
    yield from (t.result_changed(2, 3, 1, "Zoë2"), t.round_over(2), t.not_entered())
    yield from (t.paused(), t.resumed(None), t.resumed(1.9e9), t.cancelled())
    yield from (t.too_few(1, 2), t.too_few(3, 4))
    yield from (t.tournament_refused(why) for why in [*REASONS, "unheard-of"])
    yield t.tournament_refused("NoBracket", NoBracket(5, 4, (4,)))
    for place, points, table, bye, out in ((None, None, None, None, False), (3, None, None,
                                           None, True), (1, 1, (2, 99), None, False),
                                           (4, 6, None, 3, False)):  # fmt: skip
        yield t.player_status("T", place, 9, points, table, bye, out)
    yield from (tournament_refusal(error, {7: "Zoë7"}) for error in errors())
    yield tournament_refusal(TournamentError())
    for count, format_ in ((9, Format.SWISS), (80, Format.ROUND_ROBIN)):
        standings = standings_of(count, rounds=1)
        gone: dict[int, Any] = {standings[0].entrant: "withdrew", standings[1].entrant: "dropped"}
        rows = standings_rows(standings, names_for([s.entrant for s in standings]), gone)
        for round_ in (1, 8):
            heads = standings_text("T", format_, round_, 8, count)
            yield from (heads.subtitle, heads.player, heads.points, heads.tie_break, heads.note)
            yield from (heads.difference, heads.played, heads.byes)
            yield describe_standings(rows, heads, format_)
        yield from standings_lines(rows, format_)
    for count, size, rounds in ((13, 2, 99), (16, 4, 1), (256, 2, 2)):
        bracket, state = bracket_played(count, size, rounds)
        names = names_for(list(bracket.seeds))
        text = bracket_text(bracket, "T")
        yield from (*text.rounds, *text.matches, *text.pending.values(), text.bye, text.champion)
        yield from (text.note, describe_bracket(bracket, state, names, "T"))
        yield from bracket_lines(bracket, state, names)
    four = knockout(entrants(16), Seating(4), advance=2)
    yield from bracket_text(four, "T").pending.values()
    yield tournaments.coming_from(3, 3)
    yield from bracket_lines(four, progress(four, []), names_for(list(four.seeds)))


def test_every_tournament_word_comes_from_the_catalogue() -> None:
    pseudo = pseudo_language()
    names = [f"Zoë{n}" for n in sorted({*range(300), *(-n for n in range(300))}, key=abs)]
    with i18n.speaking(pseudo):
        checker = Checker([*names, "Ann", "Bob", "T", *list_words(pseudo.locale)])
        for text in every_text():
            assert checker.strays(text) == [], text


@pytest.mark.parametrize("code", ["es-ES", "pt-BR"])
def test_spanish_and_portuguese_say_it_all_in_their_own_words(code: str) -> None:
    english = list(every_text())
    with i18n.speaking(language(code)):
        spoken = list(every_text())
    assert len(spoken) == len(english)
    same = {
        e for e, s in zip(english, spoken, strict=True) if e == s and any(c.isalpha() for c in e)
    }
    # The same in the three: a name, the finals, and Brazil's word for checking in.
    allowed = {"Buchholz", "Final", "**Final**", "Check-in", "Ann, Bob", "T", ""}
    leftover = {text for text in same if text not in allowed and not text.startswith("Zoë")}
    assert leftover == set()


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_labels_of_the_buttons_differ_and_fit_a_button(code: str) -> None:
    label: Callable[[Any], str] = tournaments.tournament_label
    with i18n.speaking(language(code)):
        labels = [label(action) for action in ("signup", "withdraw", "checkin")]
    assert len(set(labels)) == 3 and all(0 < len(text) <= 80 for text in labels)
