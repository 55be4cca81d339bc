"""Which Postgres a `sibyl` process uses: DATABASE_URL, or the embedded server in DATA_DIR
(started when none runs on its data), once its pgvector passed the self-check
(`app.supervision.vector_check`). `sibyl run` watches the server it starts; a command group
(`app.commands.database`) stops it when its work is done."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from app.config import Settings
from app.supervision.embedded.postgres import (
    DataDirProblem,
    EmbeddedPostgres,
    postmaster_pid,
    process_runs,
    start_postgres,
)
from app.supervision.vector_check import VectorSupportMissing, require_vector_support

EMBEDDED_DATABASE = "sibyl"


#: Start-up refusals that are one sentence for the user, not a traceback.
StartupRefused = (DataDirProblem, VectorSupportMissing)


def provide_database(settings: Settings, stack: ExitStack, say: Callable[[str], None] = print) -> str:
    """DATABASE_URL, or the embedded server's URL (started if needed, and then stopped on exit),
    once its vector support passed the self-check (else `VectorSupportMissing`)."""
    if settings.database_url:
        database_url = settings.database_url
    else:
        postgres, started = embedded_postgres(settings, say)
        if started:
            stack.callback(postgres.stop)
        database_url = postgres.url(EMBEDDED_DATABASE)
    check_vector_support(settings, database_url)
    return database_url


def check_vector_support(settings: Settings, database_url: str) -> None:
    """The self-check of `app.supervision.vector_check`, reading the embedded server's log for the cause."""
    data = embedded_data_dir(settings)
    require_vector_support(database_url, server_log=data / "log" if data else None)


def embedded_postgres(settings: Settings, say: Callable[[str], None]) -> tuple[EmbeddedPostgres, bool]:
    """The embedded server, started unless one already runs on its data; True if started here."""
    data_dir = settings.data_dir / "postgres"
    pid = postmaster_pid(data_dir.expanduser().resolve())
    already_running = pid is not None and process_runs(pid)
    postgres = start_postgres(data_dir)
    postgres.ensure_database(EMBEDDED_DATABASE)
    say(f"embedded Postgres (pgvector) data in {data_dir}")
    return postgres, not already_running


def embedded_data_dir(settings: Settings) -> Path | None:
    """The embedded Postgres' data directory, when this run uses one."""
    return None if settings.database_url else (settings.data_dir / "postgres").expanduser().resolve()
