"""The browser's read-only pages (``web.reads``): a finished game's replay stepped move
by move, the local server's boards and each game's rules page, built from games played
through the table service by guests and stored in a real SQLite store."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.commands import Join, Play, Start
from bot.engine import GAMES, Kind, LayoutKind, Match, Move, UnknownGame
from bot.refusals import NoSuchGame, NotReplayable, OptionsRefused
from bot.service import NewTable, TableService
from bot.standings import Standings
from data import open_store, sqlite_url
from data.backend import Session
from data.repository import Repository
from web import reads
from web.frames import layout
from web.identity import LOCAL_SERVER
from web.marks import WebMarks
from words import i18n, marks, rules

GUESTS = (-11, -12, -13, -14)
CHANNEL = -20
SPANISH = i18n.for_locale("es-ES")
RULE = re.compile(r"R-[A-Z]+-\d+")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Repository]:
    store = await open_store(sqlite_url(tmp_path / "domino.db"))
    yield store
    await store.close()


@pytest.fixture
async def service(store: Repository) -> AsyncIterator[TableService]:
    service = TableService(store, computer_pace=0.0)
    await service.resume()
    yield service
    await service.close()


async def finished(
    service: TableService,
    game: str,
    names: Sequence[str],
    target: int,
    guild_id: int = LOCAL_SERVER,
) -> str:
    """A whole game played by guests, each making a random legal move (seeded): its id."""
    table = await service.open_table(
        NewTable(guild_id, CHANNEL, GUESTS[0], names[0], game, target=target)
    )
    for guest, name in zip(GUESTS[1 : len(names)], names[1:], strict=True):
        await service.act(table.id, Join(guest, name))
    await service.act(table.id, Start(GUESTS[0]))
    picker = random.Random(7)
    while table.id in service.tables:
        now = service.snapshot(table.id)
        assert now.turn is not None
        user = now.seats[now.turn].user_id
        assert user is not None
        await service.act(table.id, Play(user, picker.choice(now.legal_for(user))))
    games, _ = await Standings(service.store).history(GUESTS[0], guild_id, 1)
    return games[0].id


def tiles(frame: dict[str, Any]) -> int:
    return 0 if frame["layout"] is None else len(frame["layout"]["tiles"])


def is_move(frame: dict[str, Any]) -> bool:
    """A frame after an action (in English), not a round's start."""
    return bool(frame["line"].startswith("Move "))


async def check_replay(service: TableService, game_id: str) -> dict[str, Any]:
    """The replay of ``game_id`` checked against its record: a frame at each round's
    start, then one per action, saying the action and laying one more tile for a play."""
    standings = Standings(service.store)
    shown = await reads.replay(standings, game_id, LOCAL_SERVER)
    record = (await standings.game(game_id, LOCAL_SERVER)).record
    actions = [Move.parse(text) for _, text in record["actions"]]
    frames = shown["frames"]
    assert not is_move(frames[0])
    moves = iter(enumerate(actions, 1))
    rounds, before = 0, frames[0]
    for frame in frames:
        if not is_move(frame):  # nothing is laid until the round is led (R-CR-2, R-MI-3)
            rounds += 1
            assert frame["layout"] is None and frame["alt"] and frame["over"] == []
        else:
            number, move = next(moves)
            assert frame["line"].startswith(f"Move {number} of {len(actions)}: ")
            said = {Kind.DRAW: "draws", Kind.PASS: "passes"}.get(move.kind, str(move.tile))
            assert said in frame["line"]
            grown = 1 if move.kind is Kind.PLAY else 0  # a draw or a pass lays nothing
            assert tiles(frame) == tiles(before) + grown
        assert frame["round"] == rounds
        before = frame
    assert next(moves, None) is None  # every action has its frame
    ended = [frame for frame in frames if frame["over"]]
    assert len(ended) == rounds and frames[-1]["over"]  # each round ends on one action
    final = Match.from_record(record).view()
    assert frames[-1]["layout"] == layout(final)
    assert [side["score"] for side in frames[-1]["scores"]] == list(final.scores)
    assert shown["result"] and shown["summary"] and shown["game"] == record["game"]
    return shown


async def test_a_milo_replay_steps_through_every_move_and_round(service: TableService) -> None:
    # At most 2 points a round (R-MI-5) and first to 3 (R-MI-6): two rounds at least,
    # with passes (R-MI-4), and each new round led by the next seat (R-MI-3).
    game_id = await finished(service, "milo", ["Ann", "Bob", "Cat", "Dan"], target=3)
    shown = await check_replay(service, game_id)
    assert shown["frames"][-1]["round"] >= 2
    assert shown["names"] == ["Ann", "Bob", "Cat", "Dan"]
    assert shown["frames"][0]["scores"] == [
        {"names": "Ann & Cat", "score": 0},
        {"names": "Bob & Dan", "score": 0},
    ]
    assert game_id in shown["title"]


async def test_a_cross_replay_ends_at_the_final_layout(service: TableService) -> None:
    game_id = await finished(service, "cross", ["Ann", "Bob"], target=10)
    shown = await check_replay(service, game_id)
    first_play = shown["frames"][1]
    assert first_play["layout"]["tiles"][0]["double"]  # the highest double leads (R-CR-2)


async def test_a_replay_speaks_the_language_and_marks_of_the_moment(
    service: TableService,
) -> None:
    game_id = await finished(service, "cross", ["**Ann**", "Bob"], target=10)
    with i18n.speaking(SPANISH), marks.using(WebMarks({}, lambda _: None)):
        shown = await reads.replay(Standings(service.store), game_id, LOCAL_SERVER)
    assert shown["names"] == [r"\*\*Ann\*\*", "Bob"]  # a name never formats the page
    assert shown["frames"][1]["line"].startswith("Jugada 1 de ")
    assert shown["title"].startswith("Repetición de la partida `")
    assert r"\*\*Ann\*\*" in shown["frames"][0]["alt"]
    assert all("**Ann**" not in frame["alt"] + frame["line"] for frame in shown["frames"])


async def test_a_replay_is_laid_out_off_the_event_loop(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long match's replay is thousands of frames, each laid out and said in words:
    built on the event loop, it held up every table of the process for seconds."""
    game_id = await finished(service, "cross", ["Ann", "Bob"], target=10)
    loop = threading.current_thread()
    where: list[threading.Thread] = []
    framed = reads._frame

    def watched(*args: Any) -> dict[str, Any]:
        where.append(threading.current_thread())
        return framed(*args)

    monkeypatch.setattr(reads, "_frame", watched)
    await reads.replay(Standings(service.store), game_id, LOCAL_SERVER)
    assert where and loop not in where


async def test_unknown_and_other_servers_games_are_refused(service: TableService) -> None:
    game_id = await finished(service, "cross", ["Ann", "Bob"], target=10)
    standings = Standings(service.store)
    with pytest.raises(NoSuchGame):
        await reads.replay(standings, "no-such-game", LOCAL_SERVER)
    with pytest.raises(NoSuchGame):  # which ids exist elsewhere is not this server's to learn
        await reads.replay(standings, game_id, 10)


@pytest.mark.parametrize("damage", ["not JSON", "a move out of turn"])
async def test_a_game_whose_record_does_not_replay_is_refused_by_name(
    service: TableService, damage: str
) -> None:
    """A record damaged by hand, or written before a rule was corrected: the page is told
    that game cannot be replayed, not a server error."""
    game_id = await finished(service, "cross", ["Ann", "Bob"], target=10)
    game = await service.store.get_game(game_id)
    assert game is not None
    record = dict(game.record, actions=game.record["actions"][1:])
    text = '{"actions": [' if damage == "not JSON" else json.dumps(record)

    async def write(tx: Session) -> None:
        await tx.execute("UPDATE games SET record = ? WHERE id = ?", (text, game_id))

    await service.store.backend.write(write)
    with pytest.raises(NotReplayable):
        await reads.replay(Standings(service.store), game_id, LOCAL_SERVER)


async def test_the_boards_list_the_players_of_each_game(service: TableService) -> None:
    await finished(service, "milo", ["Ann", "Bob", "Cat", "Dan"], target=3)
    shown = await reads.boards(Standings(service.store), LOCAL_SERVER)
    assert shown["title"] == "Leaderboards"
    boards = {(board["game"], board["order"]): board for board in shown["boards"]}
    assert set(boards) == {
        (game, order) for game in GAMES for order in ("rating", "wins", "points")
    }
    for order, value in (("wins", "Wins"), ("points", "Points")):
        board = boards["milo", order]
        assert board["title"] == "Milo — this server"
        assert board["heading"] == f"Milo — this server, by {value.lower()}"
        assert board["columns"] == ["#", "Player", value, "Games"]
        assert sorted(row[1] for row in board["rows"]) == ["Ann", "Bob", "Cat", "Dan"]
        assert [row[0] for row in board["rows"]] == ["1", "2", "3", "4"]
        assert "note" not in board
    # One game is short of the three a rating needs; nobody has played the others.
    assert boards["milo", "rating"]["rows"] == []
    assert "3 games" in boards["milo", "rating"]["note"]
    assert boards["cross", "wins"]["note"] == "Cross — this server: nobody has finished a game yet."


async def test_a_local_game_counts_once(service: TableService) -> None:
    await finished(service, "milo", ["Ann", "Bob", "Cat", "Dan"], target=3)
    shown = await reads.boards(Standings(service.store), LOCAL_SERVER)
    wins = next(
        board for board in shown["boards"] if board["game"] == "milo" and board["order"] == "wins"
    )
    assert {row[3] for row in wins["rows"]} == {"1"}


def test_each_games_rules_page_in_spanish() -> None:
    for game, variant in GAMES.items():
        with i18n.speaking(SPANISH):
            shown = reads.rules(game)
            whole = rules.rules_for(game)
        headings = [section["heading"] for section in shown["sections"]]
        spinner = variant.layout_kind is LayoutKind.SPINNER
        assert shown["title"] == headings[0]  # the game's own rules first, under its title
        assert headings[1:] == (["La mesa"] if spinner else []) + ["Todos los juegos"]
        said = " ".join(section["text"] for section in shown["sections"])
        assert "**" not in said + "".join(headings)
        assert RULE.findall(said) == RULE.findall(whole)  # every rule the page cites, in order
        assert "R-ALL-8" in shown["sections"][-1]["text"]  # what every game shares, last
        if spinner:
            assert "R-SP-1" in shown["sections"][1]["text"]
    with i18n.speaking(SPANISH):
        assert reads.rules("Maltese Cross")["title"] == "Cruz maltesa"


def test_an_unknown_game_has_no_rules_page() -> None:
    with pytest.raises(OptionsRefused) as refused:
        reads.rules("chess")
    assert isinstance(refused.value.error, UnknownGame)


async def test_a_guest_sees_their_own_stats_beside_the_boards(service: TableService) -> None:
    await finished(service, "milo", ["Ann", "Bob", "Cat", "Dan"], target=3)
    shown = await reads.boards(Standings(service.store), LOCAL_SERVER, (GUESTS[0], "Ann"))
    assert shown["stats"]["fields"] and "1 game" in shown["stats"]["fields"][0]["value"]
    nobody = await reads.boards(Standings(service.store), LOCAL_SERVER, (-99, "Zed"))
    assert nobody["stats"] == {"title": "Zed has not finished a game here yet.", "fields": []}
