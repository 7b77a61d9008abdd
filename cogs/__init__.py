"""The Discord face's cogs: the slash commands of each concern (tables and play, boards,
games played, settings, privacy), each loaded as an extension. What they share — the
tree, the buttons, the announcer, Discord's marks and embeds — is in ``discord_face``."""
