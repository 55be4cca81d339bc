"""Who holds an analysis run, and whether that worker is still alive.

A lease owner names the worker process: host, pid, the process's start time, and a scope (boot id
and pid namespace) that tells whether another process shares its view of pids. A worker on the
same host and scope can then see that an owner's process is gone (no such pid, a zombie, or a pid
reused by a newer process) and take the run over at once. An owner on another host (or of an
older name format) is judged only by time: its lease must lapse.
"""

from __future__ import annotations

import functools
import os
import socket
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.db.models import AnalysisRun, RunStatus
from app.supervision.processes import proc_stat, process_is_alive

ACTIVE_RUN_STATUSES = (RunStatus.PENDING, RunStatus.RUNNING)
#: A run an operator stopped (`cancelAnalysis`): never leased, resumed or swept again unless resumed by hand.
CANCELLED = RunStatus.CANCELLED
#: A PENDING run younger than this still has its start job in the queue.
PENDING_GRACE_SECONDS = 60.0
HOST_CHARS = 64


@dataclass(frozen=True)
class ProcessIdentity:
    """One process, named so that another process on the same machine can tell it has gone."""

    host: str
    pid: int
    started: str
    scope: str

    def owner(self, nonce: str) -> str:
        """A lease owner name: `host:pid:started:scope:nonce`."""
        return f"{self.host}:{self.pid}:{self.started}:{self.scope}:{nonce}"

    @classmethod
    def parse(cls, owner: str) -> ProcessIdentity | None:
        """The process an owner name describes, or None for names of another format."""
        parts = owner.split(":")
        if len(parts) != 5 or not parts[1].isdigit():
            return None
        host, pid, started, scope, _ = parts
        return cls(host=host, pid=int(pid), started=started, scope=scope)


def current_process() -> ProcessIdentity:
    """This process's identity (computed once per pid, so a forked child gets its own)."""
    return _identity(os.getpid())


@functools.lru_cache(maxsize=4)
def _identity(pid: int) -> ProcessIdentity:
    stat = proc_stat(pid)
    return ProcessIdentity(
        host=socket.gethostname().replace(":", "-")[:HOST_CHARS],
        pid=pid,
        started=stat[1] if stat else "",
        scope=_machine_scope(),
    )


def _machine_scope() -> str:
    """Boot id and pid namespace: two processes with equal scopes see the same pids."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()[:8]
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return ""
    return f"{boot}-{namespace}"


def owner_is_gone(owner: str) -> bool:
    """True only when certain: the owner ran on this machine, in this pid scope, and has exited."""
    other = ProcessIdentity.parse(owner)
    me = current_process()
    if other is None or not me.scope or (other.host, other.scope) != (me.host, me.scope):
        return False
    return not process_is_alive(other.pid, other.started)


@dataclass(frozen=True)
class LeaseState:
    """A run's lease as a worker about to take it sees it."""

    held: bool
    remaining_seconds: float = 0.0
    #: Why an earlier start did not finish the run; None when no start was interrupted.
    interrupted: str | None = None


def lease_state(run: AnalysisRun, now: datetime) -> LeaseState:
    """Held by a live worker, or free (and if so, why its last worker did not finish it)."""
    owner, expires = run.lease_owner, run.lease_expires_at
    if owner is not None:
        if owner_is_gone(owner):
            return LeaseState(held=False, interrupted=f"its worker {owner} died while running it")
        if expires is not None and expires > now:
            return LeaseState(held=True, remaining_seconds=(expires - now).total_seconds())
        return LeaseState(held=False, interrupted=f"its worker {owner} stopped renewing its lease")
    if run.status == RunStatus.RUNNING:
        return LeaseState(held=False, interrupted="its job stopped before the analysis finished")
    return LeaseState(held=False)
