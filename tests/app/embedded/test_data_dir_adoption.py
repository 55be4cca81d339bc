"""Existing `.sibyl/postgres` folders keep working: a folder another wheel ran as another system
user is handed over with its data, and one of another PostgreSQL major version is refused with
what to do, untouched."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.supervision.embedded.postgres import (
    SYSTEM_USER,
    DataDirProblem,
    server_major_version,
    start_postgres,
)

FORMER_USER = "sibyl_former_pg"


@pytest.fixture
def workdir() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="sibyl-adopt-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_folder_of_another_major_version_is_refused_untouched(workdir: Path) -> None:
    data_dir = workdir / "postgres"
    data_dir.mkdir()
    (data_dir / "PG_VERSION").write_text("16\n")
    (data_dir / "base").mkdir()

    with pytest.raises(DataDirProblem) as refused:
        start_postgres(data_dir)

    wanted = server_major_version()
    assert str(refused.value) == (
        f"the embedded Postgres data in {data_dir} was written by PostgreSQL 16, and this Sibyl runs "
        f"PostgreSQL {wanted}: dump it with PostgreSQL 16's pg_dump, move the folder away, start "
        "Sibyl and restore the dump (or set DATABASE_URL to a server of yours)"
    )
    assert sorted(p.name for p in data_dir.iterdir()) == ["PG_VERSION", "base"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root runs Postgres as another system user")
def test_a_folder_another_system_user_ran_is_handed_over_with_its_data(workdir: Path) -> None:
    data_dir = workdir / "postgres"
    postgres = start_postgres(data_dir)
    postgres.ensure_database("kept")
    postgres.psql("kept", "CREATE TABLE notes (body text); INSERT INTO notes VALUES ('still here');")
    postgres.stop()
    if subprocess.run(["id", FORMER_USER], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--no-create-home", FORMER_USER], check=True)
    subprocess.run(["chown", "-R", f"{FORMER_USER}:{FORMER_USER}", str(data_dir)], check=True)

    postgres = start_postgres(data_dir)
    try:
        postgres.ensure_database("kept")
        rows = postgres.psql("kept", "SELECT body FROM notes;")
    finally:
        postgres.stop()

    assert "still here" in rows
    owner = pwd.getpwnam(SYSTEM_USER).pw_uid
    assert all(path.lstat().st_uid == owner for path in [data_dir, *data_dir.rglob("*")])
