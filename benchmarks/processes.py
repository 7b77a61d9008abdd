"""What a process uses, read from Linux's ``/proc`` (the benchmarks' own, and the bot's
picture workers'): the benchmarks need Linux for these figures."""

from __future__ import annotations

import os
from pathlib import Path


def memory_mb(key: str = "VmRSS", process: int | str = "self") -> float:
    """A process's resident memory in MB: ``VmRSS`` now, ``VmHWM`` its peak."""
    for entry in Path(f"/proc/{process}/status").read_text().splitlines():
        if entry.startswith(f"{key}:"):
            return int(entry.split()[1]) / 1024
    raise RuntimeError(f"no {key} in /proc/{process}/status: this benchmark needs Linux")


def cpu_and_faults(pid: int) -> tuple[float, int]:
    """A process's CPU seconds (user and system, every thread) and its minor page
    faults, from ``/proc/<pid>/stat``; FileNotFoundError once it has ended."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), int(fields[7])
