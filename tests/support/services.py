"""Postgres and Redis for tests and benchmarks: embedded servers unless URLs are given.

`SIBYL_TEST_DATABASE_URL` / `SIBYL_TEST_REDIS_URL` point the suite at servers of your own (their
data is wiped between tests); otherwise throwaway embedded servers start under /tmp.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from app.db.migrate import upgrade
from app.supervision.embedded.postgres import EmbeddedPostgres, start_postgres
from app.supervision.embedded.redis import EmbeddedRedis, start_redis
from app.supervision.vector_check import require_vector_support

TEST_DATABASE = "sibyl_test"


@dataclass
class RunningServices:
    database_url: str
    redis_url: str
    redis: EmbeddedRedis | None
    postgres: EmbeddedPostgres | None


@contextmanager
def running_services(prefix: str = "sibyl-test-") -> Iterator[RunningServices]:
    """Start what is needed, self-check its vector support (`VectorSupportMissing`), migrate the
    database, and clean everything up afterwards."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    postgres: EmbeddedPostgres | None = None
    redis: EmbeddedRedis | None = None
    try:
        database_url = os.environ.get("SIBYL_TEST_DATABASE_URL")
        if not database_url:
            postgres = start_postgres(workdir / "postgres")
            postgres.drop_database(TEST_DATABASE)
            postgres.ensure_database(TEST_DATABASE)
            database_url = postgres.url(TEST_DATABASE)
        redis_url = os.environ.get("SIBYL_TEST_REDIS_URL")
        if not redis_url:
            redis = start_redis(workdir / "redis")
            redis_url = redis.url
        require_vector_support(database_url, server_log=postgres.log_path if postgres else None)
        upgrade(database_url)
        yield RunningServices(database_url, redis_url, redis, postgres)
    finally:
        if redis is not None:
            redis.stop()
        if postgres is not None:
            postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)
