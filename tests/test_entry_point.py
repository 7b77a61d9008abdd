"""``python -m bot`` on a fresh machine, and the settings it reads."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.local import open_at

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_token_the_bot_serves_the_local_table_and_says_where(tmp_path: Path) -> None:
    """A fresh clone's start command, with no Discord application: the browser table on
    this machine, said in one line, stopped cleanly by SIGTERM (as Ctrl-C or systemd)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "WEB_HOST")}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env.update(PYTHONPATH=str(ROOT), WEB_PORT=str(port))
    bot = subprocess.Popen(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        said = bot.stdout.readline() if bot.stdout is not None else ""
        assert said.startswith(f"Serving the local table at http://127.0.0.1:{port} "), said
        assert "DISCORD_TOKEN" in said and ".env" in said
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as page:
            assert page.status == 200 and b"<html" in page.read()
    finally:
        bot.send_signal(signal.SIGTERM)
        _, errors = bot.communicate(timeout=30)
    assert bot.returncode == 0, errors
    assert "Traceback" not in errors
    assert (tmp_path / "var" / "domino.db").exists(), "SQLite by default, under the folder"


def test_a_port_in_use_is_said_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        [line] = _not_served(tmp_path, WEB_PORT=str(taken.getsockname()[1]))
    assert "WEB_PORT" in line


def test_a_host_not_of_this_machine_is_said_as_the_host(tmp_path: Path) -> None:
    """An address the machine does not have names WEB_HOST, not the port."""
    [line] = _not_served(tmp_path, WEB_HOST="192.0.2.1", WEB_PORT=str(_free_port()))
    assert "WEB_HOST" in line and "WEB_PORT" not in line


def _not_served(folder: Path, **settings: str) -> list[str]:
    """``python -m bot`` with no token and ``settings``, refused as the browser table
    not served (exit 6): what it said."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "WEB_HOST")}
    env.update(PYTHONPATH=str(ROOT), **settings)
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=folder, env=env, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 6, result.stderr
    return result.stderr.strip().splitlines()


@pytest.mark.parametrize(
    ("name", "raw", "said"),
    [
        ("WEB_HOST", "http://0.0.0.0", "WEB_HOST must be an address of this machine"),
        ("WEB_HOST", "127.0.0.1:8080", "WEB_HOST must be an address of this machine"),
        ("COMPUTER_PACE_SECONDS", "nan", "COMPUTER_PACE_SECONDS must be a number of seconds"),
        ("COMPUTER_PACE_SECONDS", "inf", "COMPUTER_PACE_SECONDS must be a number of seconds"),
        ("COMPUTER_PACE_SECONDS", "61", "from 0 to 60"),
        ("WEB_PORT", "²", "WEB_PORT must be a whole number"),
        ("DISCORD_CLIENT_ID", "abc", "DISCORD_CLIENT_ID must be an application id"),
        ("DISCORD_CLIENT_SECRET", "s3cret", "DISCORD_CLIENT_SECRET needs WEB_PORT"),
    ],
)
def test_a_setting_that_would_misbehave_is_refused_naming_it(
    monkeypatch: pytest.MonkeyPatch, name: str, raw: str, said: str
) -> None:
    """A host with a scheme or a port; a pace no deadline ever reaches (the clock would
    spin on NaN, and infinity would stop the computers for good); a digit int() does not
    read; an application id worded as one; the Activity's secret with no browser table
    for it to show (with a token, WEB_PORT unset)."""
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.delenv("WEB_PORT", raising=False)
    monkeypatch.setenv(name, raw)
    with pytest.raises(ConfigError, match=said):
        Settings.from_env(None)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _serving(folder: Path, port: int) -> subprocess.Popen[str]:
    """``python -m bot`` with no token in ``folder`` (its database var/domino.db), once it
    says it serves the local table at ``port``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.pop("WEB_HOST", None)
    env.update(PYTHONPATH=str(ROOT), WEB_PORT=str(port))
    bot = subprocess.Popen(
        [sys.executable, "-m", "bot"], cwd=folder, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    said = bot.stdout.readline() if bot.stdout is not None else ""
    assert said.startswith("Serving the local table"), said + bot.communicate(timeout=30)[1]
    return bot


def _stopped(bot: subprocess.Popen[str]) -> None:
    bot.send_signal(signal.SIGTERM)
    _, errors = bot.communicate(timeout=30)
    assert bot.returncode == 0 and "Traceback" not in errors, errors


def test_a_second_bot_on_the_same_sqlite_file_is_refused_until_the_first_stops(
    tmp_path: Path,
) -> None:
    """The bot keeps its tables in memory and plays their timers and computers itself:
    a second process on the same file would play them too, each unaware of the other's
    moves, and one page would freeze while another moved on. So a second start (the
    newcomer's in another terminal, on another WEB_PORT as the port-in-use line says)
    is refused in one line that says why; once the first has stopped, it starts."""
    first = _serving(tmp_path, _free_port())
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
        env.update(PYTHONPATH=str(ROOT), WEB_PORT=str(_free_port()))
        second = subprocess.run(
            [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
            text=True, timeout=60,
        )  # fmt: skip
        assert second.returncode == 3, second.stdout + second.stderr
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "another bot process" in lines[0], second.stderr
        assert "Serving" not in second.stdout
    finally:
        _stopped(first)
    _stopped(_serving(tmp_path, _free_port()))


@pytest.mark.parametrize(
    ("host", "said"),
    [
        ("", "http://127.0.0.1:8080"),
        ("192.168.1.5", "http://192.168.1.5:8080"),
        ("0.0.0.0", "http://localhost:8080 (others on your network: this machine's address"),
        ("::", "http://localhost:8080 (others on your network: this machine's address"),
    ],
)
def test_the_serving_line_names_an_address_to_open(
    monkeypatch: pytest.MonkeyPatch, host: str, said: str
) -> None:
    """``WEB_HOST=0.0.0.0`` (docs/BROWSER.md, LAN play) listens on every address, but
    http://0.0.0.0:8080 is none to open: it reaches nothing on some systems, and never
    from another machine. The line names this machine's, and how others reach it."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("WEB_PORT", raising=False)
    monkeypatch.setenv("WEB_HOST", host)
    assert open_at(Settings.from_env(None)).startswith(said)


def test_settings_come_from_a_dotenv_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "DEV_GUILD_ID",
                 "COMPUTER_PACE_SECONDS"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=123\nDATABASE_PATH=x/y.db\n")
    settings = Settings.from_env(env_file)
    assert settings.discord_token == "abc" and settings.dev_guild_id == 123
    assert settings.database_url == "sqlite:///x/y.db", "the older DATABASE_PATH still read"
    assert settings.computer_pace_seconds == 1.5


def test_database_url_names_the_database_and_wins_over_the_older_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_PATH", "old.db")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:secret@db.example:5432/domino")
    settings = Settings.from_env(None)
    assert settings.database_url == "postgresql://bot:secret@db.example:5432/domino"
    assert settings.local_folder == Path("var")
    monkeypatch.delenv("DATABASE_PATH")
    monkeypatch.setenv("DATABASE_URL", "sqlite:////srv/domino/bot.db")
    assert Settings.from_env(None).local_folder == Path("/srv/domino")


def test_a_database_url_of_no_known_kind_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_URL", "mysql://root:secret@localhost/domino")
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(None)
    message = str(refused.value)
    assert "DATABASE_URL" in message and "sqlite:///" in message and "postgresql://" in message
    assert "secret" not in message and "\n" not in message


def test_a_malformed_setting_is_refused_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DEV_GUILD_ID", "my-server")
    with pytest.raises(ConfigError, match="DEV_GUILD_ID must be a server id"):
        Settings.from_env(None)


@pytest.mark.parametrize(("raw", "level"), [("", "INFO"), ("debug", "DEBUG"), ("VERBOSE", None)])
def test_the_log_level_is_one_of_the_four(
    monkeypatch: pytest.MonkeyPatch, raw: str, level: str | None
) -> None:
    """A level the logs do not have (a typo) is refused as every other setting is, not
    quietly read as INFO, which would leave its writer waiting for lines that never come."""
    monkeypatch.setenv("LOG_LEVEL", raw)
    if level is None:
        with pytest.raises(ConfigError, match="LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR"):
            Settings.from_env(None)
    else:
        assert Settings.from_env(None).log_level == level


@pytest.mark.parametrize(("raw", "processes"), [("", 1), ("0", 0), ("3", 3), ("17", None)])
def test_picture_processes_are_read_within_range(
    monkeypatch: pytest.MonkeyPatch, raw: str, processes: int | None
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("PICTURE_PROCESSES", raw)
    if processes is None:
        with pytest.raises(ConfigError, match="PICTURE_PROCESSES must be a whole number"):
            Settings.from_env(None)
    else:
        assert Settings.from_env(None).picture_processes == processes


@pytest.mark.parametrize(("raw", "on"), [("", True), ("on", True), ("OFF", False), ("no", None)])
def test_the_coach_after_games_is_on_unless_turned_off(
    monkeypatch: pytest.MonkeyPatch, raw: str, on: bool | None
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("COACH_AFTER_GAMES", raw)
    if on is None:
        with pytest.raises(ConfigError, match="COACH_AFTER_GAMES must be on or off"):
            Settings.from_env(None)
    else:
        assert Settings.from_env(None).coach_after_games is on


@pytest.mark.parametrize(
    ("raw", "names"),
    [
        ("", ()),
        ("Domino.Example.com, table.lan,", ("domino.example.com", "table.lan")),
        ("https://domino.example.com", None),
        ("domino.example.com:443", None),
    ],
)
def test_public_hosts_are_names_only(
    monkeypatch: pytest.MonkeyPatch, raw: str, names: tuple[str, ...] | None
) -> None:
    """A URL or a port is refused at start, not left to refuse every page later."""
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("WEB_PUBLIC_HOSTS", raw)
    if names is None:
        with pytest.raises(ConfigError, match="WEB_PUBLIC_HOSTS must list host names only"):
            Settings.from_env(None)
    else:
        assert Settings.from_env(None).web_public_hosts == names


def test_env_example_lists_every_setting_the_bot_and_compose_read() -> None:
    source = (ROOT / "bot" / "config.py").read_text()
    pattern = r'(?:environ\.get|_optional_int|_optional_id|_float|_int_in|_switch)\(\s*"([A-Z_]+)"'
    read = set(re.findall(pattern, source))
    example = (ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^([A-Z_]+)=", example, flags=re.MULTILINE))
    composed = set(re.findall(r"\$\{([A-Z_]+)", (ROOT / "compose.yaml").read_text()))
    assert "DISCORD_TOKEN" in read and len(read) >= 5
    assert listed == read | composed, "every setting of the bot's, and of compose.yaml's"


def test_compose_refuses_to_start_on_the_examples_postgres_password() -> None:
    """compose.yaml refuses to start while ``POSTGRES_PASSWORD`` is empty (docs/HOSTING.md):
    a .env copied from the example must leave it empty, or every copy would start on the
    example's own, well-known password without a word."""
    example = (ROOT / ".env.example").read_text()
    values = dict(re.findall(r"^([A-Z_]+)=(.*)$", example, flags=re.MULTILINE))
    assert values["POSTGRES_PASSWORD"] == "", values["POSTGRES_PASSWORD"]
    compose = (ROOT / "compose.yaml").read_text()
    uses = re.findall(r"\$\{POSTGRES_PASSWORD(:\?)?", compose)
    assert uses and all(uses), "every use of it refuses an empty one"


def test_a_database_that_cannot_be_used_is_refused_at_start_in_one_line(tmp_path: Path) -> None:
    """Found before the bot connects to Discord, not at a player's first move."""
    (tmp_path / "var").write_text("a file where the database folder should be")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="abc", DATABASE_PATH="var/domino.db")
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert result.returncode == 3
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "var/domino.db" in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_shards_are_read_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.delenv("SHARD_COUNT", raising=False)
    monkeypatch.delenv("SHARD_IDS", raising=False)
    settings = Settings.from_env(None)
    assert (settings.shard_count, settings.shard_ids) == (None, None), "automatic"
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1/test")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "1, 0")
    settings = Settings.from_env(None)
    assert (settings.shard_count, settings.shard_ids) == (4, (0, 1))
    for ids, count in [("0,4", "4"), ("a", "4"), ("0", "")]:
        monkeypatch.setenv("SHARD_IDS", ids)
        monkeypatch.setenv("SHARD_COUNT", count)
        with pytest.raises(ConfigError, match="SHARD"):
            Settings.from_env(None)


def test_several_processes_on_one_sqlite_file_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "0")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///var/domino.db")
    with pytest.raises(ConfigError, match="PostgreSQL") as refused:
        Settings.from_env(None)
    assert "\n" not in str(refused.value)
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1/test")
    assert Settings.from_env(None).shard_ids == (0,)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///var/domino.db")
    monkeypatch.setenv("SHARD_IDS", "0,1")  # every shard in this one process: fine
    assert Settings.from_env(None).shard_ids == (0, 1)
