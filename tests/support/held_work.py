"""More functions for document-process tests (importable by name, so a spawned child can run
them): calls that keep memory, and calls the test ends when it chooses."""

from __future__ import annotations

import os
import time

_held: list[bytearray] = []


def hold(megabytes: int) -> int:
    """Allocate `megabytes` MB and keep it after the call, as a library that does not free would."""
    _held.append(bytearray(megabytes * 1024 * 1024))
    return os.getpid()


def pid_when_file_exists(path: str) -> int:
    """Wait until `path` exists (the test decides when this call ends), then return the pid."""
    while not os.path.exists(path):
        time.sleep(0.01)
    return os.getpid()
