"""`sibyl run` under operator mistakes and faults: one run per DATA_DIR (the second is refused at
once, naming the first), nothing left serving when the supervisor is SIGKILLed, and start-up
problems (a port in use, a bad setting, an unreachable database) reported in seconds as one line
each, before anything starts and without a banner or a traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.supervision.embedded.redis import free_port
from tests.support.sibyl_process import ROOT, process_is_gone, start_sibyl, wait_until

#: A start-up check fails without starting or waiting for anything, so `sibyl run` exits as soon as
#: Python has imported it: about a second on an idle machine, but 8-12 s on a loaded 2-core one, so
#: the bound is generous (the child is killed at 50 s). It still rules out hanging on a service that
#: never answers; that nothing started is asserted from the output and the data folder.
FAST_SECONDS = 30.0


@pytest.fixture
def data_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="sibyl-faults-", dir="/tmp") as folder:
        yield Path(folder)


def sibyl_run(data_dir: Path, timeout: float = 50.0, **env: str) -> tuple[int, str, float]:
    """`sibyl run` in the foreground: exit code, output and seconds taken."""
    child_env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "LLM_API_KEY", "TAVILY_API_KEY")
    }
    child_env.update(DATA_DIR=str(data_dir), PYTHONPATH=str(ROOT), **env)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "run"],
        env=child_env,
        cwd=data_dir,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr, time.monotonic() - started


def port_is_open(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.timeout(90)
def test_a_second_run_is_refused_and_a_killed_supervisor_leaves_nothing_serving(data_dir: Path) -> None:
    api_port, redis_port = free_port(), free_port()
    first = start_sibyl(data_dir, api_port, redis_port)
    try:
        ready = httpx.get(f"http://127.0.0.1:{api_port}/readyz", timeout=10)
        assert ready.status_code == 200, ready.text
        assert ready.json() == {
            "status": "ready",
            "checks": {"postgres": "ok", "redis": "ok", "worker": "ok"},
        }
        code, output, seconds = sibyl_run(data_dir, API_PORT=str(free_port()), EMBEDDED_REDIS_PORT="0")
        assert code == 1 and seconds < FAST_SECONDS, output
        holder = f"sibyl run pid {first.process.pid}, started "
        assert f"DATA_DIR {data_dir.resolve()} is in use by {holder}" in output
        assert "Sibyl is up" not in output and "embedded Redis" not in output
        children = {
            name: first.wait_for_pid(name, 1, timeout=5) for name in ("api", "worker", "redis", "postgres")
        }

        first.process.send_signal(signal.SIGKILL)  # only the supervisor, as the OOM killer would
        first.process.wait(10)
        wait_until(
            lambda: all(process_is_gone(pid) for pid in children.values()), 20, "its processes to stop"
        )
        assert not port_is_open(api_port) and not port_is_open(redis_port)
        assert not (data_dir / "postgres" / "postmaster.pid").exists()
    finally:
        if first.process.poll() is None:
            first.stop()

    with socket.socket() as taken:  # the dead run's lock does not block the next start: it gets
        taken.bind(("127.0.0.1", 0))  # as far as the port check (cheaper than a whole start)
        taken.listen()
        code, output, _ = sibyl_run(data_dir, API_PORT=str(taken.getsockname()[1]))
    assert code == 1 and "is in use (API_PORT)" in output and "DATA_DIR" not in output, output


@pytest.mark.timeout(60)
def test_a_port_in_use_fails_at_once_before_anything_starts(data_dir: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, output, seconds = sibyl_run(data_dir, API_PORT=str(port))

    assert code == 1 and seconds < FAST_SECONDS, output
    assert f"port {port} is in use (API_PORT)" in output
    assert "Sibyl is up" not in output and "Traceback" not in output
    assert not (data_dir / "postgres").exists(), "nothing may start before the checks"


@pytest.mark.timeout(60)
def test_invalid_settings_name_their_environment_variables(data_dir: Path) -> None:
    code, output, seconds = sibyl_run(data_dir, API_PORT="abc", MAX_JOB_ATTEMPTS="-3")

    assert code != 0 and seconds < FAST_SECONDS, output
    lines = output.strip().splitlines()
    assert "sibyl: API_PORT=abc: must be a valid integer" in lines
    assert any(line.startswith("sibyl: MAX_JOB_ATTEMPTS=-3: must be greater than") for line in lines)
    assert "README.md" in lines[-1]
    assert "Traceback" not in output and len(lines) == 3


@pytest.mark.timeout(60)
def test_unreachable_database_urls_fail_fast_with_one_masked_line_each(data_dir: Path) -> None:
    closed = free_port()
    code, output, seconds = sibyl_run(
        data_dir,
        API_PORT=str(free_port()),
        DATABASE_URL=f"postgresql://sibyl:hunter2@127.0.0.1:{closed}/none",
        REDIS_URL=f"redis://:hunter3@127.0.0.1:{closed}/0",
    )

    assert code == 1 and seconds < FAST_SECONDS, output
    lines = output.strip().splitlines()
    assert lines[0].startswith(
        f"sibyl: cannot connect to DATABASE_URL=postgresql://sibyl:***@127.0.0.1:{closed}/none: "
    )
    assert lines[1].startswith(f"sibyl: cannot connect to REDIS_URL=redis://:***@127.0.0.1:{closed}/0: ")
    assert len(lines) == 2, output
    assert "hunter" not in output and "Traceback" not in output and "Sibyl is up" not in output


@pytest.mark.timeout(90)
def test_a_postgres_that_cannot_restart_is_given_up_with_its_reason_while_the_api_answers(
    data_dir: Path,
) -> None:
    api_port = free_port()
    settings = {"RESTART_MAX_FAILURES": "1", "RESTART_BACKOFF_SECONDS": "0.2"}
    sibyl = start_sibyl(data_dir, api_port, free_port(), settings)
    try:
        with (data_dir / "postgres" / "postgresql.conf").open("a") as conf:
            conf.write("\nshared_buffers = 'plenty'\n")  # the next start fails, as on a full disk
        os.kill(sibyl.wait_for_pid("postgres", 1, timeout=5), signal.SIGKILL)
        wait_until(
            lambda: "giving up on the postgres" in sibyl.log(), 60, "the supervisor to give up on Postgres"
        )

        summary = next(line for line in sibyl.log().splitlines() if "giving up on the postgres" in line)
        assert (
            "ERROR app.supervision.supervisor: postgres did not restart: RuntimeError: pg_ctl start failed"
            in summary
        )
        assert "; postgres log: FATAL: configuration file" in summary and "contains errors" in summary, (
            summary
        )
        assert sibyl.process.poll() is None, "the API keeps answering"
        assert httpx.get(f"http://127.0.0.1:{api_port}/healthz", timeout=10).status_code == 200
        ready = httpx.get(f"http://127.0.0.1:{api_port}/readyz", timeout=10)
        assert ready.status_code == 503 and "postgres" in ready.json()["failing"], ready.text
    finally:
        exit_code = sibyl.stop()
    assert exit_code == 0
