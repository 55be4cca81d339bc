"""Claims and what the pipeline found about them: `Claim`, `Finding`, `Verdict`, `RoutingAssignment`.

Nested lists resolve through the request's DataLoaders (`schema.loaders`), so a page of claims
with their verdicts, findings and routing costs one query per kind, not one per claim. Findings,
verdicts and routing are those of the report's latest analysis run.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import strawberry
from strawberry import relay
from strawberry.scalars import JSON

from app.db.models import Claim as ClaimModel
from app.db.models import Finding as FindingModel
from app.db.models import RoutingAssignment as RoutingModel
from app.db.models import Verdict as VerdictModel
from schema.context import Context
from schema.types.claim_details import (
    IfrsParagraph,
    RiskFlag,
    VerdictIfrsMapping,
    ifrs_paragraph,
    risk_flags_of,
    verdict_ifrs_mapping,
)
from schema.types.claim_enums import (
    ClaimType,
    EvidenceKind,
    Priority,
    VerdictLabel,
    evidence_kind,
    specialist_argument,
)
from schema.types.claim_rows import (
    converted,
    current_verdict,
    findings_loader,
    report_global_id,
    resolve_scoped,
    verdicts_loader,
)
from schema.types.orm_rows import column_values, enum_member, member_or
from schema.types.verdict_sources import VerdictSource, resolve_deciding_sources

if TYPE_CHECKING:
    from schema.types.reports import Report

T = TypeVar("T")
R = TypeVar("R")

# The columns each `from_model` reads (`schema.types.orm_rows`: straight from the loaded row).
_CLAIM_COLUMNS = frozenset({
    "id", "text", "claim_type", "priority", "source_page", "also_on_pages", "source_context",
    "reasoning", "method", "created_at", "report_id", "ifrs_paragraphs", "risk_flags",
})  # fmt: skip
_FINDING_COLUMNS = frozenset({
    "id", "agent", "evidence_type", "evidence_kind", "summary", "details", "supports_claim",
    "confidence", "iteration", "method", "created_at", "claim_id",
})  # fmt: skip
_VERDICT_COLUMNS = frozenset({
    "id", "verdict", "reasoning", "confidence", "iteration", "is_final", "method", "details",
    "created_at", "claim_id", "ifrs_mapping",
})  # fmt: skip


@strawberry.type(description="A verifiable statement extracted from the report.")
class Claim(relay.Node):
    id: relay.NodeID[str]
    text: str = strawberry.field(description="The claim, verbatim from the report.")
    claim_type: ClaimType = strawberry.field(description="What kind of statement it is.")
    priority: Priority = strawberry.field(description="How much it matters.")
    source_page: int = strawberry.field(
        description="1-based page of the PDF the claim is on: the first page stating it."
    )
    also_on_pages: list[int] = strawberry.field(
        description="The other 1-based pages where the report states the same claim (the same sentence "
        "once case, whitespace, punctuation and footnote markers are set aside, or a near-identical one "
        "with the same figures), ascending; `sourcePage` is not among them. A statement repeated on "
        "several pages is one claim, checked once; empty when the report states it once."
    )
    source_context: str | None = strawberry.field(description="The text around the claim on its page.")
    ifrs_paragraphs: list[IfrsParagraph] = strawberry.field(
        resolver=lambda root: [ifrs_paragraph(item) for item in root.stored_paragraphs],
        description="IFRS paragraphs the claim maps to (preliminary, from extraction).",
    )
    reasoning: str | None = strawberry.field(description="Why the claim is worth checking.")
    method: str = strawberry.field(description="How it was extracted: llm or rules.")
    risk_flags: list[RiskFlag] = strawberry.field(
        resolver=lambda root: risk_flags_of(root.stored_risk_flags),
        description="Greenwashing risk flags found by rules (generic wording, offset-based neutrality, "
        "future commitments without a plan, self-declared labels); empty when none applies.",
    )
    created_at: datetime = strawberry.field(description="When the claim was extracted.")
    report_uuid: strawberry.Private[uuid.UUID]
    # The stored JSON, turned into GraphQL objects only when a query selects them.
    stored_paragraphs: strawberry.Private[list[dict[str, Any]]] = dataclasses.field(default_factory=list)
    stored_risk_flags: strawberry.Private[list[dict[str, Any]]] = dataclasses.field(default_factory=list)
    # Loaded for a whole page at once by `Report.claims` when selected (no per-claim awaits).
    prefetched_verdicts: strawberry.Private[list[VerdictModel] | None] = None
    prefetched_findings: strawberry.Private[list[FindingModel] | None] = None

    @classmethod
    def from_model(cls, row: ClaimModel) -> Claim:
        values = column_values(row, _CLAIM_COLUMNS)
        return cls(
            id=str(values["id"]),
            text=values["text"],
            claim_type=enum_member(ClaimType, values["claim_type"]),
            priority=enum_member(Priority, values["priority"]),
            source_page=values["source_page"],
            also_on_pages=list(values["also_on_pages"] or []),
            source_context=values["source_context"],
            reasoning=values["reasoning"],
            method=values["method"],
            created_at=values["created_at"],
            report_uuid=values["report_id"],
            stored_paragraphs=values["ifrs_paragraphs"] or [],
            stored_risk_flags=values["risk_flags"] or [],
        )

    @classmethod
    async def resolve_nodes(  # type: ignore[override]
        cls, *, info: strawberry.Info[Context], node_ids: Iterable[str], required: bool = False
    ) -> list[Claim | None]:
        return await resolve_scoped(
            info, list(node_ids), "Claim", ClaimModel, lambda row, _report: cls.from_model(row)
        )

    @strawberry.field(
        description="The claim's current verdict in the latest analysis: the final one once the run "
        "completes, else the latest pass's; null before the judge has ruled."
    )
    def verdict(self, info: strawberry.Info[Context]) -> Verdict | None:
        def convert(rows: list[VerdictModel]) -> Verdict | None:
            current = current_verdict(rows)
            return Verdict.from_model(current, self.report_uuid) if current else None

        return converted(self.prefetched_verdicts, info, verdicts_loader, self.id, convert)

    @strawberry.field(
        description="The claim's verdict in every pass of the latest analysis, first pass first."
    )
    def verdicts(self, info: strawberry.Info[Context]) -> list[Verdict]:
        def convert(rows: list[VerdictModel]) -> list[Verdict]:
            return [Verdict.from_model(row, self.report_uuid) for row in rows]

        return converted(self.prefetched_verdicts, info, verdicts_loader, self.id, convert)

    @strawberry.field(
        description="What the specialists found about the claim in the latest analysis, oldest first."
    )
    def findings(
        self,
        info: strawberry.Info[Context],
        agent: Annotated[
            str | None,
            strawberry.argument(
                description="Only this agent's: geography, legal, news_media, academic or data_metrics "
                "(another name is an INVALID_ARGUMENT error)."
            ),
        ] = None,
    ) -> list[Finding]:
        if agent is not None:
            specialist_argument(agent)

        def convert(rows: list[FindingModel]) -> list[Finding]:
            report_id = self.report_uuid
            return [Finding.from_model(row, report_id) for row in rows if agent is None or row.agent == agent]

        return converted(self.prefetched_findings, info, findings_loader, self.id, convert)

    @strawberry.field(description="Which agents the orchestrator sent the claim to, pass by pass.")
    async def routing(self, info: strawberry.Info[Context]) -> list[RoutingAssignment]:
        rows = await info.context.loaders.routing_by_claim.load(uuid.UUID(self.id))
        return [RoutingAssignment.from_model(row, self.report_uuid) for row in rows]

    @strawberry.field(description="The report the claim comes from.")
    async def report(
        self, info: strawberry.Info[Context]
    ) -> Annotated[Report, strawberry.lazy("schema.types.reports")]:
        from schema.types.reports import Report

        row = await info.context.loaders.report.load(self.report_uuid)
        if row is None:
            raise LookupError(f"report {self.report_uuid} of a visible claim is not visible")
        return Report.from_model(row)


@strawberry.type(description="Evidence one specialist found (or honestly did not find) about a claim.")
class Finding(relay.Node):
    id: relay.NodeID[str]
    agent: str = strawberry.field(description="geography, legal, news_media, academic or data_metrics.")
    evidence_type: str = strawberry.field(
        description="What kind of evidence, e.g. news_source, calculation, ifrs_compliance, none, error."
    )
    evidence_kind: EvidenceKind = strawberry.field(
        description="What the finding can prove: only INDEPENDENT evidence can verify a claim; INTERNAL can "
        "contradict it (the report disagrees with itself) but never verify it; DISCLOSURE (IFRS coverage) "
        "and CONTEXT (a place located, no imagery) never support or contradict a claim."
    )
    summary: str = strawberry.field(description="The finding in a sentence or two.")
    details: JSON = strawberry.field(description="Agent-specific details: sources, quotes, scores.")
    supports_claim: bool | None = strawberry.field(
        description="What the finding's source or check says of the claim: true supports, false "
        "contradicts (also a source too weak to contradict it on its own: the verdict says what "
        "counts), null takes no side."
    )
    confidence: float | None = strawberry.field(description="0–1, how sure the agent is.")
    iteration: int = strawberry.field(description="The pass (0 = first) that produced it.")
    method: str = strawberry.field(description="How it was produced: rules, llm, gazetteer, error, …")
    created_at: datetime = strawberry.field(description="When it was recorded.")
    claim_uuid: strawberry.Private[uuid.UUID | None]
    report_uuid: strawberry.Private[uuid.UUID]

    @classmethod
    def from_model(cls, row: FindingModel, report_id: uuid.UUID) -> Finding:
        values = column_values(row, _FINDING_COLUMNS)
        return cls(
            id=str(values["id"]),
            agent=values["agent"],
            evidence_type=values["evidence_type"],
            evidence_kind=member_or(EvidenceKind, values["evidence_kind"], evidence_kind),
            summary=values["summary"],
            details=cast(JSON, values["details"] or {}),
            supports_claim=values["supports_claim"],
            confidence=values["confidence"],
            iteration=values["iteration"],
            method=values["method"],
            created_at=values["created_at"],
            claim_uuid=values["claim_id"],
            report_uuid=report_id,
        )

    @classmethod
    async def resolve_nodes(  # type: ignore[override]
        cls, *, info: strawberry.Info[Context], node_ids: Iterable[str], required: bool = False
    ) -> list[Finding | None]:
        return await resolve_scoped(info, list(node_ids), "Finding", FindingModel, cls.from_model)

    @strawberry.field(description="The claim the finding is about.")
    async def claim(self, info: strawberry.Info[Context]) -> Claim | None:
        return await load_claim(info, self.claim_uuid)


@strawberry.type(description="The judge's verdict on a claim in one pass of an analysis.")
class Verdict(relay.Node):
    id: relay.NodeID[str]
    verdict: VerdictLabel = strawberry.field(
        description="VERIFIED: independent sources corroborate the claim (a Tier 1–2 source, or two "
        "independent publishers, whose quoted sentence was found in the source) and nothing contradicts it. "
        "CONTRADICTED: independent sources that reach the contradiction bar contradict it, or the report "
        "contradicts itself with certainty. UNVERIFIED: no independent evidence about the claim was found. "
        "INSUFFICIENT_EVIDENCE: some, but below the bar, or mixed. IFRS disclosure coverage and the "
        "report's agreement with itself never verify a claim."
    )
    reasoning: str = strawberry.field(
        description="Why, naming the deciding sources (publisher, tier, date, quote, address or "
        "report pages)."
    )
    deciding_sources: list[VerdictSource] = strawberry.field(
        resolver=resolve_deciding_sources,
        description="The sources the verdict rests on: the corroborating ones for VERIFIED, the "
        "contradicting ones (independent or the report's own pages) for CONTRADICTED, everything that "
        "bears on the claim for INSUFFICIENT_EVIDENCE, none for UNVERIFIED; each with the side it takes "
        "(`side`). The company's own channels never decide a verdict and are not listed (the reasoning "
        "names them).",
    )
    ifrs_mapping: list[VerdictIfrsMapping] = strawberry.field(
        resolver=lambda root: [verdict_ifrs_mapping(item) for item in root.stored_ifrs_mapping],
        description="The IFRS paragraphs the verdict speaks to, and what it means for each.",
    )
    confidence: float | None = strawberry.field(
        description="0–1, how strongly the deciding evidence holds the verdict; not a probability that "
        "the claim is true. VERIFIED and CONTRADICTED: 0.95 for a certain check of the report against "
        "itself, 0.8 for one deciding independent voice, plus 0.05 for each further agreeing voice (up to "
        "0.95), so more agreeing evidence never lowers it. UNVERIFIED and INSUFFICIENT_EVIDENCE: the "
        "judge's overall evidence score (weighted by agent and tier). An LLM review that changed the "
        "verdict gives its own number."
    )
    iteration: int = strawberry.field(description="The pass (0 = first) the verdict was issued in.")
    is_final: bool = strawberry.field(
        description="Whether this is the claim's final verdict of the run: no later pass judges the claim "
        "again. Stored verdicts are marked when the run completes (all false while it runs); "
        "`verdictIssued` streams it as the judge knows it when issuing the verdict."
    )
    method: str = strawberry.field(
        description="How it was reached: rules (the judge's rules, also when an LLM review confirmed them "
        "or was refused), or llm (an LLM review of conflicting evidence replaced the rules' verdict, within "
        "what the evidence permits; see `details.evaluation.llm_review`)."
    )
    details: JSON = strawberry.field(
        description="The evaluation behind it: four dimension scores, synthesis, and `grounding` (the "
        "evidence sorted by what it can prove), plus any LLM review."
    )
    created_at: datetime = strawberry.field(description="When it was issued.")
    report_id: strawberry.ID = strawberry.field(description="Global id of the report.")
    claim_uuid: strawberry.Private[uuid.UUID]
    stored_ifrs_mapping: strawberry.Private[list[dict[str, Any]]] = dataclasses.field(default_factory=list)

    @classmethod
    def from_model(cls, row: VerdictModel, report_id: uuid.UUID) -> Verdict:
        values = column_values(row, _VERDICT_COLUMNS)
        return cls(
            id=str(values["id"]),
            verdict=enum_member(VerdictLabel, values["verdict"]),
            reasoning=values["reasoning"],
            confidence=values["confidence"],
            iteration=values["iteration"],
            is_final=values["is_final"],
            method=values["method"],
            details=cast(JSON, values["details"] or {}),
            created_at=values["created_at"],
            report_id=report_global_id(report_id),
            claim_uuid=values["claim_id"],
            stored_ifrs_mapping=values["ifrs_mapping"] or [],
        )

    @classmethod
    async def resolve_nodes(  # type: ignore[override]
        cls, *, info: strawberry.Info[Context], node_ids: Iterable[str], required: bool = False
    ) -> list[Verdict | None]:
        return await resolve_scoped(info, list(node_ids), "Verdict", VerdictModel, cls.from_model)

    @strawberry.field(description="The claim the verdict is on.")
    async def claim(self, info: strawberry.Info[Context]) -> Claim:
        claim = await load_claim(info, self.claim_uuid)
        if claim is None:
            raise LookupError(f"claim {self.claim_uuid} of a visible verdict is not visible")
        return claim


@strawberry.type(description="The orchestrator's decision to send a claim to an agent in one pass.")
class RoutingAssignment:
    agent: str = strawberry.field(description="The specialist the claim went to.")
    iteration: int = strawberry.field(description="The pass (0 = first).")
    reasoning: str | None = strawberry.field(description="Why this agent.")
    method: str = strawberry.field(description="How it was decided: rules or llm.")
    claim_uuid: strawberry.Private[uuid.UUID]

    @classmethod
    def from_model(cls, row: RoutingModel, report_id: uuid.UUID) -> RoutingAssignment:
        return cls(
            agent=row.agent,
            iteration=row.iteration,
            reasoning=row.reasoning,
            method=row.method,
            claim_uuid=row.claim_id,
        )

    @strawberry.field(description="The claim routed.")
    async def claim(self, info: strawberry.Info[Context]) -> Claim | None:
        return await load_claim(info, self.claim_uuid)


async def load_claim(info: strawberry.Info[Context], claim_id: uuid.UUID | None) -> Claim | None:
    if claim_id is None:
        return None
    row = await info.context.loaders.claim.load(claim_id)
    return Claim.from_model(row) if row else None
