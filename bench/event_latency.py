"""Event delivery latency at dashboard scale: 100 and 1,000 subscribers, one report or fifty.

With embedded Postgres + Redis, each scenario on fresh report rows:

* direct: 100 in-process `EventLog.follow` iterators (the hub without GraphQL);
* GraphQL: `analysisEvents` subscribers over graphql-transport-ws to an API served by a separate
  uvicorn process (as deployed), so the server's CPU is its own. The subscribers live in this
  process as minimal protocol clients (`bench.ws_light`), so 1,000 of them cost little here. They
  authenticate with an API key of the `local` organisation, which owns the reports; the API's rate
  limit is off, as it would refuse 1,000 connections opened at once by one key.

Each scenario appends a `bench_ready` event per report and waits until every subscriber has it (so
all are live), then appends the ticks round-robin over its reports on a fixed schedule with
`EventLog.append`, each carrying `time.perf_counter()` taken at the append call, and finally a
`bench_end` per report. Latency is receipt time minus that stamp, so it includes the Postgres
transaction of the append, the Redis PUBLISH, the API's work and the loopback socket. Reported:
percentiles, the append rate achieved, the API process's CPU time per delivery (user + system
during the ticks, divided by deliveries) and this process's full garbage collections. Every
subscriber must receive every event of its report exactly once and in order; anything else prints
FAIL and the exit status is 1.

Run: `cd /work/main && .venv/bin/python -m bench.event_latency` (no input files; about a minute).
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncGenerator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx
from redis.asyncio import Redis
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.models import Report
from app.db.session import SessionFactory, create_engine, create_session_factory
from app.events import EventLog, StreamEvent
from app.events.hub import EventHub
from app.organisations import LOCAL_ORGANISATION_ID
from app.supervision.embedded.redis import free_port
from bench.common import bench_settings, percentile, print_summary, print_table
from bench.ws_light import LightSubscriber, open_subscriber
from tests.conftest import new_api_key
from tests.support.services import running_services

TICK = re.compile(rb'"analysisEvents": ?\{"sequence": ?(\d+),.*"t0": ?([-+0-9.eE]+)')
READY_TIMEOUT_S = 60.0
DRAIN_TIMEOUT_S = 30.0
CONNECT_BATCH = 100
SUBSCRIPTION = """
subscription Events($reportId: ID!) { analysisEvents(reportId: $reportId) { sequence id eventType data } }
"""


@dataclass(frozen=True)
class Scenario:
    name: str
    subscribers: int
    reports: int
    ticks: int
    pace_s: float
    target_p99_ms: float
    graphql: bool = True


SCENARIOS = (
    Scenario("direct EventLog.follow, 100 subs", 100, 1, 200, 0.010, 25.0, graphql=False),
    Scenario("GraphQL ws, 100 subs, 1 report", 100, 1, 200, 0.010, 25.0),
    Scenario("GraphQL ws, 1,000 subs, 1 report", 1000, 1, 200, 0.020, 100.0),
    Scenario("GraphQL ws, 1,000 subs, 50 reports", 1000, 50, 250, 0.020, 100.0),
)


@dataclass
class Received:
    """What one subscriber saw: sequence numbers in arrival order and tick latencies."""

    expected: list[int]
    seqs: list[int] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def record(self, seq: int, event_type: str, data: dict[str, Any]) -> None:
        now = time.perf_counter()
        self.seqs.append(seq)
        if "t0" in data:
            self.latencies_ms.append((now - float(data["t0"])) * 1000)
        if event_type == "bench_end":
            self.done.set()

    def problem(self) -> str | None:
        """None when every event arrived exactly once and in order."""
        if self.errors:
            return "; ".join(self.errors[:2])
        if self.seqs == self.expected:
            return None
        duplicates = len(self.seqs) - len(set(self.seqs))
        missing = len(set(self.expected) - set(self.seqs))
        disorder = self.seqs != sorted(self.seqs)
        return f"{missing} missing, {duplicates} duplicated, {'out of order' if disorder else 'in order'}"


@dataclass(frozen=True)
class Result:
    scenario: Scenario
    latencies_ms: list[float]
    events_per_s: float
    cpu_us_per_delivery: float
    client_cpu_us_per_delivery: float
    gc_pauses_ms: list[float]
    problems: list[str]

    def summary(self) -> dict[str, Any]:
        stats = {f"p{p}_ms": round(percentile(self.latencies_ms, p), 2) for p in (50, 95, 99)}
        return {
            **stats,
            "max_ms": round(max(self.latencies_ms, default=float("nan")), 2),
            "deliveries": len(self.latencies_ms),
            "events_per_s": round(self.events_per_s, 1),
            "cpu_us_per_delivery": round(self.cpu_us_per_delivery, 1),
            "client_cpu_us_per_delivery": round(self.client_cpu_us_per_delivery, 1),
            "full_gcs": len(self.gc_pauses_ms),
            "exactly_once_in_order": not self.problems,
            "target_p99_ms": self.scenario.target_p99_ms,
            "meets_target": stats["p99_ms"] < self.scenario.target_p99_ms,
        }


@contextmanager
def full_gc_pauses() -> Iterator[list[float]]:
    """Durations (ms) of the full (generation 2) garbage collections while the block runs."""
    pauses: list[float] = []
    started = 0.0

    def track(phase: str, info: dict[str, int]) -> None:
        nonlocal started
        if info["generation"] == 2 and phase == "start":
            started = time.perf_counter()
        elif info["generation"] == 2:
            pauses.append((time.perf_counter() - started) * 1000)

    gc.callbacks.append(track)
    try:
        yield pauses
    finally:
        gc.callbacks.remove(track)


async def new_report(session_factory: SessionFactory) -> uuid.UUID:
    async with session_factory() as session, session.begin():
        report = Report(
            organisation_id=LOCAL_ORGANISATION_ID,
            filename="bench.pdf",
            sha256=uuid.uuid4().hex * 2,
            size_bytes=1,
        )
        session.add(report)
    return report.id


def append_in_process(urls: tuple[str, str], reports: list[uuid.UUID], scenario: Scenario) -> float:
    """`append_ticks` in a separate process (so that 1,000 subscribers in this one cannot slow the
    appender); `time.perf_counter` is the system's monotonic clock, the same in both processes."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        return float(pool.apply(_append_ticks_child, (urls, reports, scenario)))


def _append_ticks_child(urls: tuple[str, str], reports: list[uuid.UUID], scenario: Scenario) -> float:
    async def run() -> float:
        engine = create_engine(urls[0])
        redis = Redis.from_url(urls[1])
        try:
            return await append_ticks(EventLog(create_session_factory(engine), redis), reports, scenario)
        finally:
            await redis.aclose()
            await engine.dispose()

    return asyncio.run(run())


async def append_ticks(event_log: EventLog, reports: list[uuid.UUID], scenario: Scenario) -> float:
    """The paced ticks, round-robin over the reports, then a bench_end each; the ticks' seconds."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    for n in range(scenario.ticks):
        await asyncio.sleep(max(0.0, start + n * scenario.pace_s - loop.time()))
        await event_log.append(reports[n % len(reports)], "bench_tick", {"n": n, "t0": time.perf_counter()})
    elapsed = loop.time() - start
    await asyncio.gather(*(event_log.append(report, "bench_end") for report in reports))
    return elapsed


class WsCrowd:
    """`analysisEvents` subscribers over graphql-transport-ws to the API at `port`."""

    def __init__(self, port: int, api_key: str, urls: tuple[str, str]) -> None:
        self.port, self.api_key, self.urls = port, api_key, urls
        self.connections: list[LightSubscriber] = []

    async def subscribe(self, report_id: uuid.UUID, received: Received) -> None:
        variables = {"reportId": str(GlobalID("Report", str(report_id)))}
        holder: list[LightSubscriber] = []

        def on_message(message: dict[str, Any]) -> None:
            kind = message.get("type")
            if kind == "connection_ack":
                subscribe = {"query": SUBSCRIPTION, "variables": variables}
                holder[0].send({"id": "1", "type": "subscribe", "payload": subscribe})
            elif kind == "next":
                payload = message["payload"]
                if payload.get("errors"):
                    received.errors.append(str(payload["errors"]))
                    return
                event = payload["data"]["analysisEvents"]
                received.record(int(event["sequence"]), event["eventType"], event["data"])
            elif kind in ("error", "complete"):
                received.errors.append(f"{kind}: {message.get('payload')}")

        def on_text(text: bytes) -> bool:
            """Ticks without a JSON decoder: 50,000 messages a second must not load this process."""
            tick = TICK.search(text) if b'"bench_tick"' in text else None
            if tick is None:
                return False
            received.record(int(tick.group(1)), "bench_tick", {"t0": float(tick.group(2))})
            return True

        connection = await open_subscriber("127.0.0.1", self.port, on_message, on_text)
        holder.append(connection)
        self.connections.append(connection)
        connection.send({"type": "connection_init", "payload": {"authorization": f"Bearer {self.api_key}"}})

    def close(self) -> None:
        for connection in self.connections:
            connection.close()
        self.connections.clear()


async def direct_subscribe(
    event_hub: EventHub, report_id: uuid.UUID, received: Received
) -> asyncio.Task[None]:
    async def follow() -> None:
        stream = cast(AsyncGenerator[StreamEvent, None], event_hub.follow(report_id))
        try:
            async for event in stream:
                received.record(event.seq, event.event_type, event.data)
                if event.event_type == "bench_end":
                    return
        finally:
            await stream.aclose()

    return asyncio.create_task(follow())


async def run_scenario(
    scenario: Scenario,
    event_log: EventLog,
    event_hub: EventHub,
    session_factory: SessionFactory,
    crowd: WsCrowd,
    api: int,
) -> Result:
    reports = [await new_report(session_factory) for _ in range(scenario.reports)]
    for report in reports:
        await event_log.append(report, "bench_ready")
    per_report = [len(range(i, scenario.ticks, scenario.reports)) for i in range(scenario.reports)]
    received = [
        Received(list(range(1, per_report[i % scenario.reports] + 3))) for i in range(scenario.subscribers)
    ]
    tasks: list[asyncio.Task[None]] = []
    for start in range(0, scenario.subscribers, CONNECT_BATCH):
        batch = range(start, min(start + CONNECT_BATCH, scenario.subscribers))
        if scenario.graphql:
            await asyncio.gather(
                *(crowd.subscribe(reports[i % scenario.reports], received[i]) for i in batch)
            )
        else:
            tasks += [
                await direct_subscribe(event_hub, reports[i % scenario.reports], received[i]) for i in batch
            ]
    try:
        async with asyncio.timeout(READY_TIMEOUT_S):
            while not all(seen.seqs or seen.errors for seen in received):  # noqa: ASYNC110
                await asyncio.sleep(0.02)
        cpu_process = api if scenario.graphql else os.getpid()
        cpu_before, own_before = cpu_seconds_of(cpu_process), cpu_seconds_of(os.getpid())
        with full_gc_pauses() as gc_pauses_ms:
            if scenario.graphql:
                seconds = await asyncio.to_thread(append_in_process, crowd.urls, reports, scenario)
            else:
                seconds = await append_ticks(event_log, reports, scenario)
            await asyncio.wait(
                [asyncio.create_task(seen.done.wait()) for seen in received], timeout=DRAIN_TIMEOUT_S
            )
        cpu_seconds = cpu_seconds_of(cpu_process) - cpu_before
        own_seconds = cpu_seconds_of(os.getpid()) - own_before
    finally:
        crowd.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    problems = [f"subscriber {i}: {seen.problem()}" for i, seen in enumerate(received) if seen.problem()]
    latencies = [ms for seen in received for ms in seen.latencies_ms]
    deliveries = max(1, sum(len(seen.seqs) for seen in received))
    per_delivery = 1e6 / deliveries
    return Result(
        scenario,
        latencies,
        scenario.ticks / seconds,
        cpu_seconds * per_delivery,
        own_seconds * per_delivery,
        gc_pauses_ms,
        problems,
    )


def cpu_seconds_of(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def api_process(settings: Settings) -> Iterator[tuple[int, int]]:
    """The API under uvicorn in its own process, as deployed; yields its port and process."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": settings.require_database_url(),
        "REDIS_URL": settings.require_redis_url(),
        "RATE_LIMIT_PER_MINUTE": "0",
        # A thousand subscribers share one key here; a deployment caps them per key.
        "MAX_WEBSOCKETS_PER_KEY": "0",
    }
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "schema.asgi:app",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, env=env)
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                break
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the API process did not start")
        time.sleep(0.1)
    try:
        yield port, process.pid
    finally:
        process.terminate()
        process.wait(15)


async def measure(settings: Settings, port: int, api: int) -> list[Result]:
    engine = create_engine(settings.require_database_url())
    redis = Redis.from_url(settings.require_redis_url())
    session_factory = create_session_factory(engine)
    event_log = EventLog(session_factory, redis)
    event_hub = EventHub.following(event_log, poll_seconds=settings.event_poll_seconds)
    urls = (settings.require_database_url(), settings.require_redis_url())
    crowd = WsCrowd(port, await new_api_key(session_factory), urls)
    try:
        results = []
        for scenario in SCENARIOS:
            results.append(await run_scenario(scenario, event_log, event_hub, session_factory, crowd, api))
            await asyncio.sleep(1.0)  # let the API drop the closed subscriptions
        return results
    finally:
        await event_hub.aclose()
        await redis.aclose()
        await engine.dispose()


def main() -> int:
    with running_services(prefix="sibyl-bench-") as services:  # migrates with its own asyncio.run
        settings = bench_settings(services, rate_limit_per_minute=0, max_websockets_per_key=0)
        with api_process(settings) as (port, api):
            results = asyncio.run(asyncio.wait_for(measure(settings, port, api), timeout=600))

    print_table(
        "Event latency (appends to receipt, loopback; API in its own process)",
        ["scenario", "events/s", "deliveries", "p50 ms", "p95 ms", "p99 ms", "max ms", "CPU us/delivery",
         "clients' CPU us", "full GCs", "target", "exactly once, in order"],
        [
            (r.scenario.name, s["events_per_s"], s["deliveries"], s["p50_ms"], s["p95_ms"], s["p99_ms"],
             s["max_ms"], s["cpu_us_per_delivery"], s["client_cpu_us_per_delivery"], s["full_gcs"],
             f"p99 < {r.scenario.target_p99_ms:g}: {'ok' if s['meets_target'] else 'MISSED'}",
             "ok" if not r.problems else "FAIL")
            for r, s in ((r, r.summary()) for r in results)
        ],
    )  # fmt: skip
    print("  events/s: the append rate achieved; CPU: the API process's (this process's for direct);")
    print("  clients' CPU: this process's (the subscribers'); load average at the end:", os.getloadavg())
    for result in results:
        for problem in result.problems[:5]:
            print(f"FAIL {result.scenario.name}: {problem}")
        if len(result.problems) > 5:
            print(f"FAIL {result.scenario.name}: ... and {len(result.problems) - 5} more")
    print_summary({"benchmark": "event_latency", **{r.scenario.name: r.summary() for r in results}})
    return 0 if all(not r.problems for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
