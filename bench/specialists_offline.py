"""Specialist stage offline, on the real reports: how long the specialists take (per 100 claims),
knowledge-base searches per claim (the specialists' own, not the claims agent's mapping queries;
evidence-library searches included), evidence searches per claim (`search_executed` events of the
news/media and academic agents: one query over every active provider), and the share of claims
with at least one finding that is neither `none` nor `error` (the built-in investigators, no LLM,
no web search, an empty evidence library).

The stage time runs from the first specialist's `agent_started` to the last specialist's
`agent_completed` event of the first pass; the claims come from the rule-based claims agent.

    python -m bench.specialists_offline [--report siemens] [--all]
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from redis.asyncio import Redis
from sqlalchemy import func, select

from app.db.models import AnalysisRun, Claim, Event, Finding
from app.db.session import create_engine, create_session_factory
from app.events import EventLog
from app.pipeline.specialists import load_investigators
from app.services.analysis import open_analysis_run
from bench.common import bench_settings, print_summary, print_table, shared_reports_from_arguments
from tests.support.pipeline import pipeline_runner, seed_parsed_pages
from tests.support.reports import report_pages
from tests.support.services import RunningServices, running_services

SPECIALIST_AGENTS = ("geography", "legal", "news_media", "academic", "data_metrics")


async def one_report(services: RunningServices, path: Path) -> dict[str, Any]:
    settings = bench_settings(services)
    engine = create_engine(settings.require_database_url())
    session_factory = create_session_factory(engine)
    redis = Redis.from_url(settings.require_redis_url())
    event_log = EventLog(session_factory, redis)
    try:
        report_id = await seed_parsed_pages(session_factory, [text for _, text in report_pages(path)])
        started = await open_analysis_run(event_log, settings, report_id, max_iterations=1)
        async with pipeline_runner(
            settings, session_factory, event_log, agents=load_investigators(settings)
        ) as runner:
            await runner.run(started.run.id)
            searches = runner.deps.knowledge.queries
        async with session_factory() as session:
            events = list(
                await session.scalars(
                    select(Event)
                    .where(Event.report_id == report_id, Event.agent_name.in_(SPECIALIST_AGENTS))
                    .order_by(Event.seq)
                )
            )
            run = await session.get(AnalysisRun, started.run.id)
            claims = await session.scalar(
                select(func.count()).select_from(Claim).where(Claim.report_id == report_id)
            )
            with_evidence = await session.scalar(
                select(func.count(func.distinct(Finding.claim_id))).where(
                    Finding.analysis_run_id == started.run.id, Finding.evidence_type.not_in(["none", "error"])
                )
            )
        mapping_queries = run.extraction_stats["mapping"]["rag_queries"] if run else 0
        evidence_searches = sum(event.event_type == "search_executed" for event in events)
        stage = (events[-1].created_at - events[0].created_at).total_seconds() if events else 0.0
        return {
            "claims": claims or 0,
            "stage_s": stage,
            "searches": searches - mapping_queries,
            "evidence_searches": evidence_searches,
            "with_evidence": with_evidence or 0,
        }
    finally:
        await redis.aclose()
        await engine.dispose()


async def measure(services: RunningServices, paths: list[Path]) -> None:
    rows, summary = [], {}
    for path in paths:
        result = await one_report(services, path)
        claims = max(1, result["claims"])
        rows.append(
            [
                path.stem[:34],
                result["claims"],
                f"{result['stage_s']:.2f}",
                f"{result['stage_s'] * 100 / claims:.2f}",
                f"{result['searches'] / claims:.2f}",
                f"{result['evidence_searches'] / claims:.2f}",
                f"{100 * result['with_evidence'] / claims:.0f}%",
            ]
        )
        summary[path.stem] = {
            "claims": result["claims"],
            "stage_s": round(result["stage_s"], 2),
            "stage_s_per_100_claims": round(result["stage_s"] * 100 / claims, 2),
            "kb_searches_per_claim": round(result["searches"] / claims, 2),
            "evidence_searches_per_claim": round(result["evidence_searches"] / claims, 2),
            "share_with_evidence": round(result["with_evidence"] / claims, 3),
        }
    print_table(
        "Specialist stage offline (first pass, built-in investigators, no LLM)",
        [
            "report",
            "claims",
            "stage s",
            "s/100 claims",
            "KB searches/claim",
            "evidence searches/claim",
            "claims with evidence",
        ],
        rows,
    )
    print_summary({"bench": "specialists_offline", "reports": summary})


def main() -> None:
    paths = shared_reports_from_arguments(__doc__ or "")
    with running_services() as services:
        asyncio.run(measure(services, paths))


if __name__ == "__main__":
    main()
