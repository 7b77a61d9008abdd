"""The table as a Discord Activity, in Chromium inside a frame that plays Discord's client."""
