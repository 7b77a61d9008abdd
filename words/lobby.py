"""The lobby and the table's life around the game: a table opened, joined, left,
started or closed, its lobby card, its thread, a rematch opened, the server's settings,
and what is said when a table's message cannot be posted."""

from __future__ import annotations

from bot.engine import find_variant
from bot.snapshot import TableSnapshot
from bot.table import Status
from words import i18n, marks
from words.cards import Card, Field
from words.common import game_title, hints_on, label, names, options_text, or_list, team_note
from words.i18n import _, ngettext, number, pgettext
from words.rows import ServerSettings


def table_open() -> str:
    return _("Your table is open: others press {join}, or {computer}; then press {start}.").format(
        join=label("join"), computer=label("computer"), start=label("start")
    )


def posted_again() -> str:
    return _("The table is posted again below.")


def done(kind: str) -> str:
    """What a member is told when their lobby command stood, by the command's kind."""
    if kind == "join":
        return _("You joined the table.")
    if kind == "leave":
        return _("You left the table.")
    if kind == "start":
        return _("The game has started.")
    return _("The table is closed.")


def lobby_card(table: TableSnapshot) -> Card:
    """The table's lobby: who hosts, what is played, who sits where, and what to press."""
    state = {
        Status.LOBBY: pgettext("table state", "table open"),
        Status.PLAYING: pgettext("table state", "game started"),
        Status.FINISHED: pgettext("table state", "game over"),
        Status.CANCELLED: pgettext("table state", "table closed"),
    }[table.status]
    mark = marks.current()
    description = _("Host: {host} · Play {options} · {counts} players").format(
        host=mark.member(table.host_id),
        options=options_text(table),
        counts=or_list(number(n) for n in table.variant.player_counts),
    )
    seats = [f"{i + 1}. {shown}" for i, shown in enumerate(names(table))]
    empty = _("(free)")
    free = [f"{i + 1}. {empty}" for i in range(len(table.seats), table.max_players)]
    fields = [Field(_("Seats"), "\n".join(seats + free), inline=False)]
    if table.variant.teams:
        fields.append(Field(_("Partners"), team_note(), inline=False))
    if table.hints:
        fields.append(Field(_("Hints"), hints_on(), inline=False))
    if table.invited:
        waiting = ", ".join(mark.member(user) for user in table.invited)
        fields.append(
            Field(
                pgettext("embed field", "Rematch"),
                _("Seats kept for {members}: press Rematch or Join.").format(members=waiting),
            )
        )
    footer = None
    if table.status is Status.LOBBY:
        footer = _("{join}, or {computer}; the host presses {start}.").format(
            join=label("join"), computer=label("computer"), start=label("start")
        )
    return Card(f"{game_title(table.variant)} — {state}", description, tuple(fields), footer=footer)


def thread_name(title: str) -> str:
    return _("{game} table").format(game=game_title(title))


def table_closed(title: str, idle: int | None = None) -> str:
    """Said as a table closes before its end: by a member, or (``idle``, in seconds) by
    the clock, in a lobby where nothing happened for that long, so that its players
    know why nobody they saw closed it."""
    if idle is None:
        return _("The {game} table was closed.").format(game=game_title(title))
    return _("The {game} table was closed: nobody joined or started it for {time}.").format(
        game=game_title(title), time=_time_waited(idle)
    )


def _time_waited(seconds: int) -> str:
    """``seconds`` in whole hours, or else in minutes."""
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("{count} hour", "{count} hours", hours).format(count=number(hours))
    minutes = max(round(seconds / 60), 1)
    return ngettext("{count} minute", "{count} minutes", minutes).format(count=number(minutes))


def cannot_post(title: str) -> str:
    return _(
        "I cannot post the {game} table here: I need View Channel, Send Messages, Embed"
        " Links and Attach Files. The game is saved; use /domino status once that is fixed."
    ).format(game=game_title(title))


def not_taken(title: str, status: int) -> str:
    return _(
        "Discord did not take my last {game} message ({status}). Nothing is lost: I will"
        " try again, and /domino status posts the table again."
    ).format(game=game_title(title), status=status)


def manage_server_only() -> str:
    return _("Only members with Manage Server can change the settings.")


def organisers_only() -> str:
    """Said to a member who may not announce a tournament."""
    return _(
        "Only members with Manage Server, or with the role this server chose for its"
        " tournament organisers, can announce a tournament."
    )


def role_or_clear() -> str:
    """Said when one ``/domino settings`` both sets and clears the organisers' role."""
    return _("Choose a tournament organisers' role, or clear it, not both.")


def game_and_target() -> str:
    return _("Give both a game and a target to set a default target.")


def settings_now(settings: ServerSettings, language: i18n.Language) -> str:
    """The server's settings, ``language`` being the one its tables speak now, and who
    organises its tournaments (the role mentioned, so its name shows)."""
    defaults = ", ".join(
        f"{game_title(find_variant(g))} {number(t)}" for g, t in settings.default_targets.items()
    )
    chosen = _(
        "Turn timer: {seconds} s · More time: {more_time} · Default targets: {targets}"
        " · Threads: {threads} · Language: {language}"
    ).format(
        seconds=number(settings.turn_timer_seconds),
        more_time=_on_off(settings.more_time),
        targets=defaults or _("the rules' own"),
        threads=_on_off(settings.use_threads),
        language=language.name,
    )
    return f"{chosen}\n{organisers(settings.tournament_role)}"


def _on_off(setting: bool) -> str:
    return pgettext("setting", "on") if setting else pgettext("setting", "off")


def organisers(role: int | None) -> str:
    """Who may announce and manage the server's tournaments (each tournament's creator
    manages their own too)."""
    if role is None:
        return _("Tournament organisers: members with Manage Server.")
    return _("Tournament organisers: members with Manage Server or the role {role}.").format(
        role=marks.current().role(role)
    )


def rematch_opened(game: str) -> str:
    return _(
        "The {game} rematch is open in this channel: the other players press Rematch (or"
        " Join) to take their seats, then the host presses Start."
    ).format(game=game_title(game))
