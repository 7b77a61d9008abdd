/**
 * The one WebSocket to the bot, kept open: when it closes it comes back after 0.5 s,
 * then 1, 2, 4 and 5 s at most, and on every opening the page says again what it
 * follows (the server forgets a closed socket, and after a restart knows nothing of it).
 */

import { activity } from "./activity.js";

const FIRST_DELAY = 500;
const LONGEST_DELAY = 5000;

export class Connection {
  /**
   * @param {object} handlers
   * @param {(message: any) => void} handlers.message a message from the server, parsed
   * @param {() => void} handlers.open the socket is open: say what the page follows
   * @param {(up: boolean) => void} handlers.status the link went up or down
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.delay = FIRST_DELAY;
    /** @type {WebSocket|null} */
    this.socket = null;
    this.timer = 0;
  }

  /**
   * Open the socket (on the page's own origin, which the server checks). Inside Discord
   * it carries Discord's query (the server's `guild_id` among it), so that a proxy in
   * front of several shard processes can send it to the one that owns that server's
   * tables (docs/ACTIVITY.md); the bot itself reads nothing from it.
   */
  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = activity ? location.search : "";
    const socket = new WebSocket(`${scheme}//${location.host}/ws${query}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.delay = FIRST_DELAY;
      this.handlers.status(true);
      this.handlers.open();
    });
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && typeof message.type === "string") this.handlers.message(message);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.handlers.status(false);
      this.timer = window.setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, LONGEST_DELAY);
    });
  }

  /**
   * Open a fresh socket now: a guest's new cookie is read only when a socket opens.
   */
  renew() {
    window.clearTimeout(this.timer);
    const old = this.socket;
    this.socket = null;
    old?.close();
    this.delay = FIRST_DELAY;
    this.connect();
  }

  /**
   * Send a message if the socket is open; a message sent while it is down is dropped
   * (what the page follows is said again on reopening, and an action must be chosen
   * again on the table as it then is).
   * @param {object} message
   * @returns {boolean} whether it went
   */
  send(message) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
