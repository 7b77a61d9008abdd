"""DESIGN.md's layers: imports only point down. Checked two ways: statically over every
module of each layer, and by importing the engine in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "bot/engine": {"discord", "PIL", "aiosqlite", "data", "rendering", "cogs", "bot.tables",
                   "bot.client", "bot.players"},
    "bot/players": {"discord", "PIL", "aiosqlite", "data", "rendering", "cogs", "bot.tables",
                    "bot.client"},
    "rendering": {"discord", "aiosqlite", "data", "cogs", "bot.tables", "bot.client"},
    "data": {"discord", "PIL", "rendering", "cogs", "bot"},
    "bot/tables.py": {"discord", "PIL", "rendering", "cogs"},
}  # fmt: skip


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def violates(name: str, forbidden: set[str]) -> bool:
    return any(name == f or name.startswith(f + ".") for f in forbidden)


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_point_down(layer: str) -> None:
    target = ROOT / layer
    files = [target] if target.suffix == ".py" else sorted(target.rglob("*.py"))
    bad = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in files
        if path.exists()
        for name in imported_modules(path)
        if violates(name, FORBIDDEN[layer])
    }
    assert not bad, bad


def test_importing_the_engine_pulls_in_no_discord_pillow_or_database() -> None:
    code = (
        "import sys, bot.engine, bot.engine.__main__\n"
        "heavy = {'discord', 'PIL', 'aiosqlite', 'sqlite3', 'aiohttp'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True)  # fmt: skip
    assert result.stdout.strip() == "[]"
