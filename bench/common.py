"""Helpers shared by the benchmarks: tables, percentiles, the JSON summary line, an API stack, an
API in its own uvicorn process, and a process's memory."""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from redis.asyncio import Redis

from app.config import Settings
from app.db.session import create_engine, create_session_factory
from app.supervision.embedded.redis import free_port
from tests.conftest import make_settings, new_api_key, run_worker, serve_api, wait_for_idle_queue
from tests.support.reports import shared_report_paths
from tests.support.services import RunningServices


def print_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A plain, right-aligned text table under a title."""
    cells = [[str(value) for value in row] for row in rows]
    widths = [max(len(header), *(len(row[i]) for row in cells)) for i, header in enumerate(headers)]
    print(f"\n{title}")
    print("  ".join(header.rjust(width) for header, width in zip(headers, widths, strict=True)))
    print("  ".join("-" * width for width in widths))
    for row in cells:
        print("  ".join(value.rjust(width) for value, width in zip(row, widths, strict=True)))


def print_summary(summary: dict[str, Any]) -> None:
    """The final one-line JSON summary."""
    print(json.dumps(summary, separators=(",", ":")))


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of `values` (need not be sorted); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def bench_settings(services: RunningServices, **overrides: object) -> Settings:
    """Test settings with the production defaults for what the benchmarks measure."""
    values: dict[str, object] = {
        "parse_progress_every": 10,
        "event_poll_seconds": 5.0,
        "max_upload_bytes": 50 * 1024 * 1024,
    }
    values.update(overrides)
    return make_settings(services, **values)


@asynccontextmanager
async def api_stack(settings: Settings, *, worker: bool) -> AsyncIterator[str]:
    """An in-process uvicorn API (and, if asked, an ARQ worker); yields the API's base URL."""
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(serve_api(settings))
        if worker:
            await stack.enter_async_context(run_worker(settings))
            redis = Redis.from_url(settings.require_redis_url())
            stack.push_async_callback(redis.aclose)
            # Closing the worker cancels jobs still in flight (a job finishes a little after its
            # last event), so let the queue drain first.
            stack.push_async_callback(wait_for_idle_queue, redis)
        yield url


async def local_api_key(settings: Settings) -> str:
    """A new API key of the `local` organisation (the one reports seeded without a key belong to)."""
    engine = create_engine(settings.require_database_url())
    try:
        return await new_api_key(create_session_factory(engine))
    finally:
        await engine.dispose()


def shared_reports_from_arguments(description: str) -> list[Path]:
    """The shared reports a per-report benchmark should run on (`--report NAME` or `--all`)."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--report", default="siemens", help="part of a shared report's file name")
    parser.add_argument("--all", action="store_true", help="every shared report")
    args = parser.parse_args()
    paths = [path for path in shared_report_paths() if args.all or args.report in path.name]
    if not paths:
        raise SystemExit("no matching report: ../shared/data/sustainability-reports must be present")
    return paths


def start_uvicorn(
    app: str,
    env: Mapping[str, str],
    *,
    app_dir: Path | None = None,
    options: Sequence[str] = (),
    probe: str = "/healthz",
    seconds: float = 90,
) -> tuple[subprocess.Popen[bytes], str]:
    """`uvicorn app` in its own process on a free port (from the checkout `app_dir`, when given),
    once it answers `probe`; the process and its URL. The caller stops the process."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", app, "--port", str(port), "--log-level", "warning"]
    command += ["--no-access-log", *options, *(["--app-dir", str(app_dir)] if app_dir else [])]
    process = subprocess.Popen(command, env={**os.environ, **env}, cwd=app_dir)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            httpx.get(url + probe, timeout=2)
            return process, url
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{app} did not start")


def process_memory_mb(pid: int, field: str = "VmRSS") -> float:
    """A memory figure of a live process from `/proc/<pid>/status` (VmRSS, VmHWM…), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} for process {pid}")
