"""Stats, ratings and leaderboards against a brute-force computation over random games:
totals summed game by game, ratings replayed game by game from nothing, boards sorted in
Python. The store keeps running totals and reads indexes; they must agree."""

from __future__ import annotations

import contextlib
import random
from collections import defaultdict
from collections.abc import AsyncIterator, Callable

import pytest
import pytest_asyncio

from data import open_store, sqlite_url
from data.models import GLOBAL, FinishedGame, Participant, RoundResult
from data.ratings import DEFAULT, Rating, ordinal, rate
from data.repository import Repository
from tests.data.databases import postgres_schema, rated, rating_of

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
                    name="" if computer else f"Player {users[seat]} in game {index}",
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


def brute_ratings(games: list[FinishedGame]) -> dict[tuple[int, str], Rating]:
    """Every game rated in the order played, each member from their rating so far."""
    ratings: dict[tuple[int, str], Rating] = {}
    for game in games:
        members = {p.user_id: ratings.get((p.user_id, game.game), DEFAULT)
                   for p in game.participants if p.user_id is not None}  # fmt: skip
        for user, rating in rate(game.participants, members).items():
            ratings[user, game.game] = rating
    return ratings


def brute_names(games: list[FinishedGame], guild: int) -> dict[int, str]:
    """Each member's name in the last game they played in ``guild`` (a nickname is one
    server's); none for a member who never played there."""
    return {
        p.user_id: p.name
        for g in games
        if g.guild_id == guild
        for p in g.participants
        if p.user_id is not None
    }


Filled = tuple[Repository, list[FinishedGame]]
"""The ``filled`` fixture: a store and the random games recorded in it."""


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=["sqlite", "postgresql"])
async def filled(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Filled]:
    """A new database of each kind (as the ``database`` fixture makes them) with the
    random games recorded in it, once for the module: the tests that take it only read
    it (a test that writes must take ``store`` instead), on the module's event loop."""
    async with contextlib.AsyncExitStack() as stack:
        if request.param == "sqlite":
            url = sqlite_url(tmp_path_factory.mktemp("leaderboards") / "var" / "test.db")
        else:
            url = await stack.enter_async_context(postgres_schema())
        store = await open_store(url)
        stack.push_async_callback(store.close)
        games = random_games(seed=3, count=160)
        for game in games:
            await store.record_finished_game(game)
        yield store, games


@pytest.mark.asyncio(loop_scope="module")
async def test_stats_equal_a_brute_force_count(filled: Filled) -> None:
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


@pytest.mark.asyncio(loop_scope="module")
async def test_ratings_equal_a_replay_of_every_game(filled: Filled) -> None:
    store, games = filled
    expected = brute_ratings(games)
    for user in USERS:
        for kind in ("cross", "milo"):
            want = expected.get((user, kind))
            got = await rating_of(store, user, kind)
            assert got == (None if want is None else pytest.approx(ordinal(want)))


@pytest.mark.parametrize("order", ["rating", "wins", "points"])
@pytest.mark.parametrize("guild", [1, None])
@pytest.mark.parametrize("kind", ["cross", "milo"])
@pytest.mark.asyncio(loop_scope="module")
async def test_leaderboards_equal_a_brute_force_ranking(
    filled: Filled, kind: str, order: str, guild: int | None
) -> None:
    """Every page, and every player's own rank asked for from any page. Wins and points
    have many ties here, so the tie-breaks (more games, then lower id) are exercised."""
    store, games = filled
    scope = GLOBAL if guild is None else guild
    stats = {u: v for (u, k, g), v in brute_stats(games).items() if k == kind and g == scope}
    ratings = brute_ratings(games)
    scores: dict[str, Callable[[int], float]] = {
        "rating": lambda u: ordinal(ratings[u, kind]),
        "wins": lambda u: stats[u][1],
        "points": lambda u: stats[u][3],
    }
    score = scores[order]
    floor = 3 if order == "rating" else 1
    ranked = sorted(
        (u for u, v in stats.items() if v[0] >= floor), key=lambda u: (-score(u), -stats[u][0], u)
    )
    assert len({score(u) for u in ranked}) < len(ranked) or order == "rating", "no ties to test"
    names = brute_names(games, 1)  # every server's board as server 1 shows it
    page_size = 4
    pages = []
    for page in range(len(ranked) // page_size + 2):
        board = await store.leaderboard(
            kind, guild, order, page=page, page_size=page_size, shown_in=1
        )
        assert board.total == len(ranked)
        pages += board.entries
    assert [e.user_id for e in pages] == ranked
    assert [e.rank for e in pages] == list(range(1, len(ranked) + 1))
    for entry in pages:
        assert (entry.games, entry.wins, entry.points) == (
            stats[entry.user_id][0], stats[entry.user_id][1], stats[entry.user_id][3]
        )  # fmt: skip
        assert entry.rating == pytest.approx(ordinal(ratings[entry.user_id, kind]))
        assert entry.name == names.get(entry.user_id, "")
    for user in USERS:
        board = await store.leaderboard(kind, guild, order, page=1, page_size=page_size,
                                        user_id=user)  # fmt: skip
        if user in ranked:
            assert board.me is not None
            assert (board.me.user_id, board.me.rank) == (user, ranked.index(user) + 1)
        else:
            assert board.me is None


async def test_ratings_move_up_for_winners_and_down_for_losers(store: Repository) -> None:
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
    first_win = await rated(store, 1, "cross")
    assert first_win > base > await rated(store, 2, "cross")
    await store.record_finished_game(game("b", "cross", [1], [2]))
    assert await rated(store, 1, "cross") > first_win  # a second win lifts it further
    await store.record_finished_game(game("c", "milo", [1, 3], [2, 4]))
    up = [await rated(store, u, "milo") for u in (1, 3)]
    down = [await rated(store, u, "milo") for u in (2, 4)]
    assert min(up) > base > max(down)
    assert up[0] == up[1] and down[0] == down[1]  # partners share the result
    assert await rated(store, 1, "cross") > first_win  # one rating per game kind


async def test_four_player_ratings_follow_the_final_order(store: Repository) -> None:
    """Cross with four: the winner gains most, then by final score; last loses most."""
    scores = {11: 150, 12: 90, 13: 60, 14: 10}
    seats = [
        Participant(seat=s, team=s, final_score=score, won=score == 150, user_id=user)
        for s, (user, score) in enumerate(scores.items())
    ]
    await store.record_finished_game(FinishedGame("g", "t", 1, "cross", 0.0, {}, [], seats))
    after = [await rated(store, user, "cross") for user in scores]
    assert after == sorted(after, reverse=True) and len(set(after)) == 4
    assert after[0] > ordinal(DEFAULT) > after[-1]


async def test_a_computer_partner_is_rated_with_the_team_but_never_stored(
    store: Repository,
) -> None:
    """Milo: a member and a computer beat two members; the member rises like any winner,
    the losers fall, and the computer has no rating, stats or board row."""
    seats = [
        Participant(seat=0, team=0, final_score=100, won=True, user_id=21),
        Participant(seat=1, team=1, final_score=40, won=False, user_id=22),
        Participant(seat=2, team=0, final_score=100, won=True, computer_level="hard"),
        Participant(seat=3, team=1, final_score=40, won=False, user_id=23),
    ]
    await store.record_finished_game(FinishedGame("g", "t", 1, "milo", 0.0, {}, [], seats))
    base = ordinal(DEFAULT)
    assert await rated(store, 21, "milo") > base
    assert max([await rated(store, u, "milo") for u in (22, 23)]) < base
    board = await store.leaderboard("milo", None, "wins")
    assert sorted(e.user_id for e in board.entries) == [21, 22, 23]


async def test_the_browsers_guests_stay_off_the_board_of_every_server(
    store: Repository,
) -> None:
    """A game at the browser's table (its local server has a negative id, as its guests
    do) adds to that server's board and its guests' stats there, not to Discord's board
    of every server, where a name anyone may pick for a cookie would rank among members."""
    guests = [
        Participant(seat=0, team=0, final_score=100, won=True, user_id=-31, name="Ann"),
        Participant(seat=1, team=1, final_score=40, won=False, user_id=-32, name="Bob"),
    ]
    members = [
        Participant(seat=0, team=0, final_score=100, won=True, user_id=41, name="Cat"),
        Participant(seat=1, team=1, final_score=40, won=False, user_id=42, name="Dan"),
    ]
    await store.record_finished_game(FinishedGame("l", "t1", -1, "cross", 0.0, {}, [], guests))
    await store.record_finished_game(FinishedGame("d", "t2", 7, "cross", 1.0, {}, [], members))
    local = await store.leaderboard("cross", -1, "wins", user_id=-31)
    assert [e.user_id for e in local.entries] == [-31, -32] and local.me is not None
    everywhere = await store.leaderboard("cross", None, "wins", user_id=-31)
    assert [e.user_id for e in everywhere.entries] == [41, 42] and everywhere.me is None
    assert [s.games for s in await store.get_stats(-31, guild_id=-1)] == [1]
    assert await store.get_stats(-31) == []
    assert await rated(store, -31, "cross") > ordinal(DEFAULT), "a guest is rated as ever"
