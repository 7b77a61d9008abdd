/**
 * The page's conductor: reads the address, keeps the socket, and hands each message to
 * the view it belongs to. The paths are the server's (`/`, `/t/<table>`, `/replay/<game>`,
 * `/rules/<game>`, `/boards`), all served the same page; moving between them is done
 * here with the History API, so the socket stays open.
 */

import { activity, Refused, signIn } from "./activity.js";
import { el, replace } from "./dom.js";
import { boardsView, failed, load, placeholder, rulesView } from "./fetched.js";
import { guestForm } from "./guest.js";
import { openForm, rulesLinks, tablesView } from "./lobby.js";
import { ReplayView } from "./replay.js";
import { Connection } from "./socket.js";
import { TableView } from "./table.js";
import { marked, plain, speak, word } from "./text.js";

const LANGUAGE_KEY = "domino-lang";

/**
 * @typedef {{page: "lobby"} | {page: "table", id: string} | {page: "replay", id: string}
 *   | {page: "rules", game: string} | {page: "boards"} | {page: "missing"}} Route
 */

const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const live = /** @type {HTMLElement} */ (document.getElementById("live"));
const notices = /** @type {HTMLElement} */ (document.getElementById("notices"));
const link = /** @type {HTMLElement} */ (document.getElementById("link"));

const state = {
  /** @type {any} the last `hello`: who the reader is, the words, games and levels */
  hello: null,
  /** @type {any[]|null} */
  tables: null,
  /** @type {any} the table the page shows, as last sent */
  table: null,
  // Inside Discord the page shows its channel's table, whatever its address.
  route: activity ? /** @type {Route} */ ({ page: "table", id: "" }) : parse(location.pathname),
  /** A socket just opened: its first `hello` is yet to come. */
  ungreeted: false,
  /** @type {string|null} the table asked for, until its first frame comes */
  awaited: null,
  /**
   * @type {(() => string)|null} inside Discord, why the page cannot show the channel's
   * table (no Activity set up, a refusal), until a table comes: kept, so that a redraw
   * (a later `hello`) says it again instead of showing the page as still loading
   */
  failure: null,
  /**
   * Inside Discord, what the live region said last of signing in: "loading" while the
   * page waits, "ready" once the table came, or the failure's words; so a page drawn
   * anew (a later `hello`, a second handler of one sign-in) says none of it twice.
   * @type {string|null}
   */
  told: null,
  /**
   * Inside Discord: the sign-in was sent and neither a table nor a refusal has answered
   * it yet. A refusal then is the sign-in's, said in the table's place even over a table
   * shown before: after a reconnect whose sign-in Discord no longer confirms, the page
   * follows that table no more, and must not go on showing it as if it did.
   */
  signingIn: false,
  /**
   * @type {""|"lost"|"back"} what the connection's status line says: nothing, that the
   * connection was lost (while the page tries again), or that it is back (until the
   * table or the list of tables moves on, or the reader goes to another page)
   */
  link: "",
  /** @type {HTMLElement|null} the lobby's list, redrawn alone so the form keeps what is typed */
  tablesSlot: null,
  /** Which page a load belongs to: an answer for a page left since is dropped. */
  loads: 0,
  /**
   * @type {HTMLElement|null} the name form while the reader has no name: one per
   * greeting, put back in place at each redraw (a move at the table they watch), so
   * what they are typing stays
   */
  nameForm: null,
  /** The game whose replay the page shows, until the reader goes to another page. */
  replayed: /** @type {string|null} */ (null),
};

const connection = new Connection({
  message: received,
  open: () => {
    state.ungreeted = true;
  },
  status: (up) => {
    if (!up) linked("lost");
    else if (state.link === "lost") linked("back");
  },
});

const table = new TableView({
  send: (message) => connection.send(message),
  levels: () => state.hello?.levels ?? [],
  notify,
  guest: nameForm,
  shareable: !activity,
  replayable: !activity,
});

const replay = new ReplayView(announce);

/**
 * The page a path shows.
 * @param {string} path
 * @returns {Route}
 */
function parse(path) {
  let parts;
  try {
    parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return { page: "missing" }; // a malformed escape in the address
  }
  // Inside Discord the page's root is the channel's table (the local lobby is not the
  // Activity's): the page's name leads back to it, from a game's rules or a replay.
  if (parts.length === 0) return activity ? { page: "table", id: "" } : { page: "lobby" };
  if (parts.length === 2 && parts[0] === "t") return { page: "table", id: parts[1] };
  if (parts.length === 2 && parts[0] === "replay") return { page: "replay", id: parts[1] };
  if (parts.length === 2 && parts[0] === "rules") return { page: "rules", game: parts[1] };
  if (parts.length === 1 && parts[0] === "boards") return { page: "boards" };
  return { page: "missing" };
}

/**
 * Go to a path of the page without loading it again.
 * @param {string} path
 */
function navigate(path) {
  if (path !== location.pathname) history.pushState(null, "", path);
  routed();
}

function routed() {
  if (state.link === "back") linked("");
  state.route = parse(location.pathname);
  state.table = null;
  state.replayed = null;
  notices.replaceChildren();
  follow();
  render();
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

/**
 * Tell the server what the page shows: the lobby's list, or one table; inside Discord,
 * the member's token and Activity (once signed in), which name the channel's table.
 */
function follow() {
  if (activity) {
    const signIn = { type: "activity", token: activity.token, instance: activity.instance };
    if (activity.token && connection.send(signIn)) state.signingIn = true;
    return;
  }
  const route = state.route;
  if (route.page === "lobby") connection.send({ type: "lobby" });
  if (route.page === "table" && connection.send({ type: "watch", table: route.id })) state.awaited = route.id;
}

/**
 * A message from the server.
 * @param {any} message
 */
function received(message) {
  switch (message.type) {
    case "hello":
      return greeted(message);
    case "tables": {
      // The list moved on since the connection came back: nothing more to say of it.
      if (state.link === "back" && JSON.stringify(message.tables) !== JSON.stringify(state.tables)) linked("");
      state.tables = message.tables;
      return relisted();
    }
    case "table":
      return tableCame(message);
    case "opened":
      return navigate(`/t/${encodeURIComponent(message.table)}`);
    case "refused":
      table.answered();
      if (activity && (state.signingIn || !state.table)) {
        state.signingIn = false;
        state.table = null;
        return fail(() => message.text);
      }
      if (state.route.page === "table" && state.awaited !== null && !state.table) {
        // The table asked for is not there (closed, or forgotten since): say so in its place.
        state.awaited = null;
        return replace(main, failed(message.text));
      }
      return notify(message.text, "alert");
    case "hint":
      table.answered();
      return notify(message.text, "status");
  }
}

/**
 * Draw the lobby's list of tables anew (a table opened, joined, started or closed), the
 * focus kept on the table's link it was on; if that table is gone, on the page's main
 * part, never on the page's top.
 */
function relisted() {
  const slot = state.tablesSlot;
  if (!slot?.isConnected) return;
  const active = document.activeElement;
  const inside = active !== null && slot.contains(active);
  const href = inside ? active.getAttribute("href") : null;
  slot.replaceChildren(tablesView(state.tables));
  if (!inside) return;
  const same = [...slot.querySelectorAll("a[href]")].find((a) => a.getAttribute("href") === href);
  (same instanceof HTMLElement ? same : main).focus({ preventScroll: true });
}

/**
 * Who the reader is and the words of their language. The first `hello` of a socket
 * (the server chose its language from the browser's) is answered by asking for the
 * language remembered from an earlier visit, if it differs, and only then for what the
 * page shows: so the server sends it in that language, and the page is not drawn in
 * another first. After a change of language the server sends again what the page
 * follows, in that language.
 * @param {any} hello
 */
function greeted(hello) {
  if (activity && !activity.token) enterDiscord(hello);
  if (state.ungreeted) {
    state.ungreeted = false;
    const remembered = rememberedLanguage();
    const offered = hello.languages.some((/** @type {any} */ l) => l.code === remembered);
    const asked = remembered !== hello.lang && offered && connection.send({ type: "lang", lang: remembered });
    follow();
    if (asked) return;
  }
  state.hello = hello;
  state.nameForm = null; // a name taken or a language changed: drawn anew
  speak(hello.words, hello.lang);
  document.documentElement.lang = hello.lang;
  // The page is drawn anew (a name taken, a language changed): focus in it stays in it,
  // and on a link of the top bar, drawn anew too, it stays on that link.
  const focused = main.contains(document.activeElement);
  const bar = document.activeElement?.closest("nav a")?.getAttribute("href") ?? null;
  header();
  render();
  if (focused && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  const again = bar === null ? null : document.querySelector(`nav a[href="${CSS.escape(bar)}"]`);
  if (again instanceof HTMLElement) again.focus({ preventScroll: true });
}

/** The name form, while the reader has none (see `state.nameForm`). */
function nameForm() {
  if (state.hello?.you) return null;
  state.nameForm ??= guestForm(notify, () => connection.renew());
  return state.nameForm;
}

/**
 * Inside Discord: sign in through Discord's client (once per page), then follow the
 * channel's table. A server without the Activity set up, or a refusal, is said in the
 * page's place; a sign-in that failed otherwise (the bot not reached, Discord's client
 * refusing) in the page's own words, not the error's, which are not the reader's language.
 * @param {any} hello
 */
function enterDiscord(hello) {
  if (!hello.activity) {
    fail(() => word("no_activity"));
    return;
  }
  signIn(hello.activity).then(follow, (/** @type {unknown} */ error) =>
    fail(() => (error instanceof Refused ? error.message : word("sign_in_failed"))),
  );
}

/**
 * Inside Discord: say in the table's place why it cannot be shown (see `state.failure`).
 * @param {() => string} why
 */
function fail(why) {
  state.failure = why;
  replace(main, failed(why(), false));
  tell(why(), why());
}

/**
 * Inside Discord: say politely, in the live region there from the start, where signing
 * in stands (waiting, ready, failed), once each: the page's place shows it too, but a
 * screen reader is not told of a part of the page drawn anew.
 * @param {string} key what is said: "loading", "ready", or a failure's words
 * @param {...string} texts
 */
function tell(key, ...texts) {
  if (state.told === key) return;
  state.told = key;
  announce(...texts);
}

/** The header: the page's name, its links, who the reader is, and the language. */
function header() {
  const hello = state.hello;
  replace(/** @type {HTMLElement} */ (document.getElementById("skip")), word("skip"));
  replace(/** @type {HTMLElement} */ (document.getElementById("brand")), word("title"));
  const nav = /** @type {HTMLElement} */ (document.getElementById("nav"));
  nav.setAttribute("aria-label", word("nav"));
  nav.hidden = Boolean(activity); // no links to list there: an empty landmark is noise
  replace(
    nav,
    // Inside Discord the page is one channel's table: the local lobby and boards are not its.
    activity ? null : el("a", { href: "/", "data-nav": true, text: word("tables") }),
    activity ? null : el("a", { href: "/boards", "data-nav": true, text: word("boards") }),
  );
  replace(
    /** @type {HTMLElement} */ (document.getElementById("who")),
    hello.you ? word("playing_as", { name: hello.you.name }) : "",
  );
  replace(/** @type {HTMLElement} */ (document.getElementById("lang-label")), word("language"));
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("lang"));
  replace(select, ...hello.languages.map((/** @type {any} */ l) => el("option", { value: l.code, text: l.name })));
  select.value = hello.lang;
  linked(state.link); // in the language of the moment
}

/**
 * Say how the connection stands in its status line, a status region there from the
 * start (screen readers say what changes in it), and only when that changes: the page
 * trying again and again says it lost the connection once.
 * @param {""|"lost"|"back"} how
 */
function linked(how) {
  state.link = how;
  // Before the first greeting the page has no words yet: it says nothing.
  const text = !state.hello ? "" : { "": "", lost: word("reconnecting"), back: word("reconnected") }[how];
  if (link.textContent !== text) link.textContent = text;
}

/** Draw the page the address names (nothing before the first `hello`: no words yet). */
function render() {
  if (!state.hello) return;
  const route = state.route;
  const hello = state.hello;
  document.title = word("title");
  state.tablesSlot = null;
  state.loads += 1; // a page still loading for an earlier address is not drawn
  switch (route.page) {
    case "lobby": {
      state.tablesSlot = el("div", {}, tablesView(state.tables));
      replace(
        main,
        el(
          "div",
          { class: "lobby" },
          el("h1", { class: "visually-hidden", text: word("title") }),
          nameForm(),
          state.tablesSlot,
          hello.you ? openForm(hello.games, (message) => connection.send(message)) : null,
          rulesLinks(hello.games),
        ),
      );
      return;
    }
    case "table":
      if (state.table) {
        showTable(state.table, false);
        titled(state.table.title);
      } else if (state.failure) replace(main, failed(state.failure(), false));
      else {
        replace(main, placeholder("loading"));
        if (activity && state.told === null) tell("loading", word("loading"));
      }
      return;
    case "replay":
      return fetched(`/api/games/${encodeURIComponent(route.id)}`, (data) => {
        // Drawn again on the same page (another language): at the step the reader is on.
        replay.show(main, data, state.replayed === route.id ? replay.step : 0);
        state.replayed = route.id;
        titled(data.title);
      });
    case "rules": {
      const others = rulesLinks(hello.games);
      return fetched(`/api/rules/${encodeURIComponent(route.game)}`, (data) => {
        replace(main, rulesView(data, others));
        titled(data.title);
      });
    }
    case "boards":
      return fetched("/api/boards", (data) => {
        replace(main, boardsView(data));
        titled(data.title);
      });
    default:
      replace(main, placeholder("not_found"));
      titled(word("not_found"));
  }
}

/**
 * Load a page's data, and draw it if the reader is still on that page.
 * @param {string} path
 * @param {(data: any) => void} draw
 */
async function fetched(path, draw) {
  const ticket = ++state.loads;
  replace(main, placeholder("loading"));
  const answer = await load(path);
  if (ticket !== state.loads) return;
  if ("data" in answer) draw(answer.data);
  else replace(main, failed(answer.refused));
}

/**
 * A `table` frame: the whole table. A newer version is said aloud once: what happened
 * (its lines), the winner when the game is over, and "Your turn" when it has become the
 * reader's. The layout in words is not said again with each move: it repeats the move
 * just said ("Last played: …") and every arm, so a screen reader would fall further
 * behind the game at each move; it stays the picture's name, to be read when wanted.
 * Its last tile arrives. A frame of another table than the address names is the rematch
 * opened at the same place (the server follows the place, not the table): the address
 * becomes the new table's, unless the page has just asked for a table and this frame is
 * an older one's, still on its way.
 * @param {any} frame
 */
function tableCame(frame) {
  const route = state.route;
  if (route.page !== "table") return;
  if (state.awaited !== null && state.awaited !== frame.id) return;
  state.signingIn = false;
  state.awaited = null;
  state.failure = null;
  if (route.id !== frame.id) {
    // Inside Discord the address keeps Discord's query (the instance), not the table's path.
    if (!activity) history.replaceState(null, "", `/t/${encodeURIComponent(frame.id)}`);
    state.route = { page: "table", id: frame.id };
  }
  const before = state.table;
  const fresh = !before || before.id !== frame.id || before.version !== frame.version;
  state.table = frame;
  showTable(frame, fresh && before !== null);
  if (fresh && before !== null && state.link === "back") linked(""); // the table moved on
  if (fresh) {
    // The game's end is said with its winner (the card's title), not only the last move;
    // a rematch opened at the same place with its own card ("Cross — table open").
    const over = frame.status === "finished" && before?.status !== "finished";
    const again = before !== null && before.id !== frame.id && frame.status === "lobby";
    const yours = frame.status === "playing" && frame.you !== null && frame.turn === frame.you;
    const said = [
      ...frame.lines,
      over || again ? frame.card?.title : "",
      yours ? word("your_turn") : "",
    ];
    // Inside Discord the first table ends the wait for signing in: that is said with it.
    if (activity && !before && state.told !== "ready") {
      tell("ready", word("table_ready", { game: frame.title }), ...said);
    } else announce(...said);
  } else if (frame.lines.length > 0) {
    // The table as it was, with a line of its own: a member's time running out.
    announce(...frame.lines);
  }
  titled(frame.title); // in the language of the moment, a frame sent again after a change
}

/**
 * Name the browser's tab (and window) for what the page shows, as its heading does: a
 * screen reader says it on arriving, and a list of tabs tells them apart.
 * @param {string} heading the page's heading (marked text)
 */
function titled(heading) {
  document.title = `${plain(heading)} · ${word("title")}`;
}

/**
 * Redraw the table, the focus kept on the control it was on (or the hand, if that
 * control is gone: a played tile, a button no longer allowed).
 * @param {any} frame
 * @param {boolean} fresh
 */
function showTable(frame, fresh) {
  const focused = focusKey();
  table.show(main, frame, fresh);
  if (focused) refocus(focused);
}

/** A selector for the focused control, by the hooks that stay from frame to frame. */
function focusKey() {
  const active = document.activeElement;
  if (!active || active === main || !main.contains(active)) return null;
  for (const name of ["data-tile", "data-action", "data-level", "data-end", "id", "href"]) {
    const value = active.getAttribute(name);
    if (value) return `[${name}="${CSS.escape(value)}"]`;
  }
  return null;
}

/**
 * Put the focus back on the control it was on; if that control is gone (a played tile,
 * Start, Draw or Pass once pressed), on the hand; at the game's end, when the hand has
 * gone, on Play again, what a player does next; in the lobby Play again opened, on
 * Start, for whoever may start it; else on the page's main part: never on
 * the page's top, where a keyboard's user would have to find their way back. A control
 * can stay in the page yet take no focus any more: an end a tile was played on is still
 * drawn, but no longer a button; so the focus is checked to have landed.
 * @param {string} selector
 */
function refocus(selector) {
  const instead = ["button[data-tile]", '#ended button[data-action="rematch"]', 'button[data-action="start"]'];
  for (const target of [selector, ...instead].map((s) => main.querySelector(s))) {
    if (!(target instanceof HTMLElement || target instanceof SVGElement)) continue;
    if (target.matches("button[data-tile]")) {
      for (const tile of main.querySelectorAll("button[data-tile]")) tile.setAttribute("tabindex", tile === target ? "0" : "-1");
    }
    target.focus({ preventScroll: true });
    if (document.activeElement === target) return;
  }
  main.focus({ preventScroll: true });
}

/**
 * Say something to screen readers (the live region is polite: it waits its turn).
 * @param {...string} texts
 */
function announce(...texts) {
  replace(live, ...texts.filter(Boolean).map((text) => el("p", {}, marked(text))));
}

/**
 * A notice the reader can close: a refusal is an alert, a hint or a copied link a
 * status. A new notice takes the place of the last one. An alert is read as it
 * appears; a status region that appears already filled is not read by every screen
 * reader, so a status is said in the page's live region, there from the start, beside
 * what the table last said.
 * @param {string} text
 * @param {"alert"|"status"} kind
 */
function notify(text, kind) {
  if (kind === "status") live.append(el("p", {}, marked(text)));
  const notice = el(
    "div",
    { id: "notice", class: `notice ${kind}`, role: kind === "alert" && "alert" },
    el("p", {}, marked(text)),
    el("button", {
      type: "button",
      class: "secondary",
      text: word("dismiss"),
      onclick: () => {
        notice.remove();
        main.focus({ preventScroll: true }); // not the page's top: the button is gone
      },
    }),
  );
  notices.replaceChildren(notice);
}

/** The language chosen on an earlier visit (storage may be refused in a frame). */
function rememberedLanguage() {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

/** @param {string} code */
function rememberLanguage(code) {
  try {
    localStorage.setItem(LANGUAGE_KEY, code);
  } catch {
    // Not kept: the server's choice from the browser's languages stands next time.
  }
}

// The skip link focuses the main part itself: followed, its `#main` would be added to
// the address (inside Discord too), and the page drawn anew as if the reader had gone back.
document.getElementById("skip")?.addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});

// The language picker: a language chosen from its open list (mouse, touch, or the keys
// once Alt+Down, F4 or Space opened it) is taken at once; one reached with the arrows on
// the closed list (each changes the choice, and announces it as a change) waits for
// Enter, or for the focus to leave the picker, so the whole page is not drawn anew in
// each language passed on the way (WCAG 3.2.2).
const picker = /** @type {HTMLSelectElement} */ (document.getElementById("lang"));
let keyed = false;
let listOpen = false;
picker.addEventListener("keydown", (event) => {
  const opens = (event.altKey && ["ArrowDown", "ArrowUp"].includes(event.key)) || ["F4", " "].includes(event.key);
  if (listOpen) {
    if (event.key === "Escape" || event.key === "Tab") listOpen = false; // closed, nothing chosen
  } else if (opens) {
    listOpen = true;
  } else if (event.key === "Enter") {
    event.preventDefault(); // taken: the list is not opened as well
    chooseLanguage();
  } else if (event.key !== "Tab") keyed = true;
});
picker.addEventListener("change", () => {
  if (!keyed || listOpen) chooseLanguage();
});
picker.addEventListener("blur", chooseLanguage);

/** Ask for the language the picker shows, if it is not the page's already. */
function chooseLanguage() {
  keyed = false;
  listOpen = false;
  const code = picker.value;
  if (!state.hello || code === state.hello.lang) return;
  rememberLanguage(code);
  connection.send({ type: "lang", lang: code });
}

document.addEventListener("click", (event) => {
  const anchor = /** @type {Element} */ (event.target).closest?.("a[data-nav]");
  if (!(anchor instanceof HTMLAnchorElement) || anchor.origin !== location.origin) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(anchor.pathname);
});

window.addEventListener("popstate", routed);
connection.connect();
