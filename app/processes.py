"""Facts about processes on this machine, read from /proc (the kernel asked where /proc is absent)."""

from __future__ import annotations

import os
from pathlib import Path


def proc_stat(pid: int) -> tuple[str, str] | None:
    """(state, start time in clock ticks since boot) of a process, from /proc; None if unreadable."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return fields[0], fields[19]


def process_is_alive(pid: int, started: str) -> bool:
    """Whether the process `pid` that started at `started` still runs (a zombie does not)."""
    stat = proc_stat(pid)
    if stat is not None:
        state, actual_start = stat
        return state not in ("Z", "X") and (not started or actual_start == started)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
