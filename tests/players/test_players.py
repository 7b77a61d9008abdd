"""Computer players: only their seat's view, always a legal move, deterministic, and a
little rule knowledge at the normal level."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.engine import GAMES, TILES, Match, MerryGoRound, Milo, Move, Round
from bot.engine.tiles import SUIT
from bot.levels import LEVELS
from bot.players import computer_player
from bot.players.knowledge import Lot, infer
from bot.players.simulate import sample_deal
from tests.engine.builders import build, every_tile, play


def positions(game: str, count: int) -> Iterator[tuple[Match, int]]:
    """Matches part-way through a round, each with the seat to move."""
    variant = GAMES[game]
    for seed in range(count):
        match = Match(game, variant.player_counts[seed % len(variant.player_counts)], seed=seed)
        picker = random.Random(seed)
        for _ in range(seed % 30):
            if match.outcome():
                break
            match.play(picker.choice(match.legal_moves()))
        if match.turn is not None:
            yield match, match.turn


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_level_returns_a_legal_move(game: str, level: str) -> None:
    player = computer_player(level, seed=1)
    for match, seat in positions(game, 25 if level in ("hard", "expert") else 60):
        move = player.choose(match.seat_view(seat))
        assert move in match.legal_moves()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_view_a_player_gets_holds_no_hidden_tile(game: str) -> None:
    for match, seat in positions(game, 30):
        view = match.seat_view(seat)
        hidden = {t for s in range(match.players) if s != seat for t in match.round.hand(s)}
        hidden |= {TILES[i] for i in match.round.boneyard}
        assert not set(every_tile(view)) & hidden
        assert set(view.hand) == set(match.round.hand(seat))


def twin(round_: Round, seat: int, rng: random.Random) -> Round:
    """The same round as ``seat`` sees it, with every tile it cannot see dealt afresh
    among the other hands and the boneyard (same sizes, new order)."""
    state = round_.to_dict()
    hidden = [t for s, hand in enumerate(state["hands"]) if s != seat for t in hand]
    hidden += state["boneyard"]
    rng.shuffle(hidden)
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            state["hands"][s], hidden = hidden[: len(hand)], hidden[len(hand) :]
    state["boneyard"] = hidden
    return type(round_).from_dict(state)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_player_cannot_tell_deals_its_seat_cannot_see_apart(game: str) -> None:
    """Rounds that differ only in the other hands and the boneyard order: a player that
    peeked at either would play them differently somewhere; ours choose alike."""
    rng = random.Random(7)
    players = {level: computer_player(level, seed=5) for level in LEVELS}
    differed = 0
    for match, seat in positions(game, 12):
        first = match.round
        second = twin(first, seat, rng)
        assert second.seat_view(seat) == first.seat_view(seat)
        differed += second.to_dict() != first.to_dict()
        for level, player in players.items():
            assert player.choose(second.seat_view(seat)) == player.choose(first.seat_view(seat)), (
                level
            )
    assert differed >= 8  # the twins really hide different deals


def play_round(game: str, levels: list[str], seed: int) -> list[tuple[int, Move]]:
    """A whole round between computer seats; its history."""
    variant = GAMES[game]
    round_ = variant.deal(len(levels), random.Random(seed))
    seats = [computer_player(level, seed=seed * 10 + s) for s, level in enumerate(levels)]
    while round_.outcome() is None:
        round_.play(seats[round_.turn].choose(round_.seat_view(round_.turn)))
    return round_.history


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_round_with_computer_seats_replays_exactly_from_its_seeds(game: str) -> None:
    levels = ["hard", "normal", "easy", "hard"] if game == "milo" else ["hard", "easy"]
    assert play_round(game, levels, seed=3) == play_round(game, levels, seed=3)
    easy = ["easy"] * len(levels)
    assert play_round(game, easy, seed=3) != play_round(game, easy, seed=4)


def lone_five_five(seat_1_score: int) -> MerryGoRound:
    """Seat 0 has led 5-5. Seat 1 holds 5-0 (10 on the table: 2 points) and 5-2 (12:
    nothing)."""
    round_ = build(
        MerryGoRound,
        ["5-5 6-6 1-1 6-5 6-4 6-3 6-2", "5-0 5-2 3-3 4-0 4-1 3-0 3-1"],
        scores=[0, seat_1_score],
    )
    play(round_, "5-5")
    return round_


def test_normal_takes_a_multiple_of_five_in_merry_go_round() -> None:
    move = computer_player("normal", 1).choose(lone_five_five(0).seat_view(1))
    assert str(move.tile) == "5-0"


def test_normal_does_not_bust_when_a_safe_play_exists() -> None:
    move = computer_player("normal", 1).choose(lone_five_five(60).seat_view(1))
    assert str(move.tile) == "5-2"  # 2 points would pass 61 (R-MG-7)


def test_normal_goes_for_exactly_61() -> None:
    move = computer_player("normal", 1).choose(lone_five_five(59).seat_view(1))
    assert str(move.tile) == "5-0"


def consistent(hand: int, lots: list[Lot]) -> bool:
    """Whether the tiles in ``hand`` can be shared out among ``lots`` (each lot's count,
    none of its banned tiles). Bans are nested, older lots the stricter, so it is enough
    that the tiles the k oldest lots allow cover their counts, for every k (Hall)."""
    if hand.bit_count() != sum(lot.count for lot in lots):
        return False
    need = 0
    for lot in lots:
        need += lot.count
        if (hand & ~lot.banned).bit_count() < need:
            return False
    return True


@pytest.mark.parametrize("game", sorted(GAMES))
def test_what_a_seat_infers_never_rules_out_the_real_deal(game: str) -> None:
    """Whatever passes and draws happened (tiles drawn after a pass may be anything), the
    hands really held always fit what every other seat inferred."""
    variant = GAMES[game]
    banned = 0
    for seed in range(60):
        players = variant.player_counts[seed % len(variant.player_counts)]
        round_ = variant.deal(players, random.Random(seed))
        picker = random.Random(seed)
        while round_.outcome() is None:
            round_.play(picker.choice(round_.legal_moves()))
            for seat in range(players):
                knowledge = infer(round_.seat_view(seat))
                assert knowledge.lots[seat] == []
                for other in range(players):
                    if other != seat:
                        assert consistent(round_.hands[other], knowledge.lots[other])
                        banned |= knowledge.lacking(other)
    assert banned  # passes and draws were seen, and did teach something


def test_a_milo_pass_shows_the_passer_lacks_both_end_numbers() -> None:
    hands = [
        "6-6 6-5 6-3 6-2 6-1 6-0 5-3",
        "5-5 3-1 3-2 3-3 5-0 5-1 5-2",
        "6-4 4-0 4-1 4-2 4-3 4-4 5-4",
        "0-0 1-0 1-1 2-0 2-1 2-2 3-0",
    ]
    round_ = build(Milo, hands, leader=0)
    play(round_, "6-6", "pass")  # seat 1 holds no six (R-MI-4)
    play(round_, "6-4 R")  # seat 2; ends now 6 and 4
    knowledge = infer(round_.seat_view(0))
    assert knowledge.lacking(1) == SUIT[6]
    play(round_, "pass", "6-5 L", "5-5 L")  # seat 3 passes on 6 and 4, seat 1 plays 5-5
    knowledge = infer(round_.seat_view(0))
    assert knowledge.lacking(3) == SUIT[6] | SUIT[4]
    assert knowledge.lacking(1) == SUIT[6]
    for seed in range(20):
        guess, _ = sample_deal(round_.seat_view(0), knowledge, random.Random(seed))
        assert not any(6 in t or 4 in t for t in guess[3])


def test_tiles_drawn_after_a_void_is_shown_may_be_anything() -> None:
    """Merry-Go-Round: seat 1 draws until a six comes (R-MG-5). Every tile it held or
    drew before that lacks a six, but the last one drawn is a six, and it may keep it."""
    round_ = build(
        MerryGoRound,
        [
            "6-6 1-0 6-5 6-4 6-3 6-1 6-0",
            "2-1 3-1 4-1 5-1 4-0 5-0 1-1",
            "5-4 4-4 5-5 3-3 2-2 4-3 5-3",
        ],
        "3-0 2-0 6-2",
    )
    play(round_, "6-6", "draw", "draw")
    seen_by_2 = infer(round_.seat_view(2))
    assert [(lot.count, lot.banned) for lot in seen_by_2.lots[1]] == [
        (7, SUIT[6]),
        (1, SUIT[6]),
        (1, 0),
    ]
    play(round_, "draw")  # the third draw, 6-2, fits
    assert seen_by_2.lacking(1) == 0
    play(round_, "6-2 N")
    after = infer(round_.seat_view(2))
    assert after.lacking(1) == SUIT[6]  # it played the drawn six: no six is left


def test_normal_opens_a_maltese_arm_it_can_cap() -> None:
    from bot.engine import MalteseCross

    round_ = build(MalteseCross, ["6-6 2-0 4-0 0-0 2-2 4-4 5-5", "6-3 6-1 1-1 5-0 4-2 5-2 5-4"])
    play(round_, "6-6")
    move = computer_player("normal", 1).choose(round_.seat_view(1))
    assert str(move.tile) == "6-1"  # lighter than 6-3, but 1-1 will cap its arm (R-MC-3)
