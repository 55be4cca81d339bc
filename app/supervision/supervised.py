"""The processes `sibyl run` supervises: the API and worker (Python children), the embedded Redis and
the embedded Postgres, behind one small interface the supervisor starts, watches, restarts and stops.

Children started here get SIGTERM from the kernel when the supervisor dies (`die_with_parent`), so a
SIGKILLed supervisor does not leave an API or worker serving unsupervised; the guardian
(`app.supervision.guardian`) stops the Postgres, which is not our child.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from dataclasses import dataclass
from typing import Protocol

from app.supervision.embedded.postgres import EmbeddedPostgres, process_runs
from app.supervision.embedded.redis import EmbeddedRedis
from app.supervision.processes import die_with_parent

CHILD_STOP_SECONDS = 15


class Service(Protocol):
    """A process the supervisor starts, watches, restarts and stops."""

    name: str

    def start(self) -> None: ...
    def is_running(self) -> bool: ...
    def pid(self) -> int | None: ...
    def exit_detail(self) -> str: ...
    def stop(self) -> None: ...


@dataclass
class ChildProcess:
    """The API or the worker: a Python child process in a session of its own."""

    name: str
    args: list[str]
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.args,
            env=self.env,
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            preexec_fn=die_with_parent(),  # noqa: PLW1509 - the supervisor starts children from one thread
        )

    def is_running(self) -> bool:
        running = self.process is not None and self.process.poll() is None
        if not running and self.process is not None:
            kill_group(self.process.pid)  # what it left behind (e.g. its document processes)
        return running

    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def exit_detail(self) -> str:
        return describe_exit(None if self.process is None else self.process.poll())

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(CHILD_STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        kill_group(self.process.pid)


@dataclass
class RedisService:
    """The embedded Redis (valkey), restarted on the same port and data directory."""

    server: EmbeddedRedis
    name: str = "redis"

    def start(self) -> None:
        self.server.start()

    def is_running(self) -> bool:
        return self.server.is_running()

    def pid(self) -> int | None:
        return self.server.pid

    def exit_detail(self) -> str:
        return describe_exit(self.server.returncode)

    def stop(self) -> None:
        self.server.stop()


@dataclass
class PostgresService:
    """The embedded Postgres, restarted on the same data directory (and so the same socket)."""

    server: EmbeddedPostgres
    name: str = "postgres"

    def start(self) -> None:
        self.server.restart()

    def is_running(self) -> bool:
        return self.server.is_running()

    def pid(self) -> int | None:
        return self.server.pid()

    def exit_detail(self) -> str:
        return f"the postmaster is gone ({self.server.log_problem()})"

    def stop(self) -> None:
        self.server.stop()
        pid = self.server.pid()
        if pid is not None:
            process_runs(pid)  # reap it if it was adopted


def describe_exit(returncode: int | None) -> str:
    """`killed by SIGKILL`, `exit code 3`, or `exited`."""
    if returncode is None:
        return "exited"
    if returncode < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-returncode).name}"
    return f"exit code {returncode}"


def kill_group(pgid: int) -> None:
    """SIGKILL a process group, if any of it is left."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
