"""The supervisor's parts in process, fast: giving up on one crash-looping service while an essential
one (the API) failing stops everything; the DATA_DIR lock; stopping what a killed run left behind;
why Postgres did not start, from its log."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from app.config import Settings
from app.supervision.embedded.postgres import log_problem
from app.supervision.guardian import stop_left_behind
from app.supervision.processes import process_is_alive
from app.supervision.run_lock import DataDirInUse, acquire, read_record
from app.supervision.supervisor import Supervisor
from schema.context import Services
from schema.transport.readiness import supervised_states

NO_SPACE = 'PANIC:  could not write to file "pg_wal/xlogtemp.41": No space left on device'


@dataclass
class Flaky:
    """A service that is never up for long and (when `fails_to_start`) cannot be started again."""

    name: str
    fails_to_start: str | None = None
    starts: int = 0

    def start(self) -> None:
        self.starts += 1
        if self.fails_to_start and self.starts > 1:
            raise RuntimeError(self.fails_to_start)

    def is_running(self) -> bool:
        return False

    def pid(self) -> int | None:
        return 4242

    def exit_detail(self) -> str:
        return "exit code 3"

    def stop(self) -> None:
        pass


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, restart_backoff_seconds=0.001, restart_max_failures=2, **values)  # type: ignore[call-arg]


def test_a_crash_looping_postgres_is_given_up_with_its_reason_and_recorded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lock = acquire(tmp_path, "http://127.0.0.1:1")
    supervisor = Supervisor(settings(data_dir=tmp_path), lock)
    postgres = Flaky(
        "postgres", fails_to_start=f"CalledProcessError: pg_ctl failed; postgres log: {NO_SPACE}"
    )
    supervisor.start(postgres)
    with caplog.at_level(logging.WARNING, "app.supervision.supervisor"):
        for _ in range(100):
            assert supervisor.check(), "giving up on Postgres must not stop the API"
            time.sleep(0.002)
    given_up = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(given_up) == 1 and "giving up on the postgres" in given_up[0]
    assert "No space left on device" in given_up[0] and "the API keeps serving" in given_up[0]
    assert postgres.starts == 3  # the first start and two failed restarts
    record = read_record(tmp_path / "sibyl.pid")
    assert "No space left on device" in record["down"]["postgres"]
    services = cast(Services, SimpleNamespace(settings=SimpleNamespace(data_dir=tmp_path)))
    assert supervised_states(services)["postgres"].startswith("down: did not restart: RuntimeError: ")
    lock.release()
    assert supervised_states(services) == {}, "no run, no supervised state"


def test_an_api_that_keeps_dying_stops_everything(tmp_path: Path) -> None:
    supervisor = Supervisor(settings(data_dir=tmp_path))
    supervisor.start(Flaky("api"))
    for _ in range(100):
        if not supervisor.check():
            return
        time.sleep(0.002)
    pytest.fail("the API kept failing and everything went on")


def test_the_lock_refuses_a_second_holder_and_names_the_first(tmp_path: Path) -> None:
    first = acquire(tmp_path, "http://127.0.0.1:8000")
    try:
        with pytest.raises(DataDirInUse) as refused:
            acquire(tmp_path, "http://127.0.0.1:8001")
    finally:
        first.release()
    message = str(refused.value)
    assert message.startswith(f"DATA_DIR {tmp_path.resolve()} is in use by sibyl run pid ")
    assert "started " in message and "(API http://127.0.0.1:8000)" in message
    acquire(tmp_path, "http://127.0.0.1:8001").release()  # released: free again


def test_what_a_killed_run_left_behind_is_stopped_and_named(tmp_path: Path) -> None:
    left = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        lock = acquire(tmp_path, "http://127.0.0.1:1")
        lock.child("worker", left.pid)
        record = dict(lock.record, pid=1, start="0")  # as a dead supervisor left it
        lock.release()
        assert stop_left_behind(record, None, seconds=5) == [f"worker pid {left.pid}"]
        left.wait(5)
        assert not process_is_alive(left.pid, "")
        assert stop_left_behind(record, None, seconds=5) == []
    finally:
        left.kill()
        left.wait()


def test_log_problem_names_the_last_serious_line(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.write_text(f"LOG:  starting\n2026-01-01 00:00:00 UTC [7] {NO_SPACE}\nLOG:  aborting startup\n")
    assert log_problem(log) == f"postgres log: {' '.join(NO_SPACE.split())}"
    assert "unreadable" in log_problem(tmp_path / "missing")
