/**
 * The page inside Discord, as an Activity. Discord loads it in its frame with the
 * instance and frame in the address (`?instance_id=…&frame_id=…`); the page then talks
 * to Discord's client through the Embedded App SDK: `ready`, `authorize` (scope
 * `identify`: Discord's client asks the member, and hands the page a code), the bot's
 * `/api/token` (only the bot's server holds the application's secret, and exchanges the
 * code), `authenticate` with the token, and tells the server its token and instance.
 * The server asks Discord itself who that is and whether they are in that instance, in
 * which channel; the page shows that channel's table, nothing else.
 */

/** @typedef {{instance: string, token: string|null}} Activity */

const query = new URLSearchParams(location.search);

/**
 * The Activity this page runs in, or null outside Discord's frame. Read once, at load:
 * the address may change afterwards (the table's own path), the instance does not.
 * @type {Activity|null}
 */
export const activity =
  query.has("frame_id") && query.has("instance_id") ? { instance: query.get("instance_id") ?? "", token: null } : null;

/** @type {Promise<string>|null} */
let signingIn = null;

/**
 * The bot's refusal of the page's code, worded by the server in the page's language (a
 * failure of any other kind carries the browser's or the SDK's words, in English).
 */
export class Refused extends Error {}

/**
 * The member's access token, asked for once per page (a reconnecting socket presents
 * the same one). The SDK is loaded only inside Discord: outside, nothing of it runs.
 * @param {string} clientId the application's id, from the server's `hello`
 * @returns {Promise<string>}
 */
export function signIn(clientId) {
  if (!signingIn) {
    signingIn = fetchToken(clientId);
    // Any failure (the bot's refusal, the exchange not reached, Discord's client): the
    // next try asks again, rather than being handed this failure for good.
    signingIn.catch(() => {
      signingIn = null;
    });
  }
  return signingIn;
}

/** @type {Promise<any>|null} */
let connected = null;

/**
 * Discord's SDK, its handshake with Discord's client made: once a page, whatever
 * becomes of the sign-ins that use it (a second handshake from one frame is not what
 * Discord's client expects).
 * @param {string} clientId
 */
function discord(clientId) {
  connected ??= (async () => {
    const { DiscordSDK } = await import("./vendor/discord-sdk.js");
    const sdk = new DiscordSDK(clientId);
    await sdk.ready();
    return sdk;
  })();
  return connected;
}

/** @param {string} clientId */
async function fetchToken(clientId) {
  const sdk = await discord(clientId);
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("/api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const body = await answer.json();
  if (!answer.ok || typeof body.access_token !== "string") {
    throw typeof body.refused === "string" ? new Refused(body.refused) : new Error(String(answer.status));
  }
  await sdk.commands.authenticate({ access_token: body.access_token });
  if (activity) activity.token = body.access_token;
  return body.access_token;
}
