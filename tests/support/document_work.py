"""Functions for document-process tests: importable by name, so a spawned child can run them."""

from __future__ import annotations

import os
import signal
import time


def crash() -> None:
    """Die the way a segfault in the PDF library kills the process."""
    os.kill(os.getpid(), signal.SIGKILL)


def sleep(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


def allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * 1024 * 1024))


def pid() -> int:
    return os.getpid()
