"""Processes that run different shards from one folder (the same DATABASE_URL on
PostgreSQL keeps the bot's small files in ``var``) each keep their own health note, and
``python -m bot.health`` reads the note of the process its settings name (SHARD_IDS):
one shard killed is not reported healthy by the other's note, nor one stopped cleanly
reported as no bot at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import health
from bot.health import Health, check


class Connected:
    """A client connected to Discord, as the note needs one."""

    connected = True

    async def wait_until_ready(self) -> None:
        return None

    def is_closed(self) -> bool:
        return False


def test_each_shard_process_keeps_its_own_note(tmp_path: Path) -> None:
    first, second = Health(tmp_path, (0,)), Health(tmp_path, (1,))
    assert first.beat(Connected()) and second.beat(Connected())
    second.stopped()
    assert check(tmp_path, shard_ids=(0,))[0]
    healthy, why = check(tmp_path, shard_ids=(1,))
    assert not healthy and why.startswith("not running"), why
    assert not check(tmp_path)[0], "a bot of every shard is another process again"


def test_the_check_reads_the_note_of_the_shards_its_settings_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db.example/domino")
    monkeypatch.setenv("SHARD_COUNT", "2")
    (tmp_path / "var").mkdir()
    Health(tmp_path / "var", (0,)).beat(Connected())
    monkeypatch.setenv("SHARD_IDS", "1")
    assert health.main() == 1
    monkeypatch.setenv("SHARD_IDS", "0")
    assert health.main() == 0
