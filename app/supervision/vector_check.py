"""The start-up self-check of the database's vector support, before anything else uses it.

A pgvector library built for another processor kills the backend that runs it (SIGILL), and the
postmaster then restarts every connection in recovery mode: without this check, `sibyl run`
would come up and fail on the first search, and the test suite would fail in hundreds of places.
So `sibyl run` and the test fixtures first run each vector operation Sibyl relies on once, at the
vector size it stores, in a throwaway connection and a transaction that is rolled back, and stop
with one sentence when one of them kills the server or is refused.

    require_vector_support(database_url, server_log=postgres.log_path)  # VectorSupportMissing
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from app.config import libpq_url
from app.supervision.preflight import first_line

CONNECT_SECONDS = 10
#: Vector size of the probes: SIMD loops only run on vectors this long (the default embedding size).
PROBE_DIMENSIONS = 384
#: What the server log says when a backend died, and when it ran an instruction the processor lacks.
DEATH_MARKER = "was terminated by signal"
ILLEGAL_INSTRUCTION = "signal 4: Illegal instruction"
LOG_WAIT_SECONDS = 5.0
RECOVERY_WAIT_SECONDS = 30.0
CPU_FLAGS = Path("/proc/cpuinfo")


@dataclass(frozen=True)
class Probe:
    """One operation Sibyl relies on, as the SQL that runs it."""

    name: str
    sql: str


def _vector(seed: int) -> str:
    """A probe vector literal (an array cast, which also runs `array_to_vector`)."""
    return f"(SELECT array_agg(sin(i * {seed})::real) FROM generate_series(1, {PROBE_DIMENSIONS}) i)::vector"


VECTOR_PROBES: tuple[Probe, ...] = (
    Probe("the pgvector extension", "CREATE EXTENSION IF NOT EXISTS vector"),
    Probe(
        "a vector column",
        f"CREATE TEMP TABLE sibyl_vector_check (id int, embedding vector({PROBE_DIMENSIONS})) ON COMMIT DROP",
    ),
    Probe(
        "storing vectors",
        "INSERT INTO sibyl_vector_check SELECT n, "
        f"(SELECT array_agg(sin(i * n)::real) FROM generate_series(1, {PROBE_DIMENSIONS}) i)::vector "
        "FROM generate_series(1, 64) n",
    ),
    Probe("reading vectors back", "SELECT embedding::text, vector_send(embedding) FROM sibyl_vector_check"),
    Probe("cosine distance (<=>)", f"SELECT {_vector(1)} <=> {_vector(2)}"),
    Probe("Euclidean distance (<->)", f"SELECT {_vector(1)} <-> {_vector(3)}"),
    Probe("inner product (<#>)", f"SELECT {_vector(1)} <#> {_vector(4)}"),
    Probe("vector norm", f"SELECT vector_norm({_vector(5)}), l2_normalize({_vector(5)})"),
    Probe("the average of vectors", "SELECT avg(embedding) FROM sibyl_vector_check"),
    Probe(
        "nearest-neighbour search",
        f"SELECT id FROM sibyl_vector_check ORDER BY embedding <=> {_vector(7)}, id LIMIT 5",
    ),
    Probe(
        "an HNSW index",
        "CREATE INDEX ON sibyl_vector_check USING hnsw (embedding vector_cosine_ops)",
    ),
)


class VectorSupportMissing(RuntimeError):
    """The database cannot run Sibyl's vector operations; the message is one sentence saying what
    failed, why if known, and what to do."""


class ServerDied(Exception):
    """The connection broke while a probe ran: the backend died."""


def require_vector_support(database_url: str, *, server_log: Path | None = None) -> None:
    """Raise `VectorSupportMissing` unless every vector operation Sibyl relies on runs."""
    problem = vector_support_problem(database_url, server_log=server_log)
    if problem is not None:
        raise VectorSupportMissing(problem)


def vector_support_problem(
    database_url: str,
    *,
    server_log: Path | None = None,
    probes: tuple[Probe, ...] = VECTOR_PROBES,
) -> str | None:
    """None when every probe runs; otherwise one sentence: what failed, why if known, what to do.

    `server_log` is the embedded server's log, read for the reason a backend died.
    """
    log_start = _size(server_log)
    dsn = libpq_url(database_url)
    try:
        failure = _run_probes(dsn, probes)
    except psycopg.OperationalError as exc:
        return f"the database did not answer the vector self-check ({_reason(exc)}); is it running?"
    if failure is None:
        return None
    failed, error = failure
    if isinstance(error, ServerDied):
        logged = _await_log_line(server_log, log_start, DEATH_MARKER) if server_log else None
        _await_recovery(dsn)
        return _death_sentence(failed, error, logged)
    return (
        f"the database refused {failed.name} in the start-up self-check ({_reason(error)}); "
        "Sibyl needs pgvector 0.5 or newer: install it on that server, or unset DATABASE_URL to use "
        "the embedded Postgres"
    )


def _run_probes(dsn: str, probes: tuple[Probe, ...]) -> tuple[Probe, Exception] | None:
    """The first probe that fails and its error (None when all run); nothing is kept (rolled back)."""
    connection = psycopg.connect(dsn, connect_timeout=CONNECT_SECONDS, autocommit=False)
    try:
        for probe in probes:
            try:
                cursor = connection.execute(probe.sql)
                if cursor.description is not None:
                    cursor.fetchall()
            except psycopg.OperationalError as exc:
                return probe, ServerDied(_reason(exc))
            except psycopg.Error as exc:
                return probe, exc
        return None
    finally:
        if not connection.broken:
            connection.rollback()
        connection.close()


def _death_sentence(failed: Probe, error: ServerDied, logged: str | None) -> str:
    illegal = logged is not None and ILLEGAL_INSTRUCTION in logged
    cause = (
        "its vector library uses a processor instruction this machine does not have" + _missing_features()
        if illegal
        else "the server's process died"
    )
    said = f" (server log: {logged})" if logged else f" ({error})"
    return (
        f"the database server crashed running {failed.name} in the start-up self-check{said}: {cause}; "
        "run `make clean` and then `make run` to reinstall the embedded Postgres, or set DATABASE_URL "
        "to a Postgres whose pgvector was built for this processor"
    )


def _missing_features() -> str:
    """` (this processor has no AVX-512)` when /proc/cpuinfo says so: the usual culprit."""
    try:
        flags = next(
            (line for line in CPU_FLAGS.read_text().splitlines() if line.startswith("flags")), ""
        ).split()
    except OSError:
        return ""
    return " (this processor has no AVX-512)" if flags and "avx512f" not in flags else ""


def _await_recovery(dsn: str) -> None:
    """Wait (up to `RECOVERY_WAIT_SECONDS`) until the server answers again after a backend died.
    Its crash recovery takes about a second; a shutdown asked for in the middle of it can hang."""
    deadline = time.monotonic() + RECOVERY_WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            psycopg.connect(dsn, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            time.sleep(0.2)


def _size(log: Path | None) -> int:
    try:
        return log.stat().st_size if log is not None else 0
    except OSError:
        return 0


def _await_log_line(log: Path, start: int, marker: str) -> str | None:
    """The first line logged after `start` that contains `marker`, from its message on. The
    postmaster logs a backend's death after reaping it, which can be after the client saw its
    connection close, so this waits for it up to `LOG_WAIT_SECONDS`."""
    deadline = time.monotonic() + LOG_WAIT_SECONDS
    while True:
        try:
            with log.open("rb") as file:
                file.seek(start)
                lines = file.read().decode(errors="replace").splitlines()
        except OSError:
            return None
        found = next((line for line in lines if marker in line), None)
        if found is not None:
            message = found.find("LOG:")
            return " ".join(found[message + 4 if message >= 0 else 0 :].split())[:200]
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.1)


def _reason(error: BaseException) -> str:
    """An error's first line, cut to fit the one sentence it goes into."""
    return first_line(error)[:200]
