"""Facts about processes on this machine, read from /proc (the kernel asked where /proc is absent)."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import cast


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


PR_SET_PDEATHSIG = 1


def die_with_parent(signum: int = signal.SIGTERM) -> Callable[[], None]:
    """A `preexec_fn` that has the kernel send `signum` to the child when this process dies, even by
    SIGKILL (Linux PR_SET_PDEATHSIG; elsewhere it does nothing). A child whose parent is already
    gone by the time it runs signals itself, so the race at start-up cannot leave it orphaned."""
    parent = os.getpid()
    prctl = _prctl()

    def preexec() -> None:
        if prctl is None:
            return
        prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
        if os.getppid() != parent:
            os.kill(os.getpid(), signum)

    return preexec


def _prctl() -> Callable[..., int] | None:
    """libc's prctl, loaded before any fork (loading it in a forked child is not safe)."""
    if sys.platform != "linux":
        return None
    try:
        return cast(Callable[..., int], ctypes.CDLL(None, use_errno=True).prctl)
    except (OSError, AttributeError):
        return None
