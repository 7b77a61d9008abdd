"""A fake Discord on 127.0.0.1 (REST and gateway) for end-to-end tests of the real
discord.py client. See README.md beside this file."""
