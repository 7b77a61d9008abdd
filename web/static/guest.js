/**
 * The name a guest plays under. The server keeps it in a signed cookie, which a socket
 * reads when it opens: so once the name is taken, the page opens a fresh socket.
 */

import { el } from "./dom.js";
import { lang, word } from "./text.js";

/** The longest name the server takes (docs/WEB.md). */
const LONGEST = 32;

/**
 * The name form.
 * @param {(text: string, kind: "alert"|"status") => void} notify
 * @param {() => void} named the cookie is set: reconnect
 */
export function guestForm(notify, named) {
  const input = el("input", {
    id: "guest-name",
    name: "name",
    required: true,
    maxlength: String(LONGEST),
    autocomplete: "nickname",
  });
  const form = el(
    "form",
    { id: "guest", class: "guest", "aria-labelledby": "guest-heading" },
    el("h2", { id: "guest-heading", text: word("guest_heading") }),
    el("p", { class: "help", text: word("guest_note") }),
    el(
      "div",
      { class: "inline" },
      el("label", { for: "guest-name", text: word("guest_name") }),
      input,
      el("button", { type: "submit", text: word("guest_submit") }),
    ),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const field = /** @type {HTMLInputElement} */ (input);
    const name = field.value.trim();
    if (!name) {
      // Only spaces: said as an empty name is (the browser's own words), not let pass in silence.
      field.value = "";
      field.reportValidity();
      return;
    }
    try {
      // The page's language, which a reader may have switched from the browser's: the
      // server words a refused name in it.
      const answer = await fetch(`/api/guest?lang=${encodeURIComponent(lang())}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name }),
        credentials: "same-origin",
      });
      if (answer.ok) named();
      else notify(await refusal(answer), "alert");
    } catch {
      notify(word("load_failed"), "alert");
    }
  });
  return form;
}

/**
 * The server's worded refusal of a name (`{"refused": text}`), if it sent one.
 * @param {Response} answer
 */
async function refusal(answer) {
  try {
    const body = await answer.json();
    if (typeof body?.refused === "string") return body.refused;
  } catch {
    // Not JSON: say that it failed, in the page's own words.
  }
  return word("load_failed");
}
