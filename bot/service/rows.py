"""A table as the store keeps it, and back: its row, an action's audit line, and the
finished game recorded when its last action is stored."""

from __future__ import annotations

import contextlib
from typing import Any

from bot.commands import Command
from bot.engine import EngineError, Reason, find_variant
from bot.events import Event, Moved
from bot.events import from_dict as events_from_dict
from bot.events import to_dict as events_to_dict
from bot.service.faces import Shown
from bot.table import Table, game_id
from data.models import FinishedGame, Participant, RoundResult, TableRow


def row_of(table: Table, now: float) -> TableRow:
    return TableRow(
        id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        host_id=table.host_id,
        game=table.game,
        status=table.status.value,
        version=table.version,
        state=table.to_dict(),
        deadline=table.deadline,
        created_at=now,
        updated_at=now,
    )


UNREADABLE = (EngineError, KeyError, TypeError, ValueError)
"""What :func:`table_of` raises for a row that does not read back as a table (damaged,
or written by a release that refereed a rule wrongly)."""


def table_of(row: TableRow) -> Table:
    return Table.from_dict(row.state)


def shown_of(row: TableRow) -> dict[str, Shown]:
    """What each face has shown of the table, stored apart from it (a face's, not the
    table's: it changes without an action)."""
    return {face: Shown(s.version, s.message_id) for face, s in row.shown.items()}


def action_record(command: Command, events: list[Event]) -> dict[str, Any]:
    """The audit log's line: the command by name, what it caused, the moves made."""
    return {
        "kind": command.kind,
        "events": [events_to_dict(e) for e in events],
        "moves": [[e.seat, e.move.text] for e in events if isinstance(e, Moved)],
    }


def events_of(action: Any) -> list[Event]:
    """What a stored action caused, as its audit line says. A damaged line (not an
    action's document), or one of an older release that stored no events, has none:
    its table is shown as it stands."""
    events: list[Event] = []
    for data in action.get("events", ()) if isinstance(action, dict) else ():
        with contextlib.suppress(KeyError, TypeError, ValueError, EngineError):
            events.append(events_from_dict(data))
    return events


def finished_game(table: Table, now: float) -> FinishedGame:
    """The game a table has just finished, as the store records it once."""
    match = table.match
    assert match is not None
    outcome = match.outcome()
    assert outcome is not None
    variant = find_variant(table.game)
    rounds = [
        RoundResult(number=index + 1, reason=r.reason.value, winner=r.winner, points=list(r.points))
        for index, r in enumerate(match.rounds)
    ]
    participants = []
    for seat, chair in enumerate(table.seats):
        side = variant.side_of(seat)
        won_rounds = [r for r in match.rounds if r.winner == side]
        participants.append(
            Participant(
                user_id=chair.user_id,
                computer_level=chair.level,
                name=chair.name,
                seat=seat,
                team=side,
                final_score=outcome.scores[side],
                won=outcome.winner == side,
                rounds_won=len(won_rounds),
                points=sum(r.points[side] for r in match.rounds),
                dominoes=sum(1 for r in won_rounds if r.reason is Reason.DOMINO),
                blocked_wins=sum(1 for r in won_rounds if r.reason is Reason.BLOCKED),
            )
        )
    return FinishedGame(
        id=game_id(table.id, table.version),
        table_id=table.id,
        guild_id=table.guild_id,
        game=table.game,
        finished_at=now,
        record=match.record(),
        rounds=rounds,
        participants=participants,
        rated=table.counted,
        hints=table.hints,
        channel_id=table.channel_id,
        stood_in=table.stood_in,
    )
