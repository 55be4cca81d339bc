"""The first node: the report's claims, either reused from the database or extracted now."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

from langgraph.runtime import Runtime
from sqlalchemy import select

from app.agents.claims_minimal import extract_minimal_claims
from app.agents.persistence import load_claims, replace_claims
from app.agents.runtime import NodeRecorder, PipelineDeps, stable_id
from app.agents.state import PipelineState
from app.db.models import ReportPage

AGENT = "claims"
METHOD = "rules-minimal"


async def extract_claims(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    deps = runtime.context
    recorder = NodeRecorder.for_run(deps, state, node="extract_claims", iteration=0, agent_name=AGENT)
    await recorder.start("extracting_claims", {"reuse_claims": state["reuse_claims"]})
    report_id = uuid.UUID(state["report_id"])
    async with recorder.transaction() as transaction:
        session = transaction.session
        if state["reuse_claims"]:
            claims = await load_claims(session, report_id)
            message = f"Reusing the report's {len(claims)} stored claim(s)."
        else:
            rows = await session.execute(
                select(ReportPage.number, ReportPage.text)
                .where(ReportPage.report_id == report_id)
                .order_by(ReportPage.number)
            )
            claims = extract_minimal_claims(
                ((number, text) for number, text in rows),
                lambda page, index: stable_id("claim", state["run_id"], page, index),
            )
            await replace_claims(session, report_id, recorder.run_id, claims, METHOD)
            message = f"Extracted {len(claims)} claim(s) with the minimal rule extractor."
        await recorder.emit_in(transaction, "agent_thinking", {"message": message})
        await recorder.emit_in(
            transaction,
            "agent_completed",
            {
                "claims_count": len(claims),
                "claims_by_type": dict(sorted(Counter(claim["claim_type"] for claim in claims).items())),
                "reused": state["reuse_claims"],
            },
        )
    return {"claims": claims}
