"""Alt text: the picture in words, for players who use a screen reader. Discord allows
1,024 characters per attachment description, so the essentials come first (whose turn,
the open ends) and the tile-by-tile detail is cut to fit."""

from __future__ import annotations

from typing import Any

from rendering.hand import hand_order, placements
from rendering.table import last_played, match_standing, side_names

LIMIT = 1024


def describe_table(view: dict[str, Any], names: list[str]) -> str:
    """The table picture in words: the game and whose turn, then each open end's name and
    number (what a move must match), the last tile, scores and counts, then the tiles."""
    match = match_standing(view, names)
    game = f" of game {view['game_number']}" if match else ""
    title = f"{view['title']}, round {view['round_number']}{game}, to {view['target']}."
    sides = side_names(view, names)
    scores = (
        "Scores: " + ", ".join(f"{n} {s}" for n, s in zip(sides, view["scores"], strict=True)) + "."
    )
    if match:
        scores += f" Games won, first to {view['options']['match_games']}: {', '.join(match)}."
    turn = f"{names[view['turn']]} to play." if view["outcome"] is None else "The round is over."
    hands = (
        "Tiles in hand: "
        + ", ".join(f"{n} {k}" for n, k in zip(names, view["hand_sizes"], strict=True))
        + f". Boneyard {view['boneyard_count']}."
    )
    layout = view["layout"]
    if layout is None:
        return " ".join([title, "No tile played yet.", turn, scores, hands])[:LIMIT]
    ends = "Open ends: " + ", ".join(f"{e} {v}" for e, v in view["open_ends"].items()) + "."
    dead = [e for e, is_dead in layout.get("dead", {}).items() if is_dead]
    if dead:
        ends += f" Dead: {', '.join(dead)}."
    if "open_sum" in view:
        ends += f" Open ends total {view['open_sum']}."
    last = last_played(view)
    played = ""
    if last is not None:
        seat, move = next((s, m) for s, m in reversed(view["history"]) if m not in ("draw", "pass"))
        where = f" on {move.split()[1]}" if " " in move else " as the lead"
        played = f"Last played: {last}{where} by {names[seat]}."
    summary = " ".join(part for part in [title, turn, ends, played, scores, hands] if part)
    detail = _detail(layout)
    return (summary + " " + detail)[:LIMIT].rstrip()


def _detail(layout: dict[str, Any]) -> str:
    if layout["kind"] == "line":
        return "Line from L to R: " + ", ".join(t["tile"] for t in layout["tiles"]) + "."
    arms = []
    for end, tiles in layout["arms"].items():
        chain = ", ".join(t["tile"] for t in tiles) or "empty"
        cap = " (capped)" if layout.get("capped", {}).get(end) else ""
        arms.append(f"{end}: {chain}{cap}")
    return f"Spinner {layout['spinner']}. " + ". ".join(arms) + "."


def describe_hand(view: dict[str, Any]) -> str:
    """The seat's own hand (sent only to that player), in the picture's order, with the
    ends each playable tile fits, as its buttons will name them."""
    hand = hand_order(view["hand"])
    text = f"Your hand, {len(hand)} tiles: {', '.join(hand)}."
    fits = placements(view)
    if fits:
        where = [f"{tile} on {' or '.join(ends)}" if any(ends) else tile
                 for tile, ends in fits.items()]  # fmt: skip
        text += f" Playable now: {', '.join(where)}."
    elif view["legal"]:
        text += f" Nothing fits: {view['legal'][0]}."
    return text[:LIMIT]
