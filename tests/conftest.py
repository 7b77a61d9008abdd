"""The fake Discord's fixtures (``fake_discord``, ``error_log``) for every test folder."""

pytest_plugins = ["tests.fakediscord.fixtures"]
