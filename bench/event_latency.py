"""Event delivery latency to 100 concurrent followers of one report (target: p99 < 50 ms, loopback).

With embedded Postgres + Redis, two phases, each on a fresh report row:

(a) direct: 100 in-process `EventLog.follow` iterators;
(b) GraphQL: 100 graphql-transport-ws websockets subscribed to `analysisEvents`, served by an
    in-process uvicorn API (clients, server and appender share this process's one event loop).
    They authenticate with an API key of the `local` organisation, which owns the reports; the
    rate limit is off, as it would refuse 100 connections opened at once by one key.

Each phase appends a `bench_ready` event and waits until every subscriber has it (so all are live),
then appends 200 `bench_tick` events one every 10 ms with `EventLog.append`, each carrying
`time.perf_counter()` taken at the append call, and finally a `bench_end` event. Latency is receipt
time minus that stamp, so it includes the Postgres transaction of the append and the Redis PUBLISH.
The achieved append rate is reported (the appender shares the event loop, so when delivery
saturates it, appends fall below 100/s), and so are the full (generation 2) garbage collections
during the ticks, which stall the whole process. Every subscriber must receive every event exactly
once and in order; anything else prints FAIL and the exit status is 1.

Run: `cd /work/main && .venv/bin/python -m bench.event_latency` (it needs no input files; it takes
about 15 s and is bounded by a 100 s timeout).
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import time
import uuid
from collections.abc import AsyncGenerator, Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from redis.asyncio import Redis
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.models import Report
from app.db.session import SessionFactory, create_engine, create_session_factory
from app.events import EventLog, StreamEvent
from app.organisations import LOCAL_ORGANISATION_ID
from bench.common import api_stack, bench_settings, percentile, print_summary, print_table
from tests.conftest import new_api_key
from tests.support.graphql import GraphQLClient
from tests.support.services import running_services

SUBSCRIBERS = 100
TICKS = 200
PACE_S = 0.010
TARGET_P99_MS = 50.0
READY_TIMEOUT_S = 30.0
DRAIN_TIMEOUT_S = 20.0
EXPECTED_SEQS = list(range(1, TICKS + 3))  # bench_ready, the ticks, bench_end

SUBSCRIPTION = """
subscription Events($reportId: ID!) { analysisEvents(reportId: $reportId) { id eventType data } }
"""


@dataclass
class Received:
    """What one subscriber saw: sequence numbers in arrival order and tick latencies."""

    seqs: list[int] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    def record(self, seq: int, data: dict[str, Any]) -> None:
        now = time.perf_counter()
        self.seqs.append(seq)
        if "t0" in data:
            self.latencies_ms.append((now - float(data["t0"])) * 1000)

    def problem(self) -> str | None:
        """None when every event arrived exactly once and in order."""
        if self.seqs == EXPECTED_SEQS:
            return None
        duplicates = len(self.seqs) - len(set(self.seqs))
        missing = len(set(EXPECTED_SEQS) - set(self.seqs))
        disorder = self.seqs != sorted(self.seqs)
        return f"{missing} missing, {duplicates} duplicated, {'out of order' if disorder else 'in order'}"


@dataclass(frozen=True)
class PhaseResult:
    name: str
    latencies_ms: list[float]
    append_ms: list[float]
    append_seconds: float
    gc_pauses_ms: list[float]
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> dict[str, Any]:
        stats = {f"p{p}_ms": round(percentile(self.latencies_ms, p), 2) for p in (50, 95, 99)}
        return {
            **stats,
            "max_ms": round(max(self.latencies_ms, default=float("nan")), 2),
            "deliveries": len(self.latencies_ms),
            "append_p50_ms": round(percentile(self.append_ms, 50), 2),
            "events_per_s": round(TICKS / self.append_seconds, 1),
            "full_gcs": len(self.gc_pauses_ms),
            "full_gc_max_ms": round(max(self.gc_pauses_ms, default=0.0), 1),
            "exactly_once_in_order": self.ok,
            "meets_target": stats["p99_ms"] < TARGET_P99_MS,
        }


Subscriber = Callable[[uuid.UUID, Received], Coroutine[Any, Any, None]]


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


async def append_ticks(event_log: EventLog, report_id: uuid.UUID) -> tuple[list[float], float]:
    """The paced ticks (on a fixed schedule), then bench_end; each call's ms and the total seconds."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    call_ms: list[float] = []
    for n in range(TICKS):
        await asyncio.sleep(max(0.0, start + n * PACE_S - loop.time()))
        t0 = time.perf_counter()
        await event_log.append(report_id, "bench_tick", {"n": n, "t0": t0})
        call_ms.append((time.perf_counter() - t0) * 1000)
    elapsed = loop.time() - start
    await event_log.append(report_id, "bench_end")
    return call_ms, elapsed


async def run_phase(
    name: str, event_log: EventLog, session_factory: SessionFactory, subscriber: Subscriber
) -> PhaseResult:
    report_id = await new_report(session_factory)
    await event_log.append(report_id, "bench_ready")
    received = [Received() for _ in range(SUBSCRIBERS)]
    tasks = [asyncio.create_task(subscriber(report_id, seen)) for seen in received]
    try:
        async with asyncio.timeout(READY_TIMEOUT_S):
            while not all(seen.seqs for seen in received):
                for task in tasks:
                    if task.done():
                        task.result()  # a subscriber died before it was ready: raise its error
                await asyncio.sleep(0.01)
        with full_gc_pauses() as gc_pauses_ms:
            append_ms, append_seconds = await append_ticks(event_log, report_id)
            await asyncio.wait(tasks, timeout=DRAIN_TIMEOUT_S)
    finally:
        for task in tasks:
            task.cancel()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    problems = [f"subscriber {i}: {seen.problem()}" for i, seen in enumerate(received) if seen.problem()]
    problems += [f"subscriber {i}: {o!r}" for i, o in enumerate(outcomes) if isinstance(o, BaseException)]
    latencies = [ms for seen in received for ms in seen.latencies_ms]
    return PhaseResult(name, latencies, append_ms, append_seconds, gc_pauses_ms, problems)


def direct_subscriber(event_log: EventLog) -> Subscriber:
    async def follow(report_id: uuid.UUID, received: Received) -> None:
        # `follow` is an async generator (annotated as a plain AsyncIterator); close it explicitly.
        stream = cast(AsyncGenerator[StreamEvent, None], event_log.follow(report_id))
        try:
            async for event in stream:
                received.record(event.seq, event.data)
                if event.event_type == "bench_end":
                    return
        finally:
            await stream.aclose()

    return follow


def graphql_subscriber(client: GraphQLClient) -> Subscriber:
    async def follow(report_id: uuid.UUID, received: Received) -> None:
        global_id = str(GlobalID("Report", str(report_id)))
        async with client.subscribe(SUBSCRIPTION, reportId=global_id) as subscription:
            while True:
                event = (await subscription.next(timeout=DRAIN_TIMEOUT_S))["analysisEvents"]
                received.record(int(event["id"]), event["data"])
                if event["eventType"] == "bench_end":
                    break
            await subscription.ws.send(json.dumps({"id": "1", "type": "complete"}))

    return follow


async def measure(settings: Settings) -> list[PhaseResult]:
    engine = create_engine(settings.require_database_url())
    redis = Redis.from_url(settings.require_redis_url())
    session_factory = create_session_factory(engine)
    event_log = EventLog(session_factory, redis, poll_seconds=settings.event_poll_seconds)
    try:
        direct = await run_phase(
            "direct EventLog.follow", event_log, session_factory, direct_subscriber(event_log)
        )
        async with api_stack(settings, worker=False) as url:
            client = GraphQLClient(url, await new_api_key(session_factory))
            try:
                graphql = await run_phase(
                    "GraphQL analysisEvents (ws)", event_log, session_factory, graphql_subscriber(client)
                )
            finally:
                await client.aclose()
        return [direct, graphql]
    finally:
        await redis.aclose()
        await engine.dispose()


def main() -> int:
    with running_services(prefix="sibyl-bench-") as services:  # migrates with its own asyncio.run
        settings = bench_settings(services, rate_limit_per_minute=0)
        phases = asyncio.run(asyncio.wait_for(measure(settings), timeout=100))

    print_table(
        f"Event latency: {SUBSCRIBERS} subscribers, {TICKS} events appended every {PACE_S * 1000:.0f} ms",
        ["path", "events/s", "deliveries", "p50 ms", "p95 ms", "p99 ms", "max ms", "append p50 ms",
         "full GCs (max ms)", "p99 < 50", "exactly once, in order"],
        [
            (p.name, s["events_per_s"], s["deliveries"], s["p50_ms"], s["p95_ms"], s["p99_ms"], s["max_ms"],
             s["append_p50_ms"], f"{s['full_gcs']} ({s['full_gc_max_ms']})",
             "ok" if s["meets_target"] else "MISSED", "ok" if p.ok else "FAIL")
            for p, s in ((p, p.summary()) for p in phases)
        ],
    )  # fmt: skip
    print("  events/s: the append rate achieved (a busy event loop slows the appender below 100/s)")
    for phase in phases:
        for problem in phase.problems[:5]:
            print(f"FAIL {phase.name}: {problem}")
        if len(phase.problems) > 5:
            print(f"FAIL {phase.name}: ... and {len(phase.problems) - 5} more")
    print_summary(
        {
            "benchmark": "event_latency",
            "subscribers": SUBSCRIBERS,
            "events": TICKS,
            "target_p99_ms": TARGET_P99_MS,
            **{key: p.summary() for key, p in zip(("direct", "graphql"), phases, strict=True)},
        }
    )
    return 0 if all(p.ok for p in phases) else 1


if __name__ == "__main__":
    sys.exit(main())
