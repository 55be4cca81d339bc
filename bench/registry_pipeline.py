"""What the registries add to a whole offline analysis of a real report, and what they cost.

Each shared report is analysed offline (rule-based claims agent, built-in specialists, no LLM, no
web search, an empty evidence library, one pass) in one embedded Postgres, after one warm-up
analysis: the faster of two analyses with no registry imported, then of two with every real
registry download in ../shared/data/registries imported (and a third that is inspected).
Printed per report: wall time of each analysis and their ratio (target: at most 1.15x on the
158-page report), claims, claims checked against the registries, and the verdicts registries
decided (VERIFIED or CONTRADICTED with a registry among the deciding sources), with each of those
claims' first words and the deciding registry, so a reader can judge them.

    python -m bench.registry_pipeline [--report siemens] [--all]

The company of each report is given as a user would type it (`COMPANIES`).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from pathlib import Path
from typing import Any

from redis.asyncio import Redis
from sqlalchemy import func, select, text

from app.db.models import Claim, Finding, Verdict
from app.db.session import SessionFactory, create_engine, create_session_factory
from app.events import EventLog
from app.pipeline.specialists import load_investigators
from app.registries.importer import import_registry
from app.services.analysis import open_analysis_run
from bench.common import bench_settings, print_summary, print_table, shared_reports_from_arguments
from bench.registry_import import FILES, REGISTRIES
from tests.support.pipeline import pipeline_runner, seed_parsed_pages
from tests.support.reports import report_pages
from tests.support.services import RunningServices, running_services

COMPANIES = {
    "costco": "Costco Wholesale Corporation",
    "ct-reit": "CT Real Estate Investment Trust",
    "rio-tinto": "Rio Tinto",
    "siemens": "Siemens AG",
    "volkswagen": "Volkswagen AG",
}
TARGET_RATIO = 1.15
RUNS = 2
DECIDED = ("verified", "contradicted")


def company_of(path: Path) -> str | None:
    return next((name for key, name in COMPANIES.items() if path.name.startswith(key)), None)


async def analyse(
    settings: Any, session_factory: SessionFactory, event_log: EventLog, path: Path
) -> tuple[uuid.UUID, uuid.UUID, float]:
    pages = [page_text for _, page_text in report_pages(path)]
    report_id = await seed_parsed_pages(
        session_factory, pages, company_name=company_of(path), filename=path.name
    )
    started = time.perf_counter()
    opened = await open_analysis_run(event_log, settings, report_id, max_iterations=1)
    async with pipeline_runner(
        settings, session_factory, event_log, agents=load_investigators(settings)
    ) as runner:
        await runner.run(opened.run.id)
    return report_id, opened.run.id, time.perf_counter() - started


async def best_time(settings: Any, session_factory: SessionFactory, event_log: EventLog, path: Path) -> float:
    """The faster of `RUNS` analyses of the report (the machine is shared and noisy)."""
    return min([(await analyse(settings, session_factory, event_log, path))[2] for _ in range(RUNS)])


async def registry_outcome(session_factory: SessionFactory, run_id: uuid.UUID) -> dict[str, Any]:
    """Claims checked against the registries, and the verdicts a registry decided."""
    async with session_factory() as session:
        checked = await session.scalar(
            select(func.count(func.distinct(Finding.claim_id))).where(
                Finding.analysis_run_id == run_id,
                (Finding.evidence_type == "registry_record")
                | Finding.details.has_key("registries_consulted"),
            )
        )
        registry_findings = list(
            await session.scalars(
                select(Finding).where(
                    Finding.analysis_run_id == run_id, Finding.evidence_type == "registry_record"
                )
            )
        )
        verdicts = {
            verdict.claim_id: verdict
            for verdict in await session.scalars(
                select(Verdict).where(Verdict.analysis_run_id == run_id, Verdict.is_final.is_(True))
            )
        }
        claims = {
            claim.id: claim for claim in await session.scalars(select(Claim).where(Claim.id.in_(verdicts)))
        }
    decided, read = [], []
    for finding in registry_findings:
        read.append(
            (finding.details.get("stance"), finding.details["registry"]["registry"], finding.summary[:120])
        )
        verdict = verdicts.get(finding.claim_id) if finding.claim_id else None
        if verdict is None or verdict.verdict not in DECIDED or finding.supports_claim is None:
            continue
        claim = claims[finding.claim_id]
        decided.append(
            (verdict.verdict, finding.details["registry"]["registry"], claim.source_page, claim.text)
        )
    return {
        "checked": checked or 0,
        "findings": len(registry_findings),
        "decided": sorted(set(decided)),
        "read": sorted(read, key=str),
    }


async def import_all(session_factory: SessionFactory) -> list[str]:
    imported = []
    for kind, names in FILES.items():
        paths = [REGISTRIES / name for name in names]
        if all(path.is_file() for path in paths):
            await import_registry(session_factory, kind, paths)
            imported.append(kind.value)
    return imported


async def measure(services: RunningServices, paths: list[Path]) -> None:
    settings = bench_settings(services)
    engine = create_engine(settings.require_database_url())
    session_factory = create_session_factory(engine)
    redis = Redis.from_url(settings.require_redis_url())
    event_log = EventLog(session_factory, redis)
    rows, summary, decided_rows, read_rows = [], {}, [], []
    try:
        async with engine.begin() as connection:
            await connection.execute(text("TRUNCATE registry_snapshots CASCADE"))
        await analyse(settings, session_factory, event_log, paths[0])  # warm-up: caches, knowledge base
        plain = {path: await best_time(settings, session_factory, event_log, path) for path in paths}
        imported = await import_all(session_factory)
        for path in paths:
            with_registries = await best_time(settings, session_factory, event_log, path)
            _, run_id, _ = await analyse(settings, session_factory, event_log, path)
            outcome = await registry_outcome(session_factory, run_id)
            ratio = with_registries / max(plain[path], 1e-9)
            rows.append([path.stem[:34], f"{plain[path]:.1f}", f"{with_registries:.1f}", f"{ratio:.2f}",
                         outcome["checked"], outcome["findings"], len(outcome["decided"])])  # fmt: skip
            decided_rows += [
                [path.stem[:20], label, kind, page, claim[:90]]
                for label, kind, page, claim in outcome["decided"]
            ]
            read_rows += [[path.stem[:20], *row] for row in outcome["read"]]
            summary[path.stem] = {
                "plain_s": round(plain[path], 2),
                "with_registries_s": round(with_registries, 2),
                "ratio": round(ratio, 3),
                "checked": outcome["checked"],
                "registry_findings": outcome["findings"],
                "decided": len(outcome["decided"]),
            }
    finally:
        await redis.aclose()
        await engine.dispose()
    print_table(
        f"Offline analysis without and with registries ({', '.join(imported) or 'none imported'})",
        ["report", "plain s", "with registries s", "ratio", "claims checked", "registry findings", "decided"],
        rows,
    )
    print_table(
        "Verdicts a registry decided", ["report", "verdict", "registry", "page", "claim"], decided_rows
    )
    print_table("Every registry finding", ["report", "stance", "registry", "finding"], read_rows)
    print_summary({"bench": "registry_pipeline", "target_ratio": TARGET_RATIO, "reports": summary})


def main() -> None:
    paths = shared_reports_from_arguments(__doc__ or "")
    if not all((REGISTRIES / name).is_file() for names in FILES.values() for name in names):
        print("some registry files are absent: ../shared/data/registries must be present")
    with running_services(prefix="sibyl-bench-registry-pipeline-") as services:
        asyncio.run(measure(services, paths))


if __name__ == "__main__":
    main()
