"""The words of the pictures, all written in ``words.pictures``: the alt text (the layout
in words, for screen readers) and the lines drawn in the pictures' headers. The alt text
must say the whole layout: whose turn, every open end and what it needs, every tile on
the table arm by arm (or along Milo's line), dead arms and caps (R-MC-3, R-MC-5), the
open-end total (R-MG-4), and never a hidden tile (R-ALL-6)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from bot.engine import GAMES, TILES, LineLayout, Match, Options, PublicView, Tile
from discord_face.marks import DISCORD
from rendering import LeaderboardRow
from words import marks
from words.i18n import listing
from words.pictures import (
    describe_hand,
    describe_leaderboard,
    describe_table,
    hand_text,
    table_text,
)

NAMES = ["Ann", "Bob", "Cat", "Dan"]
TILE = re.compile(r"\b\d-\d\b")


def played(game: str, seeds: int) -> Iterator[tuple[Match, PublicView]]:
    """Every position of seeded random rounds of ``game`` at its largest table."""
    variant = GAMES[game]
    for seed in range(seeds):
        match = Match(game, variant.player_counts[-1], seed=seed)
        picker = random.Random(seed)
        while not match.rounds:
            yield match, match.view()
            match.play(picker.choice(match.legal_moves()))


def on_table(view: PublicView) -> list[Tile]:
    layout = view.layout
    if layout is None:
        return []
    if isinstance(layout, LineLayout):
        return [placed.tile for placed in layout.tiles]
    return [layout.spinner, *(placed.tile for arm in layout.arms for placed in arm.tiles)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_alt_text_says_whose_turn_every_open_end_and_every_tile_never_a_hidden_one(
    game: str,
) -> None:
    for match, view in played(game, seeds=15):
        text = describe_table(view, NAMES[: view.players])
        assert len(text) <= 1024
        assert f"{NAMES[view.turn]} to play." in text
        for end, value in view.open_ends.items():
            assert f"{end} {value}" in text
        named = set(TILE.findall(text))
        assert {str(tile) for tile in on_table(view)} <= named
        hidden = {str(t) for s in range(match.players) for t in match.round.hand(s)}
        hidden |= {str(TILES[i]) for i in match.round.boneyard}
        assert not hidden & named


@pytest.mark.parametrize("game", ["cross", "maltese-cross", "merry-go-round"])
def test_alt_text_says_each_arm_with_its_tiles_from_the_spinner_out(game: str) -> None:
    """R-SP-1: four arms, N E S W, read from the spinner outwards."""
    for _, view in played(game, seeds=5):
        layout = view.layout
        if layout is None or isinstance(layout, LineLayout):
            continue
        text = describe_table(view, NAMES[: view.players])
        assert f"Spinner {layout.spinner}." in text
        for arm in layout.arms:
            chain = ", ".join(str(placed.tile) for placed in arm.tiles) or "empty"
            assert re.search(rf"Arm {arm.name}(, capped with \d-\d)?: {chain}\.", text), arm


def test_milo_alt_text_reads_the_line_from_left_to_right() -> None:
    for _, view in played("milo", seeds=5):
        if isinstance(view.layout, LineLayout):
            line = ", ".join(str(placed.tile) for placed in view.layout.tiles)
            assert f"Line from L to R: {line}." in describe_table(view, NAMES)


def test_maltese_alt_text_names_each_cap_and_each_dead_arm() -> None:
    """R-MC-3: a capped arm is said with the double that capped it (the double laid on
    it once all four arms were started), not as if its last tile were the cap; R-MC-5:
    dead arms are said among the open ends."""
    caps = deaths = 0
    for _, view in played("maltese-cross", seeds=30):
        layout = view.layout
        if layout is None or isinstance(layout, LineLayout):
            continue
        text = describe_table(view, NAMES[: view.players])
        assert "(capped)" not in text
        started: set[str] = set()
        capped_with: dict[str, Tile] = {}
        for _, move in view.history:
            end = move.end_name
            if end is None or move.tile is None:
                continue
            if len(started) == 4 and end not in capped_with:
                capped_with[end] = move.tile
            started.add(end)
        for arm in layout.arms:
            if arm.capped:
                assert f"Arm {arm.name}, capped with {capped_with[arm.name]}: " in text
                caps += 1
            else:
                assert f"Arm {arm.name}: " in text
        dead = [arm.name for arm in layout.arms if arm.dead]
        if dead:
            assert f"Dead: {listing(dead)}." in text
            deaths += 1
        else:
            assert "Dead:" not in text
    assert caps and deaths


def test_merry_go_round_says_the_open_end_total_and_the_other_games_do_not() -> None:
    """R-MG-4: the open ends' total is what scores, so it is said (and drawn)."""
    for game in GAMES:
        for _, view in played(game, seeds=3):
            if view.layout is None:
                continue
            text = describe_table(view, NAMES[: view.players])
            header = " ".join(table_text(view, NAMES[: view.players]).header)
            if view.open_sum is not None:
                assert f"Open ends total {view.open_sum}." in text
                assert f"Open ends total {view.open_sum}" in header
            else:
                assert "total" not in text and "total" not in header
    assert GAMES["merry-go-round"].scores_plays


def test_the_last_tile_played_is_said_with_its_end_and_who_played_it() -> None:
    for _, view in played("cross", seeds=3):
        plays = [(seat, move) for seat, move in view.history if move.tile is not None]
        text = describe_table(view, NAMES[: view.players])
        if not plays:
            assert "No tile played yet." in text
            continue
        seat, move = plays[-1]
        where = f"on {move.end_name}" if move.end_name else "as the lead"
        assert f"Last played: {move.tile} {where} by {NAMES[seat]}." in text


def test_a_milo_match_says_the_game_and_the_games_each_team_has_won() -> None:
    """R-MI-7: in a match of several games the teams need the games won, not just the
    points of the game under way; R-MI-1: Milo scores by team."""
    match = Match("milo", 4, Options.for_game(GAMES["milo"], 4, match_games=3), seed=5)
    picker = random.Random(5)
    while match.game_number == 1:
        match.play(picker.choice(match.legal_moves()))
    view = match.view()
    won = view.games_won
    assert sorted(won) == [0, 1]
    text = describe_table(view, NAMES)
    assert "of game 2, to 5." in text
    assert f"Games won, first to 3: Ann & Cat {won[0]}, Bob & Dan {won[1]}." in text
    lines = table_text(view, NAMES).header
    assert lines[0].startswith("Milo · round 1 of game 2 · to 5")
    assert f"Games won (first to 3): Ann & Cat {won[0]} · Bob & Dan {won[1]}" in lines
    single = Match("milo", 4, seed=5).view()
    assert "Games won" not in describe_table(single, NAMES)
    assert not any("Games won" in line for line in table_text(single, NAMES).header)


def test_the_header_names_whose_turn_and_cuts_long_names_in_lists_only() -> None:
    """Four 32-letter names side by side would not fit in a picture: in the lists they
    are cut with an ellipsis; the player to move gets a line of their own, and more room."""
    long = "Maximiliana Alexandrovna Petrova"  # 32 letters, Discord's longest
    names = ["Ann", long, "Cat"]
    match = Match("cross", 3, seed=1)
    while match.turn != 1:
        match.play(match.legal_moves()[0])
    lines = table_text(match.view(), names).header
    assert lines[-1] == f"To play: {long}"
    scores = lines[1]
    assert long not in scores and "Maximiliana" in scores and "…" in scores and "Ann 0" in scores


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hand_alt_text_lists_the_hand_in_the_pictures_order_and_where_each_tile_fits(
    game: str,
) -> None:
    for match, _ in played(game, seeds=4):
        for seat in range(match.players):
            view = match.seat_view(seat)
            text = describe_hand(view)
            order = sorted(view.hand, key=lambda t: (-t.high, -t.low))
            tiles = "1 tile" if len(order) == 1 else f"{len(order)} tiles"
            assert f"{tiles}: {', '.join(map(str, order))}." in text
            fits = {move.tile for move in view.legal if move.tile is not None}
            for tile in fits:
                ends = [m.end_name for m in view.legal if m.tile is tile and m.end_name]
                said = f"{tile} on {listing(ends, style='or')}" if ends else str(tile)
                assert said in text.split("Playable now: ")[1]
            if not fits and view.legal:
                assert f"Nothing fits: {view.legal[0]}." in text
            if not view.legal:
                assert "Playable" not in text and "Nothing fits" not in text


def test_the_hand_header_says_whose_hand_and_what_the_seat_is_to_do() -> None:
    """Waiting, tiles that fit (framed green), or the button to press: the picture alone
    says why nothing is green."""
    seen = set()
    for match, view in played("cross", seeds=3):
        for seat in range(view.players):
            mine = match.seat_view(seat)
            text = hand_text(mine, NAMES[: view.players])
            size = len(mine.hand)
            assert text.title == f"{NAMES[seat]}'s hand · {size} tile{'' if size == 1 else 's'}"
            fits = {move.tile for move in mine.legal if move.tile is not None}
            if seat != view.turn:
                expected, case = f"Waiting for {NAMES[view.turn]}", "waiting"
            elif fits:
                expected, case = f"Your turn: {len(fits)} of your tiles fit (green)", "fits"
            else:
                case = str(mine.legal[0])
                expected = f"Your turn: nothing fits, press {case.capitalize()}"
            assert text.status == expected
            seen.add(case)
    assert seen == {"waiting", "fits", "draw", "pass"}


def test_a_maltese_cross_with_every_arm_dead_says_no_end_is_open() -> None:
    """R-MC-5: when the boneyard comes down to 2 before any arm is capped, all four arms
    die and the round is blocked. The alt text says that no end is open, not an empty
    list ("Open ends: .")."""
    match = Match("maltese-cross", 4, seed=5)
    picker = random.Random(5)
    while not match.rounds:
        match.play(picker.choice(match.legal_moves()))
    assert match.previous is not None
    view = match.previous.view()
    layout = view.layout
    assert layout is not None and not isinstance(layout, LineLayout)
    assert all(arm.dead for arm in layout.arms) and not view.open_ends
    text = describe_table(view, NAMES)
    assert "Open ends: ." not in text
    assert "No end is open. Dead: N, E, S, and W." in text


def test_the_leaderboard_alt_text_says_the_names_as_typed() -> None:
    """Alt text is plain text, never markdown: a screen reader must not read Discord's
    escapes ("john\\_doe") where a member is called john_doe."""
    rows = [LeaderboardRow(1, "john_doe", "31.2", 4), LeaderboardRow(2, "*star*", "30.0", 3)]
    with marks.using(DISCORD):
        text = describe_leaderboard("Cross — this server", rows, "You: #7 — 12.0 (1 game)")
    assert text == (
        "Cross — this server. 1. john_doe — 31.2 (4 games); 2. *star* — 30.0 (3 games);"
        " You: #7 — 12.0 (1 game)"
    )
