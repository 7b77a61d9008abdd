"""The replay of a whole game from its record, as animated GIFs: one frame per action
(the table as :func:`~rendering.table.render_table` draws it, under a line saying the
move), a card at each round's end with every hand revealed and the round's points, and
a last card with the result.

GIF rather than animated WebP: every Discord client animates a GIF attachment (animated
WebP only in recent ones, and not when linked); the pictures hold only the fixed palette
of ``rendering.palette`` (under 128 colours), so a GIF loses nothing; and GIF frames are
stored as the rectangle that changed, which Pillow finds and encodes many times faster
than its WebP encoder encodes a frame: a long game's replay is ready in a moment, where
WebP, though smaller, kept the member waiting (``docs/BENCHMARKS.md``).

Memory stays flat however long the game: each frame is kept as the PNG ``render_table``
returns (a few KB) until it is written, and the GIF is written frame by frame with
Pillow's ``GifImagePlugin.getheader``/``getdata``, so only the frame being written and
the one before it are ever decoded (``Image.save(save_all=True)`` would hold every
decoded frame until the end: hundreds of megabytes for a long game).

Every word comes from the caller in a :class:`ReplayText` (``words.replays`` builds it).
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import GifImagePlugin, Image, ImageChops

from bot.engine import Match, PublicView, read_record
from rendering.faces import paste_tile
from rendering.geometry import LONG, SHORT
from rendering.palette import MUTED, TEXT, canvas, encode_png, length, write
from rendering.table import HEADER_FONT, LINE_HEIGHT, MARGIN, TableText, render_table

UPLOAD_LIMIT = 8_000_000
"""Bytes a file may hold: Discord's upload limit for a bot's attachment, with room."""
TITLE_FONT = 24
"""The first line of the last card, the result."""
HAND_GAP, HAND_ROW = 6, 14
"""Pixels between revealed tiles, and tiles to a line before a hand wraps."""
LABEL_GAP = 16
"""Pixels between a revealed hand's label and its first tile."""


@dataclass(frozen=True, slots=True)
class ReplayText:
    """Every word a replay shows, written by the caller (the ``words`` package)."""

    table: Callable[[PublicView], TableText]
    """The table picture's words for a view (its header lines, as posted after a move)."""
    move: Callable[[PublicView, int, int], str]
    """The line over a move's frame: (the view after it, whose ``history`` ends with the
    move; the move's number in the record from 1; the record's number of moves)."""
    round_over: Callable[[PublicView], tuple[str, ...]]
    """The lines of a round's end card (the view as the round ended: ``outcome``, and
    ``scores`` after it), drawn above the revealed hands; the first is brighter."""
    hand: Callable[[PublicView, int], str]
    """The label beside a seat's revealed hand on that card (its name, its count)."""
    final: Callable[[PublicView], tuple[str, ...]]
    """The lines of the last card (the view with ``match_outcome``); the first, the
    result, is drawn larger."""


@dataclass(frozen=True, slots=True)
class Pace:
    """How long frames stay up. A move's frame lasts ``move_ms``, shortened down to
    ``fastest_move_ms`` so a file lasts at most ``longest_ms``; a game longer than that
    even at the fastest pace is split between files, at round ends. Cards are read, not
    glanced at, so they are never shortened."""

    move_ms: int = 700
    fastest_move_ms: int = 250
    round_ms: int = 4000
    final_ms: int = 6000
    longest_ms: int = 120_000


@dataclass(frozen=True, slots=True)
class ReplayPart:
    """One file of a replay: a GIF of consecutive frames."""

    gif: bytes
    width: int
    height: int
    frames: int
    duration_ms: int
    move_ms: int
    """How long each move's frame stays up in this file."""
    actions: range
    """The record's actions (indexes from 0) this file shows."""
    rounds: range
    """The rounds (from 0, across the match) it shows, wholly or in part."""


@dataclass(frozen=True, slots=True)
class Replay:
    parts: tuple[ReplayPart, ...]
    """The files, in order; one unless the game had to be split."""
    rounds: tuple[PublicView, ...]
    """Every finished round as it ended: ``outcome``, ``scores`` after it, and the
    ``round_number``, ``game_number`` and ``games_won`` of the match around it."""
    final: PublicView | None
    """The match's end (``match_outcome``), or None if the record stops before it."""
    actions: int
    """The record's number of actions: every one has its frame."""
    whole: bool = True
    """Whether ``parts`` show the whole game (False: only the first files were asked
    for, and the rest were not made)."""


@dataclass(frozen=True, slots=True)
class _Frame:
    """A frame waiting to be composed: its picture as PNG, kept small until written."""

    kind: Literal["move", "round", "final"]
    picture: bytes
    size: tuple[int, int]
    round: int
    """The round (from 0, across the match) it belongs to; the last card: the last."""
    action: int | None = None
    header: tuple[str, ...] = ()
    """A move's lines, drawn over the layout."""
    anchor: tuple[int, int] | None = None
    """A move's spinner (or Milo's lead) centre on its picture: kept still through a round."""


def render_replay(
    record: object,
    text: ReplayText,
    *,
    pace: Pace = Pace(),
    limit: int = UPLOAD_LIMIT,
    most: int | None = None,
) -> Replay:
    """The replay of a game record (``domino-record/1``), as one GIF or, when the game
    would last longer than ``pace.longest_ms`` or weigh more than ``limit`` bytes, as
    several, each a run of whole rounds. The same record and words give the same bytes.
    With ``most``, only the first ``most`` files are made, as they would be in the
    whole (``Replay.whole`` says whether that is all): writing the GIFs is most of the
    work, and the longest Milo match makes some fifty files for the few that are posted.

    A record that does not replay raises the engine's ``ReplayError`` before anything is
    drawn; a ``limit`` smaller than a single frame, ``ValueError``."""
    Match.from_record(record)  # the engine checks the whole record first, once
    frames, rounds, final = _frames(record, text)
    actions = sum(f.kind == "move" for f in frames)
    if not frames:
        return Replay((), rounds, final, actions)
    canvas = _Canvas.fit(frames)  # of every frame, so each file is as in the whole
    parts: list[ReplayPart] = []
    runs = _runs(frames, pace)
    for index, run in enumerate(runs, 1):
        parts += _encode(frames, run, canvas, pace, limit)  # one run may weigh several
        if most is not None and len(parts) >= most and (len(parts) > most or index < len(runs)):
            return Replay(tuple(parts[:most]), rounds, final, actions, whole=False)
    return Replay(tuple(parts), rounds, final, actions)


# -- the frames -------------------------------------------------------------------------


def played(data: object) -> Iterator[tuple[int, PublicView, bool]]:
    """A record's actions played one by one through a new match: the action's index, the
    view after it, and whether it ended a round. An action that ends a round is shown in
    the round it ended (the match deals the next at once), with its outcome, the
    ``scores`` and ``games_won`` after it; the match's last, with ``match_outcome``.
    The record must replay (``Match.from_record`` checks it)."""
    record = read_record(data)
    match = Match(record.variant, record.players, record.options, seed=record.seed,
                  deals=record.deals)  # fmt: skip
    for index, (_, move) in enumerate(record.actions):
        before = match.view()
        ended = match.play(move)
        if ended is None or match.outcome() is not None:
            yield index, match.view(), ended is not None
            continue
        assert match.previous is not None
        view = dataclasses.replace(
            match.previous.view(),
            round_number=before.round_number,
            game_number=before.game_number,
            games_won=tuple(match.games_won),
        )
        yield index, view, True


def _frames(
    data: object, text: ReplayText
) -> tuple[list[_Frame], tuple[PublicView, ...], PublicView | None]:
    """Every action's frame, a card at each round's end and one at the match's."""
    total = len(read_record(data).actions)
    frames: list[_Frame] = []
    rounds: list[PublicView] = []
    last: PublicView | None = None
    for index, view, ended in played(data):
        frames.append(_move_frame(view, text, index, total, len(rounds)))
        if ended:
            frames.append(_round_card(view, text, len(rounds)))
            rounds.append(view)
        last = view
    final = last if last is not None and last.match_outcome is not None else None
    if final is not None:
        frames.append(_final_card(final, text, len(rounds) - 1))
    return frames, tuple(rounds), final


def _move_frame(view: PublicView, text: ReplayText, index: int, total: int, round_: int) -> _Frame:
    words = text.table(view)
    picture = render_table(view, dataclasses.replace(words, header=()))
    anchor = None
    if picture.tiles:  # the spinner, or the lead in a line, is placed first
        x, y = picture.tiles[0][1].centre
        anchor = (int(x), int(y))
    header = (text.move(view, index + 1, total), *words.header)
    return _Frame("move", picture.png, (picture.width, picture.height), round_, index,
                  header, anchor)  # fmt: skip


def _round_card(view: PublicView, text: ReplayText, round_: int) -> _Frame:
    """The hands as the round ended, each tile standing, under the caller's lines."""
    outcome = view.outcome
    assert outcome is not None
    lines = text.round_over(view)
    labels = [text.hand(view, seat) for seat in range(view.players)]
    label_width = _text_width(labels, HEADER_FONT)
    step = SHORT + HAND_GAP
    rows = [max(1, -(-len(hand) // HAND_ROW)) for hand in outcome.hands]
    top = MARGIN + LINE_HEIGHT * len(lines)
    tiles_x = MARGIN + label_width + LABEL_GAP
    widest = max((min(len(hand), HAND_ROW) for hand in outcome.hands), default=0)
    width = max(tiles_x + widest * step, MARGIN + _text_width(lines, HEADER_FONT)) + MARGIN
    height = top + sum(rows) * (LONG + HAND_GAP) + (len(rows) - 1) * HAND_GAP + MARGIN
    image = canvas((width, height))
    _write_lines(image, lines)
    y = top
    for seat, hand in enumerate(outcome.hands):
        write(image, (MARGIN, y + LONG // 2), labels[seat], HEADER_FONT, TEXT, anchor="lm")
        for number, tile in enumerate(hand):
            x = tiles_x + (number % HAND_ROW) * step
            row_y = y + (number // HAND_ROW) * (LONG + HAND_GAP)
            paste_tile(image, (x, row_y, x + SHORT, row_y + LONG), tile.high, tile.low)
        y += rows[seat] * (LONG + HAND_GAP) + HAND_GAP
    return _Frame("round", encode_png(image), image.size, round_)


def _final_card(view: PublicView, text: ReplayText, round_: int) -> _Frame:
    lines = text.final(view)
    width = max(_text_width(lines[:1], TITLE_FONT), _text_width(lines[1:], HEADER_FONT))
    width += 2 * MARGIN
    height = 2 * MARGIN + TITLE_FONT + LINE_HEIGHT * len(lines)
    image = canvas((width, height))
    for index, line in enumerate(lines):
        y = MARGIN if index == 0 else MARGIN + TITLE_FONT + LINE_HEIGHT * index
        write(image, (MARGIN, y), line, TITLE_FONT if index == 0 else HEADER_FONT,
              TEXT if index == 0 else MUTED)  # fmt: skip
    return _Frame("final", encode_png(image), image.size, round_)


def _write_lines(image: Image.Image, lines: Sequence[str]) -> None:
    """Header lines as the table picture draws them: the first bright, the rest muted."""
    for index, line in enumerate(lines):
        write(image, (MARGIN, MARGIN // 2 + index * LINE_HEIGHT), line, HEADER_FONT,
              TEXT if index == 0 else MUTED)  # fmt: skip


def _text_width(lines: Sequence[str], size: int) -> int:
    """The longest of ``lines`` at ``size`` px, measured as :func:`write` draws them
    (a name's emoji or CJK in the fonts that draw them, not DejaVu Sans's missing-glyph
    box)."""
    return max((int(length(line, size)) for line in lines), default=0)


# -- one size for every frame -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Canvas:
    """Where each frame goes on a canvas all frames share (an animation must not jump):
    the header at the top, and each round's layout placed so that its spinner (or lead)
    stays still from the round's first tile to its last."""

    width: int
    height: int
    header_height: int
    anchors: dict[int, tuple[int, int]]
    """Per round: where its spinner's centre lies on the canvas."""

    @classmethod
    def fit(cls, frames: Sequence[_Frame]) -> _Canvas:
        header_lines = max((len(f.header) for f in frames), default=0)
        header_height = MARGIN // 2 + LINE_HEIGHT * header_lines
        width = height = 0
        extents: dict[int, list[int]] = {}  # round -> [left, right, up, down] of its pictures
        for frame in frames:
            w, h = frame.size
            if frame.kind != "move":
                width, height = max(width, w), max(height, h)
                continue
            width = max(width, _text_width(frame.header, HEADER_FONT) + 2 * MARGIN)
            ax, ay = frame.anchor or (w // 2, h // 2)
            box = extents.setdefault(frame.round, [0, 0, 0, 0])
            for side, value in enumerate((ax, w - ax, ay, h - ay)):
                box[side] = max(box[side], value)
        for left, right, up, down in extents.values():
            width = max(width, left + right)
            height = max(height, header_height + up + down)
        anchors = {
            round_: ((width - left - right) // 2 + left,
                     header_height + (height - header_height - up - down) // 2 + up)
            for round_, (left, right, up, down) in extents.items()
        }  # fmt: skip
        return cls(width, height, header_height, anchors)

    def compose(self, frame: _Frame) -> Image.Image:
        """The frame on the shared canvas, in the fixed palette."""
        image = canvas((self.width, self.height))
        picture = Image.open(io.BytesIO(frame.picture))
        if frame.kind != "move":  # a card: a pause between rounds, in the middle
            w, h = frame.size
            image.paste(picture, ((self.width - w) // 2, (self.height - h) // 2))
            return image
        w, h = frame.size
        ax, ay = frame.anchor or (w // 2, h // 2)
        x, y = self.anchors[frame.round]
        image.paste(picture, (x - ax, y - ay))
        strip = canvas((self.width, self.header_height))
        _write_lines(strip, frame.header)
        image.paste(strip, (0, 0))
        return image


# -- files ------------------------------------------------------------------------------


def _runs(frames: Sequence[_Frame], pace: Pace) -> list[range]:
    """The frames cut into as few runs as play within ``pace.longest_ms`` each at the
    fastest pace, as even in length as whole rounds allow; a round too long for a file
    on its own is cut between its frames."""
    starts = _round_starts(frames, range(len(frames)))
    atoms: list[range] = []
    for start, stop in zip(starts, [*starts[1:], len(frames)], strict=True):
        if _shortest_ms(frames[start:stop], pace) <= pace.longest_ms:
            atoms.append(range(start, stop))
        else:
            atoms.extend(range(i, i + 1) for i in range(start, stop))
    weights = [_shortest_ms(frames[a.start : a.stop], pace) for a in atoms]

    def pack(most: int) -> list[range]:
        """Atoms laid into runs in order, a new run whenever one would last over ``most``."""
        runs, start, total = [], atoms[0].start, 0
        for atom, weight in zip(atoms, weights, strict=True):
            if total and total + weight > most:
                runs.append(range(start, atom.start))
                start, total = atom.start, 0
            total += weight
        return [*runs, range(start, len(frames))]

    fewest = len(pack(max(pace.longest_ms, *weights)))
    low, high = max(weights), max(pace.longest_ms, *weights)
    while low < high:  # the shortest longest run that needs no more runs than the fewest
        middle = (low + high) // 2
        low, high = (low, middle) if len(pack(middle)) <= fewest else (middle + 1, high)
    return pack(low)


def _round_starts(frames: Sequence[_Frame], run: range) -> list[int]:
    """Where, in ``run``, a round begins: its first frame, and each after a round's card."""
    return [run.start] + [i + 1 for i in run[:-1] if frames[i].kind == "round"]


def _nearest(starts: Sequence[int], target: int) -> int:
    return min(starts, key=lambda start: (abs(start - target), start))


def _shortest_ms(frames: Sequence[_Frame], pace: Pace) -> int:
    return sum(_duration(f, pace.fastest_move_ms, pace) for f in frames)


def _duration(frame: _Frame, move_ms: int, pace: Pace) -> int:
    return {"move": move_ms, "round": pace.round_ms, "final": pace.final_ms}[frame.kind]


def _move_ms(frames: Sequence[_Frame], pace: Pace) -> int:
    """The pace of a file's moves: the usual one if the file fits ``longest_ms`` at it,
    else as fast as it must go (never under ``fastest_move_ms``), to GIF's 10 ms steps."""
    moves = sum(f.kind == "move" for f in frames)
    if not moves:
        return pace.move_ms
    cards = sum(_duration(f, 0, pace) for f in frames)
    room = (pace.longest_ms - cards) // moves // 10 * 10
    return max(pace.fastest_move_ms, min(pace.move_ms, room))


def _encode(
    frames: Sequence[_Frame], run: range, canvas: _Canvas, pace: Pace, limit: int
) -> list[ReplayPart]:
    """``run`` as one GIF or, if that weighs more than ``limit``, as two halves cut where
    the round nearest its middle begins (or in its middle), each cut again as it needs."""
    chosen = frames[run.start : run.stop]
    move_ms = _move_ms(chosen, pace)
    durations = [_duration(f, move_ms, pace) for f in chosen]
    gif = _gif((canvas.compose(f) for f in chosen), durations, limit)
    if gif is None:
        if len(run) == 1:
            raise ValueError(f"a single frame of this replay weighs more than {limit} bytes")
        starts = _round_starts(frames, run)[1:] or list(run[1:])
        cut = _nearest(starts, run.start + len(run) // 2)
        return [
            *_encode(frames, range(run.start, cut), canvas, pace, limit),
            *_encode(frames, range(cut, run.stop), canvas, pace, limit),
        ]
    actions = [f.action for f in chosen if f.action is not None]
    return [
        ReplayPart(
            gif,
            canvas.width,
            canvas.height,
            len(chosen),
            sum(durations),
            move_ms,
            range(actions[0], actions[-1] + 1) if actions else range(0),
            range(chosen[0].round, chosen[-1].round + 1),
        )
    ]


def _gif(images: Iterator[Image.Image], durations: Sequence[int], limit: int) -> bytes | None:
    """An endlessly looping GIF of ``images`` (palette images of one size), each after
    the first stored as the rectangle that changed; None once it passes ``limit`` bytes."""
    out = io.BytesIO()
    previous: Image.Image | None = None
    for image, duration in zip(images, durations, strict=True):
        if previous is None:
            header, _ = GifImagePlugin.getheader(image.copy(), None, {"loop": 0})
            out.write(b"".join(header))
            box: tuple[int, int, int, int] = (0, 0, *image.size)
        else:
            # An unchanged frame still gets a pixel, so every move keeps its own frame.
            box = ImageChops.subtract_modulo(image, previous).getbbox() or (0, 0, 1, 1)
        out.write(b"".join(GifImagePlugin.getdata(image.crop(box), box[:2], duration=duration)))
        if out.tell() > limit:
            return None
        previous = image
    out.write(b";")
    return out.getvalue() if out.tell() <= limit else None
