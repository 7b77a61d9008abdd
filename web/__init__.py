"""The browser face: the bot's own web server (aiohttp), its WebSocket protocol
(``docs/WEB.md``) and the page (``web/static``), over the same table service, store,
computer players and words as the Discord face."""
