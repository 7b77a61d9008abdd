/**
 * The page's words: the labels the server sent in `hello.words` (the page holds no
 * sentence of its own), numbers and lists in the language of the moment, and a tiny
 * renderer for the marks the server's words may hold (`**bold**`, `` `code` ``, a moment
 * `<t:1700000000>`, backslash escapes), built from elements and text nodes only.
 */

import { el } from "./dom.js";

/** @type {Record<string, string>} */
let labels = {};
let language = "en-US";

/**
 * Speak the words of a new `hello`.
 * @param {Record<string, string>} words
 * @param {string} lang
 */
export function speak(words, lang) {
  labels = words;
  language = lang;
}

/** The language of the moment, as a BCP 47 tag (Discord's locale codes are such tags). */
export function lang() {
  return language;
}

/**
 * A number as the language writes it (1.000 in Spanish).
 * @param {number} value
 */
export function num(value) {
  return new Intl.NumberFormat(language).format(value);
}

/**
 * Items as the language lists them ("2, 3 o 4").
 * @param {string[]} items
 * @param {"conjunction"|"disjunction"} [type]
 */
export function list(items, type = "conjunction") {
  return new Intl.ListFormat(language, { type }).format(items);
}

/**
 * Text begun with a capital, for a phrase the words write for the middle of a
 * sentence ("game over") that here stands alone.
 * @param {string} text
 */
export function capital(text) {
  return text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
}

/**
 * Whether the server sent a label of this key.
 * @param {string} key
 */
export function known(key) {
  return Object.hasOwn(labels, key);
}

/**
 * A label by its key, its `{placeholders}` filled (numbers formatted for the
 * language). A missing key shows as itself, so a gap is seen rather than hidden.
 * @param {string} key
 * @param {Record<string, string|number>} [values]
 */
export function word(key, values = {}) {
  const template = labels[key] ?? key;
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? num(value) : value;
  });
}

const MOMENT = /^<t:(\d{1,12})>/;

/**
 * A moment (Unix seconds) as the reader's clock shows it, in the page's language.
 * @param {number} seconds
 */
function moment(seconds) {
  const when = new Date(seconds * 1000);
  return el("time", { datetime: when.toISOString(), text: when.toLocaleTimeString(language) });
}

/**
 * Text with the server's marks as elements: `**bold**` → <strong>, `` `code` `` →
 * <code>, `<t:1700000000>` → the time on the reader's clock, `\*` → a literal `*`. An
 * unclosed mark stays as typed. Line breaks are left to CSS (`white-space: pre-line`).
 * @param {string} text
 * @returns {DocumentFragment}
 */
export function marked(text) {
  const fragment = document.createDocumentFragment();
  fragment.append(...parse(text, 0, null).nodes);
  return fragment;
}

/**
 * Marked text as plain words, for where only a string can go (an aria-label, the
 * page's title): the marks dropped, the escaped characters kept.
 * @param {string} text
 */
export function plain(text) {
  return marked(text).textContent ?? "";
}

/**
 * Read from `start` up to `closer` (or the end when `closer` is null).
 * @param {string} text
 * @param {number} start
 * @param {string|null} closer
 * @returns {{nodes: Node[], end: number|null}} end: just past the closer; null if it never came
 */
function parse(text, start, closer) {
  /** @type {Node[]} */
  const nodes = [];
  let plain = "";
  const flush = () => {
    if (plain) nodes.push(document.createTextNode(plain));
    plain = "";
  };
  let i = start;
  while (i < text.length) {
    if (text[i] === "\\" && i + 1 < text.length) {
      plain += text[i + 1];
      i += 2;
    } else if (closer !== null && text.startsWith(closer, i)) {
      flush();
      return { nodes, end: i + closer.length };
    } else if (text[i] === "<" && MOMENT.test(text.slice(i, i + 16))) {
      const found = /** @type {RegExpMatchArray} */ (text.slice(i, i + 16).match(MOMENT));
      flush();
      nodes.push(moment(Number(found[1])));
      i += found[0].length;
    } else if (text[i] === "`" && closer !== "`") {
      const code = parse(text, i + 1, "`");
      if (code.end === null) {
        plain += "`";
        i += 1;
      } else {
        flush();
        nodes.push(el("code", {}, ...code.nodes));
        i = code.end;
      }
    } else if (text.startsWith("**", i) && closer === null) {
      const bold = parse(text, i + 2, "**");
      if (bold.end === null) {
        plain += "**";
        i += 2;
      } else {
        flush();
        nodes.push(el("strong", {}, ...bold.nodes));
        i = bold.end;
      }
    } else {
      plain += text[i];
      i += 1;
    }
  }
  flush();
  return { nodes, end: closer === null ? i : null };
}
