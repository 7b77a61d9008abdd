"""What the bot remembers, in words: leaderboards, a member's stats and history, a
finished game's seats, replays asked for, and what it stores about a member (privacy).
The rows come from the store through the service; the words read only their fields."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import find_variant
from words import marks
from words.cards import Card, Field
from words.common import (
    and_list,
    computer_name,
    game_title,
    games_count,
    plain,
    points_count,
    wins_count,
)
from words.i18n import _, decimal, ngettext, number
from words.rows import Deleted, GameTotals, Kept, PlayedGame, Player, Ranked


def board_title(game_title_: str, *, everywhere: bool) -> str:
    """``Cross — this server``, from the game's (English) title."""
    if everywhere:
        return _("{game} — every server").format(game=game_title(game_title_))
    return _("{game} — this server").format(game=game_title(game_title_))


def board_heading(title: str, order: str) -> str:
    """A board's heading where a game's boards stand together (the browser's page): its
    title and what it is ordered by, so that the game's three boards, alike in title,
    are told apart by someone who goes from heading to heading or table to table."""
    if order == "wins":
        return _("{title}, by wins").format(title=title)
    if order == "points":
        return _("{title}, by points").format(title=title)
    return _("{title}, by rating").format(title=title)


def boards_title() -> str:
    """The heading over every board of a server (the browser's leaderboards page)."""
    return _("Leaderboards")


def board_empty(title: str, order: str, rated_after: int) -> str:
    if order == "rating":
        return ngettext(
            "{title}: nobody has finished {count} game yet (a rating shows after {count}).",
            "{title}: nobody has finished {count} games yet (a rating shows after {count}).",
            rated_after,
        ).format(title=title, count=number(rated_after))
    return _("{title}: nobody has finished a game yet.").format(title=title)


def board_past_end(title: str, page: int, pages: int) -> str:
    return ngettext(
        "{title}: page {page} is past the end; there is only {count} page.",
        "{title}: page {page} is past the end; there are only {count} pages.",
        pages,
    ).format(title=title, page=number(page), count=number(pages))


def board_value(entry: Ranked, order: str) -> str:
    if order == "wins":
        return wins_count(entry.wins)
    if order == "points":
        return points_count(entry.points)
    return decimal(entry.rating)


def board_line(rank: int, name: str, value: str, games: int, *, as_typed: bool = False) -> str:
    """One row of a leaderboard: its name escaped for a message, or ``as_typed`` (alt
    text, which is read out, not formatted)."""
    shown = name if as_typed else plain(name)
    return f"{number(rank)}. {shown} — {value} ({games_count(games)})"


def board_you(rank: int, value: str, games: int) -> str:
    return _("You: #{rank} — {value} ({games})").format(
        rank=number(rank), value=value, games=games_count(games)
    )


def unknown_player(user_id: int) -> str:
    return _("Player …{digits}").format(digits=str(user_id)[-4:])


def no_stats(name: str) -> str:
    return _("{name} has not finished a game here yet.").format(name=name)


def stats_card(name: str, rows: Sequence[GameTotals]) -> Card:
    """A member's totals in this server, a field per game."""
    fields = []
    for row in rows:
        rounds = ngettext("{count} round won", "{count} rounds won", row.rounds_won)
        dominoes = ngettext("{count} domino", "{count} dominoes", row.dominoes)
        blocked = ngettext("{count} blocked win", "{count} blocked wins", row.blocked_wins)
        value = (
            f"{games_count(row.games)}, {wins_count(row.wins)}\n"
            f"{rounds.format(count=number(row.rounds_won))}, {points_count(row.points)}\n"
            f"{dominoes.format(count=number(row.dominoes))},"
            f" {blocked.format(count=number(row.blocked_wins))}"
        )
        fields.append(Field(game_title(find_variant(row.game)), value))
    return Card(_("{name} — this server").format(name=name), fields=tuple(fields))


def seat_labels(players: Sequence[Player]) -> list[str]:
    """The seats of a finished game in seat order, as a picture names them: a member's
    last name, a computer as the game named it (numbered in seat order, as at the
    table: ``Computer 2 (hard)``), or a member who asked to be forgotten."""
    labels, computers = [], 0
    for player in sorted(players, key=lambda p: p.seat):
        if player.user_id is not None:
            labels.append(player.name or unknown_player(player.user_id))
        elif player.computer_level is not None:
            computers += 1
            labels.append(computer_name(computers, player.computer_level))
        else:
            labels.append(former_player())
    return labels


def former_player() -> str:
    """A member who asked to be forgotten, where a picture or a list would name them."""
    return _("a former player")


def history_title(name: str, page: int, pages: int) -> str:
    return _("**{name}'s games here** — page {page} of {pages}").format(
        name=plain(name), page=number(page), pages=number(max(pages, 1))
    )


def history_line(game: PlayedGame) -> str:
    """One finished game in a member's history: its id (for /domino replay), what and
    when, who sat where and who won, the final score by side."""
    seats = sorted(game.participants, key=lambda p: p.seat)
    players = ", ".join(
        _("{name} (won)").format(name=plain(label)) if p.won else plain(label)
        for p, label in zip(seats, seat_labels(seats), strict=True)
    )
    variant = find_variant(game.game)
    by_seat = {p.seat: p.final_score for p in seats}
    sides = variant.sides_of(len(seats))
    scores = "–".join(number(by_seat.get(side[0], 0)) for side in sides)
    mark = marks.current()
    when = mark.date(game.finished_at)
    line = f"{mark.code(game.id)} · {game_title(variant)} · {when} · {players} · {scores}"
    unrated = _("unrated")
    return line if game.rated else f"{line} · {unrated}"


def no_history(name: str) -> str:
    return _("{name} has not finished a game here yet.").format(name=plain(name))


def replay_cut(shown: int, rounds: int) -> str:
    """Said under the last file of a replay too long to post whole: the round it ends
    in (from 1), of the game's."""
    return _("This game is long: its replay stops here, at round {shown} of {rounds}.").format(
        shown=number(shown), rounds=number(rounds)
    )


def replay_yours_running() -> str:
    return _("Your replay is still being posted: ask again when it is done.")


def replay_running_here() -> str:
    return _("A replay is being posted in this server: ask again when it is done.")


def replay_again_at(when: float) -> str:
    return _("You can ask for another replay {when}.").format(
        when=marks.current().relative_time(int(when) + 1)
    )


def replay_posted(game_id: str, part: int, parts: int) -> str:
    if parts > 1:
        return _("Replay of game {game} (part {part} of {parts}).").format(
            game=marks.current().code(game_id), part=number(part), parts=number(parts)
        )
    return _("Replay of game {game}.").format(game=marks.current().code(game_id))


NAMES_LISTED = 5
"""The most names (one per server) /domino privacy lists; the rest are counted: every
name of a member in many servers would pass the 2,000 characters of a message."""


def privacy(stored: Kept, keep_hours: int) -> str:
    """What the bot keeps about the member asking, and for how long, with their counts."""
    listed = [plain(each) for each in stored.names[:NAMES_LISTED]]
    more = len(stored.names) - len(listed)
    if more:
        listed.append(ngettext("{count} more", "{count} more", more).format(count=number(more)))
    name = (
        ngettext(
            "the name you last played under ({names})",
            "the names you last played under, one per server ({names})",
            len(stored.names),
        ).format(names=and_list(listed))
        if stored.names
        else _("no name")
    )
    return _(
        "**What this bot stores about you**\n"
        "• Your totals per game kind, in each server and overall ({stats} rows), your"
        " openskill rating per game kind ({ratings}), and {name}: kept until you ask for"
        " them to be deleted.\n"
        "• The finished games you sat at ({games}): the moves, the seats (with the name you"
        " played under) and the scores, for leaderboards, history and replays; kept for good,"
        " and made anonymous if you ask.\n"
        "• The tournaments that name you ({tournaments}: entered, or run): your name and"
        " results, for their standings; kept for good, and made anonymous if you ask once"
        " they have ended.\n"
        "• A table's moves while it is open, and for {hours} hours after it closes.\n"
        "Your hands are never shown to anyone else. /domino forget-me deletes your totals,"
        " ratings and names and takes your id and name off past games and ended tournaments."
    ).format(
        stats=number(stored.stats),
        ratings=number(stored.ratings),
        name=name,
        games=number(stored.games),
        tournaments=number(stored.tournaments),
        hours=number(keep_hours),
    )


def forget_confirm() -> str:
    return _(
        "This deletes your totals, ratings and names in every server and takes your id and"
        " name off the games you played and the tournaments that have ended (they stay, anonymous)."
        " It cannot be undone. Press the button to go on."
    )


def forgotten(gone: Deleted) -> str:
    """What forget-me did, counted (the tournaments only when there were any)."""
    done = _(
        "Done: {stats} rows of totals, {ratings} ratings and your name are deleted; {seats}"
        " past seats no longer name you."
    ).format(stats=number(gone.stats), ratings=number(gone.ratings), seats=number(gone.seats))
    if not gone.tournaments:
        return done
    tournaments = ngettext(
        "{count} ended tournament no longer names you.",
        "{count} ended tournaments no longer name you.",
        gone.tournaments,
    ).format(count=number(gone.tournaments))
    return f"{done} {tournaments}"
