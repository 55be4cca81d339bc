"""The last node: persist everything idempotently, pick the final verdicts, summarise compliance per
IFRS paragraph, and mark the report COMPLETED."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

from langgraph.runtime import Runtime
from sqlalchemy import select, update

from app.db.models import AnalysisRun, Report, ReportStatus, RunStatus
from app.pipeline.compliance import compliance_summary
from app.pipeline.persistence import mark_final_verdicts, now, save_findings, save_verdicts, update_run
from app.pipeline.runtime import NodeRecorder, PipelineDeps
from app.pipeline.state import PipelineState
from app.services.lease import CANCELLED
from app.verification.records import latest_verdicts


async def compile_report(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    deps = runtime.context
    iteration = state.get("iteration_count", 0)
    recorder = NodeRecorder.for_run(deps, state, node="compile_report", iteration=iteration, agent_name=None)
    claims = state.get("claims") or []
    findings = state.get("findings") or []
    verdicts = state.get("verdicts") or []
    final = latest_verdicts(verdicts)
    compliance = compliance_summary(final.values(), findings)
    async with recorder.transaction() as transaction:
        session = transaction.session
        # The run row first (FOR NO KEY UPDATE, as cancelAnalysis takes it): a cancel that landed
        # while the last pass was judged stands, instead of being overwritten by COMPLETED.
        current = select(AnalysisRun.status).where(AnalysisRun.id == recorder.run_id)
        status = await session.scalar(current.with_for_update(key_share=True))
        if status == CANCELLED:
            return {}
        await save_findings(session, recorder.run_id, findings)
        await save_verdicts(session, recorder.run_id, verdicts)
        await mark_final_verdicts(
            session, recorder.run_id, [verdict["verdict_id"] for verdict in final.values()]
        )
        await update_run(
            session,
            recorder.run_id,
            status=RunStatus.COMPLETED,
            pipeline_stage="completed",
            compliance=compliance,
            completed_at=now(),
            error_message=None,
        )
        await session.execute(
            update(Report)
            .where(Report.id == uuid.UUID(state["report_id"]))
            .values(status=ReportStatus.COMPLETED, error_message=None)
        )
        await recorder.emit_in(
            transaction,
            "pipeline_completed",
            {
                "total_claims": len(claims),
                "total_findings": len(findings),
                "total_verdicts": len(final),
                "iterations": iteration + 1,
                "verdicts": dict(Counter(verdict["verdict"] for verdict in final.values())),
                "ifrs_paragraphs": len(compliance),
            },
        )
    return {}
