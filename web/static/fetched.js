/**
 * The pages the server answers over plain HTTP, worded in the page's language: a game's
 * rules and the local server's leaderboards. Both are drawn generically from what comes
 * (headings and text; titled tables of rows), so a new section or board needs no change
 * here.
 */

import { el } from "./dom.js";
import { lang, marked, word } from "./text.js";

/**
 * GET a JSON answer in the page's language: `{data}`, or `{refused}` with the server's
 * worded reason (`{"refused": text}`, as for a game it does not know), or the page's
 * own words when the answer cannot be had at all.
 * @param {string} path
 * @returns {Promise<{data: any} | {refused: string}>}
 */
export async function load(path) {
  const separator = path.includes("?") ? "&" : "?";
  try {
    const address = `${path}${separator}lang=${encodeURIComponent(lang())}`;
    const answer = await fetch(address, { credentials: "same-origin" });
    const body = await answer.json();
    if (answer.ok) return { data: body };
    if (typeof body?.refused === "string") return { refused: body.refused };
  } catch {
    // Not reached, or not JSON: said below in the page's own words.
  }
  return { refused: word("load_failed") };
}

/**
 * What shows while a page loads.
 * @param {"loading"|"not_found"} key
 */
export function placeholder(key) {
  const role = key === "loading" ? false : "alert";
  return el("section", { class: "page" }, el("p", { role, text: word(key) }));
}

/**
 * Why a page could not be shown, as the server worded it: an alert, unless the page
 * says it in its live region (inside Discord, politely, with the wait before it).
 * @param {string} text
 * @param {boolean} [alert]
 */
export function failed(text, alert = true) {
  return el("section", { class: "page" }, el("p", { role: alert && "alert" }, marked(text)));
}

/**
 * A game's rules: `{title, sections: [{heading, text}]}`.
 * @param {any} rules
 * @param {Node} links the other games' rules
 */
export function rulesView(rules, links) {
  return el(
    "article",
    { class: "page rules" },
    el("h1", {}, marked(rules.title)),
    ...rules.sections.map((/** @type {any} */ section) =>
      el(
        "section",
        {},
        section.heading ? el("h2", {}, marked(section.heading)) : null,
        ...paragraphs(section.text),
      ),
    ),
    links,
  );
}

/**
 * Text with blank lines between paragraphs.
 * @param {string} text
 */
function paragraphs(text) {
  return text
    .split(/\n\s*\n/)
    .filter((part) => part.trim())
    .map((part) => el("p", {}, marked(part)));
}

/**
 * The leaderboards and stats: `{title, boards: [{heading, columns, rows}]}`.
 * @param {any} boards
 */
export function boardsView(boards) {
  return el(
    "section",
    { class: "page boards" },
    el("h1", {}, marked(boards.title)),
    boards.stats ? stats(boards.stats) : null,
    ...(boards.boards.length ? boards.boards.map(board) : [el("p", { text: word("nothing") })]),
  );
}

/**
 * The reader's own totals here, a game each (the server words them as Discord's stats).
 * @param {{title: string, fields: {name: string, value: string}[]}} card
 */
function stats(card) {
  return el(
    "section",
    { class: "card stats" },
    el("h2", {}, marked(card.title)),
    ...card.fields.map((field) => el("div", {}, el("h3", {}, marked(field.name)), el("p", {}, marked(field.value)))),
  );
}

/**
 * One board under its heading (its title and order), as a table (it scrolls sideways on a narrow screen rather
 * than squeeze), with its note when nobody is on it yet and where the reader stands when
 * off its page. A board with nobody on it has no table: a table of headers alone is read
 * out as an empty grid.
 * @param {{heading: string, columns: string[], rows: unknown[][], note?: string, you?: string}} board
 * @param {number} index
 */
function board(board, index) {
  const id = `board-${index}`;
  const head = el("tr", {}, ...board.columns.map((c) => el("th", { scope: "col" }, marked(String(c)))));
  const cells = (/** @type {unknown[]} */ row) => row.map((cell) => el("td", {}, marked(String(cell ?? ""))));
  const rows = board.rows.map((row) => el("tr", {}, ...cells(row)));
  return el(
    "section",
    { class: "board", "aria-labelledby": id },
    el("h2", { id }, marked(board.heading)),
    rows.length
      ? el("table", { "aria-labelledby": id }, el("thead", {}, head), el("tbody", {}, ...rows))
      : null,
    board.note ? el("p", { class: "help" }, marked(board.note)) : null,
    board.you ? el("p", {}, marked(board.you)) : null,
    !rows.length && !board.note ? el("p", { class: "help", text: word("nothing") }) : null,
  );
}
