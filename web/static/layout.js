/**
 * The layout on the felt, drawn from the coordinates the server computed once (the
 * same geometry as the Discord pictures). Two SVGs share one viewBox: the picture of
 * the tiles, an image whose name is the alt text, and above it the open ends, which
 * become buttons (and drop targets) for a selected tile. They are kept apart because
 * an image's insides are hidden from screen readers, and the ends must not be.
 */

import { el, svg } from "./dom.js";
import { tileShape } from "./tiles.js";
import { marked, plain, word } from "./text.js";

const LABEL_W = 44;
const LABEL_H = 26;
const PAD = 14;
/** The smallest view: a lone first tile must not fill a desktop screen. */
const MIN_W = 420;
const MIN_H = 240;

/**
 * `a` is drawn on the top or left half of a tile, `b` on the other (the server turned
 * them from the half nearer the spinner as the tile lies).
 * @typedef {{a: number, b: number, x: number, y: number, w: number, h: number,
 *   near: number, far: number, dx: number, dy: number, end: string|null,
 *   last: boolean, double: boolean}} Placed
 * @typedef {{end: string, letter: string, value: number|null, x: number, y: number}} End
 * @typedef {{width: number, height: number, tiles: Placed[], ends: End[]}} Layout
 * @typedef {{move: string, end: string}} Move
 */

/**
 * The felt with the layout on it (or the words for an empty table).
 * @param {Layout|null} layout
 * @param {object} options
 * @param {string} options.alt the layout in words
 * @param {boolean} [options.animate] the last tile has just been played: let it arrive
 * @param {{tile: string, moves: Move[]}|null} [options.selected] a hand tile picked to play
 * @param {(move: Move) => void} [options.play]
 */
export function felt(layout, { alt, animate = false, selected = null, play = () => {} }) {
  if (!layout || layout.tiles.length === 0) {
    return el("div", { class: "felt empty" }, el("p", { text: word("no_tiles") }));
  }
  const box = viewBox(layout);
  const picture = svg(
    "svg",
    { class: "layout", viewBox: box, role: "img", "aria-label": plain(alt) },
    ...layout.tiles.map((placed) => tile(placed, animate)),
  );
  const ends = svg(
    "svg",
    { class: "ends", viewBox: box, "aria-hidden": selected ? false : "true" },
    ...layout.ends.map((end) => endLabel(end, selected, play)),
  );
  return el("div", { class: selected ? "felt choosing" : "felt" }, picture, ends);
}

/**
 * The picture's bounds: every tile and every end's label, with a margin, and never
 * smaller than the minimum view (centred on what is there).
 * @param {Layout} layout
 */
function viewBox(layout) {
  const xs = [];
  const ys = [];
  for (const t of layout.tiles) xs.push(t.x, t.x + t.w), ys.push(t.y, t.y + t.h);
  for (const e of layout.ends) {
    xs.push(e.x - LABEL_W / 2, e.x + LABEL_W / 2);
    ys.push(e.y - LABEL_H / 2, e.y + LABEL_H / 2);
  }
  let [x0, x1] = [Math.min(...xs) - PAD, Math.max(...xs) + PAD];
  let [y0, y1] = [Math.min(...ys) - PAD, Math.max(...ys) + PAD];
  if (x1 - x0 < MIN_W) [x0, x1] = [(x0 + x1 - MIN_W) / 2, (x0 + x1 + MIN_W) / 2];
  if (y1 - y0 < MIN_H) [y0, y1] = [(y0 + y1 - MIN_H) / 2, (y0 + y1 + MIN_H) / 2];
  return `${x0} ${y0} ${x1 - x0} ${y1 - y0}`;
}

/**
 * One placed tile; the last one played is marked, and arrives if it is new.
 * @param {Placed} placed
 * @param {boolean} animate
 */
function tile(placed, animate) {
  const shape = tileShape(placed, placed.a, placed.b);
  shape.dataset.placed = `${Math.max(placed.a, placed.b)}-${Math.min(placed.a, placed.b)}`;
  if (placed.last) shape.classList.add("last");
  if (placed.last && animate) {
    shape.classList.add("arrive");
    // Start a little further out along its arm, so the tile slides into place.
    shape.style.setProperty("--from-x", `${placed.dx * 24}px`);
    shape.style.setProperty("--from-y", `${placed.dy * 24}px`);
  }
  return shape;
}

/**
 * An open end's label. With a tile selected, the ends it can go to are buttons that
 * play it there; the others fade.
 * @param {End} end
 * @param {{tile: string, moves: Move[]}|null} selected
 * @param {(move: Move) => void} play
 */
function endLabel(end, selected, play) {
  const move = selected?.moves.find((m) => m.end === end.end) ?? null;
  const text = end.value === null ? end.letter : `${end.letter} ${end.value}`;
  const group = svg(
    "g",
    {
      class: end.value === null ? "end dead" : "end",
      dataset: { end: end.end },
      "aria-hidden": move ? false : "true",
    },
    svg("rect", {
      x: end.x - LABEL_W / 2,
      y: end.y - LABEL_H / 2,
      width: LABEL_W,
      height: LABEL_H,
      rx: LABEL_H / 2,
    }),
    svg("text", { x: end.x, y: end.y, "dominant-baseline": "central", "text-anchor": "middle" }, text),
  );
  if (move && selected) {
    group.dataset.playable = "true";
    group.setAttribute("role", "button");
    group.setAttribute("tabindex", "0");
    group.setAttribute("aria-label", word("play_on", { tile: selected.tile, end: end.letter }));
    group.addEventListener("click", () => play(move));
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        play(move);
      }
    });
  }
  return group;
}

/**
 * Lines of what just happened, with the server's marks.
 * @param {string[]} lines
 */
export function linesView(lines) {
  return el("div", { class: "lines" }, ...lines.map((line) => el("p", {}, marked(line))));
}
