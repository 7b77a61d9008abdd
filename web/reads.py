"""What the browser's read-only pages show (``docs/WEB.md``, HTTP): a server's
leaderboards, a game's rules page, and a finished game's replay, stepped move by move.

Each builder returns a dict ready for JSON, worded in the language of the moment with
the marks of the moment (the server sets both around each call), from the same words
the Discord face uses: every string in it is marked text, as the page renders the
words of a table (``web.marks``). A request for something that is not there is refused
as the service refuses it (an unknown game, a game id this server never finished), and
the server words the refusal.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.coaching import stored_analysis
from bot.engine import GAMES, EngineError, Match, PublicView, find_variant, read_record
from bot.refusals import OptionsRefused
from bot.standings import ORDERS, RATED_AFTER, Standings
from rendering.replay import Replay, played
from web.frames import layout
from words import boards as board_words
from words import coaching, pictures, replays
from words import rules as rules_words
from words.common import game_title, plain
from words.i18n import number

if TYPE_CHECKING:  # the value the standings hand over, read only
    from data.models import FinishedGame

Read = dict[str, Any]

NOBODY = 0
"""Whose own rank a board looks up: no one's (members' ids are positive, guests'
negative); the page shows the boards alike to every reader."""

_HEADED = re.compile(r"\*\*(?P<heading>[^*]+)\*\*(?P<text>.*)", re.DOTALL)
"""A block of a rules page: its heading in bold, then its text."""
_SEPARATOR = " —"
"""What stands between a block's heading and its text where no bracket follows."""


async def boards(
    standings: Standings, guild_id: int, reader: tuple[int, str] | None = None
) -> Read:
    """The server's boards: for each game, its first page by each order the Discord face
    offers (rating, wins, points), as rank, name, value and games. A board nobody is on
    yet has no rows and a ``note`` saying so, in the words Discord's answer uses. For a
    ``reader`` (a guest: id and name), where they stand on each board when it is not on
    its first page, and their own stats. Each board's ``heading`` names its order too:
    the page shows a game's three boards together."""
    user_id = reader[0] if reader is not None else NOBODY
    shown = []
    for game, variant in GAMES.items():
        title = board_words.board_title(variant.title, everywhere=False)
        for order in ORDERS:
            board = await standings.leaderboard(
                game, guild_id=guild_id, order=order, page=1, user_id=user_id
            )
            heads = pictures.leaderboard_text(title, order)
            read: Read = {
                "title": title,
                "heading": board_words.board_heading(title, order),
                "game": game,
                "order": order,
                "columns": [heads.rank, heads.player, heads.value, heads.games],
                "rows": [
                    [
                        number(entry.rank),
                        plain(entry.name or board_words.unknown_player(entry.user_id)),
                        board_words.board_value(entry, order),
                        number(entry.games),
                    ]
                    for entry in board.entries
                ],
            }
            if not board.entries:
                read["note"] = board_words.board_empty(title, order, RATED_AFTER)
            me = board.me
            if me is not None and all(entry.user_id != me.user_id for entry in board.entries):
                read["you"] = board_words.board_you(
                    me.rank, board_words.board_value(me, order), me.games
                )
            shown.append(read)
    answer: Read = {"title": board_words.boards_title(), "boards": shown}
    if reader is not None:
        answer["stats"] = await _stats(standings, guild_id, *reader)
    return answer


async def _stats(standings: Standings, guild_id: int, user_id: int, name: str) -> Read:
    """A reader's own totals here, as the Discord face's stats card words them."""
    rows = await standings.stats(user_id, guild_id)
    if not rows:
        return {"title": board_words.no_stats(plain(name)), "fields": []}
    card = board_words.stats_card(plain(name), rows)
    return {
        "title": card.title,
        "fields": [{"name": field.name, "value": field.value} for field in card.fields],
    }


def rules(game: str) -> Read:
    """A game's rules page, a section per block of the page ``/domino rules`` shows (the
    game's own rules, the spinner layout's where it has one, what every game shares):
    its bold heading, and its text as written (bullets on lines of their own)."""
    try:
        variant = find_variant(game)
    except EngineError as error:
        raise OptionsRefused(error) from None
    sections = []
    for block in rules_words.rules_for(variant).split("\n\n"):
        headed = _HEADED.fullmatch(block)
        if headed is None:
            sections.append({"heading": "", "text": block})
            continue
        text = headed["text"].removeprefix(_SEPARATOR).strip()
        sections.append({"heading": headed["heading"], "text": text[:1].upper() + text[1:]})
    return {"title": game_title(variant), "game": variant.game, "sections": sections}


async def replay(standings: Standings, game_id: str, guild_id: int) -> Read:
    """A finished game of this server, stepped through: a frame at each round's start
    and after each action (a play, a draw, a pass), with the layout as the table shows
    it, its alt text, the line the Discord replay writes over the picture, the scores,
    and the round (counted from 1 across a match's games). A frame that ends a round
    carries the lines of the round's end card (``over``); ``result`` holds the last
    card's, and ``summary`` the whole replay in words (its alt text on Discord). Where
    the coach's analysis of the game is stored (none is started here), the frame of each
    move it graded worse than good carries the grade's key (``grade``) and what the
    coach says of it (``note``), which the Discord replay adds to the move's line."""
    game = await standings.replayable(game_id, guild_id)
    marked = coaching.marked_moves(await stored_analysis(standings.store, game))
    # A long match is thousands of frames, each laid out and said in words: seconds of
    # work that would hold up every table of the process on the event loop.
    return await asyncio.to_thread(_replay, game, marked)


def _replay(game: FinishedGame, marked: Mapping[int, coaching.Marked]) -> Read:
    """:func:`replay`'s frames, worded in the caller's language (the thread runs in a
    copy of the caller's context)."""
    names = [plain(label) for label in board_words.seat_labels(game.participants)]
    text = replays.replay_text(names)
    total = len(read_record(game.record).actions)
    frames: list[Read] = []
    ended_rounds: list[PublicView] = []
    last: PublicView | None = None
    for start, index, view, ended in _steps(game.record):
        if start is not None:
            line = pictures.table_text(start, names).header[0]
            frames.append(_frame(start, names, line, len(ended_rounds) + 1, ()))
        over = text.round_over(view) if ended else ()
        line = text.move(view, index + 1, total)
        frame = _frame(view, names, line, len(ended_rounds) + 1, over)
        judged = marked.get(index)
        if judged is not None:
            frame["grade"] = judged.move.grade.value
            frame["note"] = coaching.replay_note(judged.move)
        frames.append(frame)
        if ended:
            ended_rounds.append(view)
        last = view
    final = last if last is not None and last.match_outcome is not None else None
    summary = replays.describe_replay(
        Replay((), tuple(ended_rounds), final, total), names, marked=marked
    )
    return {
        "title": board_words.replay_posted(game.id, 1, 1),
        "game": game.game,
        "names": names,
        "frames": frames,
        "result": list(text.final(final)) if final is not None else [],
        "summary": summary,
    }


def _steps(record: object) -> Iterator[tuple[PublicView | None, int, PublicView, bool]]:
    """The record's actions as :func:`rendering.replay.played` plays them (the index,
    the view after it, whether it ended a round), each led by the view of its round as
    dealt when it is the round's first action (else None). ``played`` shows only what an
    action left, so a second match walks beside it to see each round before its lead."""
    read = read_record(record)
    dealt = Match(read.variant, read.players, read.options, seed=read.seed, deals=read.deals)
    starting = True
    for (index, view, ended), (_, move) in zip(played(record), read.actions, strict=True):
        yield (dealt.view() if starting else None), index, view, ended
        dealt.play(move)
        starting = ended


def _frame(view: PublicView, names: list[str], line: str, round_: int, over: Sequence[str]) -> Read:
    sides = pictures.view_side_names(view, names)
    return {
        "layout": layout(view),
        "alt": pictures.describe_table(view, names),
        "line": line,
        "scores": [
            {"names": side, "score": score} for side, score in zip(sides, view.scores, strict=True)
        ],
        "round": round_,
        "over": list(over),
    }
