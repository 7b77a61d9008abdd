"""A Discord nickname is one server's: a member who plays as "AnnTheGamer" in a public
server and as "Ann Smith (Mum)" in a private server of friends is never shown in the
public server by her private nickname (its boards, the board of every server shown
there, its games read back), and a finished game keeps the name it was played under."""

from __future__ import annotations

from data import open_store
from data.backend import Session
from data.models import FinishedGame, Participant, RoundResult
from data.repository import Repository
from tests.data.databases import Database
from tests.data.test_store import migrated_before, written_raw

ANN, BOB = 111111111111111111, 222222222222222222
PUBLIC, FRIENDS, ELSEWHERE = 900000000000000001, 900000000000000002, 900000000000000003
PUBLIC_NAME, PRIVATE_NAME = "AnnTheGamer", "Ann Smith (Mum)"


def game(n: int, guild: int, ann_name: str) -> FinishedGame:
    """Game ``g<n>``, finished at ``n``: Ann, named ``ann_name``, beats Bob."""
    seats = [
        Participant(seat=0, team=0, final_score=100, won=True, user_id=ANN, name=ann_name),
        Participant(seat=1, team=1, final_score=40, won=False, user_id=BOB, name="Bob"),
    ]
    return FinishedGame(
        id=f"g{n}", table_id=f"t{n}", guild_id=guild, game="cross", finished_at=float(n),
        record={}, rounds=[RoundResult(1, "domino", 0, [100, 0])], participants=seats,
    )  # fmt: skip


async def public_then_private(store: Repository) -> None:
    """Three games in the public server, then, last, one in the friends' server."""
    for n in range(3):
        await store.record_finished_game(game(n, PUBLIC, PUBLIC_NAME))
    await store.record_finished_game(game(3, FRIENDS, PRIVATE_NAME))


async def names_on(
    store: Repository, guild_id: int | None, shown_in: int | None = None
) -> dict[int, str]:
    board = await store.leaderboard("cross", guild_id, min_games=1, shown_in=shown_in)
    return {entry.user_id: entry.name for entry in board.entries}


async def test_a_servers_board_names_a_member_as_that_server_knows_them(
    store: Repository,
) -> None:
    await public_then_private(store)
    assert (await names_on(store, PUBLIC))[ANN] == PUBLIC_NAME
    assert (await names_on(store, FRIENDS))[ANN] == PRIVATE_NAME
    board = await store.leaderboard("cross", PUBLIC, min_games=1, page_size=1, user_id=BOB)
    assert board.me is not None and board.me.name == "Bob", "the caller's own row too"


async def test_the_board_of_every_server_names_members_as_the_server_shown_in_does(
    store: Repository,
) -> None:
    """Shown in the public server, the board of every server says her public name; in
    a server she never played in, no name (the face names her as Discord does), never
    the last she played under elsewhere."""
    await public_then_private(store)
    assert (await names_on(store, None, shown_in=PUBLIC))[ANN] == PUBLIC_NAME
    assert (await names_on(store, None, shown_in=FRIENDS))[ANN] == PRIVATE_NAME
    assert (await names_on(store, None, shown_in=ELSEWHERE))[ANN] == ""
    assert (await names_on(store, None))[ANN] == ""
    board = await store.leaderboard(
        "cross", None, min_games=1, page_size=1, user_id=BOB, shown_in=PUBLIC
    )
    assert board.me is not None and board.me.name == "Bob"


async def test_a_game_read_back_names_its_seats_as_they_played_in_it(store: Repository) -> None:
    """History, a replay, the coach's word and a rematch read the game: a game of the
    public server keeps "AnnTheGamer" though she played as someone else since."""
    await public_then_private(store)
    for game_id, name in (("g0", PUBLIC_NAME), ("g3", PRIVATE_NAME)):
        played = await store.get_game(game_id)
        assert played is not None and [p.name for p in played.participants] == [name, "Bob"]
    listed, _ = await store.games_of(BOB, PUBLIC)
    assert {p.name for g in listed for p in g.participants} == {PUBLIC_NAME, "Bob"}


async def test_games_stored_before_keep_the_name_they_read(database: Database) -> None:
    """A release that kept one name per member (the last anywhere): it names the member
    in the server of the game that wrote it (finished at its time) only: on its boards
    and in its games, which go on reading it; another server's games and boards do not
    get a name that server never gave them."""

    async def release_0018(tx: Session) -> None:
        await migrated_before("0019", tx)
        for n, guild in enumerate((PUBLIC, FRIENDS)):
            await tx.execute(
                "INSERT INTO games (id, table_id, guild_id, game, finished_at, record)"
                " VALUES (?, ?, ?, 'cross', ?, '{}')",
                (f"g{n}", f"t{n}", guild, float(n)),
            )
            await tx.executemany(
                "INSERT INTO game_seats (game_id, seat, team, user_id, computer_level,"
                " final_score, won, rounds_won, points, dominoes, blocked_wins)"
                " VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, 0, 0)",
                [(f"g{n}", 0, 0, ANN, None), (f"g{n}", 1, 1, None, "easy")],
            )
            await tx.executemany(
                "INSERT INTO player_stats (user_id, game, guild_id, games, wins, rounds_won,"
                " points, dominoes, blocked_wins, rating) VALUES (?, 'cross', ?, 3, 0, 0, 0,"
                " 0, 0, 0)",
                [(ANN, guild), (ANN, 0)] if n == 0 else [(ANN, guild)],
            )
        await tx.execute(
            "INSERT INTO player_names (user_id, name, updated_at) VALUES (?, ?, 1)",
            (ANN, PRIVATE_NAME),
        )

    await written_raw(database.url, release_0018)
    async with await open_store(database.url) as store:
        for game_id, named in (("g0", ""), ("g1", PRIVATE_NAME)):
            played = await store.get_game(game_id)
            assert played is not None and [p.name for p in played.participants] == [
                named,
                "",
            ], "the friends' server's game as it read before; the public one's unnamed"
        assert (await names_on(store, FRIENDS))[ANN] == PRIVATE_NAME
        assert (await names_on(store, PUBLIC))[ANN] == ""
        assert (await names_on(store, None, shown_in=PUBLIC))[ANN] == ""
        assert (await store.stored_about(ANN)).names == (PRIVATE_NAME,)


async def test_forgetting_a_member_deletes_every_servers_name_and_their_seats_names(
    store: Repository,
) -> None:
    await public_then_private(store)
    assert (await store.stored_about(ANN)).names == (PRIVATE_NAME, PUBLIC_NAME)
    gone = await store.forget(ANN)
    assert (gone.names, gone.seats) == (2, 4)
    assert (await store.stored_about(ANN)).names == ()
    for n in range(4):
        played = await store.get_game(f"g{n}")
        assert played is not None
        assert [(p.user_id, p.name) for p in played.participants] == [(None, ""), (BOB, "Bob")]
