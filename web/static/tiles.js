/**
 * Dominoes as vector pictures: a tile is two square halves with pips, drawn at any
 * size from the same numbers the server's pictures use (a tile 64 × 32, a half 32).
 * Values run 0 to 9, so a double-nine set draws as well as a double-six.
 */

import { svg } from "./dom.js";

const HALF = 32;
const PIP = 3.4;

/**
 * Where a value's pips sit on a 3 × 3 grid (column, row), as they stand on a half of an
 * upright tile; a tile lying down turns them.
 * @type {Array<Array<[number, number]>>}
 */
const PIPS = [
  [],
  [[1, 1]],
  [[0, 0], [2, 2]],
  [[0, 0], [1, 1], [2, 2]],
  [[0, 0], [2, 0], [0, 2], [2, 2]],
  [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
  [[0, 0], [0, 1], [0, 2], [1, 1], [2, 0], [2, 1], [2, 2]],
  [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
];

/**
 * The pips of one half whose top-left corner is (x, y).
 * @param {number} value
 * @param {number} x
 * @param {number} y
 * @param {boolean} lying the tile lies along x: the pattern turns with it
 */
function pips(value, x, y, lying) {
  const spots = PIPS[value] ?? [];
  return spots.map(([column, row]) => {
    const [across, down] = lying ? [row, column] : [column, row];
    return svg("circle", {
      class: "pip",
      cx: x + HALF * (0.25 + across * 0.25),
      cy: y + HALF * (0.25 + down * 0.25),
      r: PIP,
    });
  });
}

/**
 * A tile in a rectangle of the picture's units, `first` on the top or left half.
 * @param {{x: number, y: number, w: number, h: number}} box
 * @param {number} first
 * @param {number} second
 * @returns {SVGElement} a <g class="tile">
 */
export function tileShape(box, first, second) {
  const { x, y, w, h } = box;
  const lying = w > h;
  const [x2, y2] = lying ? [x + w / 2, y] : [x, y + h / 2];
  const divider = lying
    ? svg("line", { class: "divider", x1: x2, y1: y + 4, x2, y2: y + h - 4 })
    : svg("line", { class: "divider", x1: x + 4, y1: y2, x2: x + w - 4, y2 });
  return svg(
    "g",
    { class: "tile" },
    svg("rect", { class: "face", x: x + 0.75, y: y + 0.75, width: w - 1.5, height: h - 1.5, rx: 4 }),
    divider,
    ...pips(first, x, y, lying),
    ...pips(second, x2, y2, lying),
  );
}

/**
 * A lone tile as its own picture (the hand, the revealed hands), `a` on top, or on the
 * left when it lies down. It is decoration: its name is said in text beside it.
 * @param {number} a
 * @param {number} b
 * @param {{lying?: boolean, className?: string}} [options]
 */
export function tilePicture(a, b, { lying = false, className = "domino" } = {}) {
  const [w, h] = lying ? [2 * HALF, HALF] : [HALF, 2 * HALF];
  return svg(
    "svg",
    { class: className, viewBox: `0 0 ${w} ${h}`, "aria-hidden": "true", focusable: "false" },
    tileShape({ x: 0, y: 0, w, h }, a, b),
  );
}

/**
 * A tile's two values from its name ("6-5" → [6, 5]).
 * @param {string} name
 * @returns {[number, number]}
 */
export function values(name) {
  const [a, b] = name.split("-").map(Number);
  return [a, b];
}
