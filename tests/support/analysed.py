"""A completed analysis seeded straight into the database: claims with routing, findings and verdicts.

Deterministic by claim index `i`, so tests know the ground truth: type cycles through the five
claim types, priority through high/medium/low, page is `i // 4 + 1`; every claim has two routing
assignments and two findings in pass 0, and a verdict in each of `passes` passes, whose final
label cycles through `LABELS`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import insert

from app.db.models import (
    AnalysisRun,
    Claim,
    Finding,
    Report,
    ReportPage,
    ReportStatus,
    RoutingAssignment,
    Verdict,
)
from app.db.session import SessionFactory
from app.organisations import LOCAL_ORGANISATION_ID

TYPES = ["quantitative", "environmental", "strategic", "legal_governance", "geographic"]
PRIORITIES = ["high", "medium", "low"]
LABELS = ["verified", "contradicted", "unverified", "insufficient_evidence"]
AGENTS = ["news_media", "data_metrics"]


@dataclass(frozen=True)
class AnalysedReport:
    report_id: uuid.UUID
    run_id: uuid.UUID
    claim_ids: list[uuid.UUID]


def claim_type(i: int) -> str:
    return TYPES[i % len(TYPES)]


def priority(i: int) -> str:
    return PRIORITIES[i % len(PRIORITIES)]


def final_label(i: int) -> str:
    return LABELS[i % len(LABELS)]


def page(i: int) -> int:
    return i // 4 + 1


async def seed_analysed_report(
    session_factory: SessionFactory,
    claims: int,
    *,
    organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID,
    passes: int = 2,
    filename: str = "analysed.pdf",
) -> AnalysedReport:
    report_id, run_id = uuid.uuid4(), uuid.uuid4()
    claim_ids = [uuid.uuid4() for _ in range(claims)]
    pages = page(max(claims - 1, 0))
    async with session_factory() as session, session.begin():
        session.add(
            Report(
                id=report_id,
                organisation_id=organisation_id,
                filename=filename,
                company_name="Northwind Minerals plc",
                sha256=uuid.uuid4().hex * 2,
                size_bytes=1000,
                status=ReportStatus.COMPLETED,
                page_count=pages,
            )
        )
        await session.flush()
        session.add_all(
            ReportPage(report_id=report_id, number=n, text=f"Page {n}.") for n in range(1, pages + 1)
        )
        session.add(
            AnalysisRun(
                id=run_id,
                report_id=report_id,
                status="COMPLETED",
                pipeline_stage="completed",
                iteration_count=passes - 1,
                max_iterations=passes,
                completed_at=datetime.now(UTC),
            )
        )
        await session.flush()
        await session.execute(
            insert(Claim), [_claim(i, claim_id, report_id, run_id) for i, claim_id in enumerate(claim_ids)]
        )
        await session.execute(
            insert(RoutingAssignment),
            [_routing(claim_id, run_id, agent) for claim_id in claim_ids for agent in AGENTS],
        )
        await session.execute(
            insert(Finding), [_finding(claim_id, run_id, agent) for claim_id in claim_ids for agent in AGENTS]
        )
        await session.execute(
            insert(Verdict),
            [
                _verdict(i, claim_id, run_id, iteration, final=iteration == passes - 1)
                for i, claim_id in enumerate(claim_ids)
                for iteration in range(passes)
            ],
        )
    return AnalysedReport(report_id, run_id, claim_ids)


def _claim(i: int, claim_id: uuid.UUID, report_id: uuid.UUID, run_id: uuid.UUID) -> dict[str, object]:
    return {
        "id": claim_id,
        "report_id": report_id,
        "analysis_run_id": run_id,
        "text": f"Claim {i}: Scope 1 emissions fell {i % 9 + 1}% in 2024.",
        "claim_type": claim_type(i),
        "priority": priority(i),
        "source_page": page(i),
        "source_context": None,
        "ifrs_paragraphs": [
            {"paragraph_id": "S2.29(a)(i)(1)", "pillar": "metrics_targets", "relevance": "scope 1"}
        ],
        "reasoning": "A figure with a year.",
        "method": "rules",
    }


def _routing(claim_id: uuid.UUID, run_id: uuid.UUID, agent: str) -> dict[str, object]:
    return {
        "id": uuid.uuid4(),
        "analysis_run_id": run_id,
        "claim_id": claim_id,
        "agent": agent,
        "iteration": 0,
        "reasoning": "default matrix",
        "method": "rules",
    }


def _finding(claim_id: uuid.UUID, run_id: uuid.UUID, agent: str) -> dict[str, object]:
    return {
        "id": uuid.uuid4(),
        "analysis_run_id": run_id,
        "claim_id": claim_id,
        "agent": agent,
        "evidence_type": "source_evaluation",
        "summary": f"{agent} read one source.",
        "details": {"sources": []},
        "supports_claim": True,
        "confidence": 0.6,
        "iteration": 0,
        "method": "rules",
    }


def _verdict(
    i: int, claim_id: uuid.UUID, run_id: uuid.UUID, iteration: int, *, final: bool
) -> dict[str, object]:
    return {
        "id": uuid.uuid4(),
        "analysis_run_id": run_id,
        "claim_id": claim_id,
        "verdict": final_label(i) if final else "insufficient_evidence",
        "reasoning": f"pass {iteration}",
        "ifrs_mapping": [
            {"paragraph_id": "S2.29(a)(i)(1)", "source": "claim", "status": None, "relationship": "r"}
        ],
        "confidence": 0.5 + iteration / 10,
        "iteration": iteration,
        "is_final": final,
        "method": "rules",
        "details": {},
    }
