"""A tournament's words: its announcement and podium cards, the lines said as it runs
(sign-up, check-in, each round's tables, absentees, withdrawals, an organiser's changes),
a player's status, its buttons' labels, the formats' and tie-breaks' names, the
refusals of the tournament core (``bot.tournaments.errors``), and the two pictures'
words (rendering's ``StandingsText`` and ``BracketText``) with their alt texts.

Tables and matches are numbered from 1 in everything said here; the core's results and
refusals number a round's tables from 0, and are turned once, in the refusals.

Pictures take names as typed (the picture cuts them to its room); sentences make them
harmless with :func:`words.common.plain`; alt texts are read aloud, not formatted, and
take them as typed, as the table picture's alt text does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from bot.engine import Round, find_variant
from bot.tournaments import (
    BadAdvance,
    BadResult,
    BadSeating,
    Bracket,
    DuplicateEntrant,
    From,
    Match,
    NoBracket,
    NoSuchTable,
    NotForKnockout,
    NotTheSameTable,
    Progress,
    SeatedTwice,
    Standing,
    TooFewEntrants,
    TournamentError,
    UnknownEntrant,
)
from bot.tournaments.model import Format
from rendering.tournament import (
    STANDINGS_SHOWN,
    BracketText,
    StandingsRow,
    StandingsText,
    first_drawn_round,
)
from words import marks
from words.boards import unknown_player
from words.cards import Card, Field, Tone
from words.common import and_list, game_title, or_list, plain, points_count, to_target
from words.i18n import _, decimal, ngettext, number, pgettext

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description (as ``words.pictures``): an alt text
says what fits and how much it left out; the text lines (:func:`standings_lines`,
:func:`bracket_lines`) carry everything."""
FIELD_LIMIT = 1024
"""Discord's limit on an embed field's value: the entrants' list is cut to it."""

TieBreak = Literal["buchholz", "head_to_head", "difference"]
Left = Literal["withdrew", "dropped"]
"""Why an entrant no longer plays: they withdrew, or the organiser dropped them."""
Partners = Literal["pairs", "drawn"]
"""Milo's partners: pairs that sign up together, or partners drawn each round."""
Action = Literal["signup", "withdraw", "checkin"]


# -- names ----------------------------------------------------------------------------------


def format_name(format_: Format) -> str:
    """A format's name as it stands in a sentence (``Swiss``, ``knockout``)."""
    names = {
        Format.KNOCKOUT: pgettext("tournament format", "knockout"),
        Format.SWISS: pgettext("tournament format", "Swiss"),
        Format.ROUND_ROBIN: pgettext("tournament format", "round robin"),
    }
    return names[format_]


def _tie_break(format_: Format) -> TieBreak:
    """The tie-break after match points that a format's standings show: head-to-head in
    a round robin, else Buchholz."""
    return "head_to_head" if format_ is Format.ROUND_ROBIN else "buchholz"


def tie_break_name(tie_break: TieBreak) -> str:
    """A tie-break's name, as a column heading or in a sentence."""
    names = {
        # Translators: the sum of a player's opponents' points (a chess term, kept as is).
        "buchholz": pgettext("tie-break", "Buchholz"),
        "head_to_head": pgettext("tie-break", "head-to-head"),
        "difference": pgettext("tie-break", "points difference"),
    }
    return names[tie_break]


def tournament_label(action: Action) -> str:
    """A tournament button's label, by its action."""
    labels = {
        "signup": pgettext("button", "Sign up"),
        "withdraw": pgettext("button", "Withdraw"),
        "checkin": pgettext("button", "Check in"),
    }
    return labels[action]


def tournament_title(game: type[Round] | str, format_: Format) -> str:
    """``Cross tournament (Swiss)``: the title of its cards and pictures. ``game`` is
    the variant, or its name as the settings keep it (``cross``, ``maltese-cross``)."""
    variant = find_variant(game) if isinstance(game, str) else game
    return _("{game} tournament ({format})").format(
        game=game_title(variant), format=format_name(format_)
    )


def pair_name(first: str, second: str) -> str:
    """A Milo pair that signed up together, as one entrant's name (``Ann & Cat``), the
    way the table pictures name a side."""
    return f"{first} & {second}"


def rounds_count(n: int) -> str:
    return ngettext("{count} round", "{count} rounds", n).format(count=number(n))


def entrants_count(n: int) -> str:
    return ngettext("{count} entrant", "{count} entrants", n).format(count=number(n))


def _place_name(place: int) -> str:
    """A podium place (1st, 2nd, 3rd), else the place's number."""
    names = {
        1: pgettext("podium", "1st"),
        2: pgettext("podium", "2nd"),
        3: pgettext("podium", "3rd"),
    }
    return names.get(place) or number(place)


# -- the announcement and the podium ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Announcement:
    """What the announcement card says of a tournament, from the service's state."""

    game: type[Round]
    format: Format
    rounds: int | None
    """The rounds, when they are known before sign-up closes (a Swiss's); a knockout's
    and a round robin's follow from the number of entrants."""
    seats: int
    """Players (or Milo sides of two) at a full table."""
    start: float
    """Unix time of round one."""
    checkin_opens: float
    checkin_closes: float
    rated: bool
    organiser: int
    """The organiser's member id."""
    entrants: Sequence[str] = ()
    """The entrants' names, in the order they signed up (a pair as :func:`pair_name`)."""
    waiting: Sequence[tuple[str, int | None]] = ()
    """By pairs: each member signed up whose pair is not entered yet, by name, with the
    member (id) they chose, who has not chosen them back (None: nobody now)."""
    smaller: Sequence[int] = ()
    """Smaller tables the seating may use when the numbers need them."""
    partners: Partners | None = None
    target: int | None = None
    """The game's target, when the organiser set one."""
    advance: int = 1
    """In a knockout, how many of each table go on."""


def announcement_card(event: Announcement) -> Card:
    """The announcement: game and format, rounds, tables, start, check-in, rated or not,
    who has signed up, and which buttons to press."""
    mark = marks.current()
    description = _("Organised by {organiser}. Round 1 starts {when}.").format(
        organiser=mark.member(event.organiser), when=mark.relative_time(event.start)
    )
    fields = [
        Field(_("Format"), _format_words(event)),
        Field(_("Tables"), _tables_words(event)),
    ]
    if event.target is not None:
        fields.append(Field(_("Game"), to_target(event.target, event.game.exact_target)))
    fields.append(
        Field(
            _("Check-in"),
            _("Opens {opens}, closes {closes}").format(
                opens=mark.relative_time(event.checkin_opens),
                closes=mark.relative_time(event.checkin_closes),
            ),
        )
    )
    rated = _("Rated: the games count toward ratings.") if event.rated else _("Not rated.")
    fields.append(Field(_("Ratings"), rated))
    count = len(event.entrants)
    fields.append(
        Field(
            _("Entrants ({count})").format(count=number(count)),
            _entrants_list(event.entrants) if count else _("Nobody yet."),
            inline=False,
        )
    )
    if event.waiting:
        fields.append(Field(_("Waiting for a partner"), _waiting_list(event.waiting), inline=False))
    footer = _("Press {signup} to enter, {withdraw} to leave.").format(
        signup=tournament_label("signup"), withdraw=tournament_label("withdraw")
    )
    return Card(tournament_title(event.game, event.format), description, tuple(fields), footer)


def _format_words(event: Announcement) -> str:
    """``Swiss, 5 rounds``; a knockout sending two on says so."""
    words = format_name(event.format)
    if event.rounds is not None:
        words = _("{format}, {rounds}").format(format=words, rounds=rounds_count(event.rounds))
    if event.format is Format.KNOCKOUT and event.advance > 1:
        words += " " + _("(the first {count} of each table go on)").format(
            count=number(event.advance)
        )
    return words


def _tables_words(event: Announcement) -> str:
    """``Tables of 4 (or 3 when the numbers need it)``; Milo's partners."""
    if event.partners == "pairs":
        return _("Teams of two: partners sign up together.")
    if event.partners == "drawn":
        return _("Tables of four: partners are drawn each round, never the same twice.")
    words = _("Tables of {count}").format(count=number(event.seats))
    if event.smaller:
        counts = or_list(number(count) for count in sorted(event.smaller, reverse=True))
        words += " " + _("(or {counts} when the numbers need it)").format(counts=counts)
    return words


def _entrants_list(entrants: Sequence[str], *, already_plain: bool = False) -> str:
    """The entrants' names as one field's value: cut to fit, saying how many it left out
    (``already_plain``: the entries are made harmless already)."""
    shown: list[str] = []
    used = 0
    for index, name in enumerate(entrants):
        more = _and_more(len(entrants) - index)
        piece = name if already_plain else plain(name)
        if used + len(piece) + 2 + len(more) > FIELD_LIMIT:
            return ", ".join(shown) + " " + more
        shown.append(piece)
        used += len(piece) + 2
    return ", ".join(shown)


def _waiting_list(waiting: Sequence[tuple[str, int | None]]) -> str:
    """Members whose pair is not entered yet, with whom each chose (shown, not pinged),
    cut to fit like the entrants."""
    mark = marks.current()
    return _entrants_list(
        [
            plain(name)
            if chosen is None
            else _("{name} (chose {partner})").format(name=plain(name), partner=mark.member(chosen))
            for name, chosen in waiting
        ],
        already_plain=True,
    )


def _and_more(count: int) -> str:
    return ngettext("… and {count} more", "… and {count} more", count).format(count=number(count))


def podium_card(title: str, podium: Sequence[tuple[int, Sequence[str]]]) -> Card:
    """The tournament's end: the champion, and a field for each podium place (1st, 2nd,
    3rd; a place shared by several lists them all). ``podium`` is ``(place, names)``
    best first, ``names`` one entrant's (a Milo pair's two)."""
    fields: dict[int, list[str]] = {}
    for place, names in podium:
        if place <= 3:
            fields.setdefault(place, []).append(and_list(plain(name) for name in names))
    champions = fields.get(1, [])
    description = None
    if len(champions) == 1:
        description = _("Champion: {name}").format(name=champions[0])
    return Card(
        _("{tournament} — the podium").format(tournament=title),
        description,
        tuple(Field(_place_name(place), "\n".join(names)) for place, names in fields.items()),
        tone=Tone.WINNER,
    )


# -- as it runs -------------------------------------------------------------------------------


def signup_open() -> str:
    return _("Sign-up is open: press {signup} to enter.").format(signup=tournament_label("signup"))


def signed_up() -> str:
    return _("You are signed up. Check in when check-in opens, before the start.")


def choose_partner(chosen_by: Sequence[str] = ()) -> str:
    """The answer to Sign up, by pairs, above the partner select: how a pair is entered,
    and who has chosen the member already (``chosen_by``, their names)."""
    words = _(
        "Choose your partner below. The pair is entered once your partner chooses you"
        " too: they press {signup} and choose you."
    ).format(signup=tournament_label("signup"))
    if chosen_by:
        words += "\n" + ngettext(
            "{names} chose you: choose them to enter together.",
            "{names} chose you: choose one of them to enter together.",
            len(chosen_by),
        ).format(names=and_list(plain(name) for name in chosen_by))
    return words


def partner_placeholder() -> str:
    """The partner select's placeholder (at most 150 characters)."""
    return pgettext("select", "Choose your partner")


def partner_chosen(partner: int) -> str:
    """The member chose ``partner`` (an id: shown as the member), who has not chosen
    them back yet."""
    return _(
        "You chose {partner}. The pair is entered once {partner} presses {signup} on the"
        " announcement and chooses you."
    ).format(partner=marks.current().member(partner), signup=tournament_label("signup"))


def pair_signed_up(partner: str) -> str:
    """Both chose each other: the pair is entered."""
    return _(
        "You and {partner} are signed up as a pair. Each of you checks in when check-in"
        " opens: the pair plays only if both of you have checked in by the start."
    ).format(partner=plain(partner))


def checkin_open(until: float) -> str:
    return _(
        "Check-in is open and closes {when}: press {checkin} to confirm you will play."
    ).format(when=marks.current().relative_time(until), checkin=tournament_label("checkin"))


def checked_in() -> str:
    return _("You are checked in.")


def checked_in_before_partner(partner: str) -> str:
    """By pairs: checked in, and the partner not yet."""
    return _(
        "You are checked in. Your pair plays only if {partner} checks in too, before the start."
    ).format(partner=plain(partner))


def checked_in_without_pair() -> str:
    """By pairs: checked in, while the partner they chose has not chosen them back."""
    return _(
        "You are checked in. You play only if your partner chooses you back and checks in,"
        " before the start."
    )


def not_both_checked_in(pair: str) -> str:
    """Said at the start: a pair of whom only one checked in does not play."""
    return _("{pair}: only one of them checked in, so the pair does not play.").format(
        pair=plain(pair)
    )


def round_begins(round_: int, deadline: float) -> str:
    """Round ``round_``'s tables are open; ``deadline`` is when an empty seat goes to the
    computer."""
    return _(
        "Round {round} begins. A seat still empty {when} is played by the computer, and"
        " its player forfeits."
    ).format(round=number(round_), when=marks.current().relative_time(deadline))


def your_table(round_: int, channel_id: int) -> str:
    """Where a player sits in a round: the table's channel or thread."""
    return _("Round {round}: your table is {where}.").format(
        round=number(round_), where=marks.current().channel(channel_id)
    )


def kept_for_tournament(
    channel_id: int, game: str, format_: str, round_: int, starts_at: float, waiting: int | None
) -> str:
    """Said to a member refused a casual seat (a table opened, joined, played again)
    because they play in a tournament of the server (``InTournament``): which one, when
    their round's table comes (or where it waits for them now), and how to be free."""
    current = marks.current()
    tournament = tournament_title(game, Format(format_))
    where = current.channel(channel_id)
    withdraw = tournament_label("withdraw")
    if waiting is not None:
        return _(
            "Your table of round {round} of the {tournament} is waiting for you: {table}."
            " Until the tournament ends you sit at its tables only."
        ).format(round=number(round_), tournament=tournament, table=current.channel(waiting))
    if round_ == 0:
        return _(
            "You are entered in the {tournament} in {where}, which starts {when}: from"
            " check-in until it ends you sit at its tables only, so that you are free when"
            " your round's table opens. To play here, press {withdraw} on its announcement"
            " first."
        ).format(
            tournament=tournament,
            where=where,
            when=current.relative_time(starts_at),
            withdraw=withdraw,
        )
    return _(
        "You play in the {tournament} in {where}: until it ends you sit at its tables only,"
        " and its next round opens as soon as every table of round {round} is over. To"
        " play here, press {withdraw} on its announcement first."
    ).format(tournament=tournament, where=where, round=number(round_), withdraw=withdraw)


def your_bye(round_: int) -> str:
    return _("Round {round}: you have a bye, worth a win.").format(round=number(round_))


def no_show(name: str) -> str:
    return _("{name} did not come: the computer plays their seat and they forfeit.").format(
        name=plain(name)
    )


def no_show_in_pair(name: str, pair: str) -> str:
    return _(
        "{name} did not come: the computer plays their seat and their pair, {pair}, forfeits."
    ).format(name=plain(name), pair=plain(pair))


def pair_withdrew(name: str, pair: str) -> str:
    """By pairs: one member withdrew, which takes their pair out."""
    return _("{name} withdrew, and with them their pair, {pair}.").format(
        name=plain(name), pair=plain(pair)
    )


def pair_dropped(name: str, pair: str) -> str:
    """By pairs: the organiser dropped one member, which takes their pair out."""
    return _("{name} was dropped by the organiser, and with them their pair, {pair}.").format(
        name=plain(name), pair=plain(pair)
    )


def withdrew(name: str) -> str:
    return _("{name} withdrew.").format(name=plain(name))


def dropped(name: str) -> str:
    return _("{name} was dropped by the organiser.").format(name=plain(name))


def replaced(newcomer: str, leaver: str) -> str:
    return _("{newcomer} replaces {leaver}.").format(newcomer=plain(newcomer), leaver=plain(leaver))


def result_changed(table: int, round_: int, organiser: int, reason: str) -> str:
    """An organiser's adjustment, said with the reason they gave (kept in the log), and
    who made it as a member (an organiser need not play, so no entrant's name serves)."""
    return _(
        "The result of table {table} of round {round} was changed by {organiser}: {reason}"
    ).format(
        table=number(table),
        round=number(round_),
        organiser=marks.current().member(organiser),
        reason=plain(reason),
    )


def round_over(round_: int) -> str:
    return _("Round {round} is over.").format(round=number(round_))


def round_not_opened(round_: int, organiser: int) -> str:
    """Discord refused a round's table its thread for good: the tournament waits, and
    its organiser (pinged) is told why and what they can do."""
    return _(
        "Round {round} cannot begin: Discord refused a thread for one of its tables (the"
        " channel is gone, or the bot may no longer create threads or send messages in"
        " them here). The tournament is paused: {organiser}, resume it once the bot can,"
        " or cancel it."
    ).format(round=number(round_), organiser=marks.current().member(organiser))


def paused() -> str:
    return _("The tournament is paused.")


def resumed(deadline: float | None) -> str:
    """Resumed; ``deadline``, when the round's seats are still being taken, is its
    show-up deadline, moved on by the pause (said again: the round's post named the
    old one)."""
    if deadline is None:
        return _("The tournament is resumed.")
    return _(
        "The tournament is resumed. A seat still empty {when} is played by the computer,"
        " and its player forfeits."
    ).format(when=marks.current().relative_time(deadline))


def cancelled() -> str:
    return _("The tournament is cancelled.")


def player_status(
    title: str,
    place: int | None,
    entrants: int,
    points: int | None = None,
    table: tuple[int, int] | None = None,
    bye: int | None = None,
    out: bool = False,
) -> str:
    """A player's answer to ``/domino tournament status``: the tournament, their place
    among ``entrants`` (None before round one ends) and match ``points``, then what
    comes next: their ``table`` as (round, channel id), a ``bye`` in a round, or, in a
    knockout, that they are ``out``."""
    lines = [f"{marks.current().bold(title)}"]
    if place is None:
        lines.append(_("No round has been played yet."))
    elif points is None:
        lines.append(
            _("Place {place} of {count}.").format(place=number(place), count=number(entrants))
        )
    else:
        lines.append(
            ngettext(
                "Place {place} of {count}, with {points} point.",
                "Place {place} of {count}, with {points} points.",
                points,
            ).format(place=number(place), count=number(entrants), points=number(points))
        )  # fmt: skip
    if out:
        lines.append(_("You are out of the knockout."))
    elif table is not None:
        lines.append(your_table(*table))
    elif bye is not None:
        lines.append(your_bye(bye))
    return "\n".join(lines)


def not_entered() -> str:
    return _("You are not in this tournament.")


# -- refusals -----------------------------------------------------------------------------


def tournament_refusal(error: TournamentError, names: Mapping[int, str] | None = None) -> str:
    """The core's refusal in words, from its data; ``names`` names the entrants it may
    mention (by id; one not there is named as an unknown player). Tables are counted
    from 1 here, from 0 in the core."""
    names = names or {}
    match error:
        case BadSeating(drawn_partners=True):
            return _("Partners can be drawn only at tables of four, with no smaller tables.")
        case BadSeating():
            return _(
                "No game seats tables of {size} like that: tables hold 2 to 4 players, and"
                " smaller tables fewer than the full ones."
            ).format(size=number(error.size))
        case BadAdvance():
            return _(
                "{count} players of each table of {size} cannot go on: one of each table"
                " goes on, or two of a table of four."
            ).format(count=number(error.advance), size=number(error.size))
        case NoBracket():
            return ngettext(
                "There is no knockout for {count} entrant at tables of {size}: this game"
                " seats {counts} players at a table.",
                "There is no knockout for {count} entrants at tables of {size}: this game"
                " seats {counts} players at a table.",
                error.entrants,
            ).format(
                count=number(error.entrants),
                size=number(error.size),
                counts=or_list(number(count) for count in error.counts),
            )
        case NotForKnockout():
            return _("A knockout cannot draw partners: pairs sign up together.")
        case TooFewEntrants():
            return ngettext(
                "The tournament has {count} entrant; it needs at least {least}.",
                "The tournament has {count} entrants; it needs at least {least}.",
                error.count,
            ).format(count=number(error.count), least=number(error.least))
        case DuplicateEntrant():
            return _("{name} is entered twice.").format(name=_name(error.entrant, names))
        case UnknownEntrant():
            return _("{name} is not in this tournament.").format(name=_name(error.entrant, names))
        case BadResult():
            return _(
                "That result for table {table} of round {round} does not hold together."
            ).format(table=number(error.table + 1), round=number(error.round))
        case SeatedTwice():
            return _("{name} would have two results in round {round}.").format(
                name=_name(error.entrant, names), round=number(error.round)
            )
        case NoSuchTable():
            return _("Table {table} of round {round} has no result to change.").format(
                table=number(error.table + 1), round=number(error.round)
            )
        case NotTheSameTable():
            return _(
                "The change to table {table} of round {round} seats other players: a change"
                " may only say how the table ended."
            ).format(table=number(error.table + 1), round=number(error.round))
    return _("The tournament cannot do that.")


def tournament_refused(why: str, cause: BaseException | None = None) -> str:
    """The tournament service's refusal (``TournamentRefused``), by the reason it names;
    one that wraps the core's refusal (``cause``) is worded from that."""
    if isinstance(cause, TournamentError):
        return tournament_refusal(cause)
    reasons = {
        "rounds": _("A Swiss tournament needs its number of rounds."),
        "rounds-swiss-only": _(
            "Only a Swiss tournament takes a number of rounds: a knockout plays until one"
            " player is left, a round robin until everyone has met. Leave rounds out."
        ),
        "closed": _("That tournament is over, or there is no such tournament."),
        "started": _("The tournament has started: sign-up is closed."),
        "paused": _(
            "The tournament is paused: sign-up opens again when the organiser resumes it."
        ),
        "channel-taken": _(
            "This channel has an open tournament already: announce the next one in another"
            " channel, or once this one has ended."
        ),
        "signed-up": _("You are already signed up."),
        "not-entered": not_entered(),
        "not-a-player": _("That member is not playing in this tournament."),
        "newcomer-entered": _(
            "That member is already in this tournament: choose a member who is not."
        ),
        "not-paired": _(
            "That member has no partner yet, so there is no pair to complete: drop them"
            " instead."
        ),
        "check-in-closed": _("Check-in is not open now."),
        "organiser-only": _("Only the organiser can do that."),
        "already": _("The tournament is already paused, or already running."),
        "moved-on": _("The tournament moved on meanwhile: try again."),
        "fixed-draw": _(
            "A knockout's or a round robin's draw is made once, so no one can take a"
            " player's place in it: drop the player instead (they forfeit their tables)."
        ),
        "entered": _(
            "You are entered in a tournament that is still open: withdraw from it first,"
            " then ask again."
        ),
        "withdrawn": _(
            "A tournament you withdrew from is still under way and names you until it"
            " ends: ask again then."
        ),
        "partners": _("This tournament is not entered that way: press {signup} on its"
                      " announcement.").format(signup=tournament_label("signup")),
        "pairs-game": _("Only Milo is played by partners: pairs sign up together only in a"
                        " Milo tournament."),
        "partner-self": _("You cannot be your own partner: choose another member."),
        "partner-bot": _("A bot cannot be your partner: choose a member."),
        "replace-bot": _("A bot cannot play in a tournament: choose a member."),
        "partner-taken": _("That member is already in a pair in this tournament."),
        "partner-chose-another": _(
            "That member chose another partner: they can choose you instead."
        ),
        "already-chosen": _(
            "You chose that member already: the pair is entered once they choose you back."
        ),
        "not-drawn": _(
            "That pair is not in the draw (both partners had to check in by the start):"
            " a knockout's or a round robin's draw is made once, and no one joins it later."
        ),
        "plays-on": _(
            "The next round is already drawn from that table's result: in a knockout it"
            " can no longer change who goes on."
        ),
    }  # fmt: skip
    return reasons.get(why) or _("The tournament cannot do that.")


def too_few(count: int, least: int) -> str:
    """Said when the start came with fewer checked in than the tournament needs."""
    return ngettext(
        "Only {count} entrant checked in, and at least {least} are needed: the tournament"
        " is cancelled.",
        "Only {count} entrants checked in, and at least {least} are needed: the tournament"
        " is cancelled.",
        count,
    ).format(count=number(count), least=number(least))


def _name(entrant: int, names: Mapping[int, str]) -> str:
    return plain(names[entrant]) if entrant in names else unknown_player(entrant)


# -- the standings' picture and words ----------------------------------------------------------


def signed(value: Fraction) -> str:
    """A points difference with its sign, to one decimal (``+3.5``, ``−1.0``, ``0.0``)."""
    shown = decimal(abs(float(value)))
    if shown == decimal(0.0):
        return shown
    return ("+" if value > 0 else "\u2212") + shown


def tie_break_value(standing: Standing) -> str:
    """The second tie-break as shown: Buchholz (a mean: one decimal) or head-to-head."""
    if standing.buchholz is not None:
        return decimal(float(standing.buchholz))
    return number(standing.head_to_head or 0)


def standings_rows(
    standings: Sequence[Standing], names: Mapping[int, str], left: Mapping[int, Left]
) -> list[StandingsRow]:
    """The picture's rows, best first: each entrant's name, numbers in the language's
    decimals, and a withdrawn or dropped entrant's mark."""
    return [
        StandingsRow(
            place=standing.place,
            name=names[standing.entrant],
            points=standing.points,
            tie_break=tie_break_value(standing),
            difference=signed(standing.difference),
            played=standing.played,
            byes=standing.byes,
            left=_left_mark(left.get(standing.entrant)),
        )
        for standing in standings
    ]


def _left_mark(why: Left | None) -> str:
    if why == "withdrew":
        return pgettext("standings", "withdrew")
    if why == "dropped":
        return pgettext("standings", "dropped")
    return ""


def standings_subtitle(round_: int, rounds: int) -> str:
    if round_ >= rounds:
        return _("Final standings after round {round}").format(round=number(round_))
    return _("Round {round} of {rounds} — standings").format(
        round=number(round_), rounds=number(rounds)
    )


def standings_text(
    title: str, format_: Format, round_: int, rounds: int, entrants: int
) -> StandingsText:
    """The standings picture's words: ``title`` (:func:`tournament_title`), where the
    tournament stands, the columns' headings (the tie-break the format uses), and, past
    :data:`~rendering.tournament.STANDINGS_SHOWN` entrants, that only the top are shown."""
    tie_break = _tie_break(format_)
    note = ""
    if entrants > STANDINGS_SHOWN:
        note = _("The top {shown} of {count} entrants are shown.").format(
            shown=number(STANDINGS_SHOWN), count=number(entrants)
        )
    return StandingsText(
        title=title,
        subtitle=standings_subtitle(round_, rounds),
        place="#",
        player=pgettext("standings column", "Player"),
        # Translators: match points, the column the standings are ordered by (short).
        points=pgettext("standings column", "Points"),
        tie_break=_column_name(tie_break),
        # Translators: the points difference (short: a column about 60 pixels wide).
        difference=pgettext("standings column", "Diff."),
        # Translators: tables played (short: a column about 55 pixels wide).
        played=pgettext("standings column", "Played"),
        # Translators: rounds sat out with a bye (short: a column about 45 pixels wide).
        byes=pgettext("standings column", "Byes"),
        note=note,
    )  # fmt: skip


def _column_name(tie_break: TieBreak) -> str:
    if tie_break == "head_to_head":
        # Translators: head-to-head, as a column heading (about 90 pixels wide).
        return pgettext("standings column", "Head-to-head")
    return tie_break_name(tie_break)


def standings_line(row: StandingsRow, format_: Format) -> str:
    """One entrant's standing in words: ``3. Ann — 8 points, Buchholz 12.5, +3.0, 3
    tables played, 1 bye``; a withdrawn entrant's mark after."""
    tie_break = _tie_break(format_)
    played = ngettext("{count} table played", "{count} tables played", row.played)
    byes = ngettext("{count} bye", "{count} byes", row.byes)
    line = _("{place}. {name} — {points}, {tie_break} {value}, {difference}, {played}, {byes}")
    figures = line.format(
        place=number(row.place),
        name=row.name,
        points=points_count(row.points),
        tie_break=tie_break_name(tie_break),
        value=row.tie_break,
        difference=row.difference,
        played=played.format(count=number(row.played)),
        byes=byes.format(count=number(row.byes)),
    )
    return f"{figures} ({row.left})" if row.left else figures


def standings_lines(rows: Sequence[StandingsRow], format_: Format) -> list[str]:
    """Everyone's standing, a line each, with their names harmless: for a message
    beside the picture (which shows the top 64) when the alt text cannot hold them all."""
    return [
        standings_line(StandingsRow(r.place, plain(r.name), r.points, r.tie_break, r.difference,
                                    r.played, r.byes, r.left), format_)
        for r in rows
    ]  # fmt: skip


def describe_standings(rows: Sequence[StandingsRow], text: StandingsText, format_: Format) -> str:
    """The standings picture in words, for screen readers: title, where it stands, what
    the numbers are, then each entrant (``1. Ann: 8; 12.5; +3.0``: figures apart by
    semicolons, as a decimal comma may stand inside one), as many as :data:`ALT_LIMIT`
    holds, then how many it left out."""
    tie_break = _tie_break(format_)
    head = _("{title}. {subtitle}. Place, name, points, {tie_break}, difference:").format(
        title=text.title, subtitle=text.subtitle, tie_break=tie_break_name(tie_break)
    )
    entries = []
    for row in rows:
        entry = _("{place}. {name}: {points}; {value}; {difference}").format(
            place=number(row.place),
            name=row.name,
            points=number(row.points),
            value=row.tie_break,
            difference=row.difference,
        )
        entries.append(f"{entry} ({row.left})" if row.left else entry)
    return _fitted(head, [(". ", entry) for entry in entries])


# -- the bracket's picture and words ---------------------------------------------------------


def round_name(bracket: Bracket, round_: int) -> str:
    """A knockout round's name: ``Final``, ``Semi-finals`` (two matches before the
    final), ``Quarter-finals`` (four of two each), else ``Round 2``."""
    matches = bracket.rounds[round_ - 1]
    if round_ == len(bracket.rounds):
        return pgettext("knockout round", "Final")
    if len(matches) == 2 and round_ == len(bracket.rounds) - 1:
        return pgettext("knockout round", "Semi-finals")
    if len(matches) == 4 and round_ == len(bracket.rounds) - 2 and matches[0].size == 2:
        return pgettext("knockout round", "Quarter-finals")
    return _("Round {round}").format(round=number(round_))


def match_name(number_: int) -> str:
    return _("Match {number}").format(number=number(number_))


def coming_from(match: int, place: int) -> str:
    """A seat not yet known: who finishes ``place`` at match ``match``."""
    if place == 1:
        return _("Winner of match {number}").format(number=number(match))
    if place == 2:
        return _("Runner-up of match {number}").format(number=number(match))
    return _("Place {place} at match {number}").format(place=number(place), number=number(match))


def bracket_text(bracket: Bracket, title: str) -> BracketText:
    """The bracket picture's words: ``title`` (:func:`tournament_title`), every round's
    and match's names, where each unknown seat comes from, and which early rounds the
    picture leaves to the alt text (:func:`rendering.tournament.first_drawn_round`)."""
    first = first_drawn_round(bracket)
    note = ""
    if first == 2:
        note = _("Round 1 is not drawn: its matches are listed as text.")
    elif first > 2:
        note = _("Rounds 1 to {last} are not drawn: their matches are listed as text.").format(
            last=number(first - 1)
        )
    pending = {
        (slot.match, slot.place): coming_from(slot.match, slot.place)
        for match in bracket.matches
        for slot in match.slots
        if isinstance(slot, From)
    }
    return BracketText(
        title=title,
        rounds=tuple(round_name(bracket, r) for r in range(1, len(bracket.rounds) + 1)),
        matches=tuple(match_name(match.number) for match in bracket.matches),
        pending=pending,
        bye=pgettext("knockout seat", "bye"),
        champion=pgettext("knockout", "Champion"),
        note=note,
    )


def _seat_words(match: Match, progress: Progress, names: Mapping[int, str]) -> list[str]:
    seated = progress.seated.get(match.number, (None,) * len(match.slots))
    words = []
    for slot, entrant in zip(match.slots, seated, strict=True):
        if entrant is not None:
            words.append(names[entrant])
        elif isinstance(slot, From):
            words.append(coming_from(slot.match, slot.place))
    return words


def match_words(
    match: Match, progress: Progress, names: Mapping[int, str], *, final: bool = False
) -> str:
    """One match in words, for the text lines: its name, the finishing order once it is
    played, then :func:`match_brief` (the ``final``'s winner is named champion)."""
    order = progress.finished.get(match.number)
    label_ = match_name(match.number)
    if order is None or match.walkover:
        said = _("{match}: {words}").format(match=label_, words=match_brief(match, progress, names))
        if order is None and match.byes:
            said += " " + ngettext("({count} bye)", "({count} byes)", match.byes).format(
                count=number(match.byes)
            )
        return said
    finish = ", ".join(
        f"{number(rank)}. {names[entrant]}" for rank, entrant in enumerate(order, start=1)
    )
    if final:
        return _("{match}: {order}; {name} is the champion").format(
            match=label_, order=finish, name=names[order[0]]
        )
    return _("{match}: {order}; {words}").format(
        match=label_, order=finish, words=match_brief(match, progress, names)
    )


def bracket_lines(bracket: Bracket, progress: Progress, names: Mapping[int, str]) -> list[str]:
    """Every match in words, a line each under its round's name: the whole bracket as
    text (a big one's picture starts at a later round). Names are made harmless."""
    shown = {entrant: plain(name) for entrant, name in names.items()}
    lines = []
    for number_, matches in enumerate(bracket.rounds, start=1):
        lines.append(marks.current().bold(round_name(bracket, number_)))
        lines += [
            match_words(match, progress, shown, final=match is bracket.final) for match in matches
        ]
    return lines


def match_brief(match: Match, progress: Progress, names: Mapping[int, str]) -> str:
    """One match as the alt text says it, briefly: who won against whom (or who went on
    ahead of whom), who went on without playing, or who is to play."""
    order = progress.finished.get(match.number)
    if order is None:
        return and_list(_seat_words(match, progress, names))
    if match.walkover:
        return ngettext(
            "{names} went on without playing", "{names} went on without playing", len(order)
        ).format(names=and_list(names[entrant] for entrant in order))
    going = and_list(names[entrant] for entrant in order[: match.advance])
    others = and_list(names[entrant] for entrant in order[match.advance :])
    if match.advance == 1:
        return _("{name} won against {others}").format(name=going, others=others)
    return ngettext(
        "{names} went on, ahead of {others}", "{names} went on, ahead of {others}", match.advance
    ).format(names=going, others=others)


def describe_bracket(
    bracket: Bracket, progress: Progress, names: Mapping[int, str], title: str
) -> str:
    """The bracket picture in words, for screen readers: how many entrants and rounds,
    the champion once there is one, then round by round from round one (those the
    picture leaves out first) each match, as many as :data:`ALT_LIMIT` holds."""
    head = _("{title}: {entrants}, {rounds}.").format(
        title=title,
        entrants=entrants_count(len(bracket.seeds)),
        rounds=rounds_count(len(bracket.rounds)),
    )
    if progress.champion is not None:
        head += " " + _("Champion: {name}").format(name=names[progress.champion]) + "."
    entries = []
    for number_, matches in enumerate(bracket.rounds, start=1):
        for index, match in enumerate(matches):
            said = _("{match}, {words}").format(
                match=match_name(match.number), words=match_brief(match, progress, names)
            )
            if index == 0:
                said = _("{round}: {words}").format(words=said, round=round_name(bracket, number_))
            entries.append((". " if index == 0 else "; ", said))
    return _fitted(head, entries)


def _fitted(head: str, entries: Sequence[tuple[str, str]]) -> str:
    """``head`` then ``entries`` (each after its separator), as many as
    :data:`ALT_LIMIT` holds, with the count of the rest said after them."""
    text = head
    for index, (between, entry) in enumerate(entries):
        more = _and_more(len(entries) - index)
        joined = text + (" " if index == 0 else between) + entry
        if len(joined) + len(more) + 2 > ALT_LIMIT:
            return f"{text} {more}."
        text = joined
    return text + "."


# -- the Discord face's own (added with the face: cogs/tournaments.py, discord_face/tournaments.py)


def table_thread_name(game: type[Round] | str, round_: int, table: int) -> str:
    """A round's table's thread, short enough for a channel list: ``Cross · 2.3`` (round
    2, table 3: figures only, so no letter of a word is taken for an end's letter)."""
    # Translators: a tournament table's thread name: the round, a point, the table.
    variant = find_variant(game) if isinstance(game, str) else game
    return pgettext("thread", "{game} · {round}.{table}").format(
        game=game_title(variant), round=number(round_), table=number(table)
    )


def table_line(table: int, channel_id: int, players: Sequence[int | Sequence[int]]) -> str:
    """One table of a round's pairing: its number, its thread, its players mentioned
    (each reader's app shows their names); a pair (its members' ids) as ``@A & @B``."""
    return _("Table {table} — {where}: {players}").format(
        table=number(table),
        where=marks.current().channel(channel_id),
        players=and_list(_mentioned(entrant) for entrant in players),
    )


def bye_line(players: Sequence[int | Sequence[int]]) -> str:
    """Who sits this round out with a bye (worth a win): members, or pairs as in
    :func:`table_line`."""
    return ngettext(
        "Bye (worth a win): {players}", "Byes (worth a win): {players}", len(players)
    ).format(players=and_list(_mentioned(entrant) for entrant in players))


def _mentioned(entrant: int | Sequence[int]) -> str:
    """A member mentioned, or a pair's two (``@A & @B``)."""
    mark = marks.current()
    if isinstance(entrant, int):
        return mark.member(entrant)
    first, second = entrant
    return pair_name(mark.member(first), mark.member(second))


def no_tournaments() -> str:
    return _("No tournament is open in this server.")


def face_refused(why: str) -> str | None:
    """The Discord face's own reasons to refuse a tournament command (None: not one of
    them): no open tournament, several and none named by the channel, a result change
    naming nobody of that table, a table with no result yet, tables of a size the game
    does not seat, or a channel that cannot hold its tables' threads."""
    reasons: dict[str, Callable[[], str]] = {
        "none": no_tournaments,
        "which": lambda: _(
            "Several tournaments are open in this server: use the command in the"
            " tournament's channel or in one of its tables' threads."
        ),
        "not-at-table": lambda: _("That member did not play at that table."),
        "no-result": lambda: _("That table has no result to change yet."),
        "seats": lambda: _("That game does not seat that many players at a table."),
        "text-channel": lambda: _(
            "A tournament's tables are played in threads of its channel: announce it in a"
            " text channel, not in a thread or a voice channel's chat."
        ),
    }
    found = reasons.get(why)
    return found() if found is not None else None
