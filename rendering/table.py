"""The table picture posted after every move: a header, then the layout."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from rendering.faces import paste_tile
from rendering.geometry import DOWN, RIGHT, Layout, PlacedTile, Rect, place
from rendering.palette import ALERT, BACKGROUND, HIGHLIGHT, MUTED, TEXT, encode_png, fit, font

MARGIN = 24
HEADER_FONT, LABEL_FONT = 18, 16
LINE_HEIGHT = 24
NAME_ROOM = 130
"""Pixels a player's name may take in the header (about 14 letters)."""


@dataclass(frozen=True, slots=True)
class RenderedImage:
    """PNG bytes, with where each tile and label landed (for tests, and nothing else)."""

    png: bytes
    width: int
    height: int
    tiles: list[tuple[str, Rect]] = field(default_factory=list)
    labels: list[tuple[str, str, int | None, Rect]] = field(default_factory=list)
    """(end, text, open number or None when dead, where)."""


def side_names(view: dict[str, Any], names: list[str]) -> list[str]:
    if len(view["scores"]) == 2 and view["game"] == "milo":
        return [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    return names


def match_standing(view: dict[str, Any], names: list[str]) -> list[str]:
    """Games won so far by each side ("Ann & Cat 1") in a match of several games
    (R-MI-7); nothing in a single game, where it would only say nought."""
    if view["options"]["match_games"] <= 1:
        return []
    won = zip(side_names(view, names), view["games_won"], strict=True)
    return [f"{n} {w}" for n, w in won]


def header_lines(view: dict[str, Any], names: list[str]) -> list[str]:
    """Game, round, target; scores (and games won in a match); hand sizes, boneyard (and
    the open-end sum); whose turn. Names in lists are cut so that four long ones still
    fit in the picture; the player to move is named in full, up to a wider limit."""
    header_font = font(HEADER_FONT)
    short = [fit(name, NAME_ROOM, header_font) for name in names]
    match = match_standing(view, short)
    first = f"{view['title']} · round {view['round_number']}"
    if match:
        first += f" of game {view['game_number']}"
    first += f" · to {view['target']}"
    scores = zip(side_names(view, short), view["scores"], strict=True)
    lines = [first, "Scores: " + " · ".join(f"{n} {s}" for n, s in scores)]
    if match:
        needed = view["options"]["match_games"]
        lines.append(f"Games won (first to {needed}): " + " · ".join(match))
    hands = ", ".join(f"{n} {k}" for n, k in zip(short, view["hand_sizes"], strict=True))
    counts = f"Tiles in hand: {hands} · Boneyard {view['boneyard_count']}"
    if "open_sum" in view:
        counts += f" · Open ends total {view['open_sum']}"
    lines.append(counts)
    mover = fit(names[view["turn"]], 3 * NAME_ROOM, header_font)
    lines.append(f"To play: {mover}" if view["outcome"] is None else "Round over")
    return lines


def last_played(view: dict[str, Any]) -> str | None:
    history: list[tuple[int, str]] = view["history"]
    for _, move in reversed(history):
        if move not in ("draw", "pass"):
            return move.split()[0]
    return None


def halves(placed: PlacedTile) -> tuple[int, int]:
    """(top or left value, bottom or right value) as the tile lies on the picture."""
    outward_first = placed.direction in (RIGHT, DOWN)
    return (placed.near, placed.far) if outward_first else (placed.far, placed.near)


def label_size() -> tuple[int, int]:
    """The room every open-end label is given: the widest one any layout shows."""
    left, top, right, bottom = font(LABEL_FONT).getbbox("W: dead")
    return int(right - left), int(bottom - top)


def render_table(view: dict[str, Any], names: list[str]) -> RenderedImage:
    """The picture of a table from its public view (never a hand, never the boneyard)."""
    layout = place(view, label_size())
    lines = header_lines(view, names)
    header_font = font(HEADER_FONT)
    header_width = max(int(header_font.getlength(line)) for line in lines) + 2 * MARGIN
    header_height = MARGIN + LINE_HEIGHT * len(lines)
    if layout is None:
        width, height = header_width, header_height + MARGIN + LINE_HEIGHT
        offset = (0, 0)
    else:
        bounds = layout.bounds()
        content_width = bounds.x1 - bounds.x0 + 2 * MARGIN + 2 * LABEL_FONT
        width = max(header_width, content_width)
        height = header_height + bounds.y1 - bounds.y0 + 2 * MARGIN + LABEL_FONT
        offset = (
            (width - (bounds.x1 - bounds.x0)) // 2 - bounds.x0,
            header_height + MARGIN - bounds.y0 + LABEL_FONT // 2,
        )
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for index, line in enumerate(lines):
        draw.text(
            (MARGIN, MARGIN // 2 + index * LINE_HEIGHT),
            line,
            fill=TEXT if index == 0 else MUTED,
            font=header_font,
        )
    tiles: list[tuple[str, Rect]] = []
    labels: list[tuple[str, str, int | None, Rect]] = []
    if layout is None:
        draw.text((MARGIN, header_height), "Waiting for the lead.", fill=MUTED, font=header_font)
    else:
        tiles, labels = _draw_layout(image, layout, offset, view)
    return RenderedImage(encode_png(image), width, height, tiles, labels)


def _draw_layout(
    image: Image.Image, layout: Layout, offset: tuple[int, int], view: dict[str, Any]
) -> tuple[list[tuple[str, Rect]], list[tuple[str, str, int | None, Rect]]]:
    dx, dy = offset
    dead = (view["layout"] or {}).get("dead", {})
    last = last_played(view)
    tiles = []
    for placed in layout.tiles:
        rect = placed.rect.shifted(dx, dy)
        is_last = placed.tile == last
        look = "dead" if dead.get(placed.end) else "last" if is_last else "plain"
        first, second = halves(placed)
        paste_tile(image, (rect.x0, rect.y0, rect.x1, rect.y1), first, second, look,
                   frame=HIGHLIGHT if is_last else None)  # fmt: skip
        tiles.append((placed.tile, rect))
    draw = ImageDraw.Draw(image)
    label_font = font(LABEL_FONT)
    labels = []
    for label in layout.labels:
        x, y = label.anchor[0] + dx, label.anchor[1] + dy
        left, top, right, bottom = draw.textbbox((x, y), label.text, font=label_font, anchor="mm")
        draw.text((x, y), label.text, font=label_font, anchor="mm",
                  fill=ALERT if label.value is None else TEXT)  # fmt: skip
        labels.append(
            (label.end, label.text, label.value, Rect(int(left), int(top), int(right), int(bottom)))
        )
    return tiles, labels
