"""Browser tests: headless Chromium playing the browser face of the bot (docs/WEB.md)."""
