"""The layers of docs/ARCHITECTURE.md: imports only point down. The arrows are
import-linter contracts in pyproject.toml, checked here over every module; and the
engine is imported in a fresh interpreter, to see that nothing heavy comes with it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from importlinter.api import read_configuration

ROOT = Path(__file__).resolve().parent.parent


def test_every_import_follows_the_layer_contracts() -> None:
    contracts = read_configuration(str(ROOT / "pyproject.toml"))["contracts_options"]
    assert len(contracts) >= 6, "the contracts in pyproject.toml were not found"
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert f"{len(contracts)} kept, 0 broken" in result.stdout


def test_importing_the_engine_pulls_in_no_discord_pillow_or_database() -> None:
    code = (
        "import sys, bot.engine, bot.engine.__main__\n"
        "heavy = {'discord', 'PIL', 'aiosqlite', 'sqlite3', 'aiohttp'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True)  # fmt: skip
    assert result.stdout.strip() == "[]"
