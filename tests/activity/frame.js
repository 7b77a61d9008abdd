/**
 * Discord's client frame, played for the Activity tests: it holds the Activity's page in
 * an <iframe> and answers what the page's Embedded App SDK posts to its parent window.
 *
 * The wire, as the SDK (web/sdk, @discord/embedded-app-sdk) speaks it: every message is
 * `[opcode, payload]` through `postMessage`. The page opens with HANDSHAKE (`{v: 1,
 * encoding: "json", client_id, frame_id, sdk_version}`); Discord answers with a FRAME
 * dispatching READY. Then each command is a FRAME `{cmd, args, nonce}`, answered by a
 * FRAME `{cmd, evt: null, nonce, data}`, or `{cmd, evt: "ERROR", nonce, data: {code,
 * message}}`; events are FRAMEs `{cmd: "DISPATCH", evt, nonce: null, data}`. CLOSE
 * `{code, message}` ends the conversation (either side).
 *
 * What the frame cannot know alone (who the member is, a code for them, whether a token
 * is good, who is in the instance) it asks its own server, tests/activity/frame.py, which
 * asks the fake Discord: the page in the browser cannot call Python.
 *
 * Everything the page sent, and every way it broke the protocol, is kept in
 * `window.discordFrame` for the test to read.
 */
"use strict";

const HANDSHAKE = 0;
const FRAME = 1;
const CLOSE = 2;

/** Discord's RPC error codes (the SDK's RPCErrorCodes). */
const INVALID_PAYLOAD = 4000;
const INVALID_COMMAND = 4002;
const INVALID_EVENT = 4004;

/** Discord's close codes (the SDK's RPCCloseCodes). */
const CLOSE_INVALID_CLIENTID = 4000;
const CLOSE_INVALID_VERSION = 4004;
const CLOSE_INVALID_ENCODING = 4005;

/** The events a page may subscribe to that this frame knows. */
const EVENTS = new Set([
  "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE",
  "ACTIVITY_LAYOUT_MODE_UPDATE",
  "ORIENTATION_UPDATE",
  "CURRENT_USER_UPDATE",
  "CURRENT_GUILD_MEMBER_UPDATE",
  "VOICE_STATE_UPDATE",
  "SPEAKING_START",
  "SPEAKING_STOP",
  "THERMAL_STATE_UPDATE",
  "ENTITLEMENT_CREATE",
  "RELATIONSHIP_UPDATE",
]);

/** Where this frame's server answers for it: `/activities/<frame id>`. */
const base = location.pathname;

const record = {
  /** @type {{cmd: string, args: any, evt: string|null}[]} every command, in order (logs apart) */
  commands: [],
  /** @type {{level: string, message: string}[]} the page's console, once it is ready */
  logs: [],
  /** @type {{cmd: string, code: number, message: string}[]} commands answered with an error */
  refused: [],
  /** @type {string[]} what the page did against the protocol */
  problems: [],
  /** @type {string[]} the events the page follows */
  subscribed: [],
  handshakes: 0,
  /** @type {any} the page's CLOSE, if it sent one */
  closed: null,
  /**
   * Tell the page who is in the instance now, as Discord does when someone comes or
   * goes (only if it subscribed): whether it was told.
   */
  async participantsChanged() {
    const evt = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE";
    if (!record.subscribed.includes(evt)) return false;
    post([FRAME, { cmd: "DISPATCH", evt, nonce: null, data: await ask("participants") }]);
    return true;
  },
};
// @ts-ignore: read by the tests
window.discordFrame = record;

/** @type {any} what this frame stands for, from its server */
let setup = null;
let pageOrigin = "";
const iframe = /** @type {HTMLIFrameElement} */ (document.getElementById("activity"));

/** A command the frame refuses as Discord's client would, with an RPC error. */
class Refused extends Error {
  /**
   * @param {number} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** @param {any} message */
function post(message) {
  iframe.contentWindow?.postMessage(message, pageOrigin);
}

/** @param {string} what */
function problem(what) {
  record.problems.push(what);
}

/**
 * The frame's server: what it answers, or its refusal as a Refused.
 * @param {string} path
 * @param {any} [body] sent as JSON in a POST
 */
async function ask(path, body) {
  const init =
    body === undefined
      ? {}
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const answer = await fetch(`${base}/${path}`, init);
  const data = await answer.json();
  if (!answer.ok) throw new Refused(data.code, data.message);
  return data;
}

/** @param {MessageEvent} event */
function received(event) {
  if (event.source !== iframe.contentWindow) return; // not the Activity's page
  if (event.origin !== pageOrigin) {
    problem(`a message from ${event.origin}, not the Activity's origin ${pageOrigin}`);
    return;
  }
  const message = event.data;
  if (!Array.isArray(message) || message.length !== 2 || typeof message[1] !== "object") {
    problem(`a message that is not [opcode, payload]: ${JSON.stringify(message)}`);
    return;
  }
  const [opcode, payload] = message;
  if (opcode === HANDSHAKE) handshake(payload ?? {});
  else if (opcode === FRAME) command(payload ?? {});
  else if (opcode === CLOSE) record.closed = payload;
  else problem(`opcode ${opcode}`);
}

/**
 * The page's SDK introduces itself: Discord checks the version, the encoding and the
 * application the frame was opened for, then dispatches READY with the member.
 * @param {any} payload
 */
function handshake(payload) {
  record.handshakes += 1;
  const refuse = (/** @type {number} */ code, /** @type {string} */ message) => {
    problem(`handshake refused (${code} ${message}): ${JSON.stringify(payload)}`);
    post([CLOSE, { code, message }]);
  };
  if (payload.v !== 1) return refuse(CLOSE_INVALID_VERSION, "Invalid Version");
  if ((payload.encoding ?? "json") !== "json") return refuse(CLOSE_INVALID_ENCODING, "Invalid Encoding");
  if (payload.client_id !== setup.client_id) return refuse(CLOSE_INVALID_CLIENTID, "Invalid Client ID");
  if (payload.frame_id !== setup.query.frame_id) return refuse(CLOSE_INVALID_CLIENTID, "Invalid Frame ID");
  const data = {
    v: 1,
    config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
    user: setup.user,
  };
  post([FRAME, { cmd: "DISPATCH", evt: "READY", nonce: null, data }]);
}

/** The commands this frame answers, each from its args (and the whole payload). */
const ANSWERS = {
  /** Discord asks the member (here they always accept) and hands the page a code. */
  AUTHORIZE: (/** @type {any} */ args) => ask("authorize", args),
  /** Discord checks the token is the member's, for this application. */
  AUTHENTICATE: (/** @type {any} */ args) => ask("authenticate", args),
  GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS: () => ask("participants"),
  USER_SETTINGS_GET_LOCALE: () => ({ locale: setup.locale }),
  CAPTURE_LOG: (/** @type {any} */ args) => {
    record.logs.push({ level: String(args.level), message: String(args.message) });
    return null;
  },
  SUBSCRIBE: (/** @type {any} */ _args, /** @type {any} */ payload) => {
    if (!EVENTS.has(payload.evt)) throw new Refused(INVALID_EVENT, `Invalid event: ${payload.evt}`);
    if (!record.subscribed.includes(payload.evt)) record.subscribed.push(payload.evt);
    return { evt: payload.evt };
  },
  UNSUBSCRIBE: (/** @type {any} */ _args, /** @type {any} */ payload) => {
    record.subscribed = record.subscribed.filter((evt) => evt !== payload.evt);
    return { evt: payload.evt };
  },
};

/** @param {any} payload */
async function command(payload) {
  const { cmd, nonce } = payload;
  if (typeof cmd !== "string" || typeof nonce !== "string") {
    problem(`a command without cmd or nonce: ${JSON.stringify(payload)}`);
    return;
  }
  if (record.handshakes === 0) {
    problem(`${cmd} before the handshake`);
    return;
  }
  const args = payload.args ?? {};
  if (cmd !== "CAPTURE_LOG") record.commands.push({ cmd, args, evt: payload.evt ?? null });
  const answer = /** @type {any} */ (ANSWERS)[cmd];
  const error = (/** @type {number} */ code, /** @type {string} */ message) => {
    record.refused.push({ cmd, code, message });
    post([FRAME, { cmd, evt: "ERROR", nonce, data: { code, message } }]);
  };
  if (!answer) {
    problem(`${cmd}, which this frame does not answer`);
    return error(INVALID_COMMAND, `Invalid command: ${cmd}`);
  }
  try {
    const data = await answer(args, payload);
    post([FRAME, { cmd, evt: null, nonce, data }]);
  } catch (refusal) {
    if (refusal instanceof Refused) return error(refusal.code, refusal.message);
    problem(`${cmd} failed in the frame: ${refusal}`);
    error(INVALID_PAYLOAD, String(refusal));
  }
}

/** Load what the frame stands for, then the Activity's page with Discord's query. */
async function open() {
  setup = await ask("setup");
  const page = new URL(setup.page);
  pageOrigin = page.origin;
  for (const [name, value] of Object.entries(setup.query)) page.searchParams.set(name, String(value));
  window.addEventListener("message", received);
  iframe.src = page.href;
}

open().catch((error) => problem(`the frame did not open: ${error}`));
