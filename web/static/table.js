/**
 * One table as the server last sent it: the felt, whose turn and the clock, the hand,
 * the buttons the table allows now, the seats, scores and worded card, and the end of
 * a round or game. Every `table` frame is the whole state, so each one redraws the view
 * from nothing; only picking a tile (which changes no state on the server) redraws the
 * felt alone, so a tile being dragged stays where the pointer holds it.
 */

import { el, replace } from "./dom.js";
import { handView } from "./hand.js";
import { felt, linesView } from "./layout.js";
import { capital, known, marked, word } from "./text.js";
import { tilePicture, values } from "./tiles.js";

/** Buttons in the order they stand, by the `can` flag that shows each. */
const ACTIONS = ["join", "leave", "start", "draw", "pass", "back", "more_time", "hint", "rematch", "cancel"];
/** An act with no answer yet blocks others this long at most (a double click is one act). */
const PENDING_MS = 4000;

/**
 * @typedef {import("./hand.js").HandTile} HandTile
 * @typedef {import("./hand.js").Move} Move
 * @typedef {{level: string, name: string}} Level
 * @typedef {object} Services
 * @property {(message: object) => boolean} send
 * @property {() => Level[]} levels
 * @property {(text: string, kind: "alert"|"status") => void} notify
 * @property {() => Node|null} guest the name form, when the reader has no name yet
 * @property {boolean} shareable whether the table's link takes others to it: not inside
 * Discord, whose Activity's address opens nothing outside it (the channel shares the
 * table there)
 * @property {boolean} replayable whether the replay page can show this table's games: not
 * inside Discord, as the replay page reads the browser's own games only (a game's id is no
 * secret), so there the ended table names the chat's replay command instead
 */

export class TableView {
  /** @param {Services} services */
  constructor(services) {
    this.services = services;
    /** @type {any} */
    this.frame = null;
    /** @type {string|null} */
    this.selected = null;
    this.offset = 0;
    this.pendingUntil = 0;
    /**
     * The last round's end at this table: a frame carries it only with the action that
     * ended the round, and the next round may start a moment later, so the page keeps it
     * until the reader closes it or another round ends.
     * @type {any}
     */
    this.ended = null;
    /** @type {HTMLElement|null} */
    this.root = null;
    window.setInterval(() => this.tick(), 1000);
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.selected && this.root?.isConnected) this.unpick();
    });
  }

  /**
   * Show a new frame of the table.
   * @param {HTMLElement} container
   * @param {any} frame
   * @param {boolean} fresh a newer version than the last one shown: the last tile arrives
   */
  show(container, frame, fresh) {
    const previous = this.frame;
    this.frame = frame;
    // The server's clock less the page's, as the frame came (a frame drawn again later,
    // in another language, keeps the offset it came with).
    if (frame !== previous) this.offset = frame.now - Date.now() / 1000;
    this.pendingUntil = 0;
    const stillFits = this.pickedTile()?.moves.length ?? 0;
    if (previous?.id !== frame.id || stillFits < 2) this.selected = null;
    if (previous?.id !== frame.id) this.ended = null;
    // A round's end sent again (the table in another language) replaces the one shown,
    // and is not shown anew once the reader closed it.
    if (frame.ended && (!frame.ended.again || this.ended)) this.ended = frame.ended;
    this.root = this.view(fresh);
    replace(container, this.root);
  }

  /** The answer to an act came (a refusal or a hint): the buttons work again. */
  answered() {
    this.pendingUntil = 0;
  }

  /** @returns {HandTile|undefined} the picked tile, as the current frame holds it */
  pickedTile() {
    return this.frame?.hand?.find((/** @type {HandTile} */ t) => t.tile === this.selected);
  }

  /** @param {boolean} fresh */
  view(fresh) {
    const frame = this.frame;
    const main = el(
      "div",
      { class: "play-area" },
      el("h1", { text: frame.title }),
      el("p", { id: "turn" }, ...this.turnWords()),
      this.endedPanel(),
      el("div", { class: "felt-slot" }, this.feltView(fresh)),
      linesView(frame.lines),
      frame.hand ? this.handSection() : null,
      this.buttons(),
    );
    return el(
      "section",
      { id: "table", class: "table-view", dataset: { version: String(frame.version), status: frame.status } },
      main,
      this.side(),
    );
  }

  /** Whose turn, and the clock: said in text as well as drawn. */
  turnWords() {
    const frame = this.frame;
    const status = frame.status;
    if (status === "lobby") return [word("waiting_players")];
    if (status === "finished" || status === "cancelled") return [capital(word(`state_${status}`))];
    if (frame.turn === null) return [word("round_over")];
    const mine = frame.you !== null && frame.turn === frame.you;
    const who = mine ? word("your_turn") : word("waiting_for", { name: frame.seats[frame.turn].name });
    return [
      el("span", { class: mine ? "who mine" : "who", text: who }),
      frame.deadline ? el("span", { class: "clock", text: this.timeLeft() }) : null,
    ];
  }

  timeLeft() {
    const left = this.frame.deadline - (Date.now() / 1000 + this.offset);
    return word("time_left", { seconds: Math.max(0, Math.ceil(left)) });
  }

  /** Count the clock down each second, in the page's time corrected by the server's. */
  tick() {
    const clock = this.root?.isConnected ? this.root.querySelector("#turn .clock") : null;
    if (clock) clock.textContent = this.timeLeft();
  }

  /** @param {boolean} fresh */
  feltView(fresh) {
    const picked = this.pickedTile();
    return felt(this.frame.layout, {
      alt: this.frame.alt,
      animate: fresh,
      selected: picked ? { tile: picked.tile, moves: picked.moves } : null,
      play: (move) => this.play(move),
    });
  }

  /** Each end's letter in the reader's language, by the engine's name of the end. */
  letters() {
    /** @type {Record<string, string>} */
    const letters = {};
    for (const end of this.frame.layout?.ends ?? []) letters[end.end] = end.letter;
    return letters;
  }

  handSection() {
    const frame = this.frame;
    return handView(frame.hand, {
      yourTurn: frame.you !== null && frame.turn === frame.you && frame.status === "playing",
      selected: this.selected,
      letters: this.letters(),
      actions: {
        press: (tile, byKeyboard) => this.press(tile, byKeyboard),
        pick: (tile) => this.pick(tile.tile, false),
        play: (move) => this.play(move),
      },
    });
  }

  /**
   * A hand tile was clicked: one way to play it plays; several pick it (or, picked
   * already, put it back).
   * @param {HandTile} tile
   * @param {boolean} byKeyboard the focus follows to the first lit end
   */
  press(tile, byKeyboard) {
    if (tile.moves.length === 1) this.play(tile.moves[0]);
    else if (this.selected === tile.tile) this.unpick();
    else this.pick(tile.tile, byKeyboard);
  }

  /**
   * Pick a tile: its ends light up. Only the felt and the hand's marks change, in place.
   * @param {string} tile
   * @param {boolean} focusEnd
   */
  pick(tile, focusEnd) {
    this.selected = tile;
    this.redrawPick();
    if (focusEnd) this.root?.querySelector('[data-playable="true"]')?.focus();
  }

  /** Put the picked tile back, and give it the focus again. */
  unpick() {
    const tile = this.selected;
    this.selected = null;
    this.redrawPick();
    this.root?.querySelector(`button[data-tile="${CSS.escape(tile ?? "")}"]`)?.focus();
  }

  redrawPick() {
    const root = this.root;
    if (!root) return;
    const slot = root.querySelector(".felt-slot");
    if (slot) replace(slot, this.feltView(false));
    for (const button of root.querySelectorAll("button[data-tile]")) {
      const on = button.getAttribute("data-tile") === this.selected;
      button.setAttribute("aria-pressed", String(on));
    }
    root.querySelector(".hand .choose")?.remove();
    const picked = this.pickedTile();
    if (picked) {
      const choose = el("p", { class: "choose", text: word("choose_end", { tile: picked.tile }) });
      root.querySelector(".hand .tiles")?.after(choose);
    }
  }

  /** @param {Move} move */
  play(move) {
    this.act("play", { move: move.move });
  }

  /**
   * Send an action on the version shown; the service checks seat, turn and version as it
   * does a Discord click. One act at a time until the table answers.
   * @param {string} action
   * @param {Record<string, string>} [extra]
   */
  act(action, extra = {}) {
    if (Date.now() < this.pendingUntil) return;
    const sent = this.services.send({
      type: "act",
      table: this.frame.id,
      version: this.frame.version,
      action,
      ...extra,
    });
    if (sent) this.pendingUntil = Date.now() + PENDING_MS;
  }

  /** The buttons `can` allows now (Rematch sits in the end panel when there is one). */
  buttons() {
    const can = this.frame.can;
    const shown = ACTIONS.filter((a) => can[a] && !(a === "rematch" && this.ended));
    const row = el(
      "div",
      { class: "actions" },
      ...shown.map((action) =>
        el("button", {
          type: "button",
          class: action === "cancel" || action === "more_time" ? "secondary" : "", // not moves
          dataset: { action },
          text: word(action),
          onclick: () => this.act(action),
        }),
      ),
    );
    if (can.computer) row.append(this.computers());
    return row;
  }

  /** A button per computer level (the server's levels), beside the words "Add computer". */
  computers() {
    return el(
      "div",
      { class: "computers", role: "group", "aria-labelledby": "computers-label" },
      el("span", { id: "computers-label", text: word("computer") }),
      ...this.services.levels().map((level) =>
        el("button", {
          type: "button",
          dataset: { level: level.level },
          text: known(`level_${level.level}`) ? word(`level_${level.level}`) : level.name,
          onclick: () => this.act("computer", { level: level.level }),
        }),
      ),
    );
  }

  /** The end of a round or game: the card, every hand revealed, rematch and replay. */
  endedPanel() {
    const frame = this.frame;
    const ended = this.ended;
    if (!ended) return null;
    const hands = ended.hands.map((/** @type {any} */ hand) =>
      el(
        "li",
        {},
        el("span", {
          text: word("hand_line", { name: hand.name, tiles: hand.tiles.join(" ") || "—", count: hand.count }),
        }),
        el(
          "span",
          { class: "mini" },
          ...hand.tiles.map((/** @type {string} */ t) => tilePicture(...values(t), { lying: true })),
        ),
      ),
    );
    const closable = frame.status === "playing";
    return el(
      "section",
      { id: "ended", "aria-labelledby": "ended-title" },
      el("h2", { id: "ended-title" }, marked(ended.title)),
      ended.description ? el("p", { class: "description" }, marked(ended.description)) : null,
      fields(ended.fields.filter((/** @type {any} */ f) => f.name !== word("hands"))),
      el("h3", { text: word("hands") }),
      el("ul", { class: "hands" }, ...hands),
      el(
        "div",
        { class: "actions" },
        frame.can.rematch
          ? el("button", {
              type: "button",
              dataset: { action: "rematch" },
              text: word("rematch"),
              onclick: () => this.act("rematch"),
            })
          : null,
        frame.game_id && this.services.replayable
          ? el("a", {
              href: `/replay/${encodeURIComponent(frame.game_id)}`,
              "data-nav": true,
              text: word("replay_link"),
            })
          : null,
        frame.game_id && !this.services.replayable
          ? el("p", { text: word("replay_in_chat", { id: frame.game_id }) })
          : null,
        closable
          ? el("button", {
              type: "button",
              class: "secondary",
              dataset: { action: "dismiss" }, // the focus is kept on it as the table moves
              text: word("dismiss"),
              onclick: () => {
                this.ended = null;
                this.root?.querySelector("#ended")?.remove();
                // The button pressed is gone: the focus goes on to the hand, not the page's top.
                const hand = this.root?.querySelector('button[data-tile][tabindex="0"]') ?? this.root?.querySelector("button[data-tile]");
                (hand instanceof HTMLElement ? hand : document.getElementById("main"))?.focus({ preventScroll: true });
              },
            })
          : null,
      ),
    );
  }

  /** The side panel: who watches, the link, the seats, scores and the worded card. */
  side() {
    const frame = this.frame;
    const card = frame.card;
    return el(
      "aside",
      { class: "side" },
      frame.you === null ? el("p", { class: "badge", text: word("spectating") }) : null,
      this.services.guest(),
      this.services.shareable &&
        el("button", {
          type: "button",
          class: "secondary",
          dataset: { action: "copy" },
          text: word("copy"),
          onclick: () => this.copy(),
        }),
      el(
        "section",
        { "aria-labelledby": "seats-heading" },
        el("h2", { id: "seats-heading", text: word("seats") }),
        el(
          "ol",
          { class: "seats" },
          ...frame.seats.map((/** @type {any} */ seat, /** @type {number} */ at) => seatItem(seat, at === frame.you)),
        ),
      ),
      el(
        "section",
        { "aria-labelledby": "scores-heading" },
        el("h2", { id: "scores-heading", text: word("scores") }),
        el(
          "ul",
          { class: "scores" },
          ...frame.scores.map((/** @type {any} */ side) =>
            el("li", {}, el("span", {}, marked(side.names)), el("strong", { text: String(side.score) })),
          ),
        ),
        el("p", { text: word("to_target", { target: frame.target }) }),
        frame.boneyard === null ? null : el("p", { text: word("boneyard", { count: frame.boneyard }) }),
      ),
      card
        ? el(
            "section",
            { class: "card", "aria-labelledby": "card-heading" },
            el("h2", { id: "card-heading" }, marked(card.title)),
            card.description ? el("p", { class: "description" }, marked(card.description)) : null,
            fields(card.fields),
            card.footer ? el("p", { class: "footer" }, marked(card.footer)) : null,
          )
        : null,
      el(
        "p",
        {},
        el("a", {
          href: `/rules/${encodeURIComponent(frame.game)}`,
          "data-nav": true,
          text: word("rules_of", { game: frame.title }),
        }),
      ),
    );
  }

  /** Copy the table's link; where the clipboard is not allowed, show the link to copy. */
  async copy() {
    const link = `${location.origin}/t/${encodeURIComponent(this.frame.id)}`;
    try {
      await navigator.clipboard.writeText(link);
      this.services.notify(word("copied"), "status");
    } catch {
      this.services.notify(`${word("copy_this")} ${link}`, "status");
    }
  }
}

/**
 * A seat: its name (as typed: the server sends seats' names unmarked), whose turn,
 * away, and the tiles in hand.
 * @param {any} seat
 * @param {boolean} yours the reader sits here
 */
function seatItem(seat, yours) {
  return el(
    "li",
    { class: seat.turn ? "seat turn" : "seat", "aria-current": seat.turn ? "true" : false },
    el("span", { class: "name", text: seat.name }),
    yours ? el("span", { class: "tag", text: word("you") }) : null,
    seat.turn ? el("span", { class: "tag turn", text: word("to_play") }) : null,
    seat.away ? el("span", { class: "tag away", text: word("away") }) : null,
    seat.tiles === null
      ? null
      : el("span", { class: "count", text: word("tiles_in_hand", { count: seat.tiles }) }),
  );
}

/**
 * A card's fields, as a list of names and values.
 * @param {Array<{name: string, value: string}>} list
 */
function fields(list) {
  if (!list.length) return null;
  return el(
    "dl",
    { class: "fields" },
    ...list.flatMap((field) => [el("dt", {}, marked(field.name)), el("dd", {}, marked(field.value))]),
  );
}
