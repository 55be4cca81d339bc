"""Stop what a dead `sibyl run` left running: its API, worker, embedded Redis and Postgres.

`sibyl run` starts `python -m app.supervision.guardian LOCKFILE PGDATA` with a pipe on its stdin and keeps the
write end. When the supervisor dies, however it dies (SIGKILL, the OOM killer), the kernel closes
the pipe; the guardian reads end-of-file and stops every process the run record (`app.supervision.run_lock`)
names, Postgres included (the API and worker also get SIGTERM from the kernel, PR_SET_PDEATHSIG,
but a postmaster started by pg_ctl is nobody's child). A supervisor stopping normally writes `stop`
first, and the guardian then leaves everything to it. The next `sibyl run` calls
`stop_left_behind` too, for runs whose guardian died with them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from app.supervision.processes import process_is_alive
from app.supervision.run_lock import read_record

STOP_WORD = b"stop"
STOP_SECONDS = 10.0
#: SIGINT is Postgres' fast shutdown (roll back, close connections, checkpoint); SIGQUIT its immediate one.
POSTGRES_STOP, POSTGRES_KILL = signal.SIGINT, signal.SIGQUIT


def _alive_children(record: dict[str, Any], pgdata: Path | None) -> dict[str, int]:
    """`name -> pid` of the processes of `record` that still run (the same processes, by start time)."""
    alive: dict[str, int] = {}
    for name, entry in dict(record.get("children", {})).items():
        if isinstance(entry, list) and len(entry) == 2 and process_is_alive(int(entry[0]), str(entry[1])):
            alive[name] = int(entry[0])
    if pgdata is not None and "postgres" not in alive:
        pid = _postmaster(pgdata)
        if pid is not None and record.get("children") and process_is_alive(pid, ""):
            alive["postgres"] = pid  # restarted after the record was written
    return alive


def _postmaster(pgdata: Path) -> int | None:
    try:
        first = (pgdata / "postmaster.pid").read_text().split("\n", 1)[0].strip()
    except OSError:
        return None
    return int(first) if first.isdigit() else None


def _signal(name: str, pid: int, hard: bool) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if name == "postgres":
            os.kill(pid, POSTGRES_KILL if hard else POSTGRES_STOP)
        else:  # the API, worker and Redis lead process groups of their own (their document processes)
            os.killpg(pid, signal.SIGKILL if hard else signal.SIGTERM)


def _wait_gone(pids: Iterable[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(process_is_alive(pid, "") for pid in pids):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def stop_left_behind(record: dict[str, Any], pgdata: Path | None, seconds: float = STOP_SECONDS) -> list[str]:
    """Stop the live processes `record` names (gently, then for good after `seconds`);
    `["api pid 12", ...]` of those that were running."""
    alive = _alive_children(record, pgdata)
    for name, pid in alive.items():
        _signal(name, pid, hard=False)
    if not _wait_gone(alive.values(), seconds):
        for name, pid in alive.items():
            _signal(name, pid, hard=True)
        _wait_gone(alive.values(), seconds)
    return [f"{name} pid {pid}" for name, pid in alive.items()]


def main(argv: list[str]) -> int:
    """Wait for the supervisor's pipe to close; stop its processes unless it said `stop`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lock_file, pgdata = Path(argv[0]), (Path(argv[1]) if len(argv) > 1 and argv[1] else None)
    said = sys.stdin.buffer.read()
    if said.strip() == STOP_WORD:
        return 0
    stopped = stop_left_behind(read_record(lock_file), pgdata)
    if stopped:
        print(
            f"sibyl guardian: the supervisor is gone; stopped {', '.join(stopped)}",
            file=sys.stderr,
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
