/**
 * The layout on the felt, drawn from the coordinates the server computed once (the
 * same geometry as the Discord pictures). Two SVGs share one viewBox: the picture of
 * the tiles, an image whose name is the alt text, and above it the open ends, which
 * become buttons (and drop targets) for a selected tile. They are kept apart because
 * an image's insides are hidden from screen readers, and the ends must not be. On a
 * phone the layout is drawn small: the ends' labels grow to stay a finger's target.
 */

import { el, svg } from "./dom.js";
import { tileShape } from "./tiles.js";
import { marked, plain, word } from "./text.js";

/** @typedef {{x: number, y: number, w: number, h: number}} Box a box by its centre and size */

const LABEL_W = 44;
const LABEL_H = 26;
/** The text of an end's label, in the layout's units at its smallest. */
const LABEL_FONT = 15;
/**
 * The least height of an end's label on the screen, in CSS pixels: a target a finger
 * can take (WCAG 2.2's 2.5.8 asks 24 at the least; one more for the rounding). On a
 * phone the felt draws the layout small, so the labels grow beyond the layout's units.
 */
const TARGET = 25;
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
  const box = viewBox(layout, labelBoxes(layout, 1));
  const picture = svg(
    "svg",
    { class: "layout", viewBox: box, role: "img", "aria-label": plain(alt) },
    ...layout.tiles.map((placed) => tile(placed, animate)),
  );
  const labels = layout.ends.map((end) => endLabel(end, selected, play));
  const ends = svg("svg", { class: "ends", viewBox: box, "aria-hidden": selected ? false : "true" }, ...labels);
  const root = el("div", { class: selected ? "felt choosing" : "felt" }, picture, ends);
  grown(root, layout, [picture, ends], labels);
  return root;
}

/**
 * Let the ends' labels grow, as the felt is drawn and whenever its size changes, until
 * each is at least {@link TARGET} pixels high on the screen; each takes a place that
 * covers no tile ({@link labelBoxes}), and the view widens to hold it. The felt is
 * marked `data-grown` once they have (a page's tests measure them then).
 * @param {HTMLElement} root the felt
 * @param {Layout} layout
 * @param {SVGElement[]} pictures the two SVGs, which share the view
 * @param {SVGElement[]} labels each end's label, in the layout's order of ends
 */
function grown(root, layout, pictures, labels) {
  const observer = new ResizeObserver(() => {
    if (!root.isConnected) {
      observer.disconnect();
      return;
    }
    const width = root.clientWidth;
    const height = parseFloat(getComputedStyle(pictures[0]).maxHeight) || Infinity;
    if (width <= 0) return;
    const k = growth(layout, width, height);
    const boxes = labelBoxes(layout, k);
    const view = viewBox(layout, boxes);
    for (const picture of pictures) picture.setAttribute("viewBox", view);
    boxes.forEach((box, at) => sized(labels[at], box, k));
    root.dataset.grown = "";
  });
  observer.observe(root);
}

/**
 * How much the labels must grow for the felt's width and greatest height (CSS pixels):
 * the view widens with them, which draws them smaller again, so this is worked out a
 * few times over (each time nearer).
 * @param {Layout} layout
 * @param {number} width
 * @param {number} height
 */
function growth(layout, width, height) {
  let k = 1;
  for (let i = 0; i < 6; i += 1) {
    const [, , w, h] = viewBox(layout, labelBoxes(layout, k)).split(" ").map(Number);
    const scale = Math.min(width / w, height / h);
    k = Math.max(1, TARGET / (LABEL_H * scale));
  }
  return k;
}

/**
 * Where each end's label stands, grown `k` times, in the layout's order of ends: the
 * first of its places ({@link placings}) that covers no tile and no label placed
 * before it (where none is free, the first).
 * @param {Layout} layout
 * @param {number} k
 * @returns {Box[]}
 */
function labelBoxes(layout, k) {
  const tiles = layout.tiles.map((t) => ({ x: t.x + t.w / 2, y: t.y + t.h / 2, w: t.w, h: t.h }));
  /** @type {Box[]} */
  const placed = [];
  for (const end of layout.ends) {
    const places = placings(layout, end, k);
    const free = places.find((box) => !tiles.some((t) => covers(box, t)) && !placed.some((p) => covers(box, p)));
    placed.push(free ?? places[0]);
  }
  return placed;
}

/**
 * The places an end's label may take, grown `k` times, best first: its side nearer the
 * layout where the label at its smallest has it and the rest outwards, centred across
 * that way or flush with either side (an arm that turns has tiles beside its end); then
 * the same growing the other ways.
 * @param {Layout} layout
 * @param {End} end
 * @param {number} k
 * @returns {Box[]}
 */
function placings(layout, end, k) {
  const w = LABEL_W * k;
  const h = LABEL_H * k;
  const [dx, dy] = outwards(layout, end);
  const ways = [[dx, dy], [1, 0], [-1, 0], [0, 1], [0, -1]];
  const spareW = (w - LABEL_W) / 2;
  const spareH = (h - LABEL_H) / 2;
  /** @type {Box[]} */
  const places = [];
  for (const [ax, ay] of ways) {
    const x = end.x + ax * spareW;
    const y = end.y + ay * spareH;
    for (const slide of [0, 1, -1]) {
      places.push({ x: ax === 0 ? x + slide * spareW : x, y: ay === 0 ? y + slide * spareH : y, w, h });
    }
  }
  return places;
}

/**
 * Whether two boxes (centre and size) overlap.
 * @param {Box} one
 * @param {Box} other
 */
function covers(one, other) {
  return (
    Math.abs(one.x - other.x) < (one.w + other.w) / 2 && Math.abs(one.y - other.y) < (one.h + other.h) / 2
  );
}

/**
 * Which way is outwards from an end: from the nearest tile's middle to the label, along
 * the axis it mostly lies on (an arm runs across or down the felt).
 * @param {Layout} layout
 * @param {End} end
 * @returns {[number, number]}
 */
function outwards(layout, end) {
  let best = null;
  let bestDistance = Infinity;
  for (const t of layout.tiles) {
    const distance = Math.hypot(t.x + t.w / 2 - end.x, t.y + t.h / 2 - end.y);
    if (distance < bestDistance) [best, bestDistance] = [t, distance];
  }
  if (!best) return [0, 0];
  const dx = end.x - (best.x + best.w / 2);
  const dy = end.y - (best.y + best.h / 2);
  return Math.abs(dx) >= Math.abs(dy) ? [Math.sign(dx), 0] : [0, Math.sign(dy)];
}

/**
 * Draw a label at its place and size.
 * @param {SVGElement} group
 * @param {{x: number, y: number, w: number, h: number}} box
 * @param {number} k
 */
function sized(group, box, k) {
  const rect = group.querySelector("rect");
  const text = group.querySelector("text");
  if (!rect || !text) return;
  rect.setAttribute("x", String(box.x - box.w / 2));
  rect.setAttribute("y", String(box.y - box.h / 2));
  rect.setAttribute("width", String(box.w));
  rect.setAttribute("height", String(box.h));
  rect.setAttribute("rx", String(box.h / 2));
  text.setAttribute("x", String(box.x));
  text.setAttribute("y", String(box.y));
  text.style.fontSize = `${LABEL_FONT * k}px`;
}

/**
 * The picture's bounds: every tile and every end's label (where {@link labelBoxes}
 * placed it), with a margin, and never smaller than the minimum view (centred on what
 * is there).
 * @param {Layout} layout
 * @param {Box[]} labels
 */
function viewBox(layout, labels) {
  const xs = [];
  const ys = [];
  for (const t of layout.tiles) xs.push(t.x, t.x + t.w), ys.push(t.y, t.y + t.h);
  for (const b of labels) {
    xs.push(b.x - b.w / 2, b.x + b.w / 2);
    ys.push(b.y - b.h / 2, b.y + b.h / 2);
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
