"""The browser page's own labels: headings, form labels, button labels and the short
phrases around what the server words itself (cards, lines, refusals, alt text).

The page holds no English of its own: the server sends this dictionary in ``hello``
(and again after every change of language), and the page looks each label up by its
key. A label may hold ``{placeholders}`` the page fills in (a name, a tile, a number it
has formatted for the language); messages that other faces already say are reused, so
a word is translated once for both faces."""

from __future__ import annotations

from bot.levels import LEVELS
from words.common import label, option_name
from words.i18n import _, pgettext

ACTIONS = (
    "join", "leave", "start", "cancel", "draw", "pass", "more_time", "rematch", "hint", "rules"
)  # fmt: skip
"""Buttons the Discord face has too: their labels are :func:`words.common.label`'s."""


def page_words() -> dict[str, str]:
    """Every label of the page, by key, in the language of the moment."""
    return {
        **_frame(),
        **_guest(),
        **_lobby(),
        **_table(),
        **_ended(),
        **_replay(),
        **{action: label(action) for action in ACTIONS},
        # The computer levels' buttons, labelled as the Discord face's (``hello.levels``
        # names them as a sentence does, in lower case).
        **{f"level_{level}": label(level) for level in LEVELS},
    }


def _frame() -> dict[str, str]:
    """Around every page: the title, the navigation, the language and the connection."""
    return {
        # Translators: the browser page's title and heading.
        "title": _("Dominoes"),
        # Translators: the page's first link, seen once the keyboard reaches it;
        # it takes the reader past the top bar to what the page shows.
        "skip": _("Skip to main content"),
        # Translators: the name of the page's navigation, read by screen readers.
        "nav": _("Pages"),
        # Translators: the link to the list of open tables.
        "tables": _("Tables"),
        "boards": _("Leaderboards"),
        "language": _("Language"),
        "reconnecting": _("Connection lost: trying again…"),
        # Translators: the connection to the bot, lost a moment ago, is back.
        "reconnected": _("Connected again."),
        "loading": _("Loading…"),
        "load_failed": _("This page could not be loaded."),
        "not_found": _("There is nothing at this address."),
        # Translators: the page opened inside Discord, but the bot was not set up for it.
        "no_activity": _(
            "This bot has not set up its Discord Activity: play with the buttons in the channel."
        ),
        # Translators: the page opened inside Discord could not sign the member in
        # (Discord or the bot not reached, or the member declined to be signed in).
        "sign_in_failed": _(
            "Discord could not sign you in here: close the Activity and open it again."
        ),
        # Translators: said to screen readers inside Discord once signed in;
        # {game} is the game's name.
        "table_ready": _("The {game} table is ready."),
        "nothing": _("Nothing to show yet."),
        "dismiss": pgettext("button", "Close"),
        "rules_of": _("Rules of {game}"),
    }


def _guest() -> dict[str, str]:
    """The name a guest plays under (watching needs none)."""
    return {
        "guest_heading": _("Your name"),
        "guest_note": _("Choose a name to open a table or take a seat. Watching needs no name."),
        "guest_name": _("Name"),
        "guest_submit": pgettext("button", "Use this name"),
        "playing_as": _("Playing as {name}"),
    }


def _lobby() -> dict[str, str]:
    """The open tables and the form that opens one, with every option of ``/domino new``."""
    return {
        "tables_heading": _("Open tables"),
        "no_tables": _("No table is open yet."),
        "seats_taken": _("{seated} of {max} seats taken"),
        "state_lobby": pgettext("table state", "table open"),
        "state_playing": pgettext("table state", "game started"),
        "state_finished": pgettext("table state", "game over"),
        "state_cancelled": pgettext("table state", "table closed"),
        "open_heading": _("Open a table"),
        "game": _("Game"),
        # Translators: how many may play a game; {counts} is a list such as "2, 3 or 4".
        "players": _("{counts} players"),
        "target": option_name("target"),
        "target_help": _("Points to win"),
        "keep_last_two": option_name("keep_last_two"),
        "keep_last_two_help": _("Never draw the last two boneyard tiles"),
        "match_games": option_name("match_games"),
        "match_games_help": _("Games a side must win to take the match (1–9); empty for one game"),
        "hints": _("Hints"),
        "hints_help": _("Let players ask what a computer would play (the game is then not rated)"),
        "open_submit": pgettext("button", "Open the table"),
    }


def _table() -> dict[str, str]:
    """One table: seats, whose turn and the clock, the layout, the hand, the buttons."""
    return {
        "spectating": _("Spectating"),
        "your_turn": _("Your turn"),
        "waiting_for": _("Waiting for {name}"),
        # Translators: the turn clock; {seconds} is a number.
        "time_left": _("{seconds} s left"),
        "waiting_players": _("Waiting for players"),
        "round_over": _("The round is over."),
        "seats": _("Seats"),
        # Translators: after the name of the seat the reader sits in.
        "you": _("(you)"),
        # Translators: a seat whose player left the game; a computer plays for them.
        "away": pgettext("seat", "away"),
        # Translators: beside the name of the seat whose turn it is.
        "to_play": pgettext("seat", "to play"),
        "tiles_in_hand": _("Tiles in hand: {count}"),
        "boneyard": _("Boneyard {count}"),
        "scores": _("Scores"),
        "to_target": _("to {target}"),
        "no_tiles": _("No tile played yet."),
        "hand": _("Your hand"),
        "hand_help": _(
            "Arrow keys move between your tiles. Enter plays a tile, or picks it when it"
            " fits more than one end: then choose an end. Escape lets it go."
        ),
        # Translators: a tile of the reader's hand, read by screen readers; {ends} is a
        # list of the ends' letters.
        "fits": _("{tile}, plays on {ends}"),
        "fits_not": _("{tile}, does not fit"),
        # Translators: a tile of the reader's hand that may open the round (no end yet).
        "fits_lead": _("{tile}, leads the round"),
        "choose_end": _("Where does {tile} go? Choose a highlighted end."),
        "play_on": _("Play {tile} on {end}"),
        "computer": label("computer"),
        # Translators: the button of a player marked away, to play again themselves.
        "back": pgettext("button", "I'm back"),
        "copy": pgettext("button", "Copy link"),
        "copied": _("Link copied."),
        "copy_this": _("Copy this link to share the table:"),
    }


def _ended() -> dict[str, str]:
    """The end of a round or game: every hand revealed, and the replay."""
    return {
        "hands": _("Hands"),
        "hand_line": _("{name}: {tiles} (count {count})"),
        "replay_link": _("Replay this game"),
        # Translators: inside Discord (the Activity), whose page shows no replay: {id} is
        # the game's id, for the chat's /domino replay command and its option game.
        "replay_in_chat": _("To watch this game again, use /domino replay game:{id} in the chat."),
    }


def _replay() -> dict[str, str]:
    """A finished game stepped through move by move."""
    return {
        "first": pgettext("replay", "First move"),
        "previous": pgettext("replay", "Previous move"),
        "next": pgettext("replay", "Next move"),
        "last": pgettext("replay", "Last move"),
        # Translators: where the replay stands: {count} counts each round's deal as a
        # step besides each move.
        "step": _("Step {step} of {count}"),
        "replay_help": _("The left and right arrow keys step through the moves."),
    }
