from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

RECORDS = Path(__file__).parent / "records"


@pytest.fixture
def record() -> Any:
    """Load a frozen game record from ``tests/engine/records/<name>.json``."""

    def load(name: str) -> dict[str, Any]:
        return json.loads((RECORDS / f"{name}.json").read_text())

    return load
