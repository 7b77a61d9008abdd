/**
 * The lobby: the open tables, each a link to watch or join it, and the form that opens
 * a table with every option `/domino new` has, shown only where the game allows it
 * (the server's `hello.games` says which apply).
 */

import { el } from "./dom.js";
import { list, word } from "./text.js";

/**
 * @typedef {{game: string, title: string, players: number[], target: number,
 *   targets: number[]|null, teams: boolean, keep_last_two: boolean,
 *   match_games: boolean}} Game
 * @typedef {{id: string, title: string, status: string, seats: string[], max: number}} Listed
 */

/** The most games a match may ask a side to win, as `/domino new` allows. */
const MOST_MATCH_GAMES = 9;
/** Any target from 1 to this, for a game that names no list of targets. */
const HIGHEST_TARGET = 1000;
/** A game's targets are offered as suggestions only when they are this few. */
const MOST_SUGGESTED = 12;

/**
 * The list of open tables (null until the server has sent it).
 * @param {Listed[]|null} tables
 */
export function tablesView(tables) {
  // Each link is described by the rest of its row: listed by links alone, as screen
  // readers list them, the tables would all be the game's name ("Cross, Cross").
  const items = (tables ?? []).map((table) => {
    const row = `table-${table.id}`;
    return el(
      "li",
      {},
      el("a", {
        href: `/t/${encodeURIComponent(table.id)}`,
        "data-nav": true,
        text: table.title,
        "aria-describedby": `${row}-state ${row}-names ${row}-count`,
      }),
      el("span", { id: `${row}-state`, class: "tag", text: word(`state_${table.status}`) }),
      el("span", { id: `${row}-names`, class: "names", text: table.seats.join(", ") }),
      el("span", {
        id: `${row}-count`,
        class: "count",
        text: word("seats_taken", { seated: table.seats.length, max: table.max }),
      }),
    );
  });
  return el(
    "section",
    { class: "open-tables", "aria-labelledby": "tables-heading" },
    el("h2", { id: "tables-heading", text: word("tables_heading") }),
    tables === null
      ? el("p", { text: word("loading") })
      : items.length
        ? el("ul", { class: "tables" }, ...items)
        : el("p", { text: word("no_tables") }),
  );
}

/**
 * The form that opens a table.
 * @param {Game[]} games
 * @param {(message: object) => boolean} send
 */
export function openForm(games, send) {
  const options = games.map((g) => el("option", { value: g.game, text: g.title }));
  const game = el("select", { id: "open-game", name: "game" }, ...options);
  const players = el("p", { class: "help" });
  const target = el("input", {
    id: "open-target",
    name: "target",
    type: "number",
    inputmode: "numeric",
    list: "open-targets",
    required: true,
    "aria-describedby": "open-target-help",
  });
  const targets = el("datalist", { id: "open-targets" });
  const keep = el("input", {
    id: "open-keep",
    name: "keep_last_two",
    type: "checkbox",
    "aria-describedby": "open-keep-help",
  });
  const match = el("input", {
    id: "open-match",
    name: "match_games",
    type: "number",
    inputmode: "numeric",
    min: "1",
    max: String(MOST_MATCH_GAMES),
    "aria-describedby": "open-match-help",
  });
  const hints = el("input", {
    id: "open-hints",
    name: "hints",
    type: "checkbox",
    "aria-describedby": "open-hints-help",
  });
  const keepRow = checkRow(keep, "keep_last_two", "open-keep-help");
  const matchRow = el(
    "div",
    { class: "field" },
    el("label", { for: "open-match", text: word("match_games") }),
    match,
    el("p", { id: "open-match-help", class: "help", text: word("match_games_help") }),
  );
  const form = el(
    "form",
    { id: "open", class: "open-form", "aria-labelledby": "open-heading" },
    el("h2", { id: "open-heading", text: word("open_heading") }),
    el("div", { class: "field" }, el("label", { for: "open-game", text: word("game") }), game, players),
    el(
      "div",
      { class: "field" },
      el("label", { for: "open-target", text: word("target") }),
      target,
      targets,
      el("p", { id: "open-target-help", class: "help", text: word("target_help") }),
    ),
    keepRow,
    matchRow,
    checkRow(hints, "hints", "open-hints-help"),
    el("button", { type: "submit", text: word("open_submit") }),
  );

  /** Fit the options to the chosen game: its targets, and the options that apply. */
  const chosen = () => {
    const key = /** @type {HTMLSelectElement} */ (game).value;
    return games.find((g) => g.game === key) ?? games[0];
  };
  const fit = () => {
    const g = chosen();
    if (!g) return;
    const allowed = g.targets ?? [];
    const input = /** @type {HTMLInputElement} */ (target);
    input.min = String(allowed.length ? Math.min(...allowed) : 1);
    input.max = String(allowed.length ? Math.max(...allowed) : HIGHEST_TARGET);
    input.value = String(g.target);
    input.readOnly = allowed.length === 1;
    const suggested = allowed.length <= MOST_SUGGESTED ? allowed : [];
    targets.replaceChildren(...suggested.map((t) => el("option", { value: String(t) })));
    players.textContent = word("players", { counts: list(g.players.map(String), "disjunction") });
    keepRow.hidden = !g.keep_last_two;
    /** @type {HTMLInputElement} */ (keep).disabled = !g.keep_last_two;
    matchRow.hidden = !g.match_games;
    /** @type {HTMLInputElement} */ (match).disabled = !g.match_games;
  };
  game.addEventListener("change", fit);
  fit();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const g = chosen();
    const matchGames = /** @type {HTMLInputElement} */ (match).value;
    send({
      type: "open",
      game: g.game,
      target: Number(/** @type {HTMLInputElement} */ (target).value),
      keep_last_two: g.keep_last_two && /** @type {HTMLInputElement} */ (keep).checked,
      match_games: g.match_games && matchGames ? Number(matchGames) : null,
      hints: /** @type {HTMLInputElement} */ (hints).checked,
    });
  });
  return form;
}

/**
 * A checkbox with its label and the sentence that explains it.
 * @param {HTMLElement} box
 * @param {string} key the label's key; its explanation is `<key>_help`
 * @param {string} helpId
 */
function checkRow(box, key, helpId) {
  return el(
    "div",
    { class: "field check" },
    box,
    el("label", { for: box.id, text: word(key) }),
    el("p", { id: helpId, class: "help", text: word(`${key}_help`) }),
  );
}

/**
 * Links to every game's rules.
 * @param {Game[]} games
 */
export function rulesLinks(games) {
  return el(
    "section",
    { class: "rules-links", "aria-labelledby": "rules-heading" },
    el("h2", { id: "rules-heading", text: word("rules") }),
    el(
      "ul",
      {},
      ...games.map((g) => {
        const href = `/rules/${encodeURIComponent(g.game)}`;
        return el("li", {}, el("a", { href, "data-nav": true, text: word("rules_of", { game: g.title }) }));
      }),
    ),
  );
}
