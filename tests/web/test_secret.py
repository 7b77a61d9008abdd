"""The secret that signs guests' cookies, when the bot makes its own (no WEB_SECRET):
kept across restarts, readable by the bot's user only, the same for two processes
started at once, and never a short one, which would let anyone sign a cookie for any
guest and take their seat and hand."""

from __future__ import annotations

import os
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from web.identity import SECRET_FILE, Guest, Signer, load_secret


def test_the_secret_is_made_once_kept_private_and_read_back(tmp_path: Path) -> None:
    made = load_secret(None, tmp_path / "var")
    assert len(made) == 32 and load_secret(None, tmp_path / "var") == made
    mode = stat.S_IMODE(os.stat(tmp_path / "var" / SECRET_FILE).st_mode)
    assert mode == 0o600
    assert [p.name for p in (tmp_path / "var").iterdir()] == [SECRET_FILE], "nothing left"
    assert load_secret("configured", tmp_path / "var") == b"configured"


def test_processes_started_at_once_share_one_secret(tmp_path: Path) -> None:
    with ThreadPoolExecutor(8) as pool:
        made = set(pool.map(lambda _: load_secret(None, tmp_path), range(32)))
    assert len(made) == 1 and made == {(tmp_path / SECRET_FILE).read_bytes()}


@pytest.mark.parametrize("left", [b"", b"0123456789"])
def test_a_secret_file_left_short_is_replaced_and_its_forged_cookies_refused(
    tmp_path: Path, left: bytes
) -> None:
    """A crash while an older release wrote the file in place left it short."""
    (tmp_path / SECRET_FILE).write_bytes(left)
    secret = load_secret(None, tmp_path)
    assert len(secret) == 32 and (tmp_path / SECRET_FILE).read_bytes() == secret
    forged = Signer(left).sign(Guest(-123456789, "Mallory"))
    assert Signer(secret).read(forged) is None
