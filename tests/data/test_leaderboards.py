"""Stats, ratings and leaderboards against a brute-force computation over random games."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from data.models import GLOBAL, FinishedGame, Participant, RoundResult
from data.ratings import DEFAULT, ordinal
from data.sqlite import SqliteStore

USERS = list(range(100, 130))
GUILDS = [1, 2, 3]


def random_games(seed: int, count: int) -> list[FinishedGame]:
    rng = random.Random(seed)
    games = []
    for index in range(count):
        kind = rng.choice(["cross", "milo"])
        seats = 4 if kind == "milo" else rng.randint(2, 4)
        users = rng.sample(USERS, seats)
        teams = [s % 2 if kind == "milo" else s for s in range(seats)]
        sides = sorted(set(teams))
        scores = {side: rng.randint(0, 120) for side in sides}
        winner = rng.choice(sides)
        participants = []
        for seat in range(seats):
            computer = rng.random() < 0.15
            participants.append(
                Participant(
                    seat=seat, team=teams[seat], final_score=scores[teams[seat]],
                    won=teams[seat] == winner,
                    user_id=None if computer else users[seat],
                    computer_level="normal" if computer else None,
                    rounds_won=rng.randint(0, 5), points=rng.randint(0, 120),
                    dominoes=rng.randint(0, 3), blocked_wins=rng.randint(0, 2),
                )
            )  # fmt: skip
        games.append(
            FinishedGame(
                id=f"g{index}",
                table_id=f"t{index}",
                guild_id=rng.choice(GUILDS),
                game=kind,
                finished_at=float(index),
                record={},
                rounds=[RoundResult(1, "domino", winner, [])],
                participants=participants,
            )
        )
    return games


def brute_stats(games: list[FinishedGame]) -> dict[tuple[int, str, int], list[int]]:
    totals: dict[tuple[int, str, int], list[int]] = defaultdict(lambda: [0] * 6)
    for game in games:
        for p in game.participants:
            if p.user_id is None:
                continue
            for guild in (game.guild_id, GLOBAL):
                row = totals[p.user_id, game.game, guild]
                for i, value in enumerate(
                    (1, int(p.won), p.rounds_won, p.points, p.dominoes, p.blocked_wins)
                ):
                    row[i] += value
    return totals


@pytest.fixture
async def filled(store: SqliteStore) -> tuple[SqliteStore, list[FinishedGame]]:
    games = random_games(seed=3, count=120)
    for game in games:
        await store.record_finished_game(game)
    return store, games


async def test_stats_equal_a_brute_force_count(filled) -> None:
    store, games = filled
    expected = brute_stats(games)
    for user in USERS:
        for guild in [*GUILDS, None]:
            rows = await store.get_stats(user, guild_id=guild)
            got = {
                (r.user_id, r.game, r.guild_id): [r.games, r.wins, r.rounds_won, r.points,
                                                  r.dominoes, r.blocked_wins]
                for r in rows
            }  # fmt: skip
            scope = GLOBAL if guild is None else guild
            want = {k: v for k, v in expected.items() if k[0] == user and k[2] == scope}
            assert got == want


@pytest.mark.parametrize("order", ["rating", "wins", "points"])
@pytest.mark.parametrize("guild", [1, None])
async def test_leaderboards_equal_a_brute_force_ranking(filled, order: str, guild) -> None:
    store, games = filled
    scope = GLOBAL if guild is None else guild
    stats = {k: v for k, v in brute_stats(games).items() if k[1] == "cross" and k[2] == scope}
    ratings = {u: await store.get_rating(u, "cross") for (u, _, _) in stats}
    floor = 3 if order == "rating" else 1
    key = {"rating": lambda u: ratings[u], "wins": lambda u: stats[u, "cross", scope][1],
           "points": lambda u: stats[u, "cross", scope][3]}[order]  # fmt: skip
    qualified = [u for (u, _, _), v in stats.items() if v[0] >= floor]
    ranked = sorted(qualified, key=lambda u: (-key(u), -stats[u, "cross", scope][0], u))
    pages = []
    for page in range(3):
        last = ranked[-1] if ranked else None
        board = await store.leaderboard(
            "cross", guild, order, page=page, page_size=4, min_games=3, user_id=last
        )
        assert board.total == len(ranked)
        pages += board.entries
        if ranked:
            assert board.me is not None and board.me.rank == len(ranked)
            assert board.me.user_id == ranked[-1]
    assert [e.user_id for e in pages] == ranked[:12]
    assert [e.rank for e in pages] == list(range(1, len(pages) + 1))
    for entry in pages:
        assert entry.games == stats[entry.user_id, "cross", scope][0]


async def test_ratings_move_up_for_winners_and_down_for_losers(store: SqliteStore) -> None:
    def game(game_id: str, kind: str, winners: list[int], losers: list[int]) -> FinishedGame:
        """Winners and losers alternate round the table (Milo: partners across)."""
        users = [u for pair in zip(winners, losers, strict=True) for u in pair]
        participants = [
            Participant(seat=seat, team=seat % 2 if kind == "milo" else seat,
                        final_score=10 if seat % 2 == 0 else 5, won=seat % 2 == 0, user_id=user)
            for seat, user in enumerate(users)
        ]  # fmt: skip
        return FinishedGame(game_id, "t", 1, kind, 0.0, {}, [], participants)

    base = ordinal(DEFAULT)
    await store.record_finished_game(game("a", "cross", [1], [2]))
    assert await store.get_rating(1, "cross") > base > await store.get_rating(2, "cross")
    await store.record_finished_game(game("b", "milo", [1, 3], [2, 4]))
    up = [await store.get_rating(u, "milo") for u in (1, 3)]
    down = [await store.get_rating(u, "milo") for u in (2, 4)]
    assert min(up) > base > max(down)
    assert await store.get_rating(1, "cross") > base  # one rating per game kind
