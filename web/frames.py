"""What the server sends a page (``docs/WEB.md``, "From the server"), built from the
service's snapshots and worded by the ``words`` package in the reader's language.

A table's frame is made of two parts: what everyone may see (:func:`public_part`, built
once per stored action and language, shared by every socket of the table) and what one
reader may see (:func:`reader_part`: their seat, what they may press, and their own
hand, which no other reader's frame ever carries). The layout is placed by the same
geometry as the pictures (``rendering.geometry``), so the page only draws it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.engine import GAMES, Kind, PublicView
from bot.events import Cancelled, Event, GameOver, Reminder, RoundOver, Started
from bot.levels import LEVELS
from bot.snapshot import TableSnapshot
from bot.table import Status
from rendering.geometry import halves, last_played, place
from words import coaching, i18n, lobby, page, pictures, play, rounds
from words.cards import Card
from words.common import end_letter, game_title, level_name, names, seat_names, side_names

LABEL_ROOM = (40, 16)
"""The room the page gives each open end's label (``N: 6``), in the layout's units."""

Frame = dict[str, Any]


def hello(you: tuple[int, str] | None, language: i18n.Language, activity: str | None) -> Frame:
    """The first frame of a socket (and after each change of language): who the page
    speaks for, the languages, every label of the page, the games and the levels, and
    the application id a page inside Discord gives its SDK (None: no Activity here)."""
    return {
        "type": "hello",
        "activity": activity,
        "you": None if you is None else {"id": str(you[0]), "name": you[1]},
        "lang": language.code,
        "languages": [{"code": lang.code, "name": lang.name} for lang in i18n.SHIPPED],
        "words": page.page_words(),
        "games": [
            {
                "game": game,
                "title": game_title(variant),
                "players": list(variant.player_counts),
                "target": variant.default_target,
                "targets": list(variant.target_range),
                "teams": variant.teams,
                "keep_last_two": variant.offers_keep_last_two,
                "match_games": variant.offers_match,
            }
            for game, variant in GAMES.items()
        ],
        "levels": [{"level": level, "name": level_name(level)} for level in LEVELS],
    }


def table_list(tables: Sequence[TableSnapshot]) -> Frame:
    """The open local tables, for the lobby page."""
    return {
        "type": "tables",
        "tables": [
            {
                "id": table.id,
                "title": game_title(table.variant),
                "status": table.status.value,
                "seats": seat_names(table),
                "max": table.max_players,
            }
            for table in tables
        ],
    }


def card(shown: Card) -> Frame:
    return {
        "title": shown.title,
        "description": shown.description,
        "fields": [{"name": field.name, "value": field.value} for field in shown.fields],
        "footer": shown.footer,
    }


def layout(view: PublicView) -> Frame | None:
    """The layout's tiles and open ends, placed as the pictures place them (a tile is
    64 × 32; ``a`` is drawn on its top or left half, ``b`` on the other)."""
    placed = place(view, LABEL_ROOM)
    if placed is None:
        return None
    bounds = placed.bounds()
    last = last_played(view)
    dx, dy = -bounds.x0 + LABEL_ROOM[0] // 2, -bounds.y0 + LABEL_ROOM[1]
    tiles = []
    for tile in placed.tiles:
        a, b = halves(tile)
        rect = tile.rect.shifted(dx, dy)
        tiles.append(
            {
                "a": a,
                "b": b,
                "x": rect.x0,
                "y": rect.y0,
                "w": rect.x1 - rect.x0,
                "h": rect.y1 - rect.y0,
                "near": tile.near,
                "far": tile.far,
                "dx": tile.direction[0],
                "dy": tile.direction[1],
                "end": tile.end,
                "last": tile.tile == last,
                "double": tile.tile.is_double,
            }
        )
    ends = [
        {
            "end": label.end,
            "letter": end_letter(label.end),
            "value": label.value,
            "x": label.anchor[0] + dx,
            "y": label.anchor[1] + dy,
        }
        for label in placed.labels
    ]
    return {
        "width": bounds.x1 - bounds.x0 + LABEL_ROOM[0],
        "height": bounds.y1 - bounds.y0 + 2 * LABEL_ROOM[1],
        "tiles": tiles,
        "ends": ends,
    }


def public_part(
    table: TableSnapshot,
    events: Sequence[Event],
    accuracy: Mapping[int, float] | None = None,
    *,
    again: bool = False,
) -> Frame:
    """Everything about ``table`` that every reader may see, after ``events``, in the
    language of the moment; a finished game's summary (its game-over card) says each
    member's ``accuracy`` by seat, once the coach has analysed it (figures only).
    ``again``: sent anew to a page that shows the table (another language), with the
    last round's end, which the page may still show (:func:`_ended`)."""
    view = table.view
    shown = names(table)
    lines = play.event_lines(table, events) if view is not None else []
    if any(isinstance(event, Started) for event in events):
        lines.insert(0, play.game_begins())
    # A quarter of a member's time left: said as the channel says it, so that a page's
    # reader who does not watch the clock (a screen reader's user) is warned in time.
    for reminder in (event for event in events if isinstance(event, Reminder)):
        member = table.seats[reminder.seat].user_id
        if member is not None:
            more_time = table.more_time_left(member) > 0
            lines.append(play.time_running_out(member, reminder.deadline, more_time))
    # A table closed before its end: said as the channel says it, with why when the
    # clock closed it (its lobby idle), which no reader saw anyone do.
    for cancelled in (event for event in events if isinstance(event, Cancelled)):
        lines.append(lobby.table_closed(table.title, cancelled.idle))
    over = next((event for event in events if isinstance(event, GameOver)), None)
    ended = _ended(table, events, over, again)
    if view is None or table.status is Status.LOBBY:
        shown_card = lobby.lobby_card(table)
    elif over is not None and over.outcome is not None:
        shown_card = rounds.game_over_card(table, over.outcome)
        if accuracy:
            judged = coaching.accuracy_field(seat_names(table), accuracy)
            shown_card = replace(shown_card, fields=(*shown_card.fields, judged))
    else:
        shown_card = play.table_card(table)
    finished = table.status is Status.FINISHED
    return {
        "type": "table",
        "id": table.id,
        "version": table.version,
        "game": table.game,
        "title": game_title(table.variant),
        "status": table.status.value,
        "host_id": str(table.host_id),
        "seats": [
            {
                "id": None if seat.user_id is None else str(seat.user_id),
                "name": name,
                "computer": seat.is_computer,
                "level": seat.level,
                "away": seat.away,
                "tiles": view.hand_sizes[index] if view is not None else None,
                "turn": index == table.turn,
            }
            for index, (seat, name) in enumerate(zip(table.seats, seat_names(table), strict=True))
        ],
        "turn": table.turn,
        "deadline": table.deadline if table.turn is not None else None,
        "now": time.time(),
        "boneyard": view.boneyard_count if view is not None else None,
        "scores": (
            [
                {"names": side, "score": score}
                for side, score in zip(side_names(table), view.scores, strict=True)
            ]
            if view is not None
            else []
        ),
        "target": table.options.target,
        "hints": table.hints,
        "card": card(shown_card),
        "lines": lines,
        "alt": pictures.describe_table(view, shown) if view is not None else "",
        "layout": layout(view) if view is not None else None,
        "ended": ended,
        "game_id": table.game_id if finished else None,
    }


def _ended(
    table: TableSnapshot, events: Sequence[Event], over: GameOver | None, again: bool = False
) -> Frame | None:
    """The round that just ended (its card, every hand revealed, and the points with
    the rule that gave them), sent with the action that ended it; and for as long as a
    finished table is shown, its last round. Sent ``again`` (another language) while the
    table plays on, the last round that ended is marked ``again``: the page words it
    anew if it still shows it, and does not show it again once its reader closed it."""
    outcome = next(
        (event.outcome for event in reversed(events) if isinstance(event, RoundOver)), None
    )
    repeated = False
    if outcome is None and table.ended is not None:
        if table.status is Status.FINISHED:
            outcome = table.ended.outcome
        elif again and table.status is Status.PLAYING:
            outcome, repeated = table.ended.outcome, True
    if outcome is None:
        return None
    totals = over.outcome.scores if over is not None and over.outcome is not None else None
    if totals is None and table.view is not None and table.view.round_number > 1:
        totals = table.view.start_scores
    shown = card(rounds.round_card(table, outcome, totals))
    shown["hands"] = [
        {"name": name, "tiles": [str(tile) for tile in hand], "count": count}
        for name, hand, count in zip(seat_names(table), outcome.hands, outcome.counts, strict=True)
    ]
    if repeated:
        shown["again"] = True
    return shown


def reader_part(table: TableSnapshot, user_id: int | None) -> Frame:
    """What one reader may see and do: their seat, their hand (theirs alone), and which
    controls the page offers them (the service checks every action again)."""
    seat = table.seat_of(user_id) if user_id is not None else None
    seated = seat is not None
    lobby_open = table.status is Status.LOBBY
    playing = table.status is Status.PLAYING
    view = table.seat_view(user_id) if user_id is not None else None
    legal = view.legal if view is not None else ()
    hand = None
    if view is not None:
        hand = [
            {
                "tile": str(tile),
                "a": tile.high,
                "b": tile.low,
                "moves": [
                    {"move": str(move), "end": move.end_name} for move in legal if move.tile == tile
                ],
            }
            for tile in view.hand
        ]
    draw = next((move for move in legal if move.kind is Kind.DRAW), None)
    passing = next((move for move in legal if move.kind is Kind.PASS), None)
    return {
        "you": seat,
        "host": user_id is not None and user_id == table.host_id,
        "hand": hand,
        "can": {
            "join": user_id is not None
            and lobby_open
            and not seated
            and len(table.seats) < table.max_players,
            "leave": lobby_open and seated and user_id != table.host_id,
            "start": lobby_open and user_id == table.host_id,
            "cancel": table.is_open and user_id == table.host_id,
            "computer": lobby_open and seated and len(table.seats) < table.max_players,
            "draw": draw is not None,
            "pass": passing is not None,
            "back": playing and seated and seat is not None and table.seats[seat].away,
            "rematch": table.status is Status.FINISHED and seated,
            "hint": table.hints and bool(legal),
            "more_time": user_id is not None and table.more_time_left(user_id) > 0,
        },
        "draw_move": None if draw is None else str(draw),
        "pass_move": None if passing is None else str(passing),
    }
