"""`sibyl run` as a subprocess for tests and benchmarks: start it on free ports in a data folder,
talk to its API, read its log (the supervisor logs each start, death, restart and stop), look into
its embedded Postgres, and stop it with SIGINT as Ctrl-C would."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg

from app.supervision.embedded.redis import free_port
from tests.support.graphql import UPLOAD_MUTATION
from tests.support.services import RunningServices

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 120
START_ANALYSIS = """
mutation Start($id: ID!, $passes: Int) {
  startAnalysis(reportId: $id, maxIterations: $passes) {
    __typename
    ... on StartAnalysisSuccess { analysis { id } }
    ... on StartAnalysisError { code message }
  }
}
"""
REPORT_STATUS = "query Status($id: ID!) { report(id: $id) { status errorMessage } }"
SUPERVISOR_LINE = re.compile(r"app\.supervision\.supervisor: (\w+) (started|restarted) \(pid (\d+)\)")


@dataclass
class SibylProcess:
    """A running `sibyl run` and where to reach it."""

    process: subprocess.Popen[bytes]
    data_dir: Path
    api_port: int
    redis_port: int

    @property
    def log_path(self) -> Path:
        return self.data_dir / "sibyl.log"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def key(self) -> str:
        return (self.data_dir / "local-api-key").read_text().strip()

    def pids(self, name: str) -> list[int]:
        """Every pid the supervisor logged for `name` (api, worker, redis, postgres), oldest first."""
        return [int(m.group(3)) for m in SUPERVISOR_LINE.finditer(self.log()) if m.group(1) == name]

    def wait_for_pid(self, name: str, count: int, timeout: float) -> int:
        """The `count`-th pid logged for `name`, once logged (waits for a restart)."""
        deadline = time.monotonic() + timeout
        while len(pids := self.pids(name)) < count:
            assert self.process.poll() is None, f"sibyl run exited:\n{self.log()[-4000:]}"
            assert time.monotonic() < deadline, f"no {name} pid #{count} logged:\n{self.log()[-4000:]}"
            time.sleep(0.05)
        return pids[count - 1]

    def graphql(self, query: str, **variables: Any) -> dict[str, Any]:
        return graphql_data(f"http://127.0.0.1:{self.api_port}", self.key(), query, variables)

    def upload(self, pdf: bytes, filename: str = "r.pdf") -> str:
        """Upload a PDF; the new report's id."""
        return upload_report(f"http://127.0.0.1:{self.api_port}", self.key(), pdf, filename)

    def wait_for_status(self, report_id: str, *statuses: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while (status := self.graphql(REPORT_STATUS, id=report_id)["report"]["status"]) not in statuses:
            assert time.monotonic() < deadline, f"report {report_id} still {status}:\n{self.log()[-4000:]}"
            time.sleep(0.2)
        return str(status)

    def start_analysis(self, report_id: str, passes: int = 1) -> str:
        """Start an analysis; its run id."""
        started = self.graphql(START_ANALYSIS, id=report_id, passes=passes)["startAnalysis"]
        assert started["__typename"] == "StartAnalysisSuccess", started
        return str(started["analysis"]["id"])

    def query(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        """Rows of `sql` on the embedded database (read over its Unix socket)."""
        lines = (self.data_dir / "postgres" / "postmaster.pid").read_text().splitlines()
        with psycopg.connect(host=lines[4], dbname="sibyl", user="postgres", autocommit=True) as connection:
            return list(connection.execute(sql, params).fetchall())  # type: ignore[arg-type]

    def run_status(self, run_id: str) -> str:
        return str(self.query("SELECT status FROM analysis_runs WHERE id = %s", database_id(run_id))[0][0])

    def stop(self, timeout: float = 90) -> int:
        """SIGINT (Ctrl-C) and the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout)


def database_id(global_id: str) -> str:
    """The row id inside a GraphQL global id (`Type:uuid`, base64), or the id itself."""
    try:
        decoded = base64.b64decode(global_id, validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        return global_id
    return decoded.rpartition(":")[2] if ":" in decoded else global_id


def start_sibyl(
    data_dir: Path, api_port: int, redis_port: int, env: Mapping[str, str] | None = None
) -> SibylProcess:
    """`sibyl run` in `data_dir` (stdout and stderr to sibyl.log there), once its API answers."""
    child_env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "LLM_API_KEY", "TAVILY_API_KEY")
    }
    child_env.update(
        DATA_DIR=str(data_dir),
        API_PORT=str(api_port),
        EMBEDDED_REDIS_PORT=str(redis_port),
        PYTHONPATH=str(ROOT),
    )
    child_env.update(env or {})
    with (data_dir / "sibyl.log").open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "run"],
            env=child_env,
            cwd=data_dir,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    sibyl = SibylProcess(process, data_dir, api_port, redis_port)
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{api_port}/healthz").status_code == 200:
                return sibyl
        except httpx.TransportError:
            pass
        assert process.poll() is None, f"sibyl run exited during start-up:\n{sibyl.log()[-4000:]}"
        assert time.monotonic() < deadline, "sibyl run did not come up"
        time.sleep(0.2)


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> float:
    """Poll `condition` until true; the monotonic time it became true."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
    return time.monotonic()


def process_is_gone(pid: int) -> bool:
    """No such process, or a zombie (exited, not yet reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def invocations(path: Path) -> list[dict[str, Any]]:
    """The scripted investigators' log (tests.support.investigators)."""
    return [json.loads(line) for line in path.read_text().splitlines() if line] if path.exists() else []


def graphql_data(base_url: str, key: str, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    """The `data` of one GraphQL request to a running Sibyl, asserting it had no errors."""
    response = httpx.post(
        f"{base_url}/graphql",
        json={"query": query, "variables": variables},
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    body = response.json()
    assert "errors" not in body, body
    return dict(body["data"])


def upload_report(base_url: str, key: str, pdf: bytes, filename: str, company_name: str | None = None) -> str:
    """Upload a PDF to the API at `base_url` as a GraphQL multipart request; the new report's id."""
    operations = {"query": UPLOAD_MUTATION, "variables": {"file": None, "companyName": company_name}}
    uploaded = httpx.post(
        f"{base_url}/graphql",
        data={"operations": json.dumps(operations), "map": json.dumps({"0": ["variables.file"]})},
        files={"0": (filename, pdf, "application/pdf")},
        headers={"Apollo-Require-Preflight": "true", "Authorization": f"Bearer {key}"},
        timeout=30,
    ).json()
    result = uploaded["data"]["uploadReport"]
    assert result["__typename"] == "UploadReportSuccess", result
    return str(result["report"]["id"])


@contextmanager
def running_sibyl(
    services: RunningServices, prefix: str = "sibyl-run-", **settings: str
) -> Iterator[SibylProcess]:
    """`sibyl run` against the test databases with extra `settings` (environment variables),
    stopped (Ctrl-C) on leaving; its data folder (named with `prefix`) is removed."""
    data_dir = Path(tempfile.mkdtemp(prefix=prefix))
    env = {
        "DATABASE_URL": services.database_url,
        "REDIS_URL": services.redis_url,
        # The periodic sweep's ARQ lock would look like a running job to `clean_db`.
        "ANALYSIS_SWEEP_SECONDS": "0",
        **settings,
    }
    process = start_sibyl(data_dir, free_port(), free_port(), env)
    try:
        yield process
    finally:
        process.stop()
        shutil.rmtree(data_dir, ignore_errors=True)
