"""Time from a worker crash to resumed work, under `sibyl run`.

`sibyl run` is started as a subprocess (embedded Postgres and Redis, the API, one worker) with
scripted specialists: legal and data/metrics answer at once, geography, academic and news/media
sleep on their first call of a run and answer at once when run again. For each of `--runs`
analyses of a synthetic 12-page report (one pass), the worker is killed with SIGKILL while the
slow specialists sleep (the worker having been up at least 5 s, RESTART_BACKOFF_MAX_SECONDS here,
so each crash is a first failure and is restarted after RESTART_BACKOFF_SECONDS, 0.5 s), and the
clock runs from the kill to:

1. restart: the supervisor has started a new worker process (its pid is logged);
2. lease: the new worker has taken the run's lease (the run's `attempts` becomes 2);
3. work: an interrupted specialist runs again in the new worker;
4. done: the run is COMPLETED.

Before this change a crashed worker stopped `sibyl run` altogether, and after a manual restart the
run waited out its lease (ANALYSIS_LEASE_SECONDS, 60 s) plus up to one sweep (30 s). Target: the
run completes within 15 s of the restart.

Run: `cd /work/main && .venv/bin/python -m bench.worker_recovery [--runs 5]`.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import tempfile
import time
from pathlib import Path

from app.supervision.embedded.redis import free_port
from bench.common import print_summary, print_table
from tests.fixtures import pdfs
from tests.support.investigators import INVOCATION_LOG_ENV
from tests.support.sibyl_process import SibylProcess, database_id, invocations, start_sibyl

SLOW_AGENTS = {"geography", "academic", "news_media"}
TARGET_RESUME_SECONDS = 15.0
POLL_SECONDS = 0.02
#: Each crash is measured as a first failure: the worker has been up this long (the backoff cap,
#: after which the supervisor counts a process as recovered) before it is killed again.
STABLE_SECONDS = 5.0


def slow_agent_working(sibyl: SibylProcess, log: Path, run_id: str) -> bool:
    calls = [call for call in invocations(log) if call.get("run_id") == run_id]
    return any(call["phase"] == "start" and call["agent"] in SLOW_AGENTS for call in calls)


def wait(condition: object, timeout: float, what: str) -> float:
    """Seconds (monotonic clock) at which `condition()` became true."""
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(POLL_SECONDS)
    return time.monotonic()


def one_crash(
    sibyl: SibylProcess, report_id: str, log: Path, index: int, started_at: float
) -> dict[str, float]:
    """Start an analysis, kill the worker (up since `started_at`) mid-run; seconds from the kill to
    each milestone."""
    run_global_id = sibyl.start_analysis(report_id)
    run_id = database_id(run_global_id)
    wait(lambda: slow_agent_working(sibyl, log, run_id), 120, "a slow specialist")
    time.sleep(max(0.5, STABLE_SECONDS + 0.5 - (time.monotonic() - started_at)))
    worker = sibyl.pids("worker")[-1]
    workers_before = len(sibyl.pids("worker"))
    killed_mono, killed_wall = time.monotonic(), time.time()
    os.kill(worker, signal.SIGKILL)
    restart = wait(lambda: len(sibyl.pids("worker")) > workers_before, 60, "the restart")
    lease = wait(
        lambda: sibyl.query("SELECT attempts FROM analysis_runs WHERE id = %s", run_id)[0][0] >= 2,
        120,
        "the new lease",
    )
    done = wait(lambda: sibyl.run_status(run_id) == "COMPLETED", 120, "the run to complete")
    new_worker = sibyl.pids("worker")[-1]
    rerun = [
        call["at"]
        for call in invocations(log)
        if call.get("run_id") == run_id and call["pid"] == new_worker and call["phase"] == "start"
    ]
    return {
        "run": index,
        "restart_s": restart - killed_mono,
        "lease_s": lease - killed_mono,
        "work_s": (min(rerun) - killed_wall) if rerun else float("nan"),
        "done_s": done - killed_mono,
        "done_after_restart_s": done - restart,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="analyses to crash and resume")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sibyl-bench-recovery-", dir="/tmp") as folder:
        data_dir = Path(folder)
        log = data_dir / "invocations.jsonl"
        env = {
            "SPECIALIST_PLUGINS": "tests.support.investigators:SLOW_FIRST_TEST",
            "SIBYL_TEST_SLOW_SECONDS": "600",
            "RESTART_BACKOFF_MAX_SECONDS": str(STABLE_SECONDS),
            INVOCATION_LOG_ENV: str(log),
        }
        sibyl = start_sibyl(data_dir, free_port(), free_port(), env)
        try:
            report_id = sibyl.upload(pdfs.synthetic_report().pdf)
            sibyl.wait_for_status(report_id, "PARSED", timeout=120)
            results: list[dict[str, float]] = []
            started_at = time.monotonic()
            for index in range(1, args.runs + 1):
                results.append(one_crash(sibyl, report_id, log, index, started_at))
                started_at = time.monotonic() - results[-1]["done_s"] + results[-1]["restart_s"]
        finally:
            sibyl.stop()
    columns = ["restart_s", "lease_s", "work_s", "done_s", "done_after_restart_s"]
    print_table(
        "Worker SIGKILL -> resumed analysis (seconds after the kill)",
        ["run", *columns],
        [[result["run"], *(f"{result[column]:.2f}" for column in columns)] for result in results],
    )
    medians = {column: statistics.median(result[column] for result in results) for column in columns}
    worst = max(result["done_after_restart_s"] for result in results)
    print_table("Median", columns, [[f"{medians[column]:.2f}" for column in columns]])
    print(
        f"\nworst completion after the restart: {worst:.2f}s (target <= {TARGET_RESUME_SECONDS:.0f}s); "
        "before: sibyl run stopped, then a 60-90 s lease wait after a manual restart"
    )
    print_summary(
        {
            "bench": "worker_recovery",
            "runs": len(results),
            **{f"median_{column}": round(value, 3) for column, value in medians.items()},
            "worst_done_after_restart_s": round(worst, 3),
            "target_s": TARGET_RESUME_SECONDS,
            "ok": worst <= TARGET_RESUME_SECONDS,
        }
    )


if __name__ == "__main__":
    main()
