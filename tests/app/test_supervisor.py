"""`sibyl run` (what `make run` calls): embedded services, API and worker up; data survives a
restart; a process that dies is restarted (an interrupted analysis resumes at once, with nothing
duplicated); a worker whose restarts keep failing is given up while the API serves, an API whose
restarts keep failing stops everything; SIGINT (Ctrl-C) stops every process it started, in order."""

from __future__ import annotations

import os
import re
import signal
import socket
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from redis import Redis

from app.supervision.embedded.redis import free_port
from tests.fixtures import pdfs
from tests.support.checkpoints import stored_tasks_sql
from tests.support.investigators import slow_first_env
from tests.support.redis_persistence import wait_until_persisted
from tests.support.sibyl_process import (
    SibylProcess,
    database_id,
    invocations,
    process_is_gone,
    start_sibyl,
    wait_until,
)

COUNT = "query { reports(first: 5) { totalCount edges { node { status } } } }"
SLOW_AGENTS = {"geography", "academic", "news_media"}
#: A resume "at once" after the restart, as opposed to one that waits for the dead worker's 60 s
#: lease to lapse. The time includes the new worker's Python start-up (8-12 s on a loaded 2-core
#: machine), so the bound sits well below the lease, not near the idle-machine time.
RESUME_BOUND_SECONDS = 40.0


@pytest.fixture
def data_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="sibyl-run-", dir="/tmp") as folder:
        yield Path(folder)


def port_is_open(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def api_answers(sibyl: SibylProcess, total: int) -> Callable[[], bool]:
    def answers() -> bool:
        try:
            return bool(sibyl.graphql(COUNT)["reports"]["totalCount"] == total)
        except (AssertionError, httpx.HTTPError, ValueError):
            return False

    return answers


def assert_stopped_in_order(sibyl: SibylProcess, exit_code: int, expected_exit: int = 0) -> None:
    """Everything stopped: API, worker, Redis, Postgres in that order, no process or port left."""
    log = sibyl.log()
    assert exit_code == expected_exit, log[-4000:]
    assert re.findall(r"app\.supervision\.supervisor: stopped (\w+)", log) == [
        "api",
        "worker",
        "redis",
        "postgres",
    ]
    for name in ("api", "worker", "redis", "postgres"):
        assert all(process_is_gone(pid) for pid in sibyl.pids(name)), name
    assert not port_is_open(sibyl.api_port)
    assert not port_is_open(sibyl.redis_port)
    assert not (sibyl.data_dir / "postgres" / "postmaster.pid").exists()


def stored_specialists(sibyl: SibylProcess, run_id: str) -> int:
    """How many specialists of the running step have their LangGraph writes stored (a killed worker
    runs again only the others)."""
    thread = database_id(run_id)
    return int(sibyl.query(stored_tasks_sql("%s"), thread, thread)[0][0])


def analysis_running_on_slow_agent(sibyl: SibylProcess, run_id: str) -> bool:
    """Every fast specialist the run routed work to has finished (and its completion is stored)
    and a slow one works."""
    routed = {
        row[0]
        for row in sibyl.query(
            "SELECT DISTINCT agent FROM routing_assignments WHERE analysis_run_id = %s",
            database_id(run_id),
        )
    }
    calls = invocations(sibyl.data_dir / "invocations.jsonl")
    ended = {call["agent"] for call in calls if call["phase"] == "end"}
    started = {call["agent"] for call in calls if call["phase"] == "start"}
    # The specialists start concurrently, in no fixed order: on a loaded machine data/metrics may
    # not have begun when legal is done, and killing the worker then would interrupt a fast one.
    if not routed or not started & SLOW_AGENTS or (routed - SLOW_AGENTS) - ended:
        return False
    stored = sibyl.query(
        "SELECT count(DISTINCT agent_name) FROM events "
        "WHERE event_type = 'agent_completed' AND agent_name = ANY(%s)",
        sorted(ended),
    )[0][0]
    return bool(stored == len(ended))


def assert_one_clean_analysis(sibyl: SibylProcess, report_id: str, run_id: str) -> None:
    """Every row and event of the run exists once; every claim has one final verdict."""
    report_id, run_id = database_id(report_id), database_id(run_id)
    claims = sibyl.query("SELECT text, source_page FROM claims WHERE report_id = %s", report_id)
    assert claims and len(claims) == len(set(claims))
    for table, key in (
        ("routing_assignments", "claim_id, agent, iteration"),
        ("findings", "claim_id, agent, iteration"),
        ("verdicts", "claim_id, iteration"),
    ):
        rows = sibyl.query(f"SELECT {key} FROM {table} WHERE analysis_run_id = %s", run_id)
        assert rows and len(rows) == len(set(rows)), table
    final = sibyl.query("SELECT count(*) FROM verdicts WHERE analysis_run_id = %s AND is_final", run_id)[0][0]
    assert final == len(claims)
    events = sibyl.query(
        "SELECT seq, event_type, agent_name, data->>'iteration', dedupe_key FROM events "
        "WHERE report_id = %s ORDER BY seq",
        report_id,
    )
    assert [event[0] for event in events] == list(range(1, len(events) + 1))
    keys = [event[4] for event in events if event[4]]
    assert len(keys) == len(set(keys))
    started = Counter((event[2], event[3]) for event in events if event[1] == "agent_started")
    assert started and set(started.values()) == {1}, started
    assert [event[1] for event in events].count("pipeline_completed") == 1


@pytest.mark.timeout(400)
def test_run_serves_parses_persists_and_stops_cleanly_in_order(data_dir: Path) -> None:
    api_port, redis_port = free_port(), free_port()
    sibyl = start_sibyl(data_dir, api_port, redis_port)
    try:
        key = sibyl.key()
        # The banner follows the supervisor's own /healthz check, a moment after the test's.
        wait_until(lambda: key in sibyl.log(), 15, "sibyl run to print the local API key")
        anonymous = httpx.post(f"http://127.0.0.1:{api_port}/graphql", json={"query": COUNT}, timeout=30)
        assert anonymous.status_code == 401
        sibyl.upload(pdfs.synthetic_report(page_count=4).pdf)
        wait_until(
            lambda: (
                sibyl.graphql(COUNT)["reports"]
                == {"totalCount": 1, "edges": [{"node": {"status": "PARSED"}}]}
            ),
            60,
            "the worker to parse the upload",
        )

        os.kill(sibyl.wait_for_pid("api", 1, timeout=5), signal.SIGKILL)
        sibyl.wait_for_pid("api", 2, timeout=30)
        wait_until(api_answers(sibyl, total=1), 60, "the restarted API")
    finally:
        exit_code = sibyl.stop()

    assert_stopped_in_order(sibyl, exit_code)

    restarted = start_sibyl(data_dir, api_port, redis_port)
    try:
        assert restarted.key() == key, "a restart keeps printing the same local key"
        assert restarted.graphql(COUNT)["reports"] == {
            "totalCount": 1,
            "edges": [{"node": {"status": "PARSED"}}],
        }
    finally:
        assert restarted.stop() == 0


@pytest.mark.timeout(400)
def test_a_killed_worker_is_restarted_and_its_analysis_resumes_at_once_without_duplicates(
    data_dir: Path,
) -> None:
    sibyl = start_sibyl(data_dir, free_port(), free_port(), slow_first_env(data_dir, slow_seconds=600))
    try:
        report_id = sibyl.upload(pdfs.synthetic_report().pdf)
        sibyl.wait_for_status(report_id, "PARSED", timeout=90)
        run_id = sibyl.start_analysis(report_id)
        first_worker = sibyl.wait_for_pid("worker", 1, timeout=10)
        wait_until(lambda: analysis_running_on_slow_agent(sibyl, run_id), 120, "a slow specialist at work")
        finished_before = {
            c["agent"] for c in invocations(data_dir / "invocations.jsonl") if c["phase"] == "end"
        }
        wait_until(
            lambda: stored_specialists(sibyl, run_id) >= len(finished_before),
            60,
            "LangGraph to store the finished specialists' writes",
        )

        os.kill(first_worker, signal.SIGKILL)
        second_worker = sibyl.wait_for_pid("worker", 2, timeout=30)
        restarted_at = time.monotonic()
        completed_at = wait_until(lambda: sibyl.run_status(run_id) == "COMPLETED", 120, "the run to complete")
        assert completed_at - restarted_at <= RESUME_BOUND_SECONDS, (
            f"resumed run took {completed_at - restarted_at:.1f}s after the restart"
        )
        assert second_worker != first_worker and process_is_gone(first_worker)
        assert re.search(r"worker died: killed by SIGKILL .*; restarting in", sibyl.log())
        assert sibyl.wait_for_status(report_id, "COMPLETED", timeout=10) == "COMPLETED"
        assert_one_clean_analysis(sibyl, report_id, run_id)
        attempts = sibyl.query("SELECT attempts FROM analysis_runs WHERE id = %s", database_id(run_id))[0][0]
        assert attempts == 2
    finally:
        exit_code = sibyl.stop()
    assert_stopped_in_order(sibyl, exit_code)

    calls = Counter((c["agent"], c["phase"], c["pid"]) for c in invocations(data_dir / "invocations.jsonl"))
    for agent in finished_before:  # completed before the kill: not run again
        assert calls[(agent, "start", second_worker)] == 0, agent
    interrupted = {
        agent for agent, phase, pid in calls if phase == "start" and pid == first_worker
    } - finished_before
    assert interrupted and interrupted <= SLOW_AGENTS
    for agent in interrupted:  # interrupted: run again once, by the new worker, and finished there
        assert calls[(agent, "start", second_worker)] == 1 and calls[(agent, "end", second_worker)] == 1


@pytest.mark.timeout(400)
def test_a_killed_redis_is_restarted_with_its_data_and_the_worker_finishes_the_run(data_dir: Path) -> None:
    sibyl = start_sibyl(data_dir, free_port(), free_port(), slow_first_env(data_dir, slow_seconds=6))
    try:
        report_id = sibyl.upload(pdfs.synthetic_report().pdf)
        sibyl.wait_for_status(report_id, "PARSED", timeout=90)
        redis = Redis(port=sibyl.redis_port)
        redis.set("sibyl:test:marker", "kept")
        run_id = sibyl.start_analysis(report_id)
        worker = sibyl.wait_for_pid("worker", 1, timeout=10)
        wait_until(lambda: analysis_running_on_slow_agent(sibyl, run_id), 120, "a slow specialist at work")
        wait_until_persisted(f"redis://127.0.0.1:{sibyl.redis_port}/0")  # on disk before the crash

        os.kill(sibyl.pids("redis")[0], signal.SIGKILL)
        sibyl.wait_for_pid("redis", 2, timeout=30)
        wait_until(lambda: sibyl.run_status(run_id) == "COMPLETED", 120, "the run to complete")

        assert redis.get("sibyl:test:marker") == b"kept"
        redis.close()
        assert sibyl.pids("worker") == [worker] and not process_is_gone(worker), (
            "the worker must outlive Redis"
        )
        assert_one_clean_analysis(sibyl, report_id, run_id)
        second = sibyl.upload(pdfs.synthetic_report(page_count=3).pdf, "second.pdf")
        assert sibyl.wait_for_status(second, "PARSED", timeout=60) == "PARSED"
    finally:
        exit_code = sibyl.stop()
    assert_stopped_in_order(sibyl, exit_code)


@pytest.mark.timeout(400)
def test_a_killed_postgres_is_restarted_with_its_data(data_dir: Path) -> None:
    sibyl = start_sibyl(data_dir, free_port(), free_port())
    try:
        first = sibyl.upload(pdfs.synthetic_report(page_count=3).pdf)
        sibyl.wait_for_status(first, "PARSED", timeout=60)

        os.kill(sibyl.wait_for_pid("postgres", 1, timeout=5), signal.SIGKILL)
        sibyl.wait_for_pid("postgres", 2, timeout=60)

        wait_until(api_answers(sibyl, total=1), 60, "the API to reach the restarted Postgres")
        second = sibyl.upload(pdfs.synthetic_report(page_count=3).pdf, "second.pdf")
        assert sibyl.wait_for_status(second, "PARSED", timeout=60) == "PARSED"
    finally:
        exit_code = sibyl.stop()
    assert_stopped_in_order(sibyl, exit_code)


@pytest.mark.timeout(120)
def test_a_crash_looping_worker_is_given_up_while_the_api_serves_and_a_crash_looping_api_stops_all(
    data_dir: Path,
) -> None:
    sibyl = start_sibyl(
        data_dir, free_port(), free_port(), {"RESTART_MAX_FAILURES": "2", "RESTART_BACKOFF_SECONDS": "0.2"}
    )
    readyz = f"http://127.0.0.1:{sibyl.api_port}/readyz"
    try:
        assert httpx.get(readyz, timeout=10).json()["checks"]["worker"] == "ok"
        for attempt in (1, 2, 3):
            os.kill(sibyl.wait_for_pid("worker", attempt, timeout=30), signal.SIGKILL)
        wait_until(
            lambda: "giving up on the worker" in sibyl.log(), 30, "the supervisor to give up on the worker"
        )
        assert re.search(
            r"ERROR app\.supervision\.supervisor: worker died: killed by SIGKILL .*giving up on the worker",
            sibyl.log(),
        )

        assert sibyl.process.poll() is None, "the API and the databases keep serving"
        assert sibyl.graphql(COUNT)["reports"]["totalCount"] == 0
        ready = httpx.get(readyz, timeout=10)
        assert ready.status_code == 503
        body = ready.json()
        assert body["failing"] == ["worker"] and body["checks"]["postgres"] == body["checks"]["redis"] == "ok"
        assert body["checks"]["worker"].startswith("down: died: killed by SIGKILL")

        for attempt in (1, 2, 3):
            os.kill(sibyl.wait_for_pid("api", attempt, timeout=30), signal.SIGKILL)
        exit_code = sibyl.process.wait(60)
    finally:
        if sibyl.process.poll() is None:
            sibyl.stop()
    assert "api died: killed by SIGKILL" in sibyl.log()
    assert "2 failed restart(s) in a row, giving up\n" in sibyl.log()
    assert len(sibyl.pids("worker")) == 3
    assert_stopped_in_order(sibyl, exit_code, expected_exit=1)
