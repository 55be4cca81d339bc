"""One `sibyl run` per DATA_DIR: an exclusive `flock` on `DATA_DIR/sibyl.pid`, which also records
what that run started (so a later run, the guardian and `/readyz` can find it).

Two supervisors on one data folder would run two Redis servers on one append-only file and split
the job queues; the lock refuses the second at once, naming the first. The kernel drops the lock
when its owner dies however it dies (even SIGKILL), so a stale file never blocks a start: the next
run takes the lock, reads what the dead one recorded and stops what it left running.

The file holds one JSON object: the owner's pid and process start time, when it started, the API
URL, its children (`name -> [pid, start time]`), how often it restarted each (`restarts`) and the
services it gave up on (`down`).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.supervision.processes import proc_stat, process_is_alive

LOCK_NAME = "sibyl.pid"


class DataDirInUse(Exception):
    """Another live `sibyl run` holds the DATA_DIR lock (the message names it)."""


def lock_path(data_dir: Path) -> Path:
    """Where the lock and run record of `data_dir` live."""
    return data_dir / LOCK_NAME


def read_record(path: Path) -> dict[str, Any]:
    """The run record at `path`; empty when absent, empty or half-written (written in place)."""
    try:
        record = json.loads(path.read_text() or "{}")
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def owner_alive(record: dict[str, Any]) -> bool:
    """Whether the supervisor that wrote `record` still runs (same pid and process start time)."""
    pid = record.get("pid")
    return isinstance(pid, int) and process_is_alive(pid, str(record.get("start", "")))


def describe_owner(record: dict[str, Any]) -> str:
    """`sibyl run pid N, started <UTC time>` for messages."""
    started = record.get("started_at")
    when = f", started {started}" if started else ""
    return f"sibyl run pid {record.get('pid', '?')}{when}"


def _start_ticks(pid: int) -> str:
    stat = proc_stat(pid)
    return stat[1] if stat is not None else ""


@dataclass
class RunLock:
    """The held lock: keep it open while the run lasts; `update` rewrites the record."""

    path: Path
    fd: int
    previous: dict[str, Any]
    record: dict[str, Any] = field(default_factory=dict)

    def update(self, **values: Any) -> None:
        """Merge `values` into the record and write it (readers ignore a half-written file)."""
        self.record.update(values)
        data = json.dumps(self.record, sort_keys=True).encode()
        os.lseek(self.fd, 0, os.SEEK_SET)
        os.ftruncate(self.fd, 0)
        os.write(self.fd, data)

    def child(self, name: str, pid: int | None) -> None:
        """Record the pid (and start time) of the process now serving as `name`."""
        children = dict(self.record.get("children", {}))
        if pid is None:
            children.pop(name, None)
        else:
            children[name] = [pid, _start_ticks(pid)]
        self.update(children=children)

    def restarted(self, name: str) -> None:
        """Count a restart of `name` (the API's metrics read them: `app.supervision.restart_metrics`)."""
        restarts = dict(self.record.get("restarts", {}))
        restarts[name] = int(restarts.get(name, 0)) + 1
        self.update(restarts=restarts)

    def down(self, name: str, reason: str | None) -> None:
        """Record that the run gave up on `name` (None: it is back)."""
        down = dict(self.record.get("down", {}))
        if reason is None:
            down.pop(name, None)
        else:
            down[name] = reason
        self.update(down=down)

    def release(self) -> None:
        """Empty the record (nothing runs any more) and drop the lock. The file stays: unlinking a
        locked file lets a newcomer lock a fresh inode while someone still holds the old one."""
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, 0)
        with contextlib.suppress(OSError):
            os.close(self.fd)


def acquire(data_dir: Path, api_url: str) -> RunLock:
    """Lock `data_dir` for this process.

    Raises:
        DataDirInUse: A live `sibyl run` holds it; the message names its pid and start time.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    path = lock_path(data_dir)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        record = read_record(path)
        os.close(fd)
        holder = describe_owner(record) if record.get("pid") else "another sibyl run"
        api = f" (API {record['api']})" if record.get("api") else ""
        raise DataDirInUse(
            f"DATA_DIR {data_dir.resolve()} is in use by {holder}{api}; stop it first or set another DATA_DIR"
        ) from None
    lock = RunLock(path, fd, previous=read_record(path))
    lock.update(
        pid=os.getpid(),
        start=_start_ticks(os.getpid()),
        started_at=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        api=api_url,
        children={},
        restarts={},
        down={},
    )
    return lock
