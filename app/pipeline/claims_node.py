"""The first node: the report's claims, either reused from the database or extracted now
(`app.claims`).

Extraction persists and announces each chunk's claims as soon as they are located (a
`claims_extracted` event per chunk), then replaces them with the de-duplicated, IFRS-mapped set and
records what fell back to rules (the run's warnings, each also a `warning` event). A statement the
report repeats is one claim, stored with the other pages stating it (`also_on_pages`). Each claim's
greenwashing risk flags (`app.claims.risk_flags`) are stored on its row and carried in the claim's
state under `risk_flags`, where the judge reads them.
Claim ids derive from the run, page and text, so a node that re-runs after a crash rewrites the
same rows instead of adding new ones.
"""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any, cast

from langgraph.runtime import Runtime
from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.claims.agent import ChunkProgress, ClaimsAgent, MappedClaim, degradation_warnings
from app.claims.candidates import CandidateClaim
from app.claims.location import PageIndex
from app.db.models import Claim, Report
from app.db.report_pages import load_report_pages
from app.language.textmatch import normalize_for_match
from app.llm import UsageTrace
from app.pipeline.persistence import (
    add_claims,
    add_usage,
    drop_claims_of_other_runs,
    load_claims,
    replace_claims,
    update_run,
)
from app.pipeline.runtime import NodeRecorder, PipelineDeps
from app.pipeline.state import PipelineState
from app.pipeline.warnings import record_warnings
from app.verification.records import ClaimState, stable_id

AGENT = "claims"
#: Longest claim text quoted in a `claims_extracted` event (the full text is in the database).
EVENT_TEXT_CHARS = 240


async def extract_claims(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    """Reuse the stored claims, or run the claims agent over the parsed pages."""
    deps = runtime.context
    recorder = NodeRecorder.for_run(deps, state, node="extract_claims", iteration=0, agent_name=AGENT)
    await recorder.start("extracting_claims", {"reuse_claims": state["reuse_claims"]})
    if state["reuse_claims"]:
        return await _reuse(recorder)
    return await _extract(state, deps, recorder)


async def _reuse(recorder: NodeRecorder) -> dict[str, Any]:
    async with recorder.transaction() as transaction:
        claims = await load_claims(transaction.session, recorder.report_id)
        await _attach_stored_flags(transaction.session, claims)
        await recorder.emit_in(
            transaction, "agent_thinking", {"message": f"Reusing the report's {len(claims)} stored claim(s)."}
        )
        await recorder.emit_in(transaction, "agent_completed", _completed(claims, reused=True))
    return {"claims": claims}


async def _extract(state: PipelineState, deps: PipelineDeps, recorder: NodeRecorder) -> dict[str, Any]:
    async with deps.session_factory() as session:
        pages = await load_report_pages(session, recorder.report_id)
    agent = ClaimsAgent(deps.settings, deps.llm, deps.embedder, deps.knowledge)
    mode = "the extraction model" if deps.llm else "the rule-based extractor"
    async with recorder.transaction() as transaction:
        await drop_claims_of_other_runs(transaction.session, recorder.report_id, recorder.run_id)
        await recorder.emit_in(
            transaction, "agent_thinking", {"message": f"Reading {len(pages)} page(s) with {mode}."}
        )

    index = PageIndex(dict(pages))

    async def on_chunk(progress: ChunkProgress) -> None:
        await _announce_chunk(recorder, state["run_id"], progress, index)

    trace = UsageTrace()
    mapped, stats = await agent.extract(pages, trace=trace, on_chunk=on_chunk)
    claims = [_claim_state(state["run_id"], item, index) for item in mapped]
    company = state.get("company_name") or stats.company_name
    async with recorder.transaction() as transaction:
        session = transaction.session
        other_pages = {
            claim["claim_id"]: item.also_on_pages for claim, item in zip(claims, mapped, strict=True)
        }
        await replace_claims(session, recorder.report_id, recorder.run_id, claims, other_pages)
        await _store_flags(session, claims)
        await update_run(session, recorder.run_id, extraction_stats=stats.to_dict())
        await add_usage(session, recorder.run_id, trace)
        if company and not state.get("company_name"):
            await session.execute(
                update(Report).where(Report.id == recorder.report_id).values(company_name=company)
            )
        await recorder.emit_in(
            transaction,
            "agent_thinking",
            {
                "message": f"Kept {len(claims)} unique claim(s) of {stats.candidates} candidate(s); "
                f"{stats.mapped} mapped to IFRS paragraphs with {stats.mapping.rag_queries} knowledge-base "
                f"queries."
            },
        )
        await record_warnings(recorder, transaction, degradation_warnings(stats))
        await recorder.emit_in(
            transaction,
            "agent_completed",
            {**_completed(claims, reused=False), "company_name": company, "stats": stats.to_dict()},
        )
    return {"claims": claims, "company_name": company}


async def _announce_chunk(
    recorder: NodeRecorder, run_id: str, progress: ChunkProgress, index: PageIndex
) -> None:
    """Persist one chunk's located claims and tell subscribers about them, in one transaction."""
    claims = [_claim_state(run_id, MappedClaim(claim, []), index) for claim in progress.claims]
    chunk = progress.chunk
    async with recorder.transaction() as transaction:
        await add_claims(transaction.session, recorder.report_id, recorder.run_id, claims)
        await recorder.emit_in(
            transaction,
            "claims_extracted",
            {
                "chunk": chunk.index + 1,
                "chunks": chunk.total,
                "pages": [chunk.first_page, chunk.last_page],
                "count": len(claims),
                "rejected": progress.rejected,
                "dropped_by_location_check": progress.dropped,
                "error": progress.error,
                "method": progress.method,
                "claims": [
                    {
                        "claim_id": claim["claim_id"],
                        "text": claim["text"][:EVENT_TEXT_CHARS],
                        "claim_type": claim["claim_type"],
                        "priority": claim["priority"],
                        "source_page": claim["source_page"],
                    }
                    for claim in claims
                ],
            },
        )


def claim_id(run_id: str, claim: CandidateClaim) -> str:
    """The same claim text on the same page of the same run always gets the same id."""
    return stable_id("claim", run_id, claim.source_page, normalize_for_match(claim.text))


def _claim_state(run_id: str, item: MappedClaim, index: PageIndex) -> ClaimState:
    """The pipeline's state of one claim; `index` (the report's pages) gives its place on its page."""
    claim = item.claim
    state = ClaimState(
        claim_id=claim_id(run_id, claim),
        text=claim.text,
        claim_type=claim.claim_type,
        priority=claim.priority,
        source_page=claim.source_page,
        page_offset=index.offset(claim.source_page, claim.text),
        source_context=claim.source_context,
        ifrs_paragraphs=item.ifrs_paragraphs,
        reasoning=claim.reasoning,
        method=claim.method,
    )
    with_flags(state, [flag.to_dict() for flag in item.risk_flags])
    return state


def with_flags(claim: ClaimState, flags: list[dict[str, str]]) -> None:
    """Carry a claim's risk flags in its state (read back with `app.claims.risk_flags.flags_of`)."""
    claim["risk_flags"] = flags


def _flags(claim: ClaimState) -> list[dict[str, str]]:
    return list(claim.get("risk_flags") or [])


async def _store_flags(session: AsyncSession, claims: list[ClaimState]) -> None:
    """Write each claim's risk flags to its row (one executemany)."""
    if not claims:
        return
    rows = [{"claim_uuid": uuid.UUID(claim["claim_id"]), "flags": _flags(claim)} for claim in claims]
    table = cast(Table, Claim.__table__)
    statement = (
        update(table).where(table.c.id == bindparam("claim_uuid")).values(risk_flags=bindparam("flags"))
    )
    await session.execute(statement, rows)


async def _attach_stored_flags(session: AsyncSession, claims: list[ClaimState]) -> None:
    """Reused claims carry the flags stored with them."""
    ids = [uuid.UUID(claim["claim_id"]) for claim in claims]
    if not ids:
        return
    result = await session.execute(select(Claim.id, Claim.risk_flags).where(Claim.id.in_(ids)))
    stored: dict[uuid.UUID, list[dict[str, Any]]] = {claim_uuid: flags for claim_uuid, flags in result}
    for claim in claims:
        with_flags(claim, list(stored.get(uuid.UUID(claim["claim_id"])) or []))


def _completed(claims: list[ClaimState], *, reused: bool) -> dict[str, Any]:
    return {
        "claims_count": len(claims),
        "claims_by_type": dict(sorted(Counter(claim["claim_type"] for claim in claims).items())),
        "claims_by_priority": dict(sorted(Counter(claim["priority"] for claim in claims).items())),
        "reused": reused,
        "claims_with_risk_flags": sum(bool(_flags(claim)) for claim in claims),
    }
