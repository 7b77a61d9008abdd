/**
 * A finished game stepped through move by move: `{title, frames: [{layout, alt, line,
 * scores, over, grade?, note?}], result}` from the server, a frame per round's deal and
 * per move (`over`: a round's end, said on the move that ended it; `result`: the game's,
 * said on the last step; `grade` and `note`: the coach's mark on a move it judged worse
 * than good, where the game was analysed, the note shown under the move's line). Buttons and the arrow keys (Home and
 * End too) step; each step redraws the stage only, so the focus stays on the button.
 * A step past either end is said too (where the reader stands), and the buttons that
 * lead nowhere from there say so (aria-disabled: they keep the focus, as a disabled
 * button would not).
 */

import { el, replace } from "./dom.js";
import { felt } from "./layout.js";
import { marked, word } from "./text.js";

export class ReplayView {
  /** @param {(text: string) => void} announce says a step aloud (the live region) */
  constructor(announce) {
    this.announce = announce;
    /** @type {any} */
    this.replay = null;
    this.step = 0;
    /** @type {HTMLElement|null} */
    this.stage = null;
    /** @type {HTMLElement|null} */
    this.root = null;
    document.addEventListener("keydown", (event) => this.key(event));
  }

  /**
   * Show a replay from its first move, or from ``step`` (the same game drawn again in
   * another language: the reader stays where they were).
   * @param {HTMLElement} container
   * @param {any} replay
   * @param {number} [step]
   */
  show(container, replay, step = 0) {
    this.replay = replay;
    this.step = Math.max(0, Math.min(step, replay.frames.length - 1));
    this.stage = el("div", { class: "stage" });
    const button = (/** @type {string} */ key, /** @type {() => number} */ to) =>
      el("button", {
        type: "button",
        class: "secondary",
        dataset: { step: key },
        text: word(key),
        onclick: () => this.go(to()),
      });
    const last = () => replay.frames.length - 1;
    this.root = el(
      "section",
      { class: "page replay", id: "replay" },
      el("h1", { id: "replay-title" }, marked(replay.title)),
      el(
        "div",
        { class: "actions", role: "group", "aria-labelledby": "replay-title" },
        button("first", () => 0),
        button("previous", () => this.step - 1),
        button("next", () => this.step + 1),
        button("last", last),
      ),
      el("p", { class: "help", text: word("replay_help") }),
      this.stage,
    );
    replace(container, this.root);
    this.draw(false);
  }

  /**
   * Step to a move (clamped to the game).
   * @param {number} step
   */
  go(step) {
    const count = this.replay?.frames.length ?? 0;
    const next = Math.max(0, Math.min(count - 1, step));
    if (next === this.step) {
      this.announce(word("step", { step: this.step + 1, count })); // at an end already
      return;
    }
    const forward = next === this.step + 1;
    this.step = next;
    this.draw(forward);
    this.announce(this.said().join(" "));
  }

  /**
   * What the step shown says happened: its move, the coach's note, a round's end and,
   * on the last step, the game's result. The layout in words is the picture's name, not
   * said again: it repeats the move ("Last played: …").
   * @returns {string[]}
   */
  said() {
    const frames = this.replay.frames;
    const frame = frames[this.step];
    const result = this.step === frames.length - 1 ? this.replay.result : [];
    return [frame.line, frame.note, ...(frame.over ?? []), ...result].filter(Boolean);
  }

  /** @param {boolean} forward one move on: its tile arrives */
  draw(forward) {
    const frames = this.replay.frames;
    if (!this.stage) return;
    if (!frames.length) {
      replace(this.stage, el("p", { text: word("nothing") }));
      return;
    }
    const frame = frames[this.step];
    for (const control of this.root?.querySelectorAll("[data-step]") ?? []) {
      const back = ["first", "previous"].includes(control.getAttribute("data-step") ?? "");
      const nowhere = back ? this.step === 0 : this.step === frames.length - 1;
      control.setAttribute("aria-disabled", String(nowhere));
    }
    replace(
      this.stage,
      el("p", { class: "step", text: word("step", { step: this.step + 1, count: frames.length }) }),
      felt(frame.layout, { alt: frame.alt, animate: forward }),
      el(
        "div",
        { class: "lines" },
        ...[frame.line].filter(Boolean).map((line) => el("p", {}, marked(line))),
        ...[frame.note]
          .filter(Boolean)
          .map((note) => el("p", { class: "note", dataset: { grade: frame.grade } }, marked(note))),
        ...[...(frame.over ?? []), ...(this.step === frames.length - 1 ? this.replay.result : [])]
          .filter(Boolean)
          .map((line) => el("p", {}, marked(line))),
      ),
      scores(frame.scores),
    );
  }

  /**
   * The arrow keys step, unless the reader is typing or choosing in a form field.
   * @param {KeyboardEvent} event
   */
  key(event) {
    if (!this.root?.isConnected || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.closest("input, select, textarea")) return;
    const to = {
      ArrowLeft: this.step - 1,
      ArrowRight: this.step + 1,
      Home: 0,
      End: (this.replay?.frames.length ?? 1) - 1,
    }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.go(to);
  }
}

/**
 * A frame's scores: per side `{names, score}` (the names marked, as the server words them).
 * @param {Array<{names: string, score: number}>} scores
 */
function scores(scores) {
  return el(
    "ul",
    { class: "scores" },
    ...scores.map((side) =>
      el("li", {}, el("span", {}, marked(side.names)), el("strong", { text: String(side.score) })),
    ),
  );
}
