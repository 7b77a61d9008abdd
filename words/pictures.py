"""The pictures' words: the table's, the hand's and the leaderboard card's headers
(filled into rendering's ``*Text`` values, with names cut to the room the picture's
fonts give them), and each picture's alt text for screen readers."""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine import Drawing, Kind, Tile
from bot.engine.views import Arm, Layout, LineLayout, PublicView, SeatView
from rendering.hand import HandText, hand_order, placements
from rendering.leaderboard import LeaderboardRow, LeaderboardText
from rendering.table import TableText, fit_name
from words.boards import board_line
from words.common import (
    and_list,
    end_letter,
    end_letters,
    end_of,
    game_title,
    label,
    letters_for,
    or_list,
    tiles_count,
)
from words.i18n import _, ngettext, number

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description: the alt text says the essentials
first (whose turn, the open ends) and its tile-by-tile detail is cut to fit."""


def listed(pairs: Iterable[tuple[str, int]], between: str) -> str:
    """``Ann 3 · Bob 5``: names, each with its number."""
    return between.join(f"{name} {number(value)}" for name, value in pairs)


def view_side_names(view: PublicView, names: list[str]) -> list[str]:
    """Each side's name: its seat's, or in a team game both partners' ("Ann & Cat")."""
    return [
        " & ".join(names[seat] for seat in side) for side in view.variant.sides_of(view.players)
    ]


def in_match(view: PublicView) -> bool:
    """A match of several games (R-MI-7), where the games won are worth saying; in a
    single game they would only say nought."""
    return view.options.match_games > 1


def table_text(view: PublicView, names: list[str]) -> TableText:
    """The table picture's words: game, round, target; scores (and games won in a
    match); hand sizes, boneyard (and the open-end total); whose turn. Names in a list
    are cut so that four long ones still fit; the player to move gets a wider limit."""
    short = [fit_name(name) for name in names]
    sides = view_side_names(view, short)
    figures = _round_figures(view)
    if in_match(view):
        first = _("{game} · round {round} of game {number} · to {target}").format(**figures)
    else:
        first = _("{game} · round {round} · to {target}").format(**figures)
    scores = listed(zip(sides, view.scores, strict=True), " · ")
    lines = [first, _("Scores: {scores}").format(scores=scores)]
    if in_match(view):
        won = listed(zip(sides, view.games_won, strict=True), " · ")
        lines.append(
            _("Games won (first to {count}): {games}").format(
                count=number(view.options.match_games), games=won
            )
        )
    hands = listed(zip(short, view.hand_sizes, strict=True), ", ")
    counts = [_("Tiles in hand: {hands}").format(hands=hands)]
    if view.variant.drawing is not Drawing.NO_BONEYARD:
        counts.append(_("Boneyard {count}").format(count=number(view.boneyard_count)))
    if view.open_sum is not None:
        counts.append(_("Open ends total {total}").format(total=number(view.open_sum)))
    lines.append(" · ".join(counts))
    mover = fit_name(names[view.turn], wide=True)
    lines.append(
        _("To play: {name}").format(name=mover) if view.outcome is None else _("Round over")
    )
    return TableText(
        tuple(lines), before_lead=_("Waiting for the lead."), dead=_("dead"), ends=end_letters()
    )


def hand_text(view: SeatView, names: list[str]) -> HandText:
    """The hand picture's words: whose hand, and what the seat is to do now."""
    public = view.public
    fits = placements(view)
    if public.outcome is not None:
        status = _("The round is over")
    elif public.turn != view.seat:
        status = _("Waiting for {name}").format(name=names[public.turn])
    elif fits:
        status = ngettext(
            "Your turn: {count} of your tiles fit (green)",
            "Your turn: {count} of your tiles fit (green)",
            len(fits),
        ).format(count=number(len(fits)))
    else:
        status = _("Your turn: nothing fits, press {button}").format(
            button=label(view.legal[0].text)
        )
    title = _("{name}'s hand · {tiles}").format(
        name=names[view.seat], tiles=tiles_count(len(view.hand))
    )
    return HandText(title, status, ends=end_letters())


def leaderboard_text(title: str, order: str = "rating") -> LeaderboardText:
    """The card's words; its third column is what the board is ordered by (``order``),
    the rating unless it is wins or points."""
    headings = {"wins": _("Wins"), "points": _("Points")}
    column = headings.get(order) or _("Rating")
    return LeaderboardText(title, rank="#", player=_("Player"), value=column, games=_("Games"))


def describe_leaderboard(title: str, rows: Iterable[LeaderboardRow], you: str | None) -> str:
    """The leaderboard card in words, for screen readers: its title, then each row (and
    where the member stands, ``you``, when they are not among the rows). Alt text is
    plain text: the names are said as typed, not escaped as a message's are."""
    lines = [board_line(row.rank, row.name, row.value, row.games, as_typed=True) for row in rows]
    if you is not None:
        lines.append(you)
    return (f"{title}. " + "; ".join(lines))[:ALT_LIMIT]


def _round_figures(view: PublicView) -> dict[str, str]:
    """The game, round, game number and target, as the first line of a table says them."""
    return {
        "game": game_title(view.variant),
        "round": number(view.round_number),
        "number": number(view.game_number),
        "target": number(view.target),
    }


def describe_table(view: PublicView, names: list[str]) -> str:
    """The table picture in words, for screen readers: the game and whose turn, each
    open end's name and number (what a move must match), the last tile, scores and
    counts, then every tile, arm by arm (or along the line)."""
    sides = view_side_names(view, names)
    figures = _round_figures(view)
    if in_match(view):
        title = _("{game}, round {round} of game {number}, to {target}.").format(**figures)
    else:
        title = _("{game}, round {round}, to {target}.").format(**figures)
    standing = _("Scores: {scores}.").format(
        scores=listed(zip(sides, view.scores, strict=True), ", ")
    )
    if in_match(view):
        won = listed(zip(sides, view.games_won, strict=True), ", ")
        standing += " " + _("Games won, first to {count}: {games}.").format(
            count=number(view.options.match_games), games=won
        )
    if view.outcome is None:
        turn = _("{name} to play.").format(name=names[view.turn])
    else:
        turn = _("The round is over.")
    hands = _("Tiles in hand: {hands}.").format(
        hands=listed(zip(names, view.hand_sizes, strict=True), ", ")
    )
    if view.variant.drawing is not Drawing.NO_BONEYARD:
        hands += " " + _("Boneyard {count}.").format(count=number(view.boneyard_count))
    layout = view.layout
    if layout is None:
        return " ".join([title, _("No tile played yet."), turn, standing, hands])[:ALT_LIMIT]
    if view.open_ends:
        ends = _("Open ends: {ends}.").format(
            ends=", ".join(f"{end_letter(e)} {number(v)}" for e, v in view.open_ends.items())
        )
    else:  # every arm dead (R-MC-5)
        ends = _("No end is open.")
    dead = (
        [] if isinstance(layout, LineLayout) else letters_for(a.name for a in layout.arms if a.dead)
    )
    if dead:
        ends += " " + _("Dead: {arms}.").format(arms=and_list(dead))
    if view.open_sum is not None:
        ends += " " + _("Open ends total {total}.").format(total=number(view.open_sum))
    played = ""
    last = next(((s, m) for s, m in reversed(view.history) if m.tile is not None), None)
    if last is not None:
        seat, move = last
        if move.end_name:
            played = _("Last played: {tile} on {end} by {name}.").format(
                tile=move.tile, end=end_of(move), name=names[seat]
            )
        else:
            played = _("Last played: {tile} as the lead by {name}.").format(
                tile=move.tile, name=names[seat]
            )
    summary = " ".join(part for part in [title, turn, ends, played, standing, hands] if part)
    return (summary + " " + _layout_words(layout))[:ALT_LIMIT].rstrip()


def describe_hand(view: SeatView) -> str:
    """The seat's own hand in words (sent only to that player), in the picture's order,
    with the ends each playable tile fits, as its buttons will name them."""
    hand = hand_order(view.hand)
    text = ngettext("Your hand, {count} tile: {tiles}.", "Your hand, {count} tiles: {tiles}.",
                    len(hand)).format(count=number(len(hand)),
                                      tiles=", ".join(str(tile) for tile in hand))  # fmt: skip
    fits = placements(view)
    if fits:
        where = [
            _("{tile} on {ends}").format(tile=tile, ends=or_list(letters_for(ends)))
            if ends
            else str(tile)
            for tile, ends in fits.items()
        ]
        text += " " + _("Playable now: {tiles}.").format(tiles="; ".join(where))
    elif view.legal:
        if view.legal[0].kind is Kind.DRAW:
            text += " " + _("Nothing fits: draw.")
        else:
            text += " " + _("Nothing fits: pass.")
    return text[:ALT_LIMIT]


def _layout_words(layout: Layout) -> str:
    if isinstance(layout, LineLayout):
        return _("Line from {left} to {right}: {tiles}.").format(
            left=end_letter("L"),
            right=end_letter("R"),
            tiles=", ".join(str(t.tile) for t in layout.tiles),
        )
    arms = []
    for arm in layout.arms:
        chain = ", ".join(str(t.tile) for t in arm.tiles) or _("empty")
        cap = _cap(arm)
        if cap is None:
            arms.append(_("Arm {name}: {tiles}").format(name=end_letter(arm.name), tiles=chain))
        else:
            arms.append(
                _("Arm {name}, capped with {cap}: {tiles}").format(
                    name=end_letter(arm.name), cap=cap, tiles=chain
                )
            )
    return _("Spinner {tile}.").format(tile=layout.spinner) + " " + ". ".join(arms) + "."


def _cap(arm: Arm) -> Tile | None:
    """The double that capped a Maltese Cross arm (R-MC-3): the first double on it, as
    the tile that started the arm matched the spinner, whose only double is the spinner."""
    if not arm.capped:
        return None
    return next(placed.tile for placed in arm.tiles if placed.tile.is_double)
