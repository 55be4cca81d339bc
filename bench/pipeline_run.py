"""Pipeline wall time for a 100-claim report, with checkpointing, against a fake LLM.

1. Zero latency: the pipeline's own overhead end to end (target < 10 s).
2. Fixed latency (default 200 ms per LLM call), `LLM_MAX_CONCURRENCY` calls in flight: wall time vs
   the critical-path lower bound (target <= 1.25x). The bound: the routing call, then the judge's
   reviews of the claims with conflicting evidence in waves of `concurrency`, each wave one latency,
   plus the same run's non-LLM time measured at zero latency.
Also reported: LLM calls and tokens per claim.

Every claim goes to two investigators that disagree (one supports, one contradicts), so the judge
asks the LLM about every claim: the heaviest LLM load a pass can produce.

    python -m bench.pipeline_run [--claims 100] [--latency 0.2] [--runs 3] [--trace]

`--trace` runs it with traces on (`app.tracing`), exported to an OTLP collector in this process, to
measure what tracing costs; METRICS_ENABLED=false measures it without metrics.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from redis.asyncio import Redis

from app.config import Settings
from app.db.models import AnalysisRun
from app.db.session import create_engine, create_session_factory
from app.events import EventLog
from app.llm import LLMClient
from app.services.analysis import open_analysis_run
from app.tracing import configure_tracing, stop_tracing
from bench.common import bench_settings, print_summary, print_table
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.investigators import contradicting, strong_support
from tests.support.otlp_collector import Collector, otlp_collector
from tests.support.pipeline import KNOWN_CLAIMS, investigators, pipeline_runner, seed_report
from tests.support.services import RunningServices, running_services

ROUTE_MODEL, JUDGE_MODEL = "bench/route", "bench/judge"
TARGET_RATIO = 1.25
TARGET_ZERO_LATENCY_S = 10.0


def answer(request: dict[str, Any]) -> FakeReply:
    if request["model"] == ROUTE_MODEL:
        user = request["messages"][-1]["content"]
        claims = json.loads(re.search(r"\[.*\]", user, re.DOTALL).group(0))  # type: ignore[union-attr]
        assignments = [
            {"claim_id": c["claim_id"], "assigned_agents": ["academic", "news_media"]} for c in claims
        ]
        return FakeReply(
            content={"assignments": assignments},
            prompt_tokens=40 * len(claims),
            completion_tokens=20 * len(claims),
        )
    return FakeReply(
        content={
            "verdict": "contradicted",
            "reasoning": "The contradicting source is more credible.",
            "confidence": 0.8,
        },
        prompt_tokens=400,
        completion_tokens=60,
    )


def many_claims(count: int) -> list[dict[str, Any]]:
    claims = []
    for index in range(count):
        base = KNOWN_CLAIMS[index % len(KNOWN_CLAIMS)]
        claims.append({**base, "text": f"{base['text']} (statement {index + 1})", "page": 1 + index // 10})
    return claims


async def one_run(settings: Settings, claims: int) -> dict[str, float]:
    engine = create_engine(settings.require_database_url())
    session_factory = create_session_factory(engine)
    redis = Redis.from_url(settings.require_redis_url())
    event_log = EventLog(session_factory, redis)
    llm = LLMClient(settings)
    try:
        seeded = await seed_report(session_factory, many_claims(claims), pages=math.ceil(claims / 10))
        started = await open_analysis_run(
            event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=1
        )
        agents = investigators(academic=strong_support, news_media=contradicting)
        async with pipeline_runner(settings, session_factory, event_log, agents=agents, llm=llm) as runner:
            began = time.perf_counter()
            outcome = await runner.run(started.run.id)
            wall = time.perf_counter() - began
        assert outcome.result.value == "completed", outcome.detail
        async with session_factory() as session:
            run = await session.get(AnalysisRun, started.run.id)
            usage = run.usage if run else {}
        return {
            "wall_s": wall,
            "calls": usage.get("calls", 0),
            "tokens": usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0),
        }
    finally:
        await llm.aclose()
        await redis.aclose()
        await engine.dispose()


@asynccontextmanager
async def traced(on: bool) -> AsyncIterator[Collector | None]:
    """Traces on, to a collector in this process, for the block (`--trace`); else nothing."""
    if not on:
        yield None
        return
    async with otlp_collector() as collector:
        os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"] = collector.url
        configure_tracing("bench-pipeline-run")
        try:
            yield collector
        finally:
            await asyncio.to_thread(stop_tracing)  # the exporter's thread posts to this event loop


async def measure(services: RunningServices, claims: int, latency: float, runs: int, trace: bool) -> None:
    async with fake_llm_server() as fake, traced(trace) as collector:
        fake.handler = answer
        base = settings_for(fake, llm_model_routing=ROUTE_MODEL, llm_model_judgment=JUDGE_MODEL)
        settings = bench_settings(services, **base)
        concurrency = settings.llm_max_concurrency
        rows, results = [], {}
        for label, delay in (("zero latency", 0.0), (f"{latency * 1000:.0f} ms latency", latency)):
            fake.latency = delay
            walls, figures = [], {}
            for _ in range(runs):
                figures = await one_run(settings, claims)
                walls.append(figures["wall_s"])
            results[label] = {"median_s": statistics.median(walls), "best_s": min(walls), **figures}
            rows.append(
                [
                    label,
                    f"{min(walls):.2f}",
                    f"{statistics.median(walls):.2f}",
                    figures["calls"],
                    f"{figures['calls'] / claims:.2f}",
                    f"{figures['tokens'] / claims:.0f}",
                ]
            )
        zero = results["zero latency"]["median_s"]
        slow = results[f"{latency * 1000:.0f} ms latency"]["median_s"]
        waves = 1 + math.ceil(claims / concurrency)  # routing, then the reviews in waves
        bound = zero + waves * latency
        print_table(
            f"Pipeline, {claims} claims, 1 pass, checkpointed, LLM concurrency {concurrency}",
            ["fake LLM", "best s", "median s", "LLM calls", "calls/claim", "tokens/claim"],
            rows,
        )
        print(
            f"\ncritical-path lower bound at {latency * 1000:.0f} ms: {bound:.2f} s "
            f"(zero-latency run {zero:.2f} s + {waves} LLM waves); ratio {slow / bound:.2f} "
            f"(target <= {TARGET_RATIO}); zero-latency target < {TARGET_ZERO_LATENCY_S} s"
        )
        print_summary(
            {
                "bench": "pipeline_run",
                "claims": claims,
                "zero_latency_s": round(zero, 2),
                "latency_s": round(slow, 2),
                "lower_bound_s": round(bound, 2),
                "ratio": round(slow / bound, 2),
                "calls_per_claim": round(results["zero latency"]["calls"] / claims, 2),
                "tokens_per_claim": round(results["zero latency"]["tokens"] / claims),
                "tracing": trace,
                "metrics": settings.metrics_enabled,
                "spans": len(collector.spans) if collector is not None else 0,
            }
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--claims", type=int, default=100)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--trace", action="store_true", help="with traces on (to a collector here)")
    args = parser.parse_args()
    with running_services() as services:
        asyncio.run(measure(services, args.claims, args.latency, args.runs, args.trace))


if __name__ == "__main__":
    main()
