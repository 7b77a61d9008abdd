/**
 * The reader's own hand: each tile a button. A tile that fits one end plays on a click
 * (or Enter); one that fits several is picked, and its ends light up on the felt to be
 * chosen; a tile can also be dragged onto a lit end, with a mouse, a pen or a finger.
 * Arrow keys move between the tiles (one tab stop for the whole hand).
 */

import { el } from "./dom.js";
import { list, word } from "./text.js";
import { tilePicture } from "./tiles.js";

/** How far a pointer must move before a press becomes a drag (CSS pixels). */
const DRAG_START = 8;
/** How near a lit end a tile must be let go to land there, at the least. */
const DROP_REACH = 48;

/**
 * @typedef {{move: string, end: string|null}} Move
 * @typedef {{tile: string, a: number, b: number, moves: Move[]}} HandTile
 * @typedef {object} HandActions
 * @property {(tile: HandTile, byKeyboard: boolean) => void} press a tile was clicked or Entered
 * @property {(tile: HandTile) => void} pick pick a tile (a drag began)
 * @property {(move: Move) => void} play
 */

/**
 * The hand's section.
 * @param {HandTile[]} hand
 * @param {object} options
 * @param {boolean} options.yourTurn
 * @param {string|null} options.selected the picked tile's name
 * @param {Record<string, string>} options.letters each end's letter, by its engine name
 * @param {HandActions} options.actions
 */
export function handView(hand, { yourTurn, selected, letters, actions }) {
  const tiles = hand.map((entry) => tileButton(entry, { yourTurn, selected, letters, actions }));
  const focusable = tiles.find((b) => b.dataset.tile === selected) ?? tiles[0];
  if (focusable) focusable.tabIndex = 0;
  const row = el(
    "div",
    { class: "tiles", role: "group", "aria-labelledby": "hand-heading", "aria-describedby": "hand-help" },
    ...tiles,
  );
  row.addEventListener("keydown", (event) => arrows(event, tiles));
  const picked = hand.find((entry) => entry.tile === selected);
  return el(
    "section",
    { class: "hand", "aria-labelledby": "hand-heading" },
    el("h2", { id: "hand-heading", text: word("hand") }),
    row,
    picked ? el("p", { class: "choose", text: word("choose_end", { tile: picked.tile }) }) : null,
    el("p", { id: "hand-help", class: "help", text: word("hand_help") }),
  );
}

/**
 * One tile of the hand.
 * @param {HandTile} entry
 * @param {object} options as for {@link handView}
 * @param {boolean} options.yourTurn
 * @param {string|null} options.selected
 * @param {Record<string, string>} options.letters
 * @param {HandActions} options.actions
 */
function tileButton(entry, { yourTurn, selected, letters, actions }) {
  const fits = entry.moves.length > 0;
  const ends = entry.moves.map((m) => (m.end ? letters[m.end] ?? m.end : "")).filter(Boolean);
  let name = entry.tile;
  if (yourTurn && !fits) name = word("fits_not", { tile: entry.tile });
  else if (fits && ends.length) name = word("fits", { tile: entry.tile, ends: list(ends, "disjunction") });
  else if (fits) name = word("fits_lead", { tile: entry.tile }); // a lead: no end yet
  const button = el(
    "button",
    {
      type: "button",
      class: yourTurn && !fits ? "tile-button dead" : "tile-button",
      dataset: { tile: entry.tile },
      tabindex: "-1",
      "aria-label": name,
      "aria-pressed": entry.tile === selected ? "true" : "false",
      "aria-disabled": yourTurn && !fits ? "true" : false,
    },
    tilePicture(entry.a, entry.b),
  );
  // The click a browser sends when a drag is let go over its tile is not a press.
  const drag = { ended: false };
  button.addEventListener("click", (event) => {
    if (drag.ended && event.detail > 0) {
      drag.ended = false;
      return;
    }
    if (fits) actions.press(entry, event.detail === 0);
  });
  if (fits) draggable(button, entry, actions, drag);
  return button;
}

/**
 * Arrow keys, Home and End move the focus along the hand, which keeps one tab stop.
 * @param {KeyboardEvent} event
 * @param {HTMLElement[]} tiles
 */
function arrows(event, tiles) {
  const at = tiles.indexOf(/** @type {HTMLElement} */ (event.target));
  if (at < 0) return;
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  let next = at;
  if (step) next = (at + step + tiles.length) % tiles.length;
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = tiles.length - 1;
  else return;
  event.preventDefault();
  tiles[at].tabIndex = -1;
  tiles[next].tabIndex = 0;
  tiles[next].focus();
}

/**
 * Let a tile be dragged onto a lit end. Pointer events serve mouse, pen and touch
 * alike; the tile is picked when the drag begins, so its ends light up, and a copy of
 * it follows the pointer. Let go near a lit end, it plays there; elsewhere, it stays
 * picked (a click on an end still plays it). A round's first tile plays wherever on
 * the felt it is let go.
 * @param {HTMLElement} button
 * @param {HandTile} entry
 * @param {HandActions} actions
 * @param {{ended: boolean}} drag set when a drag ends, so its click is let pass
 */
function draggable(button, entry, actions, drag) {
  // The first tile of a round goes on the empty felt: it names no end, and lands anywhere.
  const lead = entry.moves.length === 1 && !entry.moves[0].end ? entry.moves[0] : null;
  button.addEventListener("pointerdown", (down) => {
    drag.ended = false;
    if (down.button !== 0) return;
    const origin = { x: down.clientX, y: down.clientY };
    /** @type {HTMLElement|null} */
    let ghost = null;
    /** @type {Element|null} */
    let target = null;
    button.setPointerCapture(down.pointerId);

    /** @param {PointerEvent} event */
    const moved = (event) => {
      if (!ghost) {
        if (Math.hypot(event.clientX - origin.x, event.clientY - origin.y) < DRAG_START) return;
        if (!lead) actions.pick(entry);
        ghost = lifted(button);
      }
      ghost.style.transform = `translate(${event.clientX}px, ${event.clientY}px) translate(-50%, -50%)`;
      target?.classList.remove("hover");
      target = nearestEnd(event.clientX, event.clientY);
      target?.classList.add("hover");
    };
    const finished = () => {
      button.removeEventListener("pointermove", moved);
      button.removeEventListener("pointerup", dropped);
      button.removeEventListener("pointercancel", finished);
      ghost?.remove();
      target?.classList.remove("hover");
      drag.ended = ghost !== null;
    };
    /** @param {PointerEvent} event */
    const dropped = (event) => {
      const wasDrag = ghost !== null;
      finished();
      if (!wasDrag) return;
      if (lead) {
        const onFelt = document.elementFromPoint(event.clientX, event.clientY)?.closest(".felt");
        if (onFelt) actions.play(lead);
        return;
      }
      const end = nearestEnd(event.clientX, event.clientY);
      const move = entry.moves.find((m) => m.end === end?.getAttribute("data-end"));
      if (move) actions.play(move);
    };
    button.addEventListener("pointermove", moved);
    button.addEventListener("pointerup", dropped);
    button.addEventListener("pointercancel", finished);
  });
}

/**
 * The copy of a tile that follows the pointer.
 * @param {HTMLElement} button
 */
function lifted(button) {
  const rect = button.getBoundingClientRect();
  const copy = el("div", { class: "ghost", "aria-hidden": "true" });
  copy.style.width = `${rect.width}px`;
  copy.style.height = `${rect.height}px`;
  const picture = button.querySelector("svg");
  if (picture) copy.appendChild(picture.cloneNode(true));
  document.body.appendChild(copy);
  return copy;
}

/**
 * The lit end nearest a point, if the point is within reach of it (a label is small on
 * a phone, so the reach is at least a fingertip's).
 * @param {number} x
 * @param {number} y
 */
function nearestEnd(x, y) {
  let best = null;
  let bestDistance = Infinity;
  for (const end of document.querySelectorAll('.ends [data-playable="true"]')) {
    const rect = end.getBoundingClientRect();
    const distance = Math.hypot(x - (rect.left + rect.width / 2), y - (rect.top + rect.height / 2));
    const reach = Math.max(DROP_REACH, rect.width);
    if (distance <= reach && distance < bestDistance) [best, bestDistance] = [end, distance];
  }
  return best;
}
