"""`sibyl run` (what `make run` calls): embedded services, API and worker up; data survives a
restart; SIGINT (Ctrl-C) stops every process it started."""

from __future__ import annotations

import json
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

from app.embedded.redis import free_port
from tests.fixtures import pdfs
from tests.support.graphql import UPLOAD_MUTATION

COUNT = "query { reports(first: 5) { totalCount edges { node { status } } } }"


@pytest.fixture
def data_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="sibyl-run-", dir="/tmp") as folder:
        yield Path(folder)


def start_sibyl(data_dir: Path, api_port: int, redis_port: int) -> subprocess.Popen[bytes]:
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATA_DIR=str(data_dir), API_PORT=str(api_port), EMBEDDED_REDIS_PORT=str(redis_port))
    with (data_dir / "sibyl.log").open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "run"], env=env, cwd=data_dir, stdout=log
        )
    deadline = time.monotonic() + 90
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{api_port}/healthz").status_code == 200:
                return process
        except httpx.TransportError:
            pass
        assert process.poll() is None, "sibyl run exited during start-up"
        assert time.monotonic() < deadline, "sibyl run did not come up"
        time.sleep(0.2)


def stop_sibyl(process: subprocess.Popen[bytes]) -> int:
    process.send_signal(signal.SIGINT)
    return process.wait(60)


def local_key(data_dir: Path) -> str:
    return (data_dir / "local-api-key").read_text().strip()


def graphql(api_port: int, query: str, key: str) -> dict[str, object]:
    response = httpx.post(
        f"http://127.0.0.1:{api_port}/graphql",
        json={"query": query},
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    return dict(response.json()["data"])


def port_is_open(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_run_serves_parses_persists_and_stops_cleanly(data_dir: Path) -> None:
    api_port, redis_port = free_port(), free_port()
    process = start_sibyl(data_dir, api_port, redis_port)
    try:
        key = local_key(data_dir)
        assert key in (data_dir / "sibyl.log").read_text(), "sibyl run must print the local API key"
        anonymous = httpx.post(f"http://127.0.0.1:{api_port}/graphql", json={"query": COUNT}, timeout=30)
        assert anonymous.status_code == 401
        operations = {"query": UPLOAD_MUTATION, "variables": {"file": None, "companyName": None}}
        uploaded = httpx.post(
            f"http://127.0.0.1:{api_port}/graphql",
            data={"operations": json.dumps(operations), "map": json.dumps({"0": ["variables.file"]})},
            files={"0": ("r.pdf", pdfs.synthetic_report(page_count=4).pdf, "application/pdf")},
            headers={"Apollo-Require-Preflight": "true", "Authorization": f"Bearer {key}"},
            timeout=30,
        ).json()
        assert uploaded["data"]["uploadReport"]["__typename"] == "UploadReportSuccess"
        deadline = time.monotonic() + 60
        while graphql(api_port, COUNT, key)["reports"] != {
            "totalCount": 1,
            "edges": [{"node": {"status": "PARSED"}}],
        }:
            assert time.monotonic() < deadline, "the worker did not parse the upload"
            time.sleep(0.2)
    finally:
        exit_code = stop_sibyl(process)

    assert exit_code == 0
    assert not port_is_open(api_port)
    assert not port_is_open(redis_port)
    assert not (data_dir / "postgres" / "postmaster.pid").exists()

    restarted = start_sibyl(data_dir, api_port, redis_port)
    try:
        assert local_key(data_dir) == key, "a restart keeps printing the same local key"
        assert graphql(api_port, COUNT, key)["reports"] == {
            "totalCount": 1,
            "edges": [{"node": {"status": "PARSED"}}],
        }
    finally:
        assert stop_sibyl(restarted) == 0
