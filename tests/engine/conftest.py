from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

RECORDS = Path(__file__).parent / "records"

LoadRecord = Callable[[str], dict[str, Any]]
"""The ``record`` fixture: a frozen game record (JSON) by name."""


@pytest.fixture
def record() -> LoadRecord:
    """Load a frozen game record from ``tests/engine/records/<name>.json``."""

    def load(name: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text())
        return data

    return load
