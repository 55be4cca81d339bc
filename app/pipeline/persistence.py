"""Idempotent writes of what the pipeline produces.

Every row carries a deterministic id (or a natural unique key), and every insert is
`ON CONFLICT DO NOTHING`, so a node that runs again after a crash, or `compile_report` writing the
whole state once more, never duplicates anything.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Integer, Text, all_, any_, bindparam, delete, func, literal, or_, select, update
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID, insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.claims.ifrs_mapping import IfrsParagraph
from app.db.models import AnalysisRun, Claim, Report
from app.db.models import Finding as FindingRow
from app.db.models import RoutingAssignment as RoutingRow
from app.db.models import Verdict as VerdictRow
from app.llm import UsageTrace
from app.verification.evidence_kinds import kind_of
from app.verification.records import ClaimState, Finding, RoutingEntry, Verdict

#: asyncpg sends at most 32,767 bind parameters with one statement; a bulk insert stays below it.
MAX_BIND_PARAMETERS = 32_000


def _id_array(ids: Sequence[uuid.UUID]) -> Any:
    """`ids` as one array parameter (an `IN (...)` list takes one bind parameter per id)."""
    return bindparam(None, list(ids), type_=ARRAY(UUID(as_uuid=True)))


def in_batches(rows: Sequence[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """`rows` split so that no one multi-row INSERT of a batch exceeds `MAX_BIND_PARAMETERS`
    (a 500-page report's thousands of findings would otherwise be one statement asyncpg refuses)."""
    if not rows:
        return
    per_row = max(len(row) for row in rows)
    size = max(MAX_BIND_PARAMETERS // per_row, 1)
    for start in range(0, len(rows), size):
        yield list(rows[start : start + size])


async def replace_claims(
    session: AsyncSession,
    report_id: uuid.UUID,
    run_id: uuid.UUID,
    claims: Sequence[ClaimState],
    also_on_pages: Mapping[str, Sequence[int]] | None = None,
) -> None:
    """Make `claims` the report's claims: any other claim (and its results) goes, these are upserted,
    each with the other pages stating it (`also_on_pages`, by claim id; none when absent)."""
    keep = [uuid.UUID(claim["claim_id"]) for claim in claims]
    await session.execute(
        delete(Claim).where(Claim.report_id == report_id, Claim.id != all_(_id_array(keep)))
    )
    if not claims:
        return
    for batch in in_batches(_claim_rows(report_id, run_id, claims, also_on_pages or {})):
        statement = insert(Claim).values(batch)
        await session.execute(
            statement.on_conflict_do_update(
                index_elements=["id"],
                set_={column: statement.excluded[column] for column in _UPSERTED_CLAIM_COLUMNS},
            )
        )


_UPSERTED_CLAIM_COLUMNS = (
    "text",
    "claim_type",
    "priority",
    "source_page",
    "also_on_pages",
    "page_offset",
    "source_context",
    "ifrs_paragraphs",
    "reasoning",
    "method",
)


async def add_claims(
    session: AsyncSession, report_id: uuid.UUID, run_id: uuid.UUID, claims: Sequence[ClaimState]
) -> None:
    """Store claims as they are found (a claim already stored, e.g. by a re-run, stays as it is)."""
    for batch in in_batches(_claim_rows(report_id, run_id, claims, {})):
        await session.execute(insert(Claim).values(batch).on_conflict_do_nothing(index_elements=["id"]))


async def drop_claims_of_other_runs(session: AsyncSession, report_id: uuid.UUID, run_id: uuid.UUID) -> None:
    """A new extraction replaces earlier analyses' claims (and, by cascade, their results)."""
    await session.execute(
        delete(Claim).where(
            Claim.report_id == report_id,
            or_(Claim.analysis_run_id.is_(None), Claim.analysis_run_id != run_id),
        )
    )


def _claim_rows(
    report_id: uuid.UUID,
    run_id: uuid.UUID,
    claims: Sequence[ClaimState],
    also_on_pages: Mapping[str, Sequence[int]],
) -> list[dict[str, Any]]:
    """Rows for extracted claims, each of which names the method that found it, with its risk flags
    and the other pages stating it."""
    return [
        {
            "id": uuid.UUID(claim["claim_id"]),
            "report_id": report_id,
            "analysis_run_id": run_id,
            "text": claim["text"],
            "claim_type": claim["claim_type"],
            "priority": claim["priority"],
            "source_page": claim["source_page"],
            "also_on_pages": list(also_on_pages.get(claim["claim_id"], ())),
            "page_offset": claim.get("page_offset", 0),
            "source_context": claim.get("source_context"),
            "ifrs_paragraphs": list(claim.get("ifrs_paragraphs") or []),
            "reasoning": claim.get("reasoning"),
            "method": claim["method"],
            # Only a new row takes these: an upsert keeps the stored flags (the claims node rewrites them).
            "risk_flags": list(claim.get("risk_flags") or []),
        }
        for claim in claims
    ]


async def report_organisation(session: AsyncSession, report_id: uuid.UUID) -> uuid.UUID:
    """The organisation the report belongs to (its agents search only that organisation's library)."""
    organisation_id = await session.scalar(select(Report.organisation_id).where(Report.id == report_id))
    if organisation_id is None:
        raise LookupError(f"report {report_id} does not exist")
    return organisation_id


async def load_claims(session: AsyncSession, report_id: uuid.UUID) -> list[ClaimState]:
    """The report's stored claims in reading order."""
    rows = await session.scalars(
        select(Claim)
        .where(Claim.report_id == report_id)
        .order_by(Claim.source_page, Claim.page_offset, Claim.id)
    )
    return [
        ClaimState(
            claim_id=str(row.id),
            text=row.text,
            claim_type=row.claim_type,
            priority=row.priority,
            source_page=row.source_page,
            page_offset=row.page_offset,
            source_context=row.source_context,
            ifrs_paragraphs=[cast(IfrsParagraph, paragraph) for paragraph in row.ifrs_paragraphs or []],
            reasoning=row.reasoning,
            method=row.method,
            risk_flags=[
                {str(key): str(value) for key, value in flag.items()} for flag in row.risk_flags or []
            ],
        )
        for row in rows
    ]


async def save_routing(
    session: AsyncSession, run_id: uuid.UUID, plan: Iterable[RoutingEntry], iteration: int
) -> None:
    """One row per (claim, agent) of this cycle's plan."""
    values = [
        {
            "id": uuid.uuid5(
                uuid.NAMESPACE_URL, f"sibyl:routing:{run_id}:{entry['claim_id']}:{agent}:{iteration}"
            ),
            "analysis_run_id": run_id,
            "claim_id": uuid.UUID(entry["claim_id"]),
            "agent": agent,
            "iteration": iteration,
            "reasoning": entry["reasoning"],
            "method": entry["method"],
        }
        for entry in plan
        for agent in entry["assigned_agents"]
    ]
    for batch in in_batches(values):
        await session.execute(insert(RoutingRow).values(batch).on_conflict_do_nothing())


async def save_findings(session: AsyncSession, run_id: uuid.UUID, findings: Iterable[Finding]) -> None:
    values = [
        {
            "id": uuid.UUID(finding["finding_id"]),
            "analysis_run_id": run_id,
            "claim_id": uuid.UUID(finding["claim_id"]) if finding["claim_id"] else None,
            "agent": finding["agent_name"],
            "evidence_type": finding["evidence_type"],
            "evidence_kind": kind_of(finding),
            "summary": finding["summary"],
            "details": finding["details"],
            "supports_claim": finding["supports_claim"],
            "confidence": finding["confidence"],
            "iteration": finding["iteration"],
            "method": finding["method"],
        }
        for finding in findings
    ]
    for batch in in_batches(values):
        await session.execute(insert(FindingRow).values(batch).on_conflict_do_nothing())


#: Details that record how a finding was searched for, not what it says (`finding_content`).
SEARCH_BOOKKEEPING = frozenset({"query", "query_type", "queries"})


def finding_content(
    claim_id: str | None,
    evidence_type: str,
    summary: str,
    supports_claim: bool | None,
    confidence: float | None,
    details: dict[str, Any],
) -> str:
    """What a finding says, without its id and pass: two findings with the same content are one.

    How a source was found (the search query, which a re-investigation pass refines) is not what it
    says: the same source read the same way under a refined query is the same finding."""
    said = {key: value for key, value in details.items() if key not in SEARCH_BOOKKEEPING}
    return json.dumps(
        [claim_id, evidence_type, summary, supports_claim, confidence, said], sort_keys=True, default=str
    )


async def earlier_finding_contents(
    session: AsyncSession, run_id: uuid.UUID, agent: str, before_iteration: int
) -> set[str]:
    """The contents of what `agent` found in this run's passes before `before_iteration`."""
    rows = await session.scalars(
        select(FindingRow).where(
            FindingRow.analysis_run_id == run_id,
            FindingRow.agent == agent,
            FindingRow.iteration < before_iteration,
        )
    )
    return {
        finding_content(
            str(row.claim_id) if row.claim_id else None,
            row.evidence_type,
            row.summary,
            row.supports_claim,
            row.confidence,
            row.details or {},
        )
        for row in rows
    }


async def save_verdicts(session: AsyncSession, run_id: uuid.UUID, verdicts: Iterable[Verdict]) -> None:
    values = [
        {
            "id": uuid.UUID(verdict["verdict_id"]),
            "analysis_run_id": run_id,
            "claim_id": uuid.UUID(verdict["claim_id"]),
            "verdict": verdict["verdict"],
            "reasoning": verdict["reasoning"],
            "ifrs_mapping": verdict["ifrs_mapping"],
            "confidence": verdict["confidence"],
            "iteration": verdict["iteration"],
            "method": verdict["method"],
            "details": {"confidence_level": verdict["confidence_level"], "evaluation": verdict["evaluation"]},
        }
        for verdict in verdicts
    ]
    for batch in in_batches(values):
        await session.execute(insert(VerdictRow).values(batch).on_conflict_do_nothing())


async def mark_final_verdicts(session: AsyncSession, run_id: uuid.UUID, final_ids: Iterable[str]) -> None:
    """Flag exactly the given verdicts of the run as final."""
    ids = [uuid.UUID(verdict_id) for verdict_id in final_ids]
    await session.execute(
        update(VerdictRow)
        .where(VerdictRow.analysis_run_id == run_id)
        .values(is_final=VerdictRow.id == any_(_id_array(ids)))
    )


async def update_run(session: AsyncSession, run_id: uuid.UUID, **values: Any) -> None:
    await session.execute(update(AnalysisRun).where(AnalysisRun.id == run_id).values(**values))


async def set_agent_status(session: AsyncSession, run_id: uuid.UUID, statuses: dict[str, Any]) -> None:
    """Merge some agents' statuses into the run's (parallel specialists each write their own key)."""
    await session.execute(
        update(AnalysisRun)
        .where(AnalysisRun.id == run_id)
        .values(agent_status=AnalysisRun.agent_status.op("||")(literal(statuses, JSONB)))
    )


async def count_claim_completed(session: AsyncSession, run_id: uuid.UUID, agent: str, iteration: int) -> None:
    """Add one finished claim to a working agent's `claims_completed` in the run's statuses.

    Meant to be called as an investigator finishes each claim (`app.pipeline.progress.claim_done`),
    so `progressPercent` moves through a long investigating stage instead of only when whole
    agents finish. Only the agent's status for `iteration` while it is `working` changes: a late
    call cannot touch the next pass, nor the final count the agent writes when it is done.
    """
    status = AnalysisRun.agent_status[agent]
    completed = func.coalesce(status["claims_completed"].astext.cast(Integer), 0) + 1
    await session.execute(
        update(AnalysisRun)
        .where(
            AnalysisRun.id == run_id,
            status["iteration"].astext == str(iteration),
            status["status"].astext == "working",
        )
        .values(
            agent_status=func.jsonb_set(
                AnalysisRun.agent_status,
                literal([agent, "claims_completed"], ARRAY(Text)),
                func.to_jsonb(completed),
            )
        )
    )


#: How a run's row is locked to update its JSON columns: FOR NO KEY UPDATE, which an event insert's
#: foreign-key check (FOR KEY SHARE on the run) does not wait for. FOR UPDATE would make that check
#: wait, so a specialist adding usage or warnings while another inserts events could deadlock with it.
RUN_ROW_LOCK = {"key_share": True}


async def add_usage(session: AsyncSession, run_id: uuid.UUID, trace: UsageTrace) -> None:
    """Add a node's LLM usage to the run's trace."""
    if not trace:
        return
    run = await session.get(AnalysisRun, run_id, with_for_update=RUN_ROW_LOCK)
    if run is None:
        return
    total = UsageTrace.from_dict(run.usage)
    total.merge(trace)
    run.usage = total.to_dict()


async def add_run_warnings(
    session: AsyncSession, run_id: uuid.UUID, warnings: Sequence[Mapping[str, Any]]
) -> None:
    """Add what degraded to the run's `warnings`.

    A warning with the same code, stage and pass as a stored one replaces it, so a node that runs
    again after a crash does not list it twice.
    """
    if not warnings:
        return
    run = await session.get(AnalysisRun, run_id, with_for_update=RUN_ROW_LOCK)
    if run is None:
        return
    new = [dict(warning) for warning in warnings]
    replaced = {_warning_key(warning) for warning in new}
    run.warnings = [warning for warning in run.warnings or [] if _warning_key(warning) not in replaced] + new


def _warning_key(warning: Mapping[str, Any]) -> tuple[Any, ...]:
    return warning.get("code"), warning.get("stage"), warning.get("iteration", 0)


def now() -> datetime:
    return datetime.now(UTC)
