"""Claims-agent cost on real reports: the `extract_claims` node's wall time with mapping and
persistence (rule mode; target < 20 s for the 158-page Siemens report), the rule extraction itself
with its risk flags, without database or mapping (target < 5 s for Siemens), knowledge-base queries
per document (target <= 100), and LLM calls per 100 pages in LLM mode.

The node time is taken from its own events (agent_started to agent_completed, both written by the
node), so it includes reading the pages, extraction, the location check, de-duplication, the IFRS
mapping and writing the claims. LLM mode runs against a fake LLM (zero latency) that answers each
page window with the rule extractor's claims for those pages, so the de-duplication load is real.

    python -m bench.claims_extraction [--report siemens] [--all]
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

from redis.asyncio import Redis
from sqlalchemy import select

from app.claims.risk_flags import flag_claims
from app.claims.rules import extract_rule_claims
from app.config import Settings
from app.db.models import AnalysisRun, Event
from app.db.session import create_engine, create_session_factory
from app.events import EventLog
from app.llm import LLMClient
from app.services.analysis import open_analysis_run
from bench.common import bench_settings, print_summary, print_table, shared_reports_from_arguments
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.pipeline import pipeline_runner, seed_parsed_pages
from tests.support.reports import report_pages
from tests.support.services import RunningServices, running_services

EXTRACT_MODEL, DEDUP_MODEL = "bench/extract", "bench/dedup"
TARGET_SIEMENS_S = 20.0
TARGET_EXTRACTION_S = 5.0


def extraction_seconds(pages: list[tuple[int, str]]) -> tuple[float, int]:
    """Wall time of the rule extractor plus the risk flags over the whole report, and the flag count."""
    started = time.perf_counter()
    claims = extract_rule_claims(pages)
    flags = flag_claims([(claim.text, claim.source_context) for claim in claims], pages)
    return time.perf_counter() - started, sum(len(item) for item in flags)


TARGET_QUERIES = 100


def window_answer(pages: list[tuple[int, str]]) -> Any:
    """A fake extraction model that 'finds' the rule claims of the window it is shown."""
    by_page: dict[int, list[dict[str, Any]]] = {}
    for claim in extract_rule_claims(pages):
        by_page.setdefault(claim.source_page, []).append(
            {
                "claim_text": claim.text,
                "claim_type": claim.claim_type,
                "source_page": claim.source_page,
                "source_context": claim.source_context,
                "priority": claim.priority,
                "reasoning": claim.reasoning,
                "preliminary_ifrs": [],
            }
        )

    def answer(request: dict[str, Any]) -> FakeReply:
        if request["model"] == DEDUP_MODEL:
            return FakeReply(content={"duplicate": True, "keep": 1, "reason": "same"})
        if request["model"] != EXTRACT_MODEL:
            return FakeReply(status=500, body='{"error": {"message": "not part of this bench"}}')
        user = next(m["content"] for m in request["messages"] if m["role"] == "user")
        found = re.search(r"Report pages (\d+)-(\d+)", user)
        first, last = (int(found.group(1)), int(found.group(2))) if found else (0, -1)
        claims = [claim for page in range(first, last + 1) for claim in by_page.get(page, [])]
        return FakeReply(content={"claims": claims}, prompt_tokens=6000, completion_tokens=80 * len(claims))

    return answer


async def one_run(settings: Settings, pages: list[tuple[int, str]], *, llm: bool) -> dict[str, Any]:
    engine = create_engine(settings.require_database_url())
    session_factory = create_session_factory(engine)
    redis = Redis.from_url(settings.require_redis_url())
    event_log = EventLog(session_factory, redis)
    client = LLMClient(settings) if llm else None
    try:
        report_id = await seed_parsed_pages(session_factory, [text for _, text in pages])
        started = await open_analysis_run(event_log, settings, report_id, max_iterations=1)
        async with pipeline_runner(settings, session_factory, event_log, llm=client) as runner:
            await runner.run(started.run.id)
        async with session_factory() as session:
            run = await session.get(AnalysisRun, started.run.id)
            events = list(
                await session.scalars(
                    select(Event)
                    .where(Event.report_id == report_id, Event.agent_name == "claims")
                    .order_by(Event.seq)
                )
            )
        assert run is not None
        node = events[-1].created_at - events[0].created_at
        usage = run.usage or {}
        return {"node_s": node.total_seconds(), "stats": run.extraction_stats, "calls": usage.get("calls", 0)}
    finally:
        if client is not None:
            await client.aclose()
        await redis.aclose()
        await engine.dispose()


async def measure(services: RunningServices, paths: list[Path]) -> None:
    rows, summary = [], {}
    for path in paths:
        pages = report_pages(path)
        extraction_s, flag_count = extraction_seconds(pages)
        rules = await one_run(bench_settings(services), pages, llm=False)
        async with fake_llm_server() as fake:
            fake.handler = window_answer(pages)
            settings = bench_settings(
                services,
                **settings_for(
                    fake, llm_model_extraction=EXTRACT_MODEL, llm_model_dedup=DEDUP_MODEL, llm_max_retries=0
                ),
            )
            llm = await one_run(settings, pages, llm=True)
            extraction_calls = len(fake.requests_for(EXTRACT_MODEL))
            dedup_calls = len(fake.requests_for(DEDUP_MODEL))
        stats, per_100 = rules["stats"], 100 / len(pages)
        rows.append(
            [
                path.stem[:34],
                len(pages),
                stats["claims"],
                f"{stats['claims'] * per_100:.0f}",
                f"{100 * stats['mapped'] / max(1, stats['claims']):.0f}%",
                stats["mapping"]["rag_queries"],
                f"{extraction_s:.2f}",
                flag_count,
                f"{rules['node_s']:.2f}",
                f"{(extraction_calls + dedup_calls) * per_100:.1f}",
                f"{extraction_calls}+{dedup_calls}",
                f"{llm['node_s']:.2f}",
            ]
        )
        summary[path.stem] = {
            "pages": len(pages),
            "claims": stats["claims"],
            "rag_queries": stats["mapping"]["rag_queries"],
            "extraction_s": round(extraction_s, 2),
            "risk_flags": flag_count,
            "rules_node_s": round(rules["node_s"], 2),
            "llm_calls_per_100_pages": round((extraction_calls + dedup_calls) * per_100, 1),
        }
    print_table(
        "Claims agent per report (rule mode, then LLM mode against a zero-latency fake)",
        [
            "report",
            "pages",
            "claims",
            "/100p",
            "mapped",
            "KB queries",
            "extract s",
            "flags",
            "rules node s",
            "LLM calls/100p",
            "extract+dedup",
            "LLM node s",
        ],
        rows,
    )
    print(
        f"\ntargets: Siemens rule extraction < {TARGET_EXTRACTION_S} s, "
        f"rule-mode node < {TARGET_SIEMENS_S} s; "
        f"KB queries <= {TARGET_QUERIES} per document"
    )
    print_summary({"bench": "claims_extraction", "reports": summary})


def main() -> None:
    paths = shared_reports_from_arguments(__doc__ or "")
    with running_services() as services:
        asyncio.run(measure(services, paths))


if __name__ == "__main__":
    main()
