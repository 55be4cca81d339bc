"""Every claim that registries can decide meets them: the node's side of registry evidence.

The orchestrator marks such claims (`routing.with_registry_check`) for Data/Metrics; here, for
those claims, the report's company is matched to registry entities, the matched records are loaded
once (`app.registries.evidence`), and each claim is read against them
(`app.verification.registries.read_registries`). This runs beside the agent's own investigator,
whatever investigator is configured, in rule and LLM mode alike.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.claims.risk_flags import RiskFlag
from app.db.models import Claim
from app.language.years import parse_years
from app.pipeline.routing import REGISTRY_AGENT
from app.pipeline.runtime import PipelineTools
from app.registries.evidence import RegistryContext, load_registry_context
from app.verification.investigators.registry_findings import SETTLED, registry_finding, tracker_risk_flags
from app.verification.records import ClaimState, FindingDraft, SpecialistTask
from app.verification.registries.reader import read_registries


def registry_claims(task: SpecialistTask) -> list[ClaimState]:
    """The task's claims marked for a registry check (the registry agent's tasks only)."""
    if task["agent"] != REGISTRY_AGENT:
        return []
    marked = {entry["claim_id"] for entry in task["routing"] if entry.get("registry_check")}
    return [claim for claim in task["claims"] if claim["claim_id"] in marked]


def without_registry_only(task: SpecialistTask) -> SpecialistTask:
    """The task as the agent's own investigator sees it: without the claims the agent was given only
    to check against registries."""
    if task["agent"] != REGISTRY_AGENT:
        return task
    only = {
        entry["claim_id"]
        for entry in task["routing"]
        if entry.get("registry_check") and REGISTRY_AGENT in entry.get("corroborating_agents", [])
    }
    if not only:
        return task
    return {
        **task,
        "claims": [claim for claim in task["claims"] if claim["claim_id"] not in only],
        "routing": [entry for entry in task["routing"] if entry["claim_id"] not in only],
    }


def report_year(pages: Sequence[tuple[int, str]], today: int | None = None) -> int | None:
    """The year the report is about: the year it names most often, not later than this year.

    Reports name their reporting year on nearly every page (running headers, tables' latest
    column); targets name later years and baselines earlier ones far less often. None when the
    report names no year.
    """
    latest = today or datetime.now(UTC).year
    counts = Counter(year for _, text in pages for year, _ in parse_years(text) if year <= latest)
    if not counts:
        return None
    return max(counts, key=lambda year: (counts[year], year))


async def registry_drafts(
    task: SpecialistTask, tools: PipelineTools, report_id: uuid.UUID
) -> list[FindingDraft]:
    """The findings of the registries for the task's marked claims ([] when none is marked)."""
    claims = registry_claims(task)
    if not claims:
        return []
    async with tools.session_factory() as session:
        context = await load_registry_context(session, report_id)
    year = report_year(await tools.report_pages())
    drafts: list[FindingDraft] = []
    flags: dict[str, list[RiskFlag]] = {}
    for claim in claims:
        readings = read_registries(
            claim["text"],
            company_name=task["company_name"],
            records=context.records,
            snapshots=context.snapshots,
            uncertain_kinds=context.uncertain_kinds,
            report_year=year,
        )
        if readings:
            drafts += [registry_finding(claim["claim_id"], reading) for reading in readings]
        else:
            drafts.append(_nothing_found(claim["claim_id"], context))
        raised = [flag for reading in readings for flag in tracker_risk_flags(reading)]
        if raised:
            flags[claim["claim_id"]] = raised
    if flags:
        async with tools.session_factory() as session, session.begin():
            await add_risk_flags(session, flags)
    await tools.think(
        f"Checked {len(claims)} claim(s) against {len(context.snapshots)} imported registry snapshot(s).",
        registry_findings=sum(draft.evidence_type != "none" for draft in drafts),
    )
    return drafts


async def add_risk_flags(session: AsyncSession, flags: Mapping[str, list[RiskFlag]]) -> None:
    """Add the registries' risk flags to the claims' stored ones (each flag once, so a re-run that
    reuses the claims adds nothing twice)."""
    ids = [uuid.UUID(claim_id) for claim_id in flags]
    rows = await session.execute(select(Claim.id, Claim.risk_flags).where(Claim.id.in_(ids)))
    stored: dict[uuid.UUID, list[dict[str, Any]]] = {claim_uuid: list(found) for claim_uuid, found in rows}
    for claim_id, raised in flags.items():
        current = list(stored.get(uuid.UUID(claim_id)) or [])
        added = [flag.to_dict() for flag in raised if flag.to_dict() not in current]
        if added:
            await session.execute(
                update(Claim).where(Claim.id == uuid.UUID(claim_id)).values(risk_flags=current + added)
            )


def _nothing_found(claim_id: str, context: RegistryContext) -> FindingDraft:
    consulted = ", ".join(context.consulted()) or "none imported"
    return FindingDraft(
        claim_id=claim_id,
        evidence_type="none",
        summary=f"No imported registry record bears on this claim (registries consulted: {consulted}; "
        f"{context.match_note()}).",
        supports_claim=None,
        confidence=None,
        method="rules",
        details={"registries_consulted": context.consulted(), **SETTLED},
    )
