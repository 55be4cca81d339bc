"""The start-up self-check: every vector operation Sibyl relies on runs once before anything else
uses the database, and a server that dies or refuses stops Sibyl with one sentence."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from app.supervision.embedded.postgres import EmbeddedPostgres, install_dir, start_postgres
from app.supervision.vector_check import VECTOR_PROBES, vector_support_problem
from tests.support.services import RunningServices

ROOT = Path(__file__).resolve().parents[3]
#: A native function that executes an instruction no processor has (ud2): what a vector library
#: compiled for a newer processor does on an older one.
ILLEGAL_INSTRUCTION_C = """
#include "postgres.h"
#include "fmgr.h"
PG_MODULE_MAGIC;
PG_FUNCTION_INFO_V1(sibyl_illegal_instruction);
Datum sibyl_illegal_instruction(PG_FUNCTION_ARGS) { __builtin_trap(); PG_RETURN_NULL(); }
"""

#: A role that may connect but not create extensions (pgvector is not a trusted extension).
PLAIN_ROLE = "CREATE ROLE plain LOGIN; REVOKE CREATE ON DATABASE checked FROM PUBLIC;"


@pytest.fixture
def throwaway_postgres() -> Iterator[EmbeddedPostgres]:
    """A server of its own: the crash test must not put the session's server into recovery."""
    workdir = Path(tempfile.mkdtemp(prefix="sibyl-vector-check-", dir="/tmp"))
    workdir.chmod(0o755)
    postgres = start_postgres(workdir / "postgres")
    try:
        postgres.ensure_database("checked")
        yield postgres
    finally:
        postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def _illegal_instruction_library(folder: Path) -> Path:
    compiler = shutil.which("gcc")
    if compiler is None:
        pytest.skip("gcc is not installed")
    source, library = folder / "illegal.c", folder / "illegal.so"
    source.write_text(ILLEGAL_INSTRUCTION_C)
    include = install_dir() / "include" / "server"
    subprocess.run([compiler, "-shared", "-fPIC", f"-I{include}", "-o", library, source], check=True)
    library.chmod(0o755)
    return library


def test_every_probe_runs_on_the_embedded_server_and_nothing_is_kept(services: RunningServices) -> None:
    assert vector_support_problem(services.database_url) is None

    with psycopg.connect(services.database_url) as connection:
        leftovers = connection.execute(
            "SELECT count(*) FROM pg_class WHERE relname LIKE 'sibyl_vector_check%'"
        )
        assert leftovers.fetchone() == (0,)


def test_a_vector_library_that_crashes_the_server_is_named_in_one_sentence(
    throwaway_postgres: EmbeddedPostgres,
) -> None:
    """Cosine distance is redirected to a native function that traps, as a vector library built
    for another processor does: the real probes reach it and the server's backend dies."""
    library = _illegal_instruction_library(throwaway_postgres.data_dir.parent)
    throwaway_postgres.psql(
        "checked",
        "CREATE SCHEMA ext; CREATE EXTENSION vector SCHEMA ext; "
        "ALTER DATABASE checked SET search_path = public, ext; "
        "CREATE FUNCTION public.broken_distance(ext.vector, ext.vector) RETURNS float8 "
        f"AS '{library}', 'sibyl_illegal_instruction' LANGUAGE C STRICT; "
        "CREATE OPERATOR public.<=> (LEFTARG = ext.vector, RIGHTARG = ext.vector, "
        "FUNCTION = public.broken_distance);",
    )

    problem = vector_support_problem(
        throwaway_postgres.url("checked"), server_log=throwaway_postgres.log_path
    )

    assert problem is not None
    assert problem.startswith(
        "the database server crashed running cosine distance (<=>) in the start-up self-check (server log: "
    )
    assert "was terminated by signal 4: Illegal instruction" in problem
    assert "its vector library uses a processor instruction this machine does not have" in problem
    assert "run `make clean` and then `make run`" in problem
    assert "\n" not in problem


def test_a_server_without_pgvector_rights_is_refused_in_one_sentence(
    throwaway_postgres: EmbeddedPostgres,
) -> None:
    throwaway_postgres.psql(
        "checked", "CREATE ROLE plain LOGIN; REVOKE CREATE ON DATABASE checked FROM PUBLIC;"
    )
    url = throwaway_postgres.url("checked").replace("postgres@", "plain@")

    problem = vector_support_problem(url)

    assert problem == (
        "the database refused the pgvector extension in the start-up self-check (permission denied to "
        'create extension "vector"); Sibyl needs pgvector 0.5 or newer: install it on that server, or '
        "unset DATABASE_URL to use the embedded Postgres"
    )


def test_sibyl_run_stops_before_migrating_when_the_self_check_fails(
    throwaway_postgres: EmbeddedPostgres, services: RunningServices, tmp_path: Path
) -> None:
    throwaway_postgres.psql(
        "checked", "CREATE ROLE plain LOGIN; REVOKE CREATE ON DATABASE checked FROM PUBLIC;"
    )
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("LLM_API_KEY", "TAVILY_API_KEY")},
        "DATABASE_URL": throwaway_postgres.url("checked").replace("postgres@", "plain@"),
        "REDIS_URL": services.redis_url,
        "DATA_DIR": str(tmp_path / "data"),
        "API_PORT": "0",
        "PYTHONPATH": str(ROOT),
    }

    finished = subprocess.run(
        [sys.executable, "-m", "app.cli", "run"], env=env, capture_output=True, text=True, timeout=120
    )

    assert finished.returncode == 1
    refusals = [line for line in finished.stderr.splitlines() if line.startswith("sibyl: ")]
    assert refusals == [
        "sibyl: the database refused the pgvector extension in the start-up self-check (permission "
        'denied to create extension "vector"); Sibyl needs pgvector 0.5 or newer: install it on that '
        "server, or unset DATABASE_URL to use the embedded Postgres"
    ], finished.stderr
    assert "Traceback" not in finished.stderr
    assert "applying database migrations" not in finished.stdout


def test_the_probes_cover_every_operation_sibyl_runs() -> None:
    names = {probe.name for probe in VECTOR_PROBES}

    assert {"cosine distance (<=>)", "storing vectors", "reading vectors back", "an HNSW index"} <= names
