// What the page takes from Discord's Embedded App SDK: the client of Discord's frame.
export { DiscordSDK } from "@discord/embedded-app-sdk";
